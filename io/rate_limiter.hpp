// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `rate_limiter`: client-side request throttling as client-go does it — a
/// token bucket holding at most `burst` tokens, refilled at `qps` tokens per
/// second, full at start. Every request takes one token; when none is left
/// the caller waits until the bucket would hold one again (reservations may
/// drive the balance negative, so waiters are served in arrival order).
/// `qps <= 0` disables limiting entirely (tessera's "0 = unlimited").
///
/// Time comes from an injected `clock`; `reserve()` is the pure accounting
/// (tests drive it with a `manual_clock`), `acquire()` reserves and sleeps.
/// Thread-safe; `stop()` wakes every sleeper (shutdown).
#pragma once

#include "support/clock.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace tessera::io {

class rate_limiter {
public:
  /// `burst < 1` is treated as 1 when limiting is on.
  rate_limiter(double qps, std::int32_t burst,
               const clock& clk = system_clock::instance());

  /// Takes one token and returns how long the caller must wait before
  /// using it (zero when a token was available).
  duration reserve();

  /// Takes one token, sleeping as long as needed. Returns false when
  /// stop() interrupted the wait.
  bool acquire();

  /// Wakes every sleeper; later acquire() calls return false at once.
  void stop();

  bool unlimited() const noexcept {
    return qps_ <= 0;
  }
  double qps() const noexcept {
    return qps_;
  }
  std::int32_t burst() const noexcept {
    return burst_;
  }

private:
  double qps_;
  std::int32_t burst_;
  const clock& clock_;
  std::mutex mutex_;
  std::condition_variable wake_;
  double tokens_;
  time_point last_;
  std::atomic<bool> stopped_{false};
};

} // namespace tessera::io
