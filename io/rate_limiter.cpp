// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/rate_limiter.hpp"

#include "support/log.hpp"

#include <algorithm>

namespace tessera::io {

rate_limiter::rate_limiter(double qps, std::int32_t burst, const clock& clk)
  : qps_(qps), burst_(std::max<std::int32_t>(burst, 1)), clock_(clk),
    tokens_(static_cast<double>(burst_)), last_(clk.now()) {
}

duration rate_limiter::reserve() {
  if (unlimited())
    return duration::zero();
  std::lock_guard guard{mutex_};
  time_point now = clock_.now();
  if (now > last_) {
    double elapsed = std::chrono::duration<double>(now - last_).count();
    tokens_ = std::min(static_cast<double>(burst_), tokens_ + elapsed * qps_);
    last_ = now;
  }
  tokens_ -= 1;
  if (tokens_ >= 0)
    return duration::zero();
  return std::chrono::duration_cast<duration>(
    std::chrono::duration<double>(-tokens_ / qps_));
}

bool rate_limiter::acquire() {
  if (unlimited())
    return !stopped_;
  duration wait = reserve();
  if (wait <= duration::zero())
    return !stopped_;
  if (wait > std::chrono::seconds(1))
    TLOG_V(1, "waited for client-side throttling", "wait_ms",
           std::chrono::duration_cast<std::chrono::milliseconds>(wait).count(),
           "qps", qps_, "burst", burst_);
  std::unique_lock lock{mutex_};
  // Real time: the sleep itself cannot follow an injected clock.
  wake_.wait_for(lock, wait, [this] { return stopped_.load(); });
  return !stopped_;
}

void rate_limiter::stop() {
  {
    std::lock_guard guard{mutex_};
    stopped_.store(true);
  }
  wake_.notify_all();
}

} // namespace tessera::io
