// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Test helpers for InterPodAffinity: a cluster_context built from node
/// infos, and one scheduling cycle of the plugin alone (PreFilter, PreScore,
/// the node scan split over a number of shards, the merge), so tests can
/// check that any shard split gives the single-shard result.
#pragma once

#include "model/node_info.hpp"
#include "model/pod.hpp"
#include "plugins/framework/cluster_context.hpp"
#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"
#include "test/support/builders.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tessera::plugins::inter_pod_affinity_test {

inline constexpr const char* zone = "topology.kubernetes.io/zone";
inline constexpr const char* hostname = "kubernetes.io/hostname";

/// Filter outcomes as `describe` prints them (filtering_test.cpp checks the
/// reason texts themselves).
inline const std::string ok = "Success";
inline const std::string affinity_fail
  = plugin_testing::rejection(code::unschedulable_and_unresolvable,
                              inter_pod_affinity::affinity_rules_not_match);
inline const std::string anti_fail = plugin_testing::rejection(
  code::unschedulable, inter_pod_affinity::anti_affinity_rules_not_match);
inline const std::string existing_fail = plugin_testing::rejection(
  code::unschedulable,
  inter_pod_affinity::existing_anti_affinity_rules_not_match);

using plugin_testing::zoned_node;
using plugin_testing::zoned_nodes;

/// A term on pods labelled `labels`, with optional namespaces and
/// namespaceSelector.
inline model::pod_affinity_term
term(const test::label_pairs& labels, const char* key,
     const std::vector<std::string>& namespaces = {},
     std::optional<model::label_selector> namespace_selector = std::nullopt) {
  auto t = test::affinity_term(labels, key, namespaces);
  t.namespace_selector = std::move(namespace_selector);
  return t;
}

/// A pod bound to `node` with `labels`.
inline model::pod_ptr bound(const std::string& name, const char* node,
                            const test::label_pairs& labels,
                            const char* ns = "default") {
  auto b = test::make_pod(name).ns(ns).node(node);
  for (const auto& [k, v] : labels)
    b.label(k, v);
  return b.build();
}

/// The cluster facts for `nodes` and `namespaces`, counters included.
inline cluster_context
make_context(const std::vector<model::node_info_ptr>& nodes,
             const std::vector<model::namespace_ptr>& namespaces = {}) {
  cluster_context ctx;
  for (const auto& ni : nodes) {
    if (ni->get_node() != nullptr)
      ++ctx.node_count;
    ctx.pods_with_affinity
      += static_cast<std::int64_t>(ni->pods_with_affinity().size());
    ctx.pods_with_required_anti_affinity += static_cast<std::int64_t>(
      ni->pods_with_required_anti_affinity().size());
  }
  for (const auto& ns : namespaces)
    ctx.namespaces[ns->name] = ns;
  return ctx;
}

using plugin_testing::describe;
using plugin_testing::filter_all;
using plugin_testing::prepared_cycle;
using scores = plugin_testing::plugin_scores;

/// PreFilter, PreScore and the node scan over `shards` shards, merged.
inline prepared_cycle prepare(const inter_pod_affinity& plugin,
                              const model::pod& p,
                              const std::vector<model::node_info_ptr>& nodes,
                              const cluster_context& ctx,
                              std::size_t shards = 1) {
  return plugin_testing::prepare_cycle(plugin, p, nodes, ctx, shards);
}

/// Raw and normalized scores of every node (empty when Score is skipped).
inline scores score_all(const inter_pod_affinity& plugin,
                        const cycle_state& state, const model::pod& p,
                        const std::vector<model::node_info_ptr>& nodes) {
  if (state.skip_score.test(plugin.slot()))
    return {};
  return plugin_testing::score_and_normalize(plugin, state, p, nodes);
}

} // namespace tessera::plugins::inter_pod_affinity_test
