// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// PodTopologySpread: what one node adds to the per-domain counts in a shard's
// scan, and what the coordinator makes of the shards' sums.
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"

#include <algorithm>

namespace tessera::plugins {

void pod_topology_spread::scan_sums::add(const scan_sums& other) {
  add_counts(hard, other.hard);
  add_counts(soft, other.soft);
}

void pod_topology_spread::scan_filter_node(const filter_input& in,
                                           const model::pod& p,
                                           const model::node_info& ni,
                                           const model::node& n,
                                           scan_sums& out) const {
  using namespace pod_topology_spread_detail;
  const auto& constraints = in.constraints;
  if (!has_all_keys(n.labels, constraints))
    return;
  const bool affinity_ok = matches_required_node_affinity(p, n);
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    const auto& c = constraints[i];
    if (!passes_inclusion_policies(c, p, n, affinity_ok))
      continue;
    const model::symbol* value = n.labels.find(c.topology_key);
    out.hard[pack_pair(static_cast<std::uint32_t>(i), value->id())]
      += count_matching(ni, c.selector, p.ns);
  }
}

void pod_topology_spread::scan_score_node(const score_input& in,
                                          const model::pod& p,
                                          const model::node_info& ni,
                                          const model::node& n,
                                          scan_sums& out) const {
  using namespace pod_topology_spread_detail;
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
      out.soft[pack_pair(static_cast<std::uint32_t>(i), value->id())] += count;
  }
}

void pod_topology_spread::finish_filter(cycle_state& state, cycle_data& next,
                                        scan_sums& total) const {
  (void)state;
  const std::size_t n = next.filter->constraints.size();
  auto counts = std::make_shared<filter_counts>();
  counts->histogram.resize(n);
  counts->domains.assign(n, 0);
  for (const auto& [key, count] : total.hard) {
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
  counts->counts = topology_pair_counts(std::move(total.hard));
  next.counts = std::move(counts);
}

void pod_topology_spread::finish_score(cycle_state& state, cycle_data& next,
                                       scan_sums& total) const {
  (void)state;
  auto counts = std::make_shared<score_counts>();
  counts->counts = std::move(total.soft);
  next.soft_counts = std::move(counts);
}

} // namespace tessera::plugins
