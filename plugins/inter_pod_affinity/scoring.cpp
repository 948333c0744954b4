// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// InterPodAffinity: PreScore, Score and NormalizeScore.
#include "plugins/framework/normalize.hpp"
#include "plugins/framework/slot_rewrite.hpp"
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"

#include <limits>

namespace tessera::plugins {

namespace inter_pod_affinity_detail {

bool has_preferred(const std::optional<model::pod_affinity>& a) noexcept {
  return a && !a->preferred.empty();
}

} // namespace inter_pod_affinity_detail

status inter_pod_affinity::pre_score(cycle_state& state, const model::pod& p,
                                     const cluster_context& cluster) const {
  using namespace inter_pod_affinity_detail;
  const bool has_constraints
    = has_preferred(p.affinity->pod) || has_preferred(p.affinity->pod_anti);
  if (args_.ignore_preferred_terms_of_existing_pods && !has_constraints)
    return status::skip();
  // Without preferred terms of its own only existing pods' terms can score;
  // with no such pod in the cluster nothing would be accumulated.
  if (!has_constraints && cluster.pods_with_affinity == 0)
    return status::skip();
  auto input = std::make_shared<score_input>();
  input->all_pods = has_constraints;
  input->preferred_affinity = resolve_preferred(p.affinity->pod, p, cluster);
  input->preferred_anti_affinity
    = resolve_preferred(p.affinity->pod_anti, p, cluster);
  if (const model::label_set* labels = cluster.namespace_labels(p.ns))
    input->namespace_labels = *labels;

  rewrite_slot<cycle_data>(state, slot(), [&](cycle_data& d) {
    d.scoring = std::move(input);
    d.scores.reset();
  });
  return {};
}

std::int64_t inter_pod_affinity::score(const cycle_state& state,
                                       const model::pod& p,
                                       const model::node_info& node) const {
  (void)p;
  const model::node* n = node.get_node();
  const cycle_data* d = data(state);
  if (n == nullptr || d == nullptr || !d->scores)
    return 0;
  const score_map& m = *d->scores;
  std::int64_t total = 0;
  for (model::symbol key : m.keys) {
    const model::symbol* value = n->labels.find(key);
    if (value == nullptr)
      continue;
    auto it = m.weights.find(pack_pair(key.id(), value->id()));
    if (it != m.weights.end())
      total += it->second;
  }
  return total;
}

status
inter_pod_affinity::normalize_scores(const cycle_state& state,
                                     const model::pod& p,
                                     std::span<node_score> scores) const {
  using namespace inter_pod_affinity_detail;
  (void)p;
  const cycle_data* d = data(state);
  if (d == nullptr || !d->scores || d->scores->weights.empty())
    return {};
  std::int64_t lo = std::numeric_limits<std::int64_t>::max();
  std::int64_t hi = std::numeric_limits<std::int64_t>::min();
  for (const auto& s : scores) {
    if (s.score > hi)
      hi = s.score;
    if (s.score < lo)
      lo = s.score;
  }
  const std::int64_t spread = hi - lo;
  for (auto& s : scores) {
    double scaled = 0;
    if (spread > 0)
      scaled
        = static_cast<double>(score_range::max)
          * (static_cast<double>(s.score - lo) / static_cast<double>(spread));
    s.score = static_cast<std::int64_t>(scaled);
  }
  return {};
}

} // namespace tessera::plugins
