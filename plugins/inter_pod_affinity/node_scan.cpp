// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// InterPodAffinity: what one node adds to the filter maps and the score map
// in a shard's scan, and what the coordinator makes of the shards' sums.
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"

#include <algorithm>

namespace tessera::plugins {

namespace inter_pod_affinity_detail {

using pair_map = topology_pair_counts::map_type;
using key_list = inter_pod_affinity::key_list;
using scan_sums = inter_pod_affinity::scan_sums;

void remember_key(key_list& keys, model::symbol key) {
  if (std::find(keys.begin(), keys.end(), key) == keys.end())
    keys.push_back(key);
}

// Adds `delta` at the node's value of `key`; false when the node lacks it.
bool bump(pair_map& m, key_list* keys, const model::node& n, model::symbol key,
          std::int64_t delta) {
  const model::symbol* value = n.labels.find(key);
  if (value == nullptr)
    return false;
  auto [it, inserted] = m.try_emplace(pack_pair(key.id(), value->id()), 0);
  it->second += delta;
  if (inserted && keys != nullptr)
    remember_key(*keys, key);
  return true;
}

void score_term(scan_sums& out, const model::node& n, model::symbol key,
                std::int64_t delta) {
  if (bump(out.scores, &out.score_keys, n, key, delta))
    out.scored = true;
}

// Upstream's processExistingPod: what one existing pod adds to the map.
void score_existing_pod(const inter_pod_affinity::score_input& in,
                        std::int32_t hard_weight, const model::pod& incoming,
                        const model::pod_core& existing, const model::node& n,
                        scan_sums& out) {
  for (const auto& t : in.preferred_affinity)
    if (t.matches(existing))
      score_term(out, n, t.topology_key, t.weight);
  for (const auto& t : in.preferred_anti_affinity)
    if (t.matches(existing))
      score_term(out, n, t.topology_key, -static_cast<std::int64_t>(t.weight));
  if (existing.affinity->pod) {
    if (hard_weight > 0)
      for (const auto& t : existing.affinity->pod->required)
        if (term_matches(t, existing, incoming, in.namespace_labels))
          score_term(out, n, t.topology_key, hard_weight);
    for (const auto& w : existing.affinity->pod->preferred)
      if (term_matches(w.term, existing, incoming, in.namespace_labels))
        score_term(out, n, w.term.topology_key, w.weight);
  }
  if (existing.affinity->pod_anti)
    for (const auto& w : existing.affinity->pod_anti->preferred)
      if (term_matches(w.term, existing, incoming, in.namespace_labels))
        score_term(out, n, w.term.topology_key,
                   -static_cast<std::int64_t>(w.weight));
}

} // namespace inter_pod_affinity_detail

void inter_pod_affinity::scan_sums::add(const scan_sums& other) {
  using namespace inter_pod_affinity_detail;
  add_counts(existing_anti_affinity, other.existing_anti_affinity);
  add_counts(affinity, other.affinity);
  add_counts(anti_affinity, other.anti_affinity);
  add_counts(scores, other.scores);
  for (model::symbol k : other.existing_keys)
    remember_key(existing_keys, k);
  for (model::symbol k : other.score_keys)
    remember_key(score_keys, k);
  scored = scored || other.scored;
}

void inter_pod_affinity::scan_filter_node(const filter_input& in,
                                          const model::pod& p,
                                          const model::node_info& ni,
                                          const model::node& n,
                                          scan_sums& out) const {
  using namespace inter_pod_affinity_detail;
  for (const auto& existing : ni.pods_with_required_anti_affinity()) {
    if (!existing->affinity->pod_anti)
      continue;
    for (const auto& t : existing->affinity->pod_anti->required)
      if (term_matches(t, *existing, p, in.namespace_labels))
        bump(out.existing_anti_affinity, &out.existing_keys, n, t.topology_key,
             1);
  }
  if (in.required_affinity.empty() && in.required_anti_affinity.empty())
    return;
  // The pods' digests, not the pods: the node's own memory only.
  for (const auto& existing : ni.pod_digests()) {
    const model::label_view labels = ni.labels_of(existing);
    if (!in.required_affinity.empty()
        && matches_all(in.required_affinity, labels, existing.ns))
      for (const auto& t : in.required_affinity)
        bump(out.affinity, nullptr, n, t.topology_key, 1);
    for (const auto& t : in.required_anti_affinity)
      if (t.matches(labels, existing.ns))
        bump(out.anti_affinity, nullptr, n, t.topology_key, 1);
  }
}

void inter_pod_affinity::scan_score_node(const score_input& in,
                                         const model::pod& p,
                                         const model::node_info& ni,
                                         const model::node& n,
                                         scan_sums& out) const {
  using namespace inter_pod_affinity_detail;
  if (n.labels.empty())
    return;
  const auto& pods = in.all_pods ? ni.pods() : ni.pods_with_affinity();
  for (const auto& existing : pods)
    score_existing_pod(in, args_.hard_pod_affinity_weight, p, *existing, n,
                       out);
}

void inter_pod_affinity::finish_filter(cycle_state& state, cycle_data& next,
                                       scan_sums& total) const {
  const filter_input& in = *next.filter;
  if (in.required_affinity.empty() && in.required_anti_affinity.empty()
      && total.existing_anti_affinity.empty())
    state.skip_filter.set(slot());
  auto counts = std::make_shared<filter_counts>();
  counts->existing_anti_affinity
    = topology_pair_counts(std::move(total.existing_anti_affinity));
  counts->affinity = topology_pair_counts(std::move(total.affinity));
  counts->anti_affinity = topology_pair_counts(std::move(total.anti_affinity));
  counts->existing_keys = std::move(total.existing_keys);
  next.counts = std::move(counts);
}

void inter_pod_affinity::finish_score(cycle_state& state, cycle_data& next,
                                      scan_sums& total) const {
  if (!total.scored)
    state.skip_score.set(slot());
  auto m = std::make_shared<score_map>();
  m->weights = std::move(total.scores);
  m->keys = std::move(total.score_keys);
  next.scores = std::move(m);
}

} // namespace tessera::plugins
