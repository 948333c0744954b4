// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/pipeline/cluster_gen.hpp"

#include "test/support/builders.hpp"

#include <cstdio>
#include <random>
#include <set>

namespace tessera::pipeline_test {

namespace {

class dice {
public:
  explicit dice(std::uint64_t seed) : rng_(seed) {
  }
  bool chance(double p) {
    if (p <= 0)
      return false;
    return std::uniform_real_distribution<double>(0, 1)(rng_) < p;
  }
  std::int64_t between(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_);
  }
  template <class T> const T& pick(const std::vector<T>& from) {
    return from[static_cast<std::size_t>(
      between(0, static_cast<std::int64_t>(from.size()) - 1))];
  }

private:
  std::mt19937_64 rng_;
};

std::string numbered(const char* prefix, std::size_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s-%05zu", prefix, i);
  return buf;
}

model::pod_ptr build_pod(const pod_spec& s) {
  auto b = test::make_pod(s.name);
  b.cpu(std::to_string(s.milli_cpu) + "m")
    .memory(std::to_string(s.memory_mi) + "Mi");
  if (s.gpus > 0)
    b.request(gpu_resource, std::to_string(s.gpus));
  if (s.host_port > 0)
    b.host_port(s.host_port);
  for (const auto& t : s.tolerations)
    b.toleration(t.key, t.value, t.effect);
  // One required term (terms are ORed; its requirements are ANDed).
  if (!s.tier_in.empty() || !s.name_in.empty()) {
    std::vector<model::node_selector_requirement> expressions, fields;
    if (!s.tier_in.empty())
      expressions.push_back(test::node_requirement("tier", "In", s.tier_in));
    if (!s.name_in.empty())
      fields.push_back(
        test::node_requirement("metadata.name", "In", s.name_in));
    b.required_node_term(test::node_term(expressions, fields));
  }
  if (s.needs_ssd)
    b.node_selector("disk", "ssd");
  if (!s.anti_label.empty())
    b.label("anti-group", s.anti_label);
  if (s.anti)
    b.required_anti_affinity("anti-group", s.anti->group, s.anti->topology_key);
  if (s.spread) {
    b.label("spread-group", s.spread->group);
    b.spread(s.spread->topology_key, s.spread->max_skew, "DoNotSchedule",
             {{"spread-group", s.spread->group}});
  }
  b.priority(s.priority);
  if (s.preempt_never)
    b.preemption_never();
  if (!s.node.empty())
    b.node(s.node).phase(model::pod_phase::running);
  for (const auto& g : s.gates)
    b.gate(g);
  std::string scratch = s.name + "-scratch";
  for (const auto& c : s.claims)
    if (!s.ephemeral || c != scratch)
      b.claim(c);
  if (s.actual_milli_cpu == 0 && !s.ephemeral)
    return b.build();
  auto p = std::make_shared<model::pod>(*b.build());
  if (s.ephemeral) {
    model::volume v;
    v.name = "scratch";
    v.type = "ephemeral";
    v.ephemeral = true;
    v.claim_name = scratch;
    p->volumes.push_back(std::move(v));
  }
  if (s.actual_milli_cpu == 0) {
    p->complete();
    return p;
  }
  model::container_resources_status reported;
  reported.name = p->containers.front().name;
  reported.actual = p->containers.front().requests;
  reported.actual->milli_cpu = s.actual_milli_cpu;
  reported.allocated = p->containers.front().requests;
  p->container_resources.push_back(std::move(reported));
  p->complete();
  return p;
}

model::node_ptr build_node(const node_spec& s) {
  auto b = test::make_node(s.name);
  b.cpu(std::to_string(s.milli_cpu) + "m")
    .memory(std::to_string(s.memory_mi) + "Mi")
    .pods(s.pods)
    .label("tier", s.tier);
  if (!s.zone.empty())
    b.zone(s.zone);
  if (s.ssd)
    b.label("disk", "ssd");
  if (s.gpus > 0)
    b.capacity(gpu_resource, std::to_string(s.gpus));
  for (const auto& t : s.taints)
    b.taint(t.key, t.value, t.effect);
  if (s.unschedulable)
    b.unschedulable();
  return b.build();
}

std::int64_t gibibytes(std::int64_t gi) {
  return gi << 30;
}

model::node_selector affinity_on(const char* key, const std::string& value) {
  model::node_selector sel;
  sel.terms.push_back(
    test::node_term({test::node_requirement(key, "In", {value})}, {}));
  return sel;
}

model::object build_class(const class_spec& s) {
  auto c = std::make_shared<model::storage_class>();
  c->name = s.name;
  c->provisioner = s.provisioner;
  c->binding = s.wait_for_first_consumer
                 ? model::binding_mode::wait_for_first_consumer
                 : model::binding_mode::immediate;
  if (!s.zones.empty()) {
    model::topology_selector_term term;
    term.match_label_expressions.push_back({zone_key, s.zones});
    c->allowed_topologies.push_back(std::move(term));
  }
  return c;
}

model::object build_volume(const volume_spec& s) {
  auto v = std::make_shared<model::persistent_volume>();
  v->name = s.name;
  v->uid = "uid-" + s.name;
  v->storage_class = s.storage_class;
  v->capacity_bytes = gibibytes(s.capacity_gi);
  v->access_modes = s.modes;
  if (!s.zone.empty()) {
    v->labels = test::make_labels({{zone_key, s.zone}});
    v->node_affinity = affinity_on(zone_key, s.zone);
  }
  if (!s.host.empty())
    v->node_affinity = affinity_on(hostname_key, s.host);
  if (!s.driver.empty()) {
    v->attach = {s.driver, s.name};
    v->source_type = "csi";
  } else {
    v->source_type = "local";
  }
  if (!s.claim.empty()) {
    v->claim_ref = model::claim_reference{model::symbol{"default"}, s.claim,
                                          "uid-" + s.claim};
    v->phase = model::volume_phase::bound;
  } else {
    v->phase = model::volume_phase::available;
  }
  return v;
}

model::object build_claim(const claim_spec& s) {
  auto c = std::make_shared<model::persistent_volume_claim>();
  c->ns = model::symbol{"default"};
  c->name = s.name;
  c->uid = "uid-" + s.name;
  c->storage_class = s.storage_class;
  c->access_modes = s.modes;
  c->request_bytes = gibibytes(s.request_gi);
  if (!s.volume.empty()) {
    c->volume_name = s.volume;
    c->bind_completed = true;
    c->phase = model::claim_phase::bound;
  }
  // The builders' pod uid (namespace default).
  if (!s.owner.empty())
    c->controller_uid = "uid-default-" + s.owner;
  return c;
}

model::object build_csi_node(const csi_node_spec& s) {
  auto c = std::make_shared<model::csi_node>();
  c->name = model::symbol{s.node};
  c->drivers.push_back({csi_driver, s.count});
  return c;
}

template <class T>
const T* find_named(const std::vector<T>& list, const std::string& name) {
  for (const auto& x : list)
    if (x.name == name)
      return &x;
  return nullptr;
}

// The storage pool (see cluster_gen.hpp); pending pods pick from its claims.
void generate_storage(const gen_options& o, dice& d, cluster_spec& c) {
  storage_spec& st = c.storage;
  std::vector<std::string> zones;
  for (std::size_t z = 0; z < o.zones; ++z)
    zones.push_back("zone-" + std::to_string(z));
  if (zones.empty())
    zones.push_back("zone-0");
  // The last zone is outside the zonal class's allowedTopologies.
  std::vector<std::string> allowed(zones.begin(),
                                   zones.end() - (zones.size() > 1 ? 1 : 0));
  st.classes.push_back({"local", no_provisioner, true, {}});
  st.classes.push_back({"zonal", csi_driver, true, allowed});
  st.classes.push_back({"immediate", csi_driver, false, {}});
  const std::size_t n = c.nodes.size();
  for (std::size_t i = 0; i < std::max<std::size_t>(2, n / 5); ++i)
    st.volumes.push_back({numbered("pv-local", i), "local", d.between(1, 4),
                          rwo_mode, d.pick(c.nodes).name, "", "", ""});
  for (std::size_t i = 0; i < std::max<std::size_t>(2, n / 5); ++i)
    st.volumes.push_back({numbered("pv-zonal", i), "zonal", d.between(1, 4),
                          static_cast<std::uint8_t>(
                            d.chance(0.3) ? rwo_mode | rwop_mode : rwo_mode),
                          "", d.pick(zones), csi_driver, ""});
  for (std::size_t i = 0; i < std::max<std::size_t>(2, n / 8); ++i) {
    std::uint8_t modes = d.chance(0.3) ? rwop_mode : rwo_mode;
    std::string claim = numbered("bound", i);
    std::string volume = numbered("pv-bound", i);
    st.volumes.push_back(
      {volume, "zonal", 2, modes, "", d.pick(zones), csi_driver, claim});
    st.claims.push_back({claim, "zonal", 1, modes, volume, ""});
  }
  double users = static_cast<double>(o.pending) * o.storage_pods;
  auto count = [&](double share) {
    return std::max<std::size_t>(1, static_cast<std::size_t>(users * share));
  };
  for (std::size_t i = 0; i < count(0.35); ++i)
    st.claims.push_back(
      {numbered("local", i), "local", d.between(1, 3), rwo_mode, "", ""});
  for (std::size_t i = 0; i < count(0.3); ++i)
    st.claims.push_back(
      {numbered("zonal", i), "zonal", d.between(1, 4), rwo_mode, "", ""});
  // Few ReadWriteOncePod claims, so several pending pods share each.
  for (std::size_t i = 0; i < count(0.05); ++i)
    st.claims.push_back(
      {numbered("rwop", i), "zonal", d.between(1, 2), rwop_mode, "", ""});
  st.claims.push_back({"immediate-0", "immediate", 1, rwo_mode, "", ""});
  for (const auto& node : c.nodes)
    if (d.chance(0.8))
      st.csi_nodes.push_back(
        {node.name, static_cast<std::int32_t>(d.between(1, 3))});
}

// One claim for a pending pod: local, zonal, bound, ReadWriteOncePod or
// (rarely) the unbound Immediate one.
std::string pick_claim(const storage_spec& st, dice& d) {
  auto r = d.between(0, 99);
  const char* prefix = r < 35   ? "local-"
                       : r < 65 ? "zonal-"
                       : r < 80 ? "bound-"
                       : r < 97 ? "rwop-"
                                : "immediate-";
  std::vector<std::string> names;
  for (const auto& c : st.claims)
    if (c.name.rfind(prefix, 0) == 0)
      names.push_back(c.name);
  return d.pick(names);
}

} // namespace

const class_spec* storage_spec::find_class(const std::string& name) const {
  return find_named(classes, name);
}
const volume_spec* storage_spec::find_volume(const std::string& name) const {
  return find_named(volumes, name);
}
const claim_spec* storage_spec::find_claim(const std::string& name) const {
  return find_named(claims, name);
}

std::string pod_key_of(const pod_spec& p) {
  return "default/" + p.name;
}

std::vector<model::object> cluster_spec::objects() const {
  std::vector<model::object> out;
  out.reserve(nodes.size() + bound.size() + pending.size());
  for (const auto& n : nodes)
    out.emplace_back(build_node(n));
  for (const auto& s : storage.classes)
    out.push_back(build_class(s));
  for (const auto& s : storage.volumes)
    out.push_back(build_volume(s));
  for (const auto& s : storage.claims)
    out.push_back(build_claim(s));
  for (const auto& s : storage.csi_nodes)
    out.push_back(build_csi_node(s));
  for (const auto& p : bound)
    out.emplace_back(build_pod(p));
  for (const auto& p : pending)
    out.emplace_back(build_pod(p));
  return out;
}

const node_spec* cluster_spec::find_node(const std::string& name) const {
  for (const auto& n : nodes)
    if (n.name == name)
      return &n;
  return nullptr;
}

cluster_spec generate_cluster(const gen_options& o, std::uint64_t seed) {
  dice d{seed};
  cluster_spec c;
  const std::vector<std::string> tiers{"gold", "silver", "bronze"};
  const std::vector<std::string> dedicated{"db", "batch"};
  const std::vector<std::string> effects{"NoSchedule", "NoExecute",
                                         "PreferNoSchedule"};
  const std::vector<std::int64_t> cores{2000, 4000, 8000};
  const std::vector<std::int64_t> memories{4096, 8192, 16384, 32768};
  const std::vector<std::int64_t> gpu_counts{1, 2, 4};
  const std::vector<std::int32_t> ports{8080, 8081, 9090};
  for (std::size_t i = 0; i < o.nodes; ++i) {
    node_spec n;
    n.name = numbered("node", i);
    n.milli_cpu = d.pick(cores);
    n.memory_mi = d.pick(memories);
    n.pods = d.between(o.min_pods, o.max_pods);
    if (!d.chance(o.zoneless) && o.zones > 0)
      n.zone = "zone-"
               + std::to_string(
                 d.between(0, static_cast<std::int64_t>(o.zones) - 1));
    n.tier = d.pick(tiers);
    n.ssd = d.chance(0.5);
    if (d.chance(o.tainted))
      n.taints.push_back({"dedicated", d.pick(dedicated), d.pick(effects)});
    n.unschedulable = d.chance(o.unschedulable_nodes);
    if (d.chance(o.gpu_nodes))
      n.gpus = d.pick(gpu_counts);
    c.nodes.push_back(std::move(n));
  }
  // Running pods: small, within half the node, ports unique per node. They
  // may carry an anti-affinity label (pending pods must avoid them) but
  // never a term or a spread label, so the initial state breaks no rule.
  std::size_t bound_index = 0;
  for (const auto& n : c.nodes) {
    if (o.max_bound_per_node == 0)
      break;
    auto count = d.between(0, static_cast<std::int64_t>(o.max_bound_per_node));
    std::int64_t cpu_left = n.milli_cpu / 2;
    std::int64_t mem_left = n.memory_mi / 2;
    std::set<std::int32_t> used_ports;
    for (std::int64_t k = 0; k < count && k + 1 < n.pods; ++k) {
      pod_spec p;
      p.name = numbered("running", bound_index++);
      p.node = n.name;
      p.milli_cpu = d.between(1, 10) * 50;
      p.memory_mi = d.between(1, 8) * 64;
      if (p.milli_cpu > cpu_left || p.memory_mi > mem_left)
        break;
      cpu_left -= p.milli_cpu;
      mem_left -= p.memory_mi;
      // Drawn only when asked for, so other clusters keep their seeds' shape.
      if (o.resizing > 0 && d.chance(o.resizing)) {
        std::int64_t extra = d.between(1, 4) * 50;
        if (extra <= cpu_left) {
          p.actual_milli_cpu = p.milli_cpu + extra;
          cpu_left -= extra;
        }
      }
      if (d.chance(o.host_ports / 2)) {
        std::int32_t port = d.pick(ports);
        if (used_ports.insert(port).second)
          p.host_port = port;
      }
      if (d.chance(o.anti_affinity / 2))
        p.anti_label = "a"
                       + std::to_string(d.between(
                         0, static_cast<std::int64_t>(o.anti_groups) - 1));
      if (o.priorities)
        p.priority = d.chance(0.5) ? 0 : 10;
      c.bound.push_back(std::move(p));
    }
  }
  if (o.storage_pods > 0)
    generate_storage(o, d, c);
  std::size_t copies_left = 0;
  pod_spec replica;
  for (std::size_t i = 0; i < o.pending; ++i) {
    if (copies_left > 0) {
      --copies_left;
      pod_spec copy = replica;
      copy.name = numbered("pod", i);
      c.pending.push_back(std::move(copy));
      continue;
    }
    pod_spec p;
    p.name = numbered("pod", i);
    p.milli_cpu = d.between(o.min_cpu / 50, o.max_cpu / 50) * 50;
    p.memory_mi = d.between(1, 64) * 64;
    if (d.chance(o.gpu_pods))
      p.gpus = d.between(1, 2);
    if (d.chance(o.host_ports))
      p.host_port = d.pick(ports);
    if (d.chance(o.tolerations)) {
      std::string effect = d.chance(0.5) ? "" : "NoSchedule";
      p.tolerations.push_back({"dedicated", d.pick(dedicated), effect});
    }
    bool spread = o.spread_groups > 0 && d.chance(o.spread);
    if (spread) {
      auto g = d.between(0, static_cast<std::int64_t>(o.spread_groups) - 1);
      spread_spec s;
      s.group = "s" + std::to_string(g);
      // Group 0 and 2 spread over zones, group 1 over hostnames.
      s.topology_key = g % 3 == 1 ? hostname_key : zone_key;
      s.max_skew = g % 3 == 2 ? 2 : 1;
      p.spread = s;
    } else {
      // Node constraints only outside spread groups (see the file comment).
      if (d.chance(o.node_affinity)) {
        p.tier_in.push_back(d.pick(tiers));
        if (d.chance(0.5))
          p.tier_in.push_back(d.pick(tiers));
      }
      p.needs_ssd = d.chance(o.node_selector);
      if (!c.nodes.empty() && d.chance(o.name_fields)) {
        auto k = d.between(1, 3);
        for (std::int64_t j = 0; j < k; ++j)
          p.name_in.push_back(d.pick(c.nodes).name);
      }
    }
    if (o.anti_groups > 0 && d.chance(o.anti_affinity)) {
      auto g = d.between(0, static_cast<std::int64_t>(o.anti_groups) - 1);
      p.anti_label = "a" + std::to_string(g);
      if (d.chance(0.7))
        p.anti = anti_affinity_spec{p.anti_label,
                                    g % 2 == 0 ? hostname_key : zone_key};
    }
    if (o.priorities) {
      auto r = d.between(0, 9);
      p.priority = r < 5 ? 0 : (r < 8 ? 100 : 1000);
      p.preempt_never = d.chance(o.preempt_never);
    }
    if (d.chance(o.gated))
      p.gates.push_back("example.com/hold");
    if (o.storage_pods > 0 && d.chance(o.storage_pods)) {
      p.claims.push_back(pick_claim(c.storage, d));
      if (d.chance(0.25)) {
        std::string second = pick_claim(c.storage, d);
        if (second != p.claims.front())
          p.claims.push_back(std::move(second));
      }
      if (d.chance(0.15)) {
        p.ephemeral = true;
        p.claims.push_back(p.name + "-scratch");
        c.storage.claims.push_back(
          {p.name + "-scratch", "zonal", 1, rwo_mode, "", p.name});
      }
    }
    if (o.max_replicas > 1 && !p.ephemeral) {
      copies_left = static_cast<std::size_t>(
        d.between(0, static_cast<std::int64_t>(o.max_replicas) - 1));
      replica = p;
    }
    c.pending.push_back(std::move(p));
  }
  return c;
}

} // namespace tessera::pipeline_test
