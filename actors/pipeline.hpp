// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `pipeline`: spawns and wires tessera's actors — cache, queue, shards,
/// coordinator, binder — around a source and a sink. Every verb that
/// schedules (`run`, `simulate`, `perf`) starts the pipeline through here, so
/// they all exercise the same actors.
#pragma once

#include "actors/cache/cache_state.hpp"
#include "actors/interfaces.hpp"
#include "actors/queue/queue_state.hpp"
#include "actors/sink.hpp"
#include "actors/source.hpp"
#include "actors/worker_polling.hpp"
#include "metrics/fwd.hpp"
#include "plugins/framework/profile.hpp"
#include "support/clock.hpp"

#include <caf/fwd.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace tessera::actors {

/// Where a pod goes after a failed cycle: the queue the pipeline runs.
enum class requeue_policy {
  /// kube-scheduler's queue (`queue_state`): backoff, the unschedulable pool
  /// and queueing hints, as `tessera run` schedules.
  live,
  /// simulate's queue (`settling_queue_state`): each pod is tried in queue
  /// order until it is placed or finally unschedulable.
  settle,
};

struct pipeline_config {
  std::size_t shards = 1;
  std::size_t max_inflight_cycles = 1;
  std::size_t bind_concurrency = 64;
  std::uint64_t seed = 0;
  bool explain = false;
  std::int32_t max_conflicts = 3;
  /// Opportunistic batching (the OpportunisticBatching gate, on by default
  /// in the verbs; off here so that tests ask for it).
  bool batching = false;
  requeue_policy requeue = requeue_policy::live;
  /// The live queue's settings (its metrics are `metrics` below).
  queue_config queue;
  /// Assumed-pod TTL after binding (0 = never, upstream's default).
  duration assumed_ttl{0};
  /// How often the queue flushes backoffQ / leftovers.
  duration tick = std::chrono::seconds(1);
  /// Where the actors record (not owned); null = recording off. Handed to
  /// each role's config. stop_pipeline only asks the actors to exit, and the
  /// timed profiles of sampled cycles keep a reference to it, so it must
  /// outlive the actor system's wait for its actors.
  metrics::scheduler_metrics* metrics = nullptr;
};

/// The spawned actors.
struct pipeline {
  cache_actor cache;
  queue_actor queue;
  coordinator_actor coordinator;
  binder_actor binder;
  std::vector<shard_actor> shards;
};

/// Spawns the actors and starts `source`; the source and sink must outlive
/// the pipeline. Profiles must be non-empty.
pipeline start_pipeline(caf::actor_system& sys, const pipeline_config& cfg,
                        std::vector<plugins::profile_ptr> profiles,
                        cluster_source& source, cluster_sink& sink,
                        const clock& clk);

/// Blocks until the queue has nothing active, backing off, in flight or
/// waiting (checked with a barrier that follows every event the cache has
/// forwarded). Returns false when `timeout` passes first.
bool wait_until_idle(caf::actor_system& sys, const pipeline& p,
                     duration timeout);

/// The cache's counters (nodes, pods, conflicts, ...); blocks for the reply.
/// Returns nullopt when the cache does not answer within `timeout`.
std::optional<cache_stats>
read_cache_stats(caf::actor_system& sys, const pipeline& p, duration timeout);

/// Stops the source and terminates every actor.
void stop_pipeline(pipeline& p, cluster_source& source);

/// The default number of CAF scheduler threads: the machine's cores.
std::size_t default_worker_threads();

/// Configures CAF's scheduler before the actor system starts: `threads`
/// workers (0 = cores) whose idle polling `polling` sets (CAF's defaults
/// unless given; see worker_polling.hpp).
void configure_scheduler(caf::actor_system_config& cfg, std::size_t threads,
                         const worker_polling& polling = {});

} // namespace tessera::actors
