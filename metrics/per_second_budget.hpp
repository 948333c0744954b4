// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `per_second_budget`: admits at most `limit` events in each window of one
/// second and refuses the rest. It is the cap kube-scheduler's asynchronous
/// metrics recorder puts on plugin durations: its buffer holds 1,000
/// observations, is drained once a second, and an observation that does not
/// fit is dropped. tessera asks before it measures, so a refused plugin call
/// is not timed at all — what keeps the sampled timing off the hot path when
/// a sampled cycle makes tens of thousands of calls.
///
/// Threads take admissions from the window in chunks, so the shared count
/// is written once per chunk, and a spent window costs a read of a line
/// that rarely changes. A window begins in `renew(now)`, which the one
/// starting timed work calls (the coordinator, once per sampled cycle); a
/// chunk a thread kept from an earlier window is dropped. Over a window the
/// admissions never exceed the limit.
#pragma once

#include <atomic>
#include <cstdint>

namespace tessera::metrics {

class per_second_budget {
public:
  /// Admissions a thread takes from the window at once.
  static constexpr std::int64_t chunk = 16;

  /// `limit` 0 admits everything.
  explicit per_second_budget(std::uint32_t limit);
  per_second_budget(const per_second_budget&) = delete;
  per_second_budget& operator=(const per_second_budget&) = delete;

  /// Sets the limit and refills the current window.
  void set_limit(std::uint32_t limit) noexcept;

  /// Begins a new window when the current one began a second or more
  /// before `now_ns` (any monotonic clock, in ns); true when the window
  /// has admissions left.
  bool renew(std::uint64_t now_ns) noexcept;

  /// One admission for the calling thread, or false when the window is
  /// spent.
  bool take() noexcept;

private:
  const std::uint64_t id_;
  std::atomic<std::uint32_t> limit_;
  std::atomic<std::int64_t> remaining_;
  std::atomic<std::uint64_t> window_{1};
  /// `never` until the first renew().
  static constexpr std::uint64_t never = ~std::uint64_t{0};
  std::atomic<std::uint64_t> window_began_ns_{never};
};

} // namespace tessera::metrics
