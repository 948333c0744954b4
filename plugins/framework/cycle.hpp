// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The scheduling cycle as phases that run in different actors. Each phase is
/// a plain function over immutable inputs; the coordinator and shard actors
/// call them, and so do the tests' serial reference and `simulate --explain`.
///
///   begin_cycle          coordinator  PreFilter + PreScore (node-independent)
///   run_scans            every shard  node_scanner partials over its nodes
///   merge_scans          coordinator  partials -> cycle state
///   filter_and_score     every shard  Filter (+ nominated pods), local Score,
///                                     feasible summaries, from a rotating
///                                     start index, up to a quota
///   merge_summaries      coordinator  summaries -> cycle state
///   score_nodes          every shard  deferred Score plugins on its feasible
///   select_host          coordinator  NormalizeScore, weights, seeded pick
///
/// With one shard, the visit order, the quota and the start-index rotation
/// are kube-scheduler's, so placements equal the serial algorithm's.
#pragma once

#include "model/node_info.hpp"
#include "model/pod.hpp"
#include "plugins/framework/diagnosis.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/profile.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace tessera::plugins {

/// numFeasibleNodesToFind: how many feasible nodes a cycle looks for among
/// `num_all_nodes` with `percentage` (0 = adaptive), as kube-scheduler.
std::size_t num_feasible_nodes_to_find(std::int32_t percentage,
                                       std::size_t num_all_nodes) noexcept;

/// Outcome of PreFilter and PreScore.
struct cycle_start {
  cycle_state state;
  /// Non-success when PreFilter rejected or failed; its message becomes the
  /// FitError's PreFilterMsg (rejection) or the cycle error (Error).
  status pre_filter_status;
  /// Intersection of the PreFilterResults; nullopt = all nodes.
  node_name_set allowed_nodes;
  /// Names of the plugins that returned node sets, sorted (for the reason
  /// `node(s) didn't satisfy plugin(s) [A B]`).
  std::vector<std::string> node_set_plugins;
  /// The first PreScore error; reported only if two or more nodes are
  /// feasible (upstream runs PreScore only then).
  status pre_score_status;
  /// Indexes into profile.scanners() that want a node scan this cycle.
  std::vector<std::size_t> scans;
};

cycle_start begin_cycle(const profile& prof, const model::pod& p,
                        const cluster_context& cluster);

/// One shard's scan partials, aligned with `scans`.
std::vector<scan_partial_ptr>
run_scans(const profile& prof, const cycle_state& state, const model::pod& p,
          std::span<const std::size_t> scans,
          std::span<const model::node_info_ptr> nodes);

/// Merges per-shard partials (`per_shard[shard][i]` for scans[i]).
status merge_scans(const profile& prof, cycle_state& state, const model::pod& p,
                   std::span<const std::size_t> scans,
                   std::vector<std::vector<scan_partial_ptr>> per_shard);

/// Which score plugins run this cycle, as indexes into profile.score():
/// `local` ones score during filter_and_score; `deferred` ones are
/// feasible_summarizers that want a summary: shards summarize their feasible
/// nodes for them, and they score after the summaries are merged. Both lists
/// are in profile order.
struct active_scores {
  std::vector<std::size_t> local;
  std::vector<std::size_t> deferred;
  bool any() const noexcept {
    return !local.empty() || !deferred.empty();
  }
};
active_scores score_plan(const profile& prof, const cycle_state& state);

/// Pods nominated to a node (priority >= the pod's, the pod itself
/// excluded); empty span when none.
using nominated_lookup
  = std::function<std::span<const model::pod_ptr>(model::symbol node)>;

struct filter_options {
  /// Feasible nodes to find on this shard; the shard stops after that many.
  std::size_t quota = std::numeric_limits<std::size_t>::max();
  /// Only these nodes are considered (PreFilterResult); others get no
  /// status here (the coordinator applies the absent-node status).
  const node_name_set* allowed = nullptr;
  nominated_lookup nominated;
  /// Run the local score plugins on feasible nodes and the summarizers.
  bool score = true;
};

struct shard_result {
  /// Feasible nodes in visit order.
  std::vector<model::symbol> feasible;
  /// Raw scores of score_plan().local plugins, plugin-major:
  /// scores[k * feasible.size() + i] for local plugin k and feasible[i].
  std::vector<std::int64_t> scores;
  std::vector<node_failure> failures;
  /// Summaries aligned with score_plan().deferred.
  std::vector<feasible_summary_ptr> summaries;
  /// Nodes examined (feasible + failed), for the start-index rotation.
  std::size_t processed = 0;
  /// An Error status from any filter aborts the cycle.
  status error;
};

/// Filters `nodes` (a shard's nodes in node-tree order) starting at
/// `start` and wrapping, until `options.quota` feasible nodes are found.
shard_result filter_and_score(const profile& prof, const cycle_state& state,
                              const model::pod& p,
                              std::span<const model::node_info_ptr> nodes,
                              std::size_t start, const filter_options& options);

/// Merges per-shard summaries (`per_shard[shard][i]` for plan.deferred[i]).
status
merge_summaries(const profile& prof, cycle_state& state, const model::pod& p,
                const active_scores& plan,
                std::vector<std::vector<feasible_summary_ptr>> per_shard);

/// Raw scores of the deferred plugins for `nodes`, plugin-major.
std::vector<std::int64_t>
score_nodes(const profile& prof, const cycle_state& state, const model::pod& p,
            std::span<const std::size_t> plugins,
            std::span<const model::node_info* const> nodes);

/// Every feasible node with its per-plugin scores.
struct score_table {
  std::vector<model::symbol> nodes;
  /// profile.score() indexes of the plugins that scored, in profile order.
  std::vector<std::size_t> plugins;
  /// raw[k * nodes.size() + i]; normalized in place by select_host.
  std::vector<std::int64_t> scores;
  /// Weighted totals per node, filled by select_host.
  std::vector<std::int64_t> totals;
};

/// NormalizeScore, range check, weights and the seeded uniform pick among
/// the best totals. Returns the chosen index into table.nodes, or an Error
/// status (e.g. a plugin's score out of [0, 100] after normalizing).
expected<std::size_t> select_host(const profile& prof, const cycle_state& state,
                                  const model::pod& p, score_table& table,
                                  std::mt19937_64& rng);

/// The index of a uniformly chosen best total (`totals` non-empty); draws
/// from `rng` only when several totals tie for best.
std::size_t pick_best(std::span<const std::int64_t> totals,
                      std::mt19937_64& rng);

} // namespace tessera::plugins
