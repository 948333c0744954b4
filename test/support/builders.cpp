// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/support/builders.hpp"

#include "model/resource_list.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace tessera::test {

namespace {

using model::symbol;

model::symbol sym(std::string_view text) {
  return symbol{text};
}

model::taint_effect effect_of(std::string_view text) {
  auto e = model::parse_taint_effect(text);
  if (!e)
    builder_failure("unknown taint effect \"" + std::string{text}
                    + "\" (want NoSchedule, PreferNoSchedule or NoExecute)");
  return *e;
}

// Sets one resource of `list`, aborting for names the scheduler ignores.
void set_resource(model::resource_list& list, std::string_view resource,
                  std::string_view quantity) {
  auto amount = resource_amount(resource, quantity);
  if (!list.set(sym(resource), amount))
    builder_failure("resource \"" + std::string{resource}
                    + "\" is not accounted by the scheduler");
}

void mark_named(model::container& c, std::string_view resource) {
  if (resource == model::resource_names::cpu)
    c.has_cpu_request = true;
  if (resource == model::resource_names::memory)
    c.has_memory_request = true;
}

model::host_port make_host_port(std::int32_t port, std::string_view protocol,
                                std::string_view ip) {
  return model::host_port{sym(ip), sym(protocol), port};
}

model::pod_affinity& ensure(std::optional<model::pod_affinity>& a) {
  if (!a)
    a.emplace();
  return *a;
}

model::node_affinity& node_affinity_of(model::pod& p) {
  if (!p.affinity.edit().node)
    p.affinity.edit().node.emplace();
  return *p.affinity.edit().node;
}

} // namespace

void builder_failure(std::string_view message) {
  std::fprintf(stderr, "tessera test builder: %.*s\n",
               static_cast<int>(message.size()), message.data());
  std::fflush(stderr);
  std::abort();
}

model::quantity parse_quantity(std::string_view text) {
  auto q = model::quantity::parse(text);
  if (!q)
    builder_failure("bad quantity \"" + std::string{text}
                    + "\": " + q.err().message);
  return *q;
}

std::int64_t resource_amount(std::string_view resource,
                             std::string_view quantity) {
  auto q = parse_quantity(quantity);
  auto kind = model::classify_resource(resource);
  auto amount = kind == model::resource_kind::cpu ? q.milli_value() : q.value();
  if (!amount)
    builder_failure("quantity \"" + std::string{quantity} + "\" of "
                    + std::string{resource} + ": " + amount.err().message);
  return *amount;
}

model::resource_list make_resources(const resource_pairs& pairs) {
  model::resource_list out;
  for (const auto& [name, quantity] : pairs)
    set_resource(out, name, quantity);
  return out;
}

std::string describe(const model::resource_list& r) {
  std::string out;
  auto field = [&](std::string_view name, std::int64_t value,
                   std::string_view unit = "") {
    if (!out.empty())
      out += ' ';
    out.append(name);
    out += '=';
    out += std::to_string(value);
    out.append(unit);
  };
  if (r.milli_cpu != 0)
    field(model::resource_names::cpu, r.milli_cpu, "m");
  if (r.memory != 0)
    field(model::resource_names::memory, r.memory);
  if (r.ephemeral_storage != 0)
    field(model::resource_names::ephemeral_storage, r.ephemeral_storage);
  if (r.pods != 0)
    field(model::resource_names::pods, r.pods);
  for (const auto& s : r.scalars())
    field(s.name.view(), s.value);
  return out.empty() ? "{}" : out;
}

model::label_set make_labels(const label_pairs& pairs) {
  model::label_set out;
  for (const auto& [k, v] : pairs)
    out.set(sym(k), sym(v));
  return out;
}

model::label_selector match_labels(const label_pairs& pairs) {
  std::vector<model::label_requirement> reqs;
  for (const auto& [k, v] : pairs) {
    model::label_requirement r;
    r.key = sym(k);
    r.oper = model::label_requirement::op::in;
    r.values.push_back(sym(v));
    reqs.push_back(std::move(r));
  }
  return model::label_selector::from_requirements(std::move(reqs));
}

model::disruption_budget_ptr make_budget(const budget_spec& s) {
  model::disruption_budget b;
  b.ns = model::symbol{s.ns};
  b.name = "pdb";
  b.selector = s.nil_selector ? model::label_selector::nothing()
                              : match_labels(s.labels);
  b.disruptions_allowed = s.allowed;
  b.disrupted_pods = s.disrupted;
  b.min_available = s.min_available;
  b.max_unavailable = s.max_unavailable;
  return std::make_shared<const model::disruption_budget>(std::move(b));
}

model::label_selector parse_selector(std::string_view text) {
  auto s = model::label_selector::parse(text);
  if (!s)
    builder_failure("bad label selector \"" + std::string{text}
                    + "\": " + s.err().message);
  return *s;
}

model::node_selector_requirement
node_requirement(std::string_view key, std::string_view op,
                 const std::vector<std::string>& values) {
  using o = model::node_selector_requirement::op;
  model::node_selector_requirement r;
  r.key = sym(key);
  if (op == "In")
    r.oper = o::in;
  else if (op == "NotIn")
    r.oper = o::not_in;
  else if (op == "Exists")
    r.oper = o::exists;
  else if (op == "DoesNotExist")
    r.oper = o::does_not_exist;
  else if (op == "Gt")
    r.oper = o::gt;
  else if (op == "Lt")
    r.oper = o::lt;
  else
    builder_failure("unknown node selector operator \"" + std::string{op}
                    + "\"");
  for (const auto& v : values)
    r.values.push_back(sym(v));
  if ((r.oper == o::gt || r.oper == o::lt) && values.size() != 1)
    builder_failure("Gt / Lt take exactly one value");
  r.check_usable();
  return r;
}

model::node_selector_requirement name_field(std::string_view op,
                                            std::string_view node_name) {
  auto r = node_requirement("metadata.name", op, {std::string{node_name}});
  if (r.oper != model::node_selector_requirement::op::in
      && r.oper != model::node_selector_requirement::op::not_in)
    builder_failure("matchFields support only In and NotIn");
  return r;
}

model::node_selector_term
node_term(std::vector<model::node_selector_requirement> expressions,
          std::vector<model::node_selector_requirement> fields) {
  model::node_selector_term t;
  t.match_expressions = std::move(expressions);
  t.match_fields = std::move(fields);
  return t;
}

model::pod_affinity_term
affinity_term(const label_pairs& labels, std::string_view topology_key,
              const std::vector<std::string>& namespaces) {
  model::pod_affinity_term t;
  t.selector = match_labels(labels);
  t.topology_key = sym(topology_key);
  for (const auto& n : namespaces)
    t.namespaces.push_back(sym(n));
  return t;
}

// ---------------------------------------------------------------------------
// container_builder

container_builder::container_builder(std::string name) {
  c_.name = std::move(name);
}

container_builder& container_builder::image(std::string_view ref) {
  c_.image = std::string{ref};
  return *this;
}

container_builder& container_builder::cpu(std::string_view quantity) {
  return request(model::resource_names::cpu, quantity);
}

container_builder& container_builder::memory(std::string_view quantity) {
  return request(model::resource_names::memory, quantity);
}

container_builder&
container_builder::ephemeral_storage(std::string_view quantity) {
  return request(model::resource_names::ephemeral_storage, quantity);
}

container_builder& container_builder::request(std::string_view resource,
                                              std::string_view quantity) {
  set_resource(c_.requests, resource, quantity);
  mark_named(c_, resource);
  return *this;
}

container_builder& container_builder::host_port(std::int32_t port,
                                                std::string_view protocol,
                                                std::string_view ip) {
  c_.host_ports.push_back(make_host_port(port, protocol, ip));
  return *this;
}

container_builder& container_builder::restartable(bool value) {
  c_.restartable = value;
  return *this;
}

container_builder& container_builder::restart_all_containers(bool value) {
  c_.restarts_all_containers = value;
  return *this;
}

model::container container_builder::build() const {
  return c_;
}

container_builder make_container(std::string name) {
  return container_builder{std::move(name)};
}

// ---------------------------------------------------------------------------
// pod_builder

pod_builder::pod_builder(std::string name) {
  pod_.name = std::move(name);
  pod_.ns = sym("default");
  pod_.scheduler_name = sym("default-scheduler");
  main_.name = "main";
}

pod_builder& pod_builder::ns(std::string_view name) {
  pod_.ns = sym(name);
  return *this;
}

pod_builder& pod_builder::uid(std::string value) {
  pod_.uid = std::move(value);
  uid_set_ = true;
  return *this;
}

pod_builder& pod_builder::label(std::string_view key, std::string_view value) {
  pod_.labels.set(sym(key), sym(value));
  return *this;
}

pod_builder& pod_builder::resource_version(std::string value) {
  pod_.resource_version = std::move(value);
  return *this;
}

pod_builder& pod_builder::created(std::int64_t unix_seconds) {
  pod_.creation_unix = unix_seconds;
  return *this;
}

pod_builder& pod_builder::owner(std::string kind, std::string name) {
  model::owner_reference o;
  // The group each controller kind lives in, as the API server writes it.
  if (kind == "ReplicaSet" || kind == "StatefulSet" || kind == "DaemonSet"
      || kind == "Deployment")
    o.api_version = "apps/v1";
  else if (kind == "Job")
    o.api_version = "batch/v1";
  else
    o.api_version = "v1";
  o.kind = std::move(kind);
  o.name = std::move(name);
  o.uid = "uid-" + o.kind + "-" + o.name;
  o.controller = true;
  pod_.owners.push_back(std::move(o));
  return *this;
}

pod_builder& pod_builder::deleting() {
  pod_.deleting = true;
  return *this;
}

pod_builder& pod_builder::cpu(std::string_view quantity) {
  return request(model::resource_names::cpu, quantity);
}

pod_builder& pod_builder::memory(std::string_view quantity) {
  return request(model::resource_names::memory, quantity);
}

pod_builder& pod_builder::ephemeral_storage(std::string_view quantity) {
  return request(model::resource_names::ephemeral_storage, quantity);
}

pod_builder& pod_builder::request(std::string_view resource,
                                  std::string_view quantity) {
  set_resource(main_.requests, resource, quantity);
  mark_named(main_, resource);
  main_used_ = true;
  return *this;
}

pod_builder& pod_builder::host_port(std::int32_t port,
                                    std::string_view protocol,
                                    std::string_view ip) {
  main_.host_ports.push_back(make_host_port(port, protocol, ip));
  main_used_ = true;
  return *this;
}

pod_builder& pod_builder::image(std::string_view ref) {
  main_.image = std::string{ref};
  main_used_ = true;
  return *this;
}

pod_builder& pod_builder::container(const container_builder& c) {
  extra_containers_.push_back(c.build());
  return *this;
}

pod_builder& pod_builder::init_container(const container_builder& c) {
  pod_.init_containers.push_back(c.build());
  return *this;
}

pod_builder& pod_builder::sidecar(const container_builder& c) {
  auto built = c.build();
  built.restartable = true;
  pod_.init_containers.push_back(std::move(built));
  return *this;
}

pod_builder& pod_builder::overhead(std::string_view resource,
                                   std::string_view quantity) {
  set_resource(pod_.overhead.edit(), resource, quantity);
  return *this;
}

pod_builder& pod_builder::pod_request(std::string_view resource,
                                      std::string_view quantity) {
  if (!pod_.pod_level_requests)
    pod_.pod_level_requests.emplace();
  set_resource(*pod_.pod_level_requests, resource, quantity);
  return *this;
}

pod_builder& pod_builder::host_network(bool value) {
  pod_.host_network = value;
  return *this;
}

pod_builder& pod_builder::host_users(bool value) {
  pod_.host_users = value;
  return *this;
}

pod_builder& pod_builder::claim(std::string claim_name) {
  model::volume v;
  v.name = "vol-" + claim_name;
  v.type = "persistentVolumeClaim";
  v.claim_name = std::move(claim_name);
  pod_.volumes.push_back(std::move(v));
  return *this;
}

pod_builder& pod_builder::resource_claim(std::string name, std::string source,
                                         bool from_template) {
  model::pod_resource_claim c;
  c.name = std::move(name);
  (from_template ? c.template_name : c.claim_name) = std::move(source);
  pod_.resource_claims.push_back(std::move(c));
  return *this;
}

pod_builder& pod_builder::node(std::string_view name) {
  pod_.node_name = sym(name);
  return *this;
}

pod_builder& pod_builder::nominated_node(std::string_view name) {
  pod_.nominated_node_name = sym(name);
  return *this;
}

pod_builder& pod_builder::scheduler_name(std::string_view name) {
  pod_.scheduler_name = sym(name);
  return *this;
}

pod_builder& pod_builder::priority(std::int32_t value) {
  pod_.priority = value;
  return *this;
}

pod_builder& pod_builder::priority_class(std::string name) {
  pod_.priority_class_name = std::move(name);
  return *this;
}

pod_builder& pod_builder::preemption_never() {
  pod_.preemption = model::preemption_policy::never;
  return *this;
}

pod_builder& pod_builder::gate(std::string name) {
  pod_.scheduling_gates.push_back(std::move(name));
  return *this;
}

pod_builder& pod_builder::phase(model::pod_phase value) {
  pod_.phase = value;
  return *this;
}

pod_builder& pod_builder::started(std::int64_t unix_seconds) {
  pod_.start_unix = unix_seconds;
  return *this;
}

pod_builder& pod_builder::node_selector(std::string_view key,
                                        std::string_view value) {
  pod_.node_selector.set(sym(key), sym(value));
  return *this;
}

pod_builder& pod_builder::toleration(std::string_view key,
                                     std::string_view value,
                                     std::string_view effect) {
  model::toleration t;
  t.key = sym(key);
  t.oper = model::toleration::op::equal;
  t.value = sym(value);
  if (!effect.empty())
    t.effect = effect_of(effect);
  return toleration(t);
}

pod_builder& pod_builder::toleration_exists(std::string_view key,
                                            std::string_view effect) {
  model::toleration t;
  t.key = sym(key);
  t.oper = model::toleration::op::exists;
  if (!effect.empty())
    t.effect = effect_of(effect);
  return toleration(t);
}

pod_builder& pod_builder::toleration(const model::toleration& t) {
  pod_.tolerations.push_back(t);
  return *this;
}

pod_builder&
pod_builder::required_node_affinity(std::string_view key, std::string_view op,
                                    const std::vector<std::string>& values) {
  return required_node_term(node_term({node_requirement(key, op, values)}));
}

pod_builder& pod_builder::required_node_term(model::node_selector_term term) {
  auto& na = node_affinity_of(pod_);
  if (!na.required)
    na.required.emplace();
  na.required->terms.push_back(std::move(term));
  return *this;
}

pod_builder&
pod_builder::preferred_node_affinity(std::int32_t weight, std::string_view key,
                                     std::string_view op,
                                     const std::vector<std::string>& values) {
  return preferred_node_term(weight,
                             node_term({node_requirement(key, op, values)}));
}

pod_builder& pod_builder::preferred_node_term(std::int32_t weight,
                                              model::node_selector_term term) {
  node_affinity_of(pod_).preferred.push_back(
    model::preferred_scheduling_term{weight, std::move(term)});
  return *this;
}

pod_builder& pod_builder::required_affinity(std::string_view key,
                                            std::string_view value,
                                            std::string_view topology_key) {
  return required_affinity_term(
    affinity_term({{std::string{key}, std::string{value}}}, topology_key));
}

pod_builder& pod_builder::required_anti_affinity(
  std::string_view key, std::string_view value, std::string_view topology_key) {
  return required_anti_affinity_term(
    affinity_term({{std::string{key}, std::string{value}}}, topology_key));
}

pod_builder& pod_builder::preferred_affinity(std::int32_t weight,
                                             std::string_view key,
                                             std::string_view value,
                                             std::string_view topology_key) {
  return preferred_affinity_term(
    weight,
    affinity_term({{std::string{key}, std::string{value}}}, topology_key));
}

pod_builder&
pod_builder::preferred_anti_affinity(std::int32_t weight, std::string_view key,
                                     std::string_view value,
                                     std::string_view topology_key) {
  return preferred_anti_affinity_term(
    weight,
    affinity_term({{std::string{key}, std::string{value}}}, topology_key));
}

pod_builder&
pod_builder::required_affinity_term(model::pod_affinity_term term) {
  ensure(pod_.affinity.edit().pod).required.push_back(std::move(term));
  return *this;
}

pod_builder&
pod_builder::required_anti_affinity_term(model::pod_affinity_term term) {
  ensure(pod_.affinity.edit().pod_anti).required.push_back(std::move(term));
  return *this;
}

pod_builder&
pod_builder::preferred_affinity_term(std::int32_t weight,
                                     model::pod_affinity_term term) {
  ensure(pod_.affinity.edit().pod)
    .preferred.push_back(
      model::weighted_pod_affinity_term{weight, std::move(term)});
  return *this;
}

pod_builder&
pod_builder::preferred_anti_affinity_term(std::int32_t weight,
                                          model::pod_affinity_term term) {
  ensure(pod_.affinity.edit().pod_anti)
    .preferred.push_back(
      model::weighted_pod_affinity_term{weight, std::move(term)});
  return *this;
}

pod_builder& pod_builder::spread(std::string_view topology_key,
                                 std::int32_t max_skew, std::string_view when,
                                 const label_pairs& labels) {
  using action = model::topology_spread_constraint::when_unsatisfiable;
  model::topology_spread_constraint c;
  c.topology_key = sym(topology_key);
  c.max_skew = max_skew;
  if (when == "DoNotSchedule")
    c.action = action::do_not_schedule;
  else if (when == "ScheduleAnyway")
    c.action = action::schedule_anyway;
  else
    builder_failure("unknown whenUnsatisfiable \"" + std::string{when}
                    + "\" (want DoNotSchedule or ScheduleAnyway)");
  c.selector = match_labels(labels);
  return spread(std::move(c));
}

pod_builder& pod_builder::spread(model::topology_spread_constraint c) {
  pod_.topology_spread_constraints.push_back(std::move(c));
  return *this;
}

model::pod pod_builder::build_value() const {
  model::pod p = pod_;
  if (!uid_set_)
    p.uid = "uid-" + p.ns.str() + "-" + p.name;
  p.containers.clear();
  if (main_used_ || extra_containers_.empty())
    p.containers.push_back(main_);
  p.containers.insert(p.containers.end(), extra_containers_.begin(),
                      extra_containers_.end());
  p.complete();
  return p;
}

model::pod_ptr pod_builder::build() const {
  return std::make_shared<const model::pod>(build_value());
}

pod_builder make_pod(std::string name) {
  return pod_builder{std::move(name)};
}

// ---------------------------------------------------------------------------
// node_builder

node_builder::node_builder(std::string_view name) {
  node_.name = sym(name);
  node_.labels.set(sym(model::node_labels::hostname), sym(name));
}

node_builder& node_builder::cpu(std::string_view quantity) {
  return capacity(model::resource_names::cpu, quantity);
}

node_builder& node_builder::memory(std::string_view quantity) {
  return capacity(model::resource_names::memory, quantity);
}

node_builder& node_builder::ephemeral_storage(std::string_view quantity) {
  return capacity(model::resource_names::ephemeral_storage, quantity);
}

node_builder& node_builder::pods(std::int64_t count) {
  node_.capacity.pods = count;
  return *this;
}

node_builder& node_builder::capacity(std::string_view resource,
                                     std::string_view quantity) {
  set_resource(node_.capacity, resource, quantity);
  return *this;
}

node_builder& node_builder::allocatable(std::string_view resource,
                                        std::string_view quantity) {
  auto amount = resource_amount(resource, quantity);
  if (model::classify_resource(resource) == model::resource_kind::ignored)
    builder_failure("resource \"" + std::string{resource}
                    + "\" is not accounted by the scheduler");
  allocatable_overrides_.emplace_back(sym(resource), amount);
  return *this;
}

node_builder& node_builder::label(std::string_view key,
                                  std::string_view value) {
  node_.labels.set(sym(key), sym(value));
  return *this;
}

node_builder& node_builder::zone(std::string_view value) {
  return label(model::node_labels::zone, value);
}

node_builder& node_builder::region(std::string_view value) {
  return label(model::node_labels::region, value);
}

node_builder& node_builder::taint(std::string_view key, std::string_view value,
                                  std::string_view effect) {
  node_.taints.push_back(model::taint{sym(key), sym(value), effect_of(effect)});
  return *this;
}

node_builder& node_builder::unschedulable(bool value) {
  node_.unschedulable = value;
  return *this;
}

node_builder& node_builder::image(const std::vector<std::string>& names,
                                  std::int64_t size_bytes) {
  model::node_image img;
  for (const auto& n : names)
    img.names.push_back(sym(model::normalize_image_name(n)));
  img.size_bytes = size_bytes;
  node_.images.push_back(std::move(img));
  return *this;
}

node_builder& node_builder::condition(std::string_view type,
                                      std::string_view status) {
  node_.conditions.push_back(model::node_condition{sym(type), sym(status)});
  return *this;
}

node_builder& node_builder::declared_feature(std::string_view name) {
  auto& features = node_.declared_features;
  const model::symbol feature = sym(name);
  auto at = std::lower_bound(features.begin(), features.end(), feature);
  if (at == features.end() || *at != feature)
    features.insert(at, feature);
  return *this;
}

node_builder& node_builder::uid(std::string value) {
  node_.uid = std::move(value);
  return *this;
}

node_builder& node_builder::created(std::int64_t unix_seconds) {
  node_.creation_unix = unix_seconds;
  return *this;
}

model::node node_builder::build_value() const {
  model::node n = node_;
  n.allocatable = n.capacity;
  for (const auto& [name, amount] : allocatable_overrides_)
    n.allocatable.set(name, amount);
  return n;
}

model::node_ptr node_builder::build() const {
  return std::make_shared<const model::node>(build_value());
}

node_builder make_node(std::string_view name) {
  return node_builder{name};
}

// ---------------------------------------------------------------------------
// node_info and cluster objects

model::node_info make_node_info(model::node_ptr node,
                                const std::vector<model::pod_ptr>& pods) {
  model::node_info info{std::move(node)};
  for (const auto& p : pods)
    info.add_pod(p);
  return info;
}

model::node_info_ptr
make_node_info_ptr(model::node_ptr node,
                   const std::vector<model::pod_ptr>& pods) {
  return std::make_shared<const model::node_info>(
    make_node_info(std::move(node), pods));
}

std::vector<std::string>
node_names(const std::vector<model::node_info_ptr>& nodes) {
  std::vector<std::string> out;
  out.reserve(nodes.size());
  for (const auto& n : nodes)
    out.push_back(n->name().str());
  return out;
}

model::namespace_ptr make_namespace(std::string_view name,
                                    const label_pairs& labels) {
  auto ns = std::make_shared<model::namespace_info>();
  ns->name = sym(name);
  ns->uid = "uid-namespace-" + std::string{name};
  ns->labels = make_labels(labels);
  return ns;
}

model::priority_class_ptr
make_priority_class(std::string name, std::int32_t value, bool global_default,
                    model::preemption_policy preemption) {
  auto pc = std::make_shared<model::priority_class>();
  pc->name = std::move(name);
  pc->value = value;
  pc->global_default = global_default;
  pc->preemption = preemption;
  return pc;
}

} // namespace tessera::test
