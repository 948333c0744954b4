// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Test helpers for PodTopologySpread: one scheduling cycle of the plugin
/// alone — PreFilter, PreScore, the node scan and the feasible-set summaries
/// each split over a number of shards, then merged — so tests can check that
/// any shard split gives the single-shard result.
#pragma once

#include "model/node_info.hpp"
#include "model/pod.hpp"
#include "plugins/framework/cluster_context.hpp"
#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"
#include "test/support/builders.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace tessera::plugins::pod_topology_spread_test {

inline constexpr const char* zone_key = "topology.kubernetes.io/zone";
inline constexpr const char* host_key = "kubernetes.io/hostname";

/// Filter outcomes as `describe` prints them (filtering_test.cpp checks the
/// reason texts themselves).
inline const std::string ok = "Success";
inline const std::string skew_fail = plugin_testing::rejection(
  code::unschedulable, pod_topology_spread::constraints_not_match);
inline const std::string label_fail
  = plugin_testing::rejection(code::unschedulable_and_unresolvable,
                              pod_topology_spread::node_label_not_match);

/// The cluster facts PodTopologySpread reads (the node count).
inline cluster_context
spread_context(const std::vector<model::node_info_ptr>& nodes) {
  cluster_context ctx;
  for (const auto& ni : nodes)
    if (ni->get_node() != nullptr)
      ++ctx.node_count;
  return ctx;
}

using plugin_testing::zoned_node;
using plugin_testing::zoned_nodes;

/// `count` pods labelled app=<app> on `node` in `ns`.
inline std::vector<model::pod_ptr> pods_on(const std::string& node, int count,
                                           const std::string& app = "web",
                                           const std::string& ns = "default") {
  std::vector<model::pod_ptr> out;
  for (int i = 0; i < count; ++i)
    out.push_back(test::make_pod(node + "-" + app + "-" + std::to_string(i))
                    .ns(ns)
                    .label("app", app)
                    .node(node)
                    .build());
  return out;
}

/// Concatenates pod lists.
inline std::vector<model::pod_ptr>
all_of(std::initializer_list<std::vector<model::pod_ptr>> lists) {
  std::vector<model::pod_ptr> out;
  for (const auto& l : lists)
    out.insert(out.end(), l.begin(), l.end());
  return out;
}

/// A constraint as the API would carry it.
inline model::topology_spread_constraint
constraint(const char* key, std::int32_t max_skew, bool hard,
           const test::label_pairs& labels = {{"app", "web"}}) {
  model::topology_spread_constraint c;
  c.topology_key = model::symbol{key};
  c.max_skew = max_skew;
  c.action
    = hard
        ? model::topology_spread_constraint::when_unsatisfiable::do_not_schedule
        : model::topology_spread_constraint::when_unsatisfiable::
          schedule_anyway;
  c.selector = test::match_labels(labels);
  return c;
}

/// A zone constraint, maxSkew 1, with the given nodeAffinityPolicy and
/// nodeTaintsPolicy (the API's defaults: Honor and Ignore).
inline model::topology_spread_constraint zone_with_policies(
  bool hard, model::topology_spread_constraint::inclusion_policy affinity,
  model::topology_spread_constraint::inclusion_policy taints
  = model::topology_spread_constraint::inclusion_policy::ignore) {
  auto c = constraint(zone_key, 1, hard);
  c.node_affinity_policy = affinity;
  c.node_taints_policy = taints;
  return c;
}

using spread_cycle = plugin_testing::prepared_cycle;
using spread_scores = plugin_testing::plugin_scores;
using plugin_testing::filter_all;

/// PreFilter, PreScore and the node scan over `shards` shards, merged.
inline spread_cycle prepare(const pod_topology_spread& plugin,
                            const model::pod& p,
                            const std::vector<model::node_info_ptr>& nodes,
                            std::size_t shards = 1) {
  return plugin_testing::prepare_cycle(plugin, p, nodes, spread_context(nodes),
                                       shards);
}

inline std::string describe_status(const status& s) {
  return plugin_testing::describe(s);
}

/// Summarizes `feasible` over `shards` shards, merges, then scores and
/// normalizes every feasible node (empty when Score is skipped).
inline spread_scores score_feasible(
  const pod_topology_spread& plugin, cycle_state& state, const model::pod& p,
  const std::vector<model::node_info_ptr>& feasible, std::size_t shards = 1) {
  if (state.skip_score.test(plugin.slot()) || !plugin.wants_summary(state))
    return {};
  std::vector<std::vector<const model::node_info*>> split(shards);
  for (std::size_t i = 0; i < feasible.size(); ++i)
    split[(i + 1) % shards].push_back(feasible[i].get());
  std::vector<feasible_summary_ptr> parts;
  for (const auto& part : split)
    parts.push_back(plugin.summarize(state, p, part));
  plugin.merge_summaries(state, p, std::move(parts));
  return plugin_testing::score_and_normalize(plugin, state, p, feasible);
}

} // namespace tessera::plugins::pod_topology_spread_test
