// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `clock`: the one way tessera code reads time, so that tests can inject a
/// `manual_clock` and drive backoff, expiry and timeouts deterministically.
#pragma once

#include <atomic>
#include <chrono>

namespace tessera {

/// Monotonic time point used for durations, deadlines and queue timestamps.
using time_point = std::chrono::steady_clock::time_point;
using duration = std::chrono::steady_clock::duration;

/// A source of monotonic and wall-clock time.
class clock {
public:
  virtual ~clock() = default;
  /// Monotonic now; use for every duration and deadline.
  virtual time_point now() const = 0;
  /// Wall-clock now; use only for timestamps shown to humans or the API.
  virtual std::chrono::system_clock::time_point wall_now() const = 0;
};

/// The real clocks.
class system_clock final : public clock {
public:
  time_point now() const override {
    return std::chrono::steady_clock::now();
  }
  std::chrono::system_clock::time_point wall_now() const override {
    return std::chrono::system_clock::now();
  }
  /// A process-wide instance for callers that take `const clock&`.
  static const system_clock& instance() {
    static const system_clock c;
    return c;
  }
};

/// A clock that moves only when told to; thread-safe.
class manual_clock final : public clock {
public:
  time_point now() const override {
    return time_point{duration{ticks_.load(std::memory_order_acquire)}};
  }
  std::chrono::system_clock::time_point wall_now() const override {
    return std::chrono::system_clock::time_point{
      std::chrono::duration_cast<std::chrono::system_clock::duration>(
        duration{ticks_.load(std::memory_order_acquire)})};
  }
  /// Moves time forward by `d`.
  void advance(duration d) {
    ticks_.fetch_add(d.count(), std::memory_order_acq_rel);
  }

private:
  std::atomic<duration::rep> ticks_{
    std::chrono::duration_cast<duration>(std::chrono::hours(24)).count()};
};

} // namespace tessera
