// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `scheduler_host`: one scheduler — a CAF actor system and the pipeline of
/// `actors/pipeline.hpp` — running in the harness's process against a
/// source and a sink, as `tessera run` runs it. The only file of the
/// harness that sees CAF (the header does not).
#pragma once

#include "actors/sink.hpp"
#include "actors/source.hpp"
#include "metrics/fwd.hpp"
#include "plugins/framework/profile.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

namespace tessera::perf {

/// What the scheduler runs with (from --config and the knob flags).
struct scheduler_settings {
  std::vector<plugins::profile_ptr> profiles;
  std::size_t shards = 1;
  std::size_t max_inflight_cycles = 1;
  std::size_t bind_concurrency = 64;
  /// CAF scheduler threads; 0 = the machine's cores.
  std::size_t threads = 0;
  /// Idle scheduler threads poll eagerly (actors::worker_polling::eager()):
  /// for targets where no HTTP threads share the cores.
  bool eager_polling = false;
  std::uint64_t seed = 0;
  /// podInitialBackoffSeconds / podMaxBackoffSeconds.
  std::chrono::seconds initial_backoff{1};
  std::chrono::seconds max_backoff{10};
  /// The SchedulerPopFromBackoffQ gate.
  bool pop_from_backoff = true;
  /// The OpportunisticBatching gate.
  bool batching = true;
  /// Where the pipeline records (not owned); null = recording off.
  metrics::scheduler_metrics* metrics = nullptr;
};

class scheduler_host {
public:
  /// Spawns the actors and starts the source. Source and sink must outlive
  /// the host.
  scheduler_host(const scheduler_settings& settings,
                 actors::cluster_source& source, actors::cluster_sink& sink);
  /// stop().
  ~scheduler_host();
  scheduler_host(const scheduler_host&) = delete;
  scheduler_host& operator=(const scheduler_host&) = delete;

  /// The cache's assume conflicts so far (0 when it does not answer).
  std::uint64_t assume_conflicts();
  /// Whether the cache received the source's initial state.
  bool synced();
  /// Nodes in the scheduler's cache.
  std::size_t cached_nodes();
  /// Stops the source and the actors and waits for them.
  void stop();

  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

} // namespace tessera::perf
