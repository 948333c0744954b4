// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// PodTopologySpread: the node scan counting matching pods per domain, per
// shard, and the merge of the shards' partials.
#include "plugins/framework/prefetch.hpp"
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"

#include <algorithm>

namespace tessera::plugins {

namespace pod_topology_spread_detail {

using count_map = topology_pair_counts::map_type;

// One shard's counts, keyed by (constraint index, domain value).
struct spread_scan_partial : scan_partial {
  // Hard constraints: an entry for every eligible domain, even at 0.
  count_map hard;
  // Soft constraints other than hostname: only non-zero counts.
  count_map soft;
};

void scan_hard_node(const std::vector<spread_constraint>& constraints,
                    const model::pod& p, const model::node_info& ni,
                    const model::node& n, count_map& out) {
  if (!has_all_keys(n.labels, constraints))
    return;
  const bool affinity_ok = matches_required_node_affinity(p, n);
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    const auto& c = constraints[i];
    if (!passes_inclusion_policies(c, p, n, affinity_ok))
      continue;
    const model::symbol* value = n.labels.find(c.topology_key);
    out[pack_pair(static_cast<std::uint32_t>(i), value->id())]
      += count_matching(ni, c.selector, p.ns);
  }
}

void scan_soft_node(const pod_topology_spread::score_input& in,
                    const model::pod& p, const model::node_info& ni,
                    const model::node& n, count_map& out) {
  if (in.require_all_topologies && !has_all_keys(n.labels, in.constraints))
    return;
  const bool affinity_ok = matches_required_node_affinity(p, n);
  for (std::size_t i = 0; i < in.constraints.size(); ++i) {
    const auto& c = in.constraints[i];
    if (c.hostname || !passes_inclusion_policies(c, p, n, affinity_ok))
      continue;
    // A node without the key (possible only under System defaulting)
    // counts into an empty-valued domain that no node's Score reads.
    const model::symbol* value = n.labels.find(c.topology_key);
    if (value == nullptr)
      continue;
    const std::int64_t count = count_matching(ni, c.selector, p.ns);
    if (count != 0)
      out[pack_pair(static_cast<std::uint32_t>(i), value->id())] += count;
  }
}

} // namespace pod_topology_spread_detail

bool pod_topology_spread::filter_scan_wanted(
  const cycle_state& state) const noexcept {
  const cycle_data* d = data(state);
  return d != nullptr && d->filter && !state.skip_filter.test(slot());
}

bool pod_topology_spread::score_scan_wanted(
  const cycle_state& state) const noexcept {
  const cycle_data* d = data(state);
  return d != nullptr && d->scoring && d->scoring->needs_counts
         && !state.skip_score.test(slot());
}

bool pod_topology_spread::wants_scan(const cycle_state& state,
                                     const model::pod& p) const {
  (void)p;
  return filter_scan_wanted(state) || score_scan_wanted(state);
}

scan_partial_ptr
pod_topology_spread::scan(const cycle_state& state, const model::pod& p,
                          std::span<const model::node_info_ptr> nodes) const {
  using namespace pod_topology_spread_detail;
  auto out = std::make_unique<spread_scan_partial>();
  const cycle_data* d = data(state);
  const bool filtering = filter_scan_wanted(state);
  const bool scoring = score_scan_wanted(state);
  node_prefetcher::scan(
    nodes, [&](const model::node_info& ni, const model::node& n) {
      if (filtering)
        scan_hard_node(d->filter->constraints, p, ni, n, out->hard);
      if (scoring)
        scan_soft_node(*d->scoring, p, ni, n, out->soft);
    });
  return out;
}

status
pod_topology_spread::merge(cycle_state& state, const model::pod& p,
                           std::vector<scan_partial_ptr> partials) const {
  using namespace pod_topology_spread_detail;
  (void)p;
  const cycle_data* current = data(state);
  const bool filtering = filter_scan_wanted(state);
  const bool scoring = score_scan_wanted(state);
  if (current == nullptr || (!filtering && !scoring))
    return {};
  count_map hard, soft;
  for (const auto& base : partials) {
    const auto* part = dynamic_cast<const spread_scan_partial*>(base.get());
    if (part == nullptr)
      return status::make_error("PodTopologySpread: unexpected scan partial");
    for (const auto& [key, count] : part->hard)
      hard[key] += count;
    for (const auto& [key, count] : part->soft)
      soft[key] += count;
  }
  auto next = std::make_shared<cycle_data>(*current);
  if (filtering) {
    const std::size_t n = current->filter->constraints.size();
    auto counts = std::make_shared<filter_counts>();
    counts->histogram.resize(n);
    counts->domains.assign(n, 0);
    for (const auto& [key, count] : hard) {
      const std::uint32_t i = pair_high(key);
      ++counts->domains[i];
      auto& h = counts->histogram[i];
      auto it = std::lower_bound(
        h.begin(), h.end(), count,
        [](const auto& e, std::int64_t c) { return e.count < c; });
      if (it != h.end() && it->count == count)
        ++it->domains;
      else
        h.insert(it, {count, 1});
    }
    counts->counts = topology_pair_counts(std::move(hard));
    next->counts = std::move(counts);
  }
  if (scoring) {
    auto counts = std::make_shared<score_counts>();
    counts->counts = std::move(soft);
    next->soft_counts = std::move(counts);
  }
  state.write(slot(), std::move(next));
  return {};
}

} // namespace tessera::plugins
