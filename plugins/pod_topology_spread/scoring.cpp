// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// PodTopologySpread: PreScore, the feasible-set summaries, Score and
// NormalizeScore.
#include "plugins/framework/normalize.hpp"
#include "plugins/framework/slot_rewrite.hpp"
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"

#include <boost/unordered/unordered_flat_set.hpp>

#include <cmath>
#include <limits>

namespace tessera::plugins {

namespace pod_topology_spread_detail {

// One shard's facts about its feasible nodes.
struct spread_summary : feasible_summary {
  std::size_t feasible = 0;
  std::vector<model::symbol> ignored;
  // Per constraint (empty for hostname ones): distinct domain value ids
  // among the feasible nodes that are not ignored.
  std::vector<boost::unordered_flat_set<std::uint32_t>> values;
};

// Upstream's topologyNormalizingWeight: ln(size + 2).
double normalizing_weight(std::size_t size) {
  return std::log(static_cast<double>(size + 2));
}

} // namespace pod_topology_spread_detail

status pod_topology_spread::pre_score(cycle_state& state, const model::pod& p,
                                      const cluster_context& cluster) const {
  // Upstream also skips when the snapshot has no node; PreScore runs only
  // with two or more feasible nodes, so that case cannot reach here.
  auto input = std::make_shared<score_input>();
  input->constraints
    = constraints_for(p, when_unsatisfiable::schedule_anyway, &cluster);
  if (input->constraints.empty())
    return status::skip();
  // Only system-default spreading tolerates nodes without every key, so
  // that nodes without a zone label still get hostname spreading.
  input->require_all_topologies
    = !p.topology_spread_constraints.empty() || !system_defaulted_;
  for (const auto& c : input->constraints)
    input->needs_counts = input->needs_counts || !c.hostname;
  rewrite_slot<cycle_data>(state, slot(), [&](cycle_data& d) {
    d.scoring = std::move(input);
    d.soft_counts.reset();
    d.weights.reset();
  });
  return {};
}

bool pod_topology_spread::ignored(const score_input& in,
                                  const model::node& n) const noexcept {
  return in.require_all_topologies
         && !pod_topology_spread_detail::has_all_keys(n.labels, in.constraints);
}

bool pod_topology_spread::wants_summary(const cycle_state& state) const {
  const cycle_data* d = data(state);
  return d != nullptr && d->scoring != nullptr;
}

feasible_summary_ptr pod_topology_spread::summarize(
  const cycle_state& state, const model::pod& p,
  std::span<const model::node_info* const> feasible) const {
  using namespace pod_topology_spread_detail;
  (void)p;
  auto out = std::make_unique<spread_summary>();
  const cycle_data* d = data(state);
  if (d == nullptr || !d->scoring)
    return out;
  const score_input& in = *d->scoring;
  out->values.resize(in.constraints.size());
  for (const model::node_info* ni : feasible) {
    const model::node* n = ni != nullptr ? ni->get_node() : nullptr;
    if (n == nullptr)
      continue;
    ++out->feasible;
    if (ignored(in, *n)) {
      out->ignored.push_back(ni->name());
      continue;
    }
    for (std::size_t i = 0; i < in.constraints.size(); ++i) {
      const auto& c = in.constraints[i];
      if (c.hostname)
        continue;
      // Without the key (System defaulting only) the value is "".
      const model::symbol* value = n->labels.find(c.topology_key);
      out->values[i].insert(value == nullptr ? 0u : value->id());
    }
  }
  return out;
}

status pod_topology_spread::merge_summaries(
  cycle_state& state, const model::pod& p,
  std::vector<feasible_summary_ptr> parts) const {
  using namespace pod_topology_spread_detail;
  (void)p;
  const cycle_data* current = data(state);
  if (current == nullptr || !current->scoring)
    return {};
  const score_input& in = *current->scoring;
  auto weights = std::make_shared<score_weights>();
  std::size_t feasible = 0;
  std::vector<boost::unordered_flat_set<std::uint32_t>> values(
    in.constraints.size());
  for (const auto& base : parts) {
    const auto* part = dynamic_cast<const spread_summary*>(base.get());
    if (part == nullptr)
      return status::make_error("PodTopologySpread: unexpected summary");
    feasible += part->feasible;
    weights->ignored.insert(part->ignored.begin(), part->ignored.end());
    for (std::size_t i = 0; i < part->values.size() && i < values.size(); ++i)
      values[i].insert(part->values[i].begin(), part->values[i].end());
  }
  for (std::size_t i = 0; i < in.constraints.size(); ++i) {
    const std::size_t size = in.constraints[i].hostname
                               ? feasible - weights->ignored.size()
                               : values[i].size();
    weights->weights.push_back(normalizing_weight(size));
  }
  rewrite_slot<cycle_data>(
    state, slot(), [&](cycle_data& d) { d.weights = std::move(weights); });
  return {};
}

std::int64_t pod_topology_spread::score(const cycle_state& state,
                                        const model::pod& p,
                                        const model::node_info& node) const {
  using namespace pod_topology_spread_detail;
  const cycle_data* d = data(state);
  const model::node* n = node.get_node();
  if (d == nullptr || !d->scoring || !d->weights || n == nullptr)
    return 0;
  const score_input& in = *d->scoring;
  if (ignored(in, *n))
    return 0;
  double total = 0;
  for (std::size_t i = 0; i < in.constraints.size(); ++i) {
    const auto& c = in.constraints[i];
    const model::symbol* value = n->labels.find(c.topology_key);
    if (value == nullptr)
      continue;
    std::int64_t count = 0;
    if (c.hostname) {
      count = count_matching(node, c.selector, p.ns);
    } else if (d->soft_counts) {
      auto it = d->soft_counts->counts.find(
        pack_pair(static_cast<std::uint32_t>(i), value->id()));
      if (it != d->soft_counts->counts.end())
        count = it->second;
    }
    total += static_cast<double>(count) * d->weights->weights[i]
             + static_cast<double>(c.max_skew - 1);
  }
  return static_cast<std::int64_t>(std::llround(total));
}

status
pod_topology_spread::normalize_scores(const cycle_state& state,
                                      const model::pod& p,
                                      std::span<node_score> scores) const {
  using namespace pod_topology_spread_detail;
  (void)p;
  const cycle_data* d = data(state);
  if (d == nullptr || !d->weights)
    return {};
  const auto& ignored_nodes = d->weights->ignored;
  std::int64_t lo = std::numeric_limits<std::int64_t>::max();
  std::int64_t hi = 0;
  for (const auto& s : scores) {
    if (ignored_nodes.count(s.node) != 0)
      continue;
    if (s.score < lo)
      lo = s.score;
    if (s.score > hi)
      hi = s.score;
  }
  for (auto& s : scores) {
    if (ignored_nodes.count(s.node) != 0)
      s.score = 0;
    else if (hi == 0)
      s.score = score_range::max;
    else
      s.score = score_range::max * (hi + lo - s.score) / hi;
  }
  return {};
}

} // namespace tessera::plugins
