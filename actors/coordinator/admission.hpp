// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `admission`: which popped pod may begin its cycle now, and the retry
/// history that decides it. Most pods start at once, beside the other
/// cycles in flight. A pod that must run alone — its cycles were retried
/// `max_retries` times in a row, or its preemption was decided on a view
/// other cycles may have changed — waits until no cycle is in flight and
/// keeps every later pod waiting until it is done, so it sees a settled
/// view and cannot starve.
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
#include <unordered_map>

namespace tessera::actors {

class admission {
public:
  explicit admission(std::int32_t max_retries) : max_retries_(max_retries) {
  }

  /// A pod to start, whether it runs alone, and how many of its cycles in a
  /// row were retried before this one.
  struct start {
    queued_pod_info item;
    bool alone = false;
    std::int32_t retries = 0;
  };

  /// A pod popped from the queue, with `inflight` cycles running: returned
  /// when it may start now, else held.
  std::optional<start> offer(queued_pod_info item, std::size_t inflight);
  /// The next held pod that may start now, if any. Call after a cycle ends
  /// (`ended` first), until it returns nothing.
  std::optional<start> next(std::size_t inflight);
  /// A cycle of `pod` ended as `type` (with `retry` for kind::retry);
  /// `was_alone` releases the exclusivity it held. A decided cycle ends the
  /// pod's retry history; an error keeps it.
  void ended(const model::pod& pod, cycle_outcome::kind type,
             retry_reason retry, bool was_alone);
  /// The pod left (deleted, or bound by someone else).
  void forget(const model::pod& pod);

  std::size_t held() const noexcept {
    return held_.size();
  }
  /// Pods with a retry history (tests; it must not grow without bound).
  std::size_t retrying() const noexcept {
    return retrying_.size();
  }

private:
  struct history {
    std::int32_t retries = 0;
    /// The next cycle runs alone: its preemption must be redone on a
    /// settled view.
    bool redo_alone = false;
  };

  history* history_of(const queued_pod_info& item);
  bool must_run_alone(const history* h) const;
  start begin(queued_pod_info item, history* h);

  std::int32_t max_retries_;
  std::deque<queued_pod_info> held_;
  /// A cycle running alone is in flight.
  bool exclusive_ = false;
  /// By pod key: pods whose last cycles were retried.
  std::unordered_map<std::string, history> retrying_;
};

} // namespace tessera::actors
