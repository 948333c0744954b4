// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// InterPodAffinity: PreFilter, AddPod / RemovePod and Filter.
#include "plugins/framework/slot_rewrite.hpp"
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"

#include <algorithm>

namespace tessera::plugins {

namespace inter_pod_affinity_detail {

// Adds `delta` at the node's value of `key`, if the node has the key; the
// filter maps keep only non-zero counts.
void add_at_node(topology_pair_counts& counts, const model::node& node,
                 model::symbol key, std::int64_t delta) {
  const model::symbol* value = node.labels.find(key);
  if (value != nullptr)
    counts.add(pack_pair(key.id(), value->id()), delta, true);
}

// Packs (key, the node's value of key) into `packed`; false when the node
// lacks the key.
bool node_value(const model::node& node, model::symbol key,
                std::uint64_t& packed) noexcept {
  const model::symbol* value = node.labels.find(key);
  if (value == nullptr)
    return false;
  packed = pack_pair(key.id(), value->id());
  return true;
}

} // namespace inter_pod_affinity_detail

pre_filter_result
inter_pod_affinity::pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const {
  using namespace inter_pod_affinity_detail;
  auto input = std::make_shared<filter_input>();
  input->required_affinity = resolve_required(p.affinity->pod, p, cluster);
  input->required_anti_affinity
    = resolve_required(p.affinity->pod_anti, p, cluster);
  // Without terms of its own, only existing pods' anti-affinity can reject
  // the pod; with no such pod in the cluster the Filter has nothing to do
  // (the merge skips it too when none of those pods' terms match).
  if (input->required_affinity.empty() && input->required_anti_affinity.empty()
      && cluster.pods_with_required_anti_affinity == 0)
    return {status::skip(), std::nullopt};
  if (const model::label_set* labels = cluster.namespace_labels(p.ns))
    input->namespace_labels = *labels;
  input->matches_own_affinity = matches_all(input->required_affinity, p);

  start_filter(state, std::move(input));
  return {};
}

status inter_pod_affinity::update_with_pod(cycle_state& state,
                                           const model::pod& to_schedule,
                                           const model::pod_core& changed,
                                           model::node_view node,
                                           std::int64_t multiplier) const {
  using namespace inter_pod_affinity_detail;
  const cycle_data* current = filter_data(state);
  if (current == nullptr)
    return missing_filter_data();
  const model::node* n = node.get_node();
  if (n == nullptr)
    return {};
  const filter_input& in = *current->filter;
  auto counts = std::make_shared<filter_counts>(*current->counts);

  // The changed pod's required anti-affinity terms that match the pod being
  // scheduled.
  if (changed.affinity->pod_anti)
    for (const auto& t : changed.affinity->pod_anti->required)
      if (term_matches(t, changed, to_schedule, in.namespace_labels)
          && n->labels.find(t.topology_key) != nullptr) {
        add_at_node(counts->existing_anti_affinity, *n, t.topology_key,
                    multiplier);
        if (std::find(counts->existing_keys.begin(),
                      counts->existing_keys.end(), t.topology_key)
            == counts->existing_keys.end())
          counts->existing_keys.push_back(t.topology_key);
      }
  // The pod being scheduled's terms that the changed pod matches.
  if (matches_all(in.required_affinity, changed))
    for (const auto& t : in.required_affinity)
      add_at_node(counts->affinity, *n, t.topology_key, multiplier);
  for (const auto& t : in.required_anti_affinity)
    if (t.matches(changed))
      add_at_node(counts->anti_affinity, *n, t.topology_key, multiplier);

  rewrite_slot<cycle_data>(
    state, slot(), [&](cycle_data& d) { d.counts = std::move(counts); });
  return {};
}

status inter_pod_affinity::filter(const cycle_state& state, const model::pod& p,
                                  model::node_view node) const {
  using namespace inter_pod_affinity_detail;
  (void)p;
  const model::node* n = node.get_node();
  if (n == nullptr)
    return status::make_error("node not found");
  const cycle_data* d = filter_data(state);
  if (d == nullptr)
    return missing_filter_data();
  const filter_input& in = *d->filter;
  const filter_counts& counts = *d->counts;

  // 1. The pod's affinity: every term's key on the node, and a matching
  // pod in each term's domain — unless no pod anywhere matches and the pod
  // matches its own terms (the first pod of a group).
  bool pods_exist = true;
  for (const auto& t : in.required_affinity) {
    std::uint64_t packed = 0;
    if (!node_value(*n, t.topology_key, packed))
      return {code::unschedulable_and_unresolvable, reason_affinity_};
    if (counts.affinity.get(packed) <= 0)
      pods_exist = false;
  }
  if (!pods_exist && !(counts.affinity.empty() && in.matches_own_affinity))
    return {code::unschedulable_and_unresolvable, reason_affinity_};

  // 2. The pod's anti-affinity: no matching pod in the node's domain of any
  // term whose key the node has.
  if (!counts.anti_affinity.empty())
    for (const auto& t : in.required_anti_affinity) {
      std::uint64_t packed = 0;
      if (node_value(*n, t.topology_key, packed)
          && counts.anti_affinity.get(packed) > 0)
        return {code::unschedulable, reason_anti_affinity_};
    }

  // 3. Existing pods' anti-affinity: no node label (key, value) where an
  // existing pod's term matches the pod. Only keys present in the map can
  // hit, so look those up instead of every node label.
  if (!counts.existing_anti_affinity.empty())
    for (model::symbol key : counts.existing_keys) {
      std::uint64_t packed = 0;
      if (node_value(*n, key, packed)
          && counts.existing_anti_affinity.get(packed) > 0)
        return {code::unschedulable, reason_existing_anti_affinity_};
    }
  return {};
}

} // namespace tessera::plugins
