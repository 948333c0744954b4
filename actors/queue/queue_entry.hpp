// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `queue_entry`: what both queues (`queue_state`, `settling_queue_state`)
/// keep of every pod they hold — the pod, its place in the pop order and
/// its attempts. Each queue derives its own entry and adds where the pod is.
#pragma once

#include "actors/messages.hpp"
#include "plugins/framework/plugin.hpp"
#include "support/clock.hpp"

#include <chrono>
#include <cstdint>

namespace tessera::actors {

struct queue_entry {
  model::pod_ptr pod;
  /// When it last entered the queue (monotonic ns): the order's arrival.
  std::int64_t timestamp_ns = 0;
  /// Arrival sequence, the order's final tie-break.
  std::uint64_t sequence = 0;
  /// Scheduling attempts so far.
  std::int32_t attempts = 0;
  /// When it first entered the queue (the SLI's start).
  std::int64_t initial_ns = 0;
  /// Its profile: an index into the queue's profiles.
  std::uint32_t profile = 0;
  /// The queue's cycle number at its last pop.
  std::uint64_t popped_cycle = 0;
  /// The leftover timeout once moved it out of the unschedulable pool.
  bool flushed = false;

  /// A first arrival at `now_ns` as the queue's `sequence`th pod.
  void arrive(std::uint64_t seq, std::int64_t now_ns) {
    sequence = seq;
    timestamp_ns = now_ns;
    initial_ns = now_ns;
  }

  plugins::queued_pod position() const {
    return {pod.get(), timestamp_ns, sequence};
  }

  /// Counts a pop as attempt and cycle `cycle`; what the coordinator gets.
  queued_pod_info popped(std::uint64_t cycle) {
    ++attempts;
    popped_cycle = cycle;
    return {pod, attempts, popped_cycle, initial_ns, profile, flushed};
  }
};

/// The queues' time stamps: nanoseconds since `c`'s epoch.
inline std::int64_t now_ns(const clock& c) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
           c.now().time_since_epoch())
    .count();
}

} // namespace tessera::actors
