// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/accept_guard.hpp"

#include "support/flags.hpp"
#include "support/log.hpp"

#include <sys/resource.h>

#include <algorithm>

namespace tessera::io {

std::size_t derived_connection_limit(unsigned percent) {
  constexpr std::size_t floor = 8;
  constexpr std::size_t ceiling = 65536;
  rlimit rl{};
  if (::getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
    return ceiling;
  auto share = static_cast<std::size_t>(rl.rlim_cur) * percent / 100;
  return std::clamp(share, floor, ceiling);
}

accept_guard::slot& accept_guard::slot::operator=(slot&& o) noexcept {
  if (this != &o) {
    if (guard_ != nullptr)
      guard_->release();
    guard_ = o.guard_;
    o.guard_ = nullptr;
  }
  return *this;
}

accept_guard::slot::~slot() {
  if (guard_ != nullptr)
    guard_->release();
}

accept_guard::accept_guard(std::string server, accept_limits limits,
                           const clock& clk)
  : server_(std::move(server)), limits_(limits), clock_(clk),
    max_(limits.max_connections > 0
           ? limits.max_connections
           : derived_connection_limit(limits.fd_share_percent)) {
}

bool accept_guard::may_log(throttle& t, std::uint64_t& suppressed) {
  auto now = clock_.now();
  if (now < t.next) {
    ++t.suppressed;
    return false;
  }
  suppressed = t.suppressed;
  t.suppressed = 0;
  t.next = now + limits_.log_every;
  logged_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

bool accept_guard::has_room() {
  if (open_.load(std::memory_order_acquire) < max_)
    return true;
  std::uint64_t suppressed = 0;
  bool log = false;
  {
    std::lock_guard guard{mutex_};
    log = may_log(full_log_, suppressed);
  }
  if (log)
    TLOG_WARN("connection limit reached; waiting for a connection to close",
              "server", server_, "limit", max_, "suppressed", suppressed);
  return false;
}

accept_guard::slot accept_guard::accepted() {
  open_.fetch_add(1, std::memory_order_acq_rel);
  {
    std::lock_guard guard{mutex_};
    backoff_ = std::chrono::milliseconds(0);
  }
  return slot{this};
}

std::chrono::milliseconds accept_guard::failed(int code,
                                               const std::string& message) {
  errors_.fetch_add(1, std::memory_order_relaxed);
  std::uint64_t suppressed = 0;
  bool log = false;
  std::chrono::milliseconds wait;
  {
    std::lock_guard guard{mutex_};
    backoff_ = backoff_.count() == 0
                 ? limits_.backoff_initial
                 : std::min(backoff_ * 2, limits_.backoff_max);
    wait = backoff_;
    log = may_log(error_log_, suppressed);
  }
  if (log)
    TLOG_WARN("accept failed; backing off", "server", server_, "error", message,
              "errno", code, "backoff", format_duration(wait),
              "openConnections", open(), "suppressed", suppressed);
  return wait;
}

void accept_guard::release() noexcept {
  open_.fetch_sub(1, std::memory_order_acq_rel);
}

} // namespace tessera::io
