// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `run_pipeline`: runs the real actor pipeline over a `memory_cluster`
/// exactly as `tessera simulate` does (queue in one-shot mode, waited for
/// with `wait_until_idle`) and collects what the tests check: every pending
/// pod's outcome, the final pods, and the cache's counters.
#pragma once

#include "actors/interfaces.hpp"
#include "actors/memory_cluster.hpp"
#include "model/object.hpp"
#include "plugins/framework/profile.hpp"
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
  bool one_shot = true;
  /// Ask the coordinator for per-node details (simulate --explain).
  bool explain = false;
};

struct pipeline_run {
  /// False when the pipeline did not go idle within the time limit.
  bool idle = false;
  std::vector<actors::memory_cluster::pod_result> results;
  /// Every pod in the cluster at the end.
  std::vector<model::pod_ptr> pods;
  actors::cache_stats cache;
  double seconds = 0;
};

pipeline_run run_pipeline(const std::vector<model::object>& objects,
                          const plugins::profile_ptr& prof,
                          const pipeline_options& opts);

/// The default profile of test/support, for the pipeline tests.
using test::default_profile;

/// An integer from the environment, or `fallback`.
std::int64_t env_int(const char* name, std::int64_t fallback);

} // namespace tessera::pipeline_test
