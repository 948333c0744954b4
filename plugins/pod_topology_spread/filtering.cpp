// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// PodTopologySpread: PreFilter, AddPod / RemovePod and Filter.
#include "plugins/framework/slot_rewrite.hpp"
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"

#include <algorithm>
#include <limits>

namespace tessera::plugins {

namespace pod_topology_spread_detail {

using histogram_type = boost::container::small_vector<
  pod_topology_spread::filter_counts::count_domains, 8>;

// Moves one domain from count `before` (when it existed) to `after`.
void move_domain(histogram_type& h, bool existed, std::int64_t before,
                 std::int64_t after) {
  if (existed) {
    auto it = std::find_if(h.begin(), h.end(), [before](const auto& e) {
      return e.count == before;
    });
    if (it != h.end() && --it->domains == 0)
      h.erase(it);
  }
  auto it = std::lower_bound(
    h.begin(), h.end(), after,
    [](const auto& e, std::int64_t c) { return e.count < c; });
  if (it != h.end() && it->count == after)
    ++it->domains;
  else
    h.insert(it, {after, 1});
}

} // namespace pod_topology_spread_detail

pre_filter_result
pod_topology_spread::pre_filter(cycle_state& state, const model::pod& p,
                                const cluster_context& cluster) const {
  auto input = std::make_shared<filter_input>();
  input->constraints
    = constraints_for(p, when_unsatisfiable::do_not_schedule, &cluster);
  if (input->constraints.empty())
    return {status::skip(), std::nullopt};
  for (const auto& c : input->constraints)
    input->self_match.push_back(c.selector.matches(p.labels) ? 1 : 0);
  start_filter(state, std::move(input));
  return {};
}

status pod_topology_spread::update_with_pod(cycle_state& state,
                                            const model::pod& to_schedule,
                                            const model::pod_core& changed,
                                            model::node_view node,
                                            std::int64_t delta) const {
  using namespace pod_topology_spread_detail;
  const cycle_data* current = filter_data(state);
  if (current == nullptr)
    return missing_filter_data();
  const model::node* n = node.get_node();
  if (n == nullptr || changed.ns != to_schedule.ns)
    return {};
  const auto& constraints = current->filter->constraints;
  if (!has_all_keys(n->labels, constraints))
    return {};
  auto counts = std::make_shared<filter_counts>(*current->counts);
  const bool affinity_ok = matches_required_node_affinity(to_schedule, *n);
  bool changed_any = false;
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    const auto& c = constraints[i];
    // Unlike the scan, upstream does not exclude pods being deleted here.
    if (!c.selector.matches(changed.labels)
        || !passes_inclusion_policies(c, to_schedule, *n, affinity_ok))
      continue;
    const model::symbol* value = n->labels.find(c.topology_key);
    auto ch = counts->counts.add(
      pack_pair(static_cast<std::uint32_t>(i), value->id()), delta, false);
    if (!ch.existed)
      ++counts->domains[i];
    move_domain(counts->histogram[i], ch.existed, ch.before, ch.after);
    changed_any = true;
  }
  if (!changed_any)
    return {};
  rewrite_slot<cycle_data>(
    state, slot(), [&](cycle_data& d) { d.counts = std::move(counts); });
  return {};
}

status pod_topology_spread::filter(const cycle_state& state,
                                   const model::pod& p,
                                   model::node_view node) const {
  (void)p;
  const model::node* n = node.get_node();
  if (n == nullptr)
    return status::make_error("node not found");
  const cycle_data* d = filter_data(state);
  if (d == nullptr)
    return missing_filter_data();
  const filter_input& in = *d->filter;
  const filter_counts& counts = *d->counts;
  for (std::size_t i = 0; i < in.constraints.size(); ++i) {
    const auto& c = in.constraints[i];
    const model::symbol* value = n->labels.find(c.topology_key);
    if (value == nullptr)
      return {code::unschedulable_and_unresolvable, reason_missing_label_};
    // With fewer eligible domains than minDomains the global minimum is 0.
    std::int64_t min_match = 0;
    if (counts.domains[i] >= c.min_domains)
      min_match = counts.histogram[i].empty()
                    ? std::numeric_limits<std::int32_t>::max()
                    : counts.histogram[i].front().count;
    const std::int64_t match = counts.counts.get(
      pack_pair(static_cast<std::uint32_t>(i), value->id()));
    const std::int64_t skew = match + in.self_match[i] - min_match;
    if (skew > c.max_skew)
      return {code::unschedulable, reason_constraints_};
  }
  return {};
}

} // namespace tessera::plugins
