// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `admission`: which popped pod may begin its cycle now. Most pods start
/// at once, beside the other cycles in flight. A pod that must run alone —
/// it conflicted `max_conflicts` times in a row, or its preemption was
/// decided on a view other cycles may have changed — waits until no cycle
/// is in flight and keeps every later pod waiting until it is done, so it
/// sees a settled view and cannot starve.
///
///   offer ──may start──> started (alone or not)
///     │ an alone cycle runs or waits, or pods are held already
///     v
///   [held] ──next(), after a cycle ends──> started
///
/// Held pods keep the queue's order, except that a pod that must run alone
/// goes first.
#pragma once

#include "actors/messages.hpp"
#include "model/pod.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_set>

namespace tessera::actors {

class admission {
public:
  explicit admission(std::int32_t max_conflicts)
    : max_conflicts_(max_conflicts) {
  }

  /// A pod to start, and whether it runs alone.
  struct start {
    queued_pod_info item;
    bool alone = false;
  };

  /// A pod popped from the queue, with `inflight` cycles running: returned
  /// when it may start now, else held.
  std::optional<start> offer(queued_pod_info item, std::size_t inflight);
  /// The next held pod that may start now, if any. Call after a cycle ends
  /// (`ended` first), until it returns nothing.
  std::optional<start> next(std::size_t inflight);
  /// A cycle ended; `was_alone` releases the exclusivity it held.
  void ended(bool was_alone);

  /// The pod's next cycle runs alone (its preemption must be redone on a
  /// settled view).
  void redo_alone(const model::pod& p);

  std::size_t held() const noexcept {
    return held_.size();
  }

private:
  bool must_run_alone(const queued_pod_info& item) const;
  start begin(queued_pod_info item, bool alone);

  std::int32_t max_conflicts_;
  std::deque<queued_pod_info> held_;
  /// A cycle running alone is in flight.
  bool exclusive_ = false;
  /// Pods whose next cycle runs alone because of a stale preemption.
  std::unordered_set<std::string> redo_alone_;
};

} // namespace tessera::actors
