// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `accept_guard`: what keeps a server's accept loop alive under overload,
/// without Asio (the loops own the sockets and timers):
///
///   accept ok ──> take a slot ──> session ... slot released on close
///     │ no slot free (max_connections open): wait `full_wait`, try again
///     │ accept error: wait a backoff (doubling from `backoff_initial` to
///     │   `backoff_max`, reset by the next success) before accepting again
///     v
///   log lines about both are rate-limited: the first, then one per
///   `log_every` saying how many were suppressed
///
/// Running out of descriptors (EMFILE/ENFILE) fails every accept at once
/// while the pending connection stays in the backlog; an accept loop that
/// retried at once would spin and flood the log. The connection limit keeps
/// idle clients from taking every descriptor the rest of the process needs.
/// Thread-safe: slots are released from any I/O thread.
#pragma once

#include "support/clock.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

namespace tessera::io {

struct accept_limits {
  /// Connections open at once; 0 = derived from the descriptor limit
  /// (see `derived_connection_limit`).
  std::size_t max_connections = 0;
  /// Share of the soft RLIMIT_NOFILE a derived limit takes, in percent.
  unsigned fd_share_percent = 25;
  std::chrono::milliseconds backoff_initial{5};
  std::chrono::milliseconds backoff_max{1000};
  /// Between two checks of a full server for a free slot.
  std::chrono::milliseconds full_wait{20};
  /// At most one log line per this interval for each kind of trouble.
  std::chrono::milliseconds log_every{std::chrono::seconds(10)};
};

/// `percent` of the soft RLIMIT_NOFILE, at least 8 and at most 65536.
std::size_t derived_connection_limit(unsigned percent);

class accept_guard {
public:
  /// `server` names the server in log lines.
  accept_guard(std::string server, accept_limits limits,
               const clock& clk = system_clock::instance());
  accept_guard(const accept_guard&) = delete;
  accept_guard& operator=(const accept_guard&) = delete;

  /// One open connection's share of the limit; releases it when destroyed.
  class slot {
  public:
    slot() = default;
    explicit slot(accept_guard* g) : guard_(g) {
    }
    slot(slot&& o) noexcept : guard_(o.guard_) {
      o.guard_ = nullptr;
    }
    slot& operator=(slot&& o) noexcept;
    ~slot();
    slot(const slot&) = delete;
    slot& operator=(const slot&) = delete;

  private:
    accept_guard* guard_ = nullptr;
  };

  /// True when another connection may be accepted now; otherwise logs
  /// (rate-limited) and the caller waits `limits().full_wait`.
  bool has_room();
  /// Counts an accepted connection; resets the error backoff.
  [[nodiscard]] slot accepted();
  /// An accept failed with `message` (errno `code`): logs (rate-limited)
  /// and returns how long to wait before the next accept.
  std::chrono::milliseconds failed(int code, const std::string& message);

  std::size_t open() const noexcept {
    return open_.load(std::memory_order_relaxed);
  }
  std::size_t max_connections() const noexcept {
    return max_;
  }
  const accept_limits& limits() const noexcept {
    return limits_;
  }
  /// Accept errors seen and log lines they were allowed (tests).
  std::uint64_t errors() const noexcept {
    return errors_.load(std::memory_order_relaxed);
  }
  std::uint64_t logged() const noexcept {
    return logged_.load(std::memory_order_relaxed);
  }

private:
  /// Rate limit of one kind of log line.
  struct throttle {
    time_point next{};
    std::uint64_t suppressed = 0;
  };
  /// Whether a line may be logged now; `suppressed` gets how many were not.
  bool may_log(throttle& t, std::uint64_t& suppressed);
  void release() noexcept;

  std::string server_;
  accept_limits limits_;
  const clock& clock_;
  std::size_t max_;
  std::atomic<std::size_t> open_{0};
  std::atomic<std::uint64_t> errors_{0};
  std::atomic<std::uint64_t> logged_{0};
  std::mutex mutex_;
  std::chrono::milliseconds backoff_{0};
  throttle error_log_;
  throttle full_log_;
};

} // namespace tessera::io
