// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Every actor's typed interface, in one place. Data flows
///   source -> CACHE -> SHARDs (deltas), COORDINATOR (views, nominees),
///                     QUEUE (inputs)
///   QUEUE -> COORDINATOR (work) -> SHARDs (scan/filter/score/preempt)
///   COORDINATOR -> CACHE (assume) -> BINDER (bind) -> sink
/// (docs/architecture.md, "The scheduling cycle, split across actors").
#pragma once

#include "actors/atoms.hpp"

#include <caf/all.hpp>

#include <cstdint>
#include <string>

namespace tessera::actors {

/// The SHARD actor interface: owns the nodes that hash to it.
using shard_actor = caf::typed_actor<
  /// Applies the cache's changes to this shard's nodes.
  caf::reacts_to<delta_atom, shard_delta_ptr>,
  /// Computes node_scanner partials over this shard's nodes.
  caf::replies_to<scan_atom, scan_request_ptr>::with<scan_reply_ptr>,
  /// Filters (and scores) this shard's nodes for one cycle.
  caf::replies_to<filter_atom, filter_request_ptr>::with<filter_reply_ptr>,
  /// Runs deferred Score plugins on feasible nodes.
  caf::replies_to<score_atom, score_request_ptr>::with<score_reply_ptr>,
  /// Dry-runs preemption on this shard's potential nodes.
  caf::replies_to<preempt_atom, preempt_request_ptr>::with<preempt_reply_ptr>>;

/// The COORDINATOR actor interface: runs scheduling cycles.
using coordinator_actor = caf::typed_actor<
  /// The cache's current cluster view.
  caf::reacts_to<view_atom, cluster_view_ptr>,
  /// Pending pods whose nomination the API changed, and pods that left.
  caf::reacts_to<nominees_atom, queue_inputs_ptr>,
  /// Pods to schedule, from the queue.
  caf::reacts_to<work_atom, work_batch_ptr>>;

/// The QUEUE actor interface: activeQ, backoffQ, unschedulable pods.
using queue_actor = caf::typed_actor<
  /// Pending-pod changes and cluster events, from the cache.
  caf::reacts_to<input_atom, queue_inputs_ptr>,
  /// The coordinator can take `n` more pods.
  caf::reacts_to<want_atom, std::int32_t>,
  /// How a cycle ended.
  caf::reacts_to<outcome_atom, cycle_outcome_ptr>,
  /// How a binding cycle ended.
  caf::reacts_to<bound_atom, bind_outcome_ptr>,
  /// A victim of this preemptor could not be deleted: try it again.
  caf::reacts_to<preemption_ended_atom, model::pod_ptr, bool>,
  /// Flushes backoffQ and leftover unschedulable pods.
  caf::reacts_to<tick_atom>,
  /// Answers `to` with queue_stats once every earlier input is processed.
  caf::reacts_to<barrier_atom, std::uint64_t, caf::actor>,
  /// Registers `to` for an `idle_atom` message whenever the queue goes idle.
  caf::reacts_to<subscribe_atom, caf::actor>,
  /// Current counters.
  caf::replies_to<stats_atom>::with<queue_stats>>;

/// The BINDER actor interface: Reserve, Permit, PreBind, Bind, PostBind.
using binder_actor = caf::typed_actor<
  /// Binds an assumed pod.
  caf::reacts_to<bind_atom, bind_request_ptr>,
  /// The sink finished binding `id` (code 0 = success) with `message`.
  caf::reacts_to<bind_done_atom, std::uint64_t, std::uint8_t, std::string>,
  /// Deletes a preemption's victims and ends the nominations it displaced.
  caf::reacts_to<evict_atom, eviction_ptr>,
  /// The sink finished deleting a victim of eviction `id` (code 0 =
  /// success) with `message`.
  caf::reacts_to<deleted_atom, std::uint64_t, std::uint8_t, std::string>>;

/// The CACHE actor interface: the only owner of cluster state.
using cache_actor = caf::typed_actor<
  /// Object changes from the source.
  caf::reacts_to<events_atom, object_events_ptr>,
  /// Publishes what the events before it changed (the cache sends it to
  /// itself).
  caf::reacts_to<flush_atom>,
  /// The source delivered its initial state.
  caf::reacts_to<synced_atom>,
  /// Validates and records a pod's placement.
  caf::replies_to<assume_atom, assume_request_ptr>::with<assume_reply_ptr>,
  /// The pod's binding succeeded (starts the assumed-pod TTL).
  caf::reacts_to<finish_atom, model::pod_ptr>,
  /// Drops an assumed pod whose binding failed.
  caf::reacts_to<forget_atom, model::pod_ptr>,
  /// The coordinator wants cluster views.
  caf::reacts_to<subscribe_atom, coordinator_actor>,
  /// Forwards a barrier to the queue after every earlier event.
  caf::reacts_to<barrier_atom, std::uint64_t, caf::actor>,
  /// Expires assumed pods past their deadline.
  caf::reacts_to<tick_atom>,
  /// Current counters.
  caf::replies_to<stats_atom>::with<cache_stats>>;

} // namespace tessera::actors
