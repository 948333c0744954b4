// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// How CAF's idle scheduler workers look for work.
///
/// A message to an idle actor puts the actor on the sending worker's own
/// queue and wakes nobody: another worker gets it only by stealing. CAF's
/// defaults (the values below) steal on every 10th spin and every 5th
/// 50 µs sleep, slept as about 100 µs under Linux's default 50 µs timer
/// slack. So when the coordinator asks two shards to filter, or hands a pod
/// to the binder, the second core joins hundreds of µs late and the first
/// runs the work one piece after another.
///
/// `eager()` steals at every poll and sleeps 10 µs between polls with a 1 µs
/// timer slack, for about 1 ms before CAF's condition-variable waits. It
/// keeps both cores busy when the actors are all the process runs
/// (`simulate`, `perf --target inprocess`); where HTTP threads share the
/// cores (`run`, `perf` over HTTP) the polling takes CPU they need, and
/// CAF's defaults measured as well or better (docs/architecture.md,
/// "Scheduler threads"; figures in docs/benchmarks.md).
#pragma once

#include <chrono>
#include <cstddef>

namespace caf {
class actor_system_config;
}

namespace tessera::actors {

struct worker_polling {
  /// Polls without sleeping, stealing every `aggressive_steal_interval`.
  std::size_t aggressive_polls = 100;
  std::size_t aggressive_steal_interval = 10;
  /// Then polls with a sleep of `moderate_sleep` before each.
  std::size_t moderate_polls = 500;
  std::size_t moderate_steal_interval = 5;
  std::chrono::microseconds moderate_sleep{50};
  /// Then condition-variable waits of `relaxed_sleep` (woken early only by
  /// work from outside the actor system), stealing after each timeout.
  std::chrono::milliseconds relaxed_sleep{10};
  /// The scheduler threads' timer slack (prctl PR_SET_TIMERSLACK); 0 keeps
  /// the one they inherit.
  std::chrono::nanoseconds timer_slack{0};

  /// For processes whose cores belong to the actors.
  static worker_polling eager() noexcept;
};

/// Writes `p` into CAF's work-stealing settings and installs a thread hook
/// that names CAF's threads "actors" and applies `p`'s timer slack (if any).
/// Call before the actor_system is constructed.
void apply_worker_polling(caf::actor_system_config& cfg,
                          const worker_polling& p);

} // namespace tessera::actors
