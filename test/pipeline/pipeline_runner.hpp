// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `run_pipeline`: runs the real actor pipeline over a `memory_cluster` and
/// collects what the tests check: every pending pod's outcome, the final
/// pods, and the cache's counters. Two queues:
///   - the settling queue, exactly as `tessera simulate` runs it (waited for
///     with `wait_until_idle`);
///   - live, the queue `tessera run` uses, on a manual clock: whenever the
///     pipeline has nothing to do but wait out backoffs, the runner moves
///     the clock past them, so backoffs cost no wall time. The run ends when
///     only the unschedulable pool is left (no event will come).
#pragma once

#include "actors/interfaces.hpp"
#include "actors/memory_cluster.hpp"
#include "actors/pipeline.hpp"
#include "metrics/fwd.hpp"
#include "model/object.hpp"
#include "plugins/framework/profile.hpp"
#include "test/pipeline/placement_checker.hpp"
#include "test/support/default_profile.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::pipeline_test {

struct pipeline_options {
  std::size_t shards = 1;
  std::size_t inflight = 1;
  std::uint64_t seed = 0;
  /// CAF scheduler threads.
  std::size_t threads = 2;
  /// live: the live queue on a manual clock (see the file comment).
  actors::requeue_policy requeue = actors::requeue_policy::settle;
  /// Ask the coordinator for per-node details (simulate --explain).
  bool explain = false;
  /// Where the actors record (not owned); null = recording off.
  metrics::scheduler_metrics* metrics = nullptr;
  /// Every n-th victim deletion fails (0: none; see memory_cluster).
  std::size_t fail_every_nth_deletion = 0;
  /// Opportunistic batching.
  bool batching = false;
};

struct pipeline_run {
  /// False when the pipeline did not go idle within the time limit.
  bool idle = false;
  std::vector<actors::memory_cluster::pod_result> results;
  /// Every pod in the cluster at the end.
  std::vector<model::pod_ptr> pods;
  actors::cache_stats cache;
  /// PreBind's volume writes, in call order.
  std::vector<actors::memory_cluster::volume_write> volume_writes;
  /// Victim deletions the cluster refused (pipeline_options).
  std::size_t refused_deletions = 0;
  double seconds = 0;
};

pipeline_run run_pipeline(const std::vector<model::object>& objects,
                          const plugins::profile_ptr& prof,
                          const pipeline_options& opts);

/// The run's volume writes as the placement checker reads them.
std::vector<volume_write_record> volume_write_records(const pipeline_run& run);

/// The default profile of test/support, for the pipeline tests.
using test::default_profile;

/// An integer from the environment, or `fallback`.
std::int64_t env_int(const char* name, std::int64_t fallback);

} // namespace tessera::pipeline_test
