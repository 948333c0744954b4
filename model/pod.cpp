// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/pod.hpp"

#include "support/enum_text.hpp"

#include <algorithm>
#include <string_view>

namespace tessera::model {

namespace {

constexpr std::string_view any_ip = "0.0.0.0";
constexpr std::string_view default_protocol = "TCP";

// Which scoring defaults to apply to containers that lack a request.
struct scoring_defaults {
  bool cpu = false;
  bool memory = false;
};

// Which of a container's requests to fold: the desired ones (spec), or what
// the kubelet reports during an in-place resize.
enum class request_source : std::uint8_t { spec, allocated, actual };

const container_resources_status* status_of(const pod& p,
                                            const container& c) noexcept {
  for (const auto& s : p.container_resources)
    if (s.name == c.name)
      return &s;
  return nullptr;
}

resource_list with_defaults(resource_list r, bool has_cpu, bool has_memory,
                            scoring_defaults d) {
  if (d.cpu && !has_cpu)
    r.milli_cpu = saturating_add(r.milli_cpu, default_milli_cpu_request);
  if (d.memory && !has_memory)
    r.memory = saturating_add(r.memory, default_memory_request);
  return r;
}

// The actual requests fall back to the allocated ones, and both to the spec
// unless the resize is Infeasible (then the container counts only what the
// kubelet reports). A reported list has no "absent" marker: a zero cpu or
// memory there gets the scoring default.
resource_list container_request(const pod& p, const container& c,
                                scoring_defaults d, request_source src) {
  if (src != request_source::spec) {
    const container_resources_status* st = status_of(p, c);
    const std::optional<resource_list>* reported = nullptr;
    if (st != nullptr && src == request_source::actual && st->actual)
      reported = &st->actual;
    else if (st != nullptr && st->allocated)
      reported = &st->allocated;
    if (reported != nullptr)
      return with_defaults(**reported, (*reported)->milli_cpu != 0,
                           (*reported)->memory != 0, d);
    if (p.resize_infeasible)
      return {};
  }
  return with_defaults(c.requests, c.has_cpu_request, c.has_memory_request, d);
}

// Containers and init containers folded as the sidecar KEP describes:
// regular containers and sidecars run together for the pod's whole life; an
// ordinary init container runs alone beside the sidecars started before it;
// the pod needs the larger of the two.
resource_list aggregate_containers(const pod& p, scoring_defaults d,
                                   request_source src) {
  resource_list running;
  for (const auto& c : p.containers)
    running.add(container_request(p, c, d, src));

  resource_list sidecars;
  resource_list init_peak;
  for (const auto& c : p.init_containers) {
    auto own = container_request(p, c, d, src);
    if (c.restartable) {
      running.add(own);
      sidecars.add(own);
      init_peak.max_with(sidecars);
    } else {
      own.add(sidecars);
      init_peak.max_with(own);
    }
  }
  running.max_with(init_peak);
  return running;
}

bool is_hugepages(symbol name) noexcept {
  return name.view().starts_with(resource_names::hugepages_prefix);
}

// Pod-level requests count as set when they name a resource that pod-level
// resources support: cpu, memory or hugepages-*. A zero cpu or memory is
// read as "not given" (resource_list cannot tell the two apart; validation
// requires pod-level requests to cover the containers' sum, so a real pod
// with an explicit zero has zero container requests too).
bool has_pod_level_requests(const pod& p) noexcept {
  if (!p.pod_level_requests)
    return false;
  const auto& pl = *p.pod_level_requests;
  if (pl.milli_cpu != 0 || pl.memory != 0)
    return true;
  for (const auto& s : pl.scalars())
    if (is_hugepages(s.name))
      return true;
  return false;
}

void apply_pod_level(resource_list& total, const resource_list& pod_level) {
  if (pod_level.milli_cpu != 0)
    total.milli_cpu = pod_level.milli_cpu;
  if (pod_level.memory != 0)
    total.memory = pod_level.memory;
  for (const auto& s : pod_level.scalars())
    if (is_hugepages(s.name))
      total.set_scalar(s.name, s.value);
}

bool any_container(const pod& p, bool container::*flag) noexcept {
  for (const auto& c : p.containers)
    if (c.*flag)
      return true;
  for (const auto& c : p.init_containers)
    if (c.*flag)
      return true;
  return false;
}

// With pod-level requests, kube-scheduler only substitutes a default for a
// resource that nothing names: no container, no pod-level entry, no
// overhead.
scoring_defaults defaults_for(const pod& p) noexcept {
  if (!has_pod_level_requests(p))
    return {true, true};
  const auto& pl = *p.pod_level_requests;
  bool cpu_named = any_container(p, &container::has_cpu_request)
                   || pl.milli_cpu != 0 || p.overhead->milli_cpu != 0;
  bool memory_named = any_container(p, &container::has_memory_request)
                      || pl.memory != 0 || p.overhead->memory != 0;
  return {!cpu_named, !memory_named};
}

host_port with_defaults(host_port hp) {
  if (hp.ip.empty())
    hp.ip = symbol{any_ip};
  if (hp.protocol.empty())
    hp.protocol = symbol{default_protocol};
  return hp;
}

void collect_ports(const container& c, std::vector<host_port>& out) {
  for (const auto& hp : c.host_ports)
    if (hp.port > 0)
      out.push_back(with_defaults(hp));
}

bool has_terms(const std::optional<pod_affinity>& a) noexcept {
  return a && !a->empty();
}

// FNV-1a over every field of every toleration, in order. The cache compares
// it to see a change of a bound pod's tolerations; a collision only hides an
// event that no plugin's hint reads for bound pods.
std::uint64_t fingerprint(const std::vector<toleration>& tolerations) noexcept {
  std::uint64_t h = 14695981039346656037ull;
  auto mix = [&h](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  };
  mix(tolerations.size());
  for (const auto& t : tolerations) {
    mix(std::hash<symbol>{}(t.key));
    mix(static_cast<std::uint64_t>(t.oper));
    mix(std::hash<symbol>{}(t.value));
    mix(t.effect ? 1 + static_cast<std::uint64_t>(*t.effect) : 0);
    mix(t.toleration_seconds ? 1 : 0);
    mix(static_cast<std::uint64_t>(t.toleration_seconds.value_or(0)));
  }
  return h;
}

} // namespace

std::string_view to_string(pod_phase p) noexcept {
  static constexpr enum_names<5> names
    = {"Pending", "Running", "Succeeded", "Failed", "Unknown"};
  static_assert(all_named(names));
  return enum_text(p, names, "Unknown");
}

bool conflicts(const host_port& a, const host_port& b) noexcept {
  if (a.port <= 0 || a.port != b.port)
    return false;
  auto protocol_of = [](const host_port& hp) {
    return hp.protocol.empty() ? default_protocol : hp.protocol.view();
  };
  if (protocol_of(a) != protocol_of(b))
    return false;
  auto ip_of
    = [](const host_port& hp) { return hp.ip.empty() ? any_ip : hp.ip.view(); };
  auto ip_a = ip_of(a);
  auto ip_b = ip_of(b);
  return ip_a == ip_b || ip_a == any_ip || ip_b == any_ip;
}

resource_list compute_pod_requests(const pod& p, bool non_zero) {
  scoring_defaults d = non_zero ? defaults_for(p) : scoring_defaults{};
  auto total = aggregate_containers(p, d, request_source::spec);
  if (!p.container_resources.empty()) {
    // An in-place resize: the node must hold the pod whichever of the
    // desired, allocated and actual requests applies at the moment.
    auto allocated = aggregate_containers(p, d, request_source::allocated);
    auto actual = aggregate_containers(p, d, request_source::actual);
    if (p.resize_infeasible)
      total = allocated;
    total.max_with(allocated);
    total.max_with(actual);
  }
  if (has_pod_level_requests(p))
    apply_pod_level(total, *p.pod_level_requests);
  total.add(*p.overhead);
  return total;
}

std::string normalize_image_name(std::string_view image) {
  auto colon = image.rfind(':');
  auto slash = image.rfind('/');
  bool tagged = colon != std::string_view::npos
                && (slash == std::string_view::npos || colon > slash);
  std::string out{image};
  if (!tagged)
    out += ":latest";
  return out;
}

void pod::complete() {
  requests = compute_pod_requests(*this, false);
  non_zero_requests = compute_pod_requests(*this, true);

  // Sidecars hold their ports for the pod's whole life, so they count like
  // regular containers; ordinary init containers do not.
  host_ports.clear();
  for (const auto& c : init_containers)
    if (c.restartable)
      collect_ports(c, host_ports);
  for (const auto& c : containers)
    collect_ports(c, host_ports);

  images.clear();
  images.reserve(containers.size() + init_containers.size());
  for (const auto& c : containers)
    images.emplace_back(normalize_image_name(c.image));
  for (const auto& c : init_containers)
    images.emplace_back(normalize_image_name(c.image));

  has_pod_affinity_terms
    = has_terms(affinity->pod) || has_terms(affinity->pod_anti);
  has_required_anti_affinity
    = affinity->pod_anti && !affinity->pod_anti->required.empty();

  non_zero_milli_cpu = non_zero_requests.milli_cpu;
  non_zero_memory = non_zero_requests.memory;
  has_controller = std::any_of(owners.begin(), owners.end(),
                               [](const auto& o) { return o.controller; });
  tolerations_fingerprint = fingerprint(tolerations);
}

pod_ptr make_pod_stub(const pod_core& core) {
  auto out = std::make_shared<pod>();
  static_cast<pod_core&>(*out) = core;
  return out;
}

std::string pod_core::key() const {
  std::string out;
  out.reserve(ns.view().size() + 1 + name.size());
  out.append(ns.view());
  out += '/';
  out += name;
  return out;
}

bool pod_core::same_identity(const pod_core& other) const noexcept {
  // Preemption's dry runs remove pods they took from the node itself.
  if (this == &other)
    return true;
  if (!uid.empty() && !other.uid.empty())
    // From the end: generated UIDs often share long prefixes, and Filter
    // asks this of every nominated pod on every node it visits.
    return uid.size() == other.uid.size()
           && std::equal(uid.rbegin(), uid.rend(), other.uid.rbegin());
  return ns == other.ns && name == other.name;
}

} // namespace tessera::model
