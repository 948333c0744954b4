// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// InterPodAffinity: the node scan that builds the filter maps and the score
// map, per shard, and the merge of the shards' partials.
#include "plugins/framework/prefetch.hpp"
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"

#include <algorithm>

namespace tessera::plugins {

namespace inter_pod_affinity_detail {

using pair_map = topology_pair_counts::map_type;
using key_list = boost::container::small_vector<model::symbol, 4>;

// One shard's sums. Every map is keyed by (topology key, value).
struct affinity_scan_partial : scan_partial {
  pair_map existing_anti_affinity;
  pair_map affinity;
  pair_map anti_affinity;
  key_list existing_keys;
  pair_map scores;
  key_list score_keys;
  // Some term added to the score map (even if the sums cancel out).
  bool scored = false;
};

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

void scan_filter_node(const inter_pod_affinity::filter_input& in,
                      const model::pod& incoming, const model::node_info& ni,
                      const model::node& n, affinity_scan_partial& out) {
  for (const auto& existing : ni.pods_with_required_anti_affinity()) {
    if (!existing->affinity->pod_anti)
      continue;
    for (const auto& t : existing->affinity->pod_anti->required)
      if (term_matches(t, *existing, incoming, in.namespace_labels))
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

void score_term(affinity_scan_partial& out, const model::node& n,
                model::symbol key, std::int64_t delta) {
  if (bump(out.scores, &out.score_keys, n, key, delta))
    out.scored = true;
}

// Upstream's processExistingPod: what one existing pod adds to the map.
void score_existing_pod(const inter_pod_affinity::score_input& in,
                        std::int32_t hard_weight, const model::pod& incoming,
                        const model::pod& existing, const model::node& n,
                        affinity_scan_partial& out) {
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

void scan_score_node(const inter_pod_affinity::score_input& in,
                     std::int32_t hard_weight, const model::pod& incoming,
                     const model::node_info& ni, const model::node& n,
                     affinity_scan_partial& out) {
  if (n.labels.empty())
    return;
  const auto& pods = in.all_pods ? ni.pods() : ni.pods_with_affinity();
  for (const auto& existing : pods)
    score_existing_pod(in, hard_weight, incoming, *existing, n, out);
}

void add_into(pair_map& into, const pair_map& from) {
  for (const auto& [key, value] : from)
    into[key] += value;
}

} // namespace inter_pod_affinity_detail

bool inter_pod_affinity::filter_scan_wanted(
  const cycle_state& state) const noexcept {
  const cycle_data* d = data(state);
  return d != nullptr && d->filter && !state.skip_filter.test(slot());
}

bool inter_pod_affinity::score_scan_wanted(
  const cycle_state& state) const noexcept {
  const cycle_data* d = data(state);
  return d != nullptr && d->scoring && !state.skip_score.test(slot());
}

bool inter_pod_affinity::wants_scan(const cycle_state& state,
                                    const model::pod& p) const {
  (void)p;
  return filter_scan_wanted(state) || score_scan_wanted(state);
}

scan_partial_ptr
inter_pod_affinity::scan(const cycle_state& state, const model::pod& p,
                         std::span<const model::node_info_ptr> nodes) const {
  using namespace inter_pod_affinity_detail;
  auto out = std::make_unique<affinity_scan_partial>();
  const cycle_data* d = data(state);
  const bool filtering = filter_scan_wanted(state);
  const bool scoring = score_scan_wanted(state);
  node_prefetcher::scan(
    nodes, [&](const model::node_info& ni, const model::node& n) {
      if (filtering)
        scan_filter_node(*d->filter, p, ni, n, *out);
      if (scoring)
        scan_score_node(*d->scoring, args_.hard_pod_affinity_weight, p, ni, n,
                        *out);
    });
  return out;
}

status inter_pod_affinity::merge(cycle_state& state, const model::pod& p,
                                 std::vector<scan_partial_ptr> partials) const {
  using namespace inter_pod_affinity_detail;
  (void)p;
  const cycle_data* current = data(state);
  const bool filtering = filter_scan_wanted(state);
  const bool scoring = score_scan_wanted(state);
  if (current == nullptr || (!filtering && !scoring))
    return {};
  pair_map existing, affinity, anti, scores;
  key_list existing_keys;
  std::vector<model::symbol> score_keys;
  bool scored = false;
  for (const auto& base : partials) {
    const auto* part = dynamic_cast<const affinity_scan_partial*>(base.get());
    if (part == nullptr)
      return status::make_error("InterPodAffinity: unexpected scan partial");
    add_into(existing, part->existing_anti_affinity);
    add_into(affinity, part->affinity);
    add_into(anti, part->anti_affinity);
    add_into(scores, part->scores);
    for (model::symbol k : part->existing_keys)
      remember_key(existing_keys, k);
    for (model::symbol k : part->score_keys)
      if (std::find(score_keys.begin(), score_keys.end(), k)
          == score_keys.end())
        score_keys.push_back(k);
    scored = scored || part->scored;
  }

  auto next = std::make_shared<cycle_data>(*current);
  if (filtering) {
    const filter_input& in = *current->filter;
    if (in.required_affinity.empty() && in.required_anti_affinity.empty()
        && existing.empty())
      state.skip_filter.set(slot());
    auto counts = std::make_shared<filter_counts>();
    counts->existing_anti_affinity = topology_pair_counts(std::move(existing));
    counts->affinity = topology_pair_counts(std::move(affinity));
    counts->anti_affinity = topology_pair_counts(std::move(anti));
    counts->existing_keys = std::move(existing_keys);
    next->counts = std::move(counts);
  }
  if (scoring) {
    if (!scored)
      state.skip_score.set(slot());
    auto m = std::make_shared<score_map>();
    m->weights = std::move(scores);
    m->keys = std::move(score_keys);
    next->scores = std::move(m);
  }
  state.write(slot(), std::move(next));
  return {};
}

} // namespace tessera::plugins
