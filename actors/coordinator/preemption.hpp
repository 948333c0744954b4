// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// PostFilter (preemption) for one cycle, as the coordinator runs it over
/// sharded dry runs:
///
///   FitError ─> find_potential_nodes ─nominated node?─> [eligibility check
///        │                                               on its shard]
///        v                                                    │ eligible
///   dry_run_requests ─> [dry run on every shard with potential nodes]
///        │
///        v
///   judge_dry_runs ─> nominate (victims; retried instead when an
///                     │  overlapped cycle finds the node claimed since)
///                     | unschedulable | error
///                     | stale (retry at once) | redo alone
///
/// These functions decide; the coordinator sends the requests and acts on
/// the verdict (victim deletions, nominations, the cycle's outcome).
#pragma once

#include "actors/coordinator/scheduling_cycle.hpp"

#include <cstddef>
#include <memory>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

namespace tessera::actors {

/// The nodes where preemption may help: every node whose filter status was
/// not UnschedulableAndUnresolvable.
struct potential_nodes {
  std::shared_ptr<const std::unordered_set<model::symbol>> unresolvable;
  std::vector<std::size_t> per_shard;
  /// The pod's nominated node when it is a potential node (upstream checks
  /// its eligibility before looking for candidates), with its filter status.
  model::symbol nominated;
  plugins::status nominated_status;
};

potential_nodes find_potential_nodes(const scheduling_cycle& c,
                                     std::size_t shards);

/// The dry-run request of each shard (null for shards without potential
/// nodes). Draws one random start offset per asked shard from `rng`, in
/// shard order. `only_whether`: each shard stops at its first candidate,
/// for a cycle that only needs to know whether any node has victims.
std::vector<preempt_request_ptr> dry_run_requests(const scheduling_cycle& c,
                                                  std::mt19937_64& rng,
                                                  bool only_whether);

/// What to do with a cycle's dry runs.
struct preemption_verdict {
  enum class kind : std::uint8_t {
    /// Victims chosen: nominate `chosen.nominated_node`, delete the victims.
    nominate,
    /// No node can be helped: the pod is unschedulable; `message` is
    /// PostFilter's part of the FitError.
    unschedulable,
    /// A dry run failed: the cycle ends in error with `message`.
    error,
    /// Some shard's view moved on since this cycle's Filter (the pod now
    /// fits a node with nothing removed): retry like an assume conflict.
    stale,
    /// Victims were found on a view other cycles may have changed, for a
    /// pod whose filters read other nodes: retry it alone, on a settled
    /// view.
    redo_alone,
  };
  kind type = kind::unschedulable;
  std::string message;
  plugins::post_filter_outcome chosen;
};

/// Judges the dry-run replies in `c.preempts`. `must_settle`: other cycles
/// ran during this one and the pod's filters read other nodes, so victims
/// found on its view must be found again alone.
preemption_verdict judge_dry_runs(const scheduling_cycle& c,
                                  std::size_t total_nodes, bool must_settle);

} // namespace tessera::actors
