// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/pod_topology_spread/default_selector.hpp"

#include <algorithm>
#include <vector>

namespace tessera::plugins {

namespace {

// A map selector matches when the pod carries every one of its labels.
bool map_matches(const model::label_set& selector,
                 const model::label_set& labels) {
  return std::all_of(selector.begin(), selector.end(), [&](const auto& l) {
    const model::symbol* v = labels.find(l.key);
    return v != nullptr && *v == l.value;
  });
}

void merge_into(model::label_set& into, const model::label_set& from) {
  for (const auto& l : from)
    into.set(l.key, l.value);
}

model::label_selector as_selector(const model::label_set& labels) {
  std::vector<model::label_requirement> reqs;
  reqs.reserve(labels.size());
  // Built in place: moving a finished requirement moves its small_vector,
  // which GCC 12 misreads as an overread (-Wstringop-overread).
  for (const auto& l : labels) {
    auto& r = reqs.emplace_back();
    r.key = l.key;
    r.oper = model::label_requirement::op::in;
    r.values.push_back(l.value);
  }
  return model::label_selector::from_requirements(std::move(reqs));
}

const model::owner_reference* controller_of(const model::pod& p) {
  for (const auto& o : p.owners)
    if (o.controller)
      return &o;
  return nullptr;
}

} // namespace

model::label_selector default_selector(const model::pod& p,
                                       const workload_index& workloads) {
  model::label_set merged;
  if (auto it = workloads.services.find(p.ns); it != workloads.services.end())
    for (const auto& svc : it->second)
      // A Service without selector selects nothing; an empty one adds
      // nothing either.
      if (map_matches(svc->selector_map, p.labels))
        merge_into(merged, svc->selector_map);
  const model::owner_reference* owner = controller_of(p);
  if (owner == nullptr)
    return as_selector(merged);
  using model::workload_kind;
  if (owner->api_version == "v1" && owner->kind == "ReplicationController") {
    if (const auto* rc = workloads.controller(
          workload_kind::replication_controller, p.ns, owner->name))
      merge_into(merged, rc->selector_map);
    return as_selector(merged);
  }
  model::label_selector out = as_selector(merged);
  if (owner->api_version != "apps/v1")
    return out;
  const model::workload* set = nullptr;
  if (owner->kind == "ReplicaSet")
    set = workloads.controller(workload_kind::replica_set, p.ns, owner->name);
  else if (owner->kind == "StatefulSet")
    set = workloads.controller(workload_kind::stateful_set, p.ns, owner->name);
  // A nil selector has no requirements to add (it selects nothing).
  if (set != nullptr && !set->selector.is_nothing())
    for (const auto& r : set->selector.requirements())
      out.add(r);
  return out;
}

} // namespace tessera::plugins
