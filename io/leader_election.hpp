// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `leader_elector`: leader election on a coordination.k8s.io/v1 Lease with
/// client-go's algorithm and kube-scheduler's timings (15 s lease, 10 s
/// renew deadline, 2 s retry period; docs/apiserver-protocol.md §5.5):
///
///   acquire: every retryPeriod (+ up to 120 % jitter) try_acquire_or_renew
///            until it succeeds ────────────────> leading
///   renew:   every retryPeriod; when no attempt succeeded for renewDeadline
///            ────────────────> lost (the scheduler exits non-zero)
///   stop:    release (holder "", leaseDurationSeconds 1) ──> others take
///            over at once
///
/// One attempt (`try_acquire_or_renew`): as the holder with a lease still
/// valid, update it directly; otherwise GET it — create it when missing;
/// refuse when another holder's lease is still valid, measured from when
/// *this* elector last saw the record change (its own clock, never the
/// other's timestamps); else take it over with an update carrying the read
/// resourceVersion (a 409 means someone else won). Keeps acquireTime and
/// leaseTransitions while holding it, bumps the transitions on takeover.
///
/// The Lease calls go through `lease_client` (tests inject one); time comes
/// from an injected clock, so the decision logic is tested with a
/// `manual_clock` step by step. `run()` is the blocking loop for a thread.
#pragma once

#include "io/api_objects.hpp"
#include "io/fwd.hpp"
#include "support/clock.hpp"
#include "support/error.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace tessera::io {

/// The three Lease calls leader election makes.
class lease_client {
public:
  virtual ~lease_client() = default;
  /// nullopt when the Lease does not exist.
  virtual expected<std::optional<lease_record>> get() = 0;
  /// ec::conflict when it exists already.
  virtual expected<lease_record> create(const lease_record& r) = 0;
  /// Precondition r.resource_version; ec::conflict when stale.
  virtual expected<lease_record> update(const lease_record& r) = 0;
};

/// `lease_client` over a rest_client for Lease ns/name.
class rest_lease_client final : public lease_client {
public:
  rest_lease_client(rest_client& client, std::string ns, std::string name);
  expected<std::optional<lease_record>> get() override;
  expected<lease_record> create(const lease_record& r) override;
  expected<lease_record> update(const lease_record& r) override;

private:
  rest_client& client_;
  std::string ns_;
  std::string name_;
};

struct leader_election_timing {
  std::chrono::milliseconds lease_duration{15000};
  std::chrono::milliseconds renew_deadline{10000};
  std::chrono::milliseconds retry_period{2000};
};

/// Checks leaseDuration > renewDeadline > retryPeriod x 1.2 (client-go's
/// JitterFactor) and positivity; the message names the offending flag.
[[nodiscard]] error validate(const leader_election_timing& t);

/// `<hostname>_<random UUID v4>`, kube-scheduler's holder identity.
std::string make_leader_identity();

class leader_elector {
public:
  leader_elector(lease_client& lease, std::string identity,
                 leader_election_timing timing,
                 const clock& clk = system_clock::instance());

  /// One attempt; true when this elector holds the lease afterwards.
  bool try_acquire_or_renew();
  /// Gives the lease up if held (holder "", duration 1 s); true on success
  /// or when not holding it.
  bool release();

  /// Whether the last observed record names this elector.
  bool is_leader() const;
  /// Whether this elector may act as the leader right now: it leads and its
  /// last successful renewal began less than the lease duration ago, on the
  /// monotonic clock. Others take over only once the lease has gone
  /// unrenewed that long as they observe it, so a leader that was paused
  /// (SIGSTOP, a long GC-like stall) stops acting the moment it resumes,
  /// before its renewal loop notices the loss. Cheap; call it before every
  /// write.
  bool holds_lease() const;
  /// When the last successful renewal happened (readiness watchdogs).
  std::optional<time_point> last_renewal() const;
  const std::string& identity() const noexcept {
    return identity_;
  }
  /// The holder the last observed record names ("" when none).
  std::string observed_holder() const;

  enum class outcome : std::uint8_t {
    /// stop() was called (after leading or before); the lease is released.
    stopped,
    /// Renewal failed for renewDeadline: leadership was lost.
    lost,
  };
  /// Acquires (retrying), calls `on_started` once leading, renews until
  /// stop() or loss, releases on stop. Blocks; for a dedicated thread.
  outcome run(const std::function<void()>& on_started);
  /// Ends run() (from any thread).
  void stop();

private:
  bool lease_valid(time_point now) const;
  void observe(const lease_record& r, time_point now);
  /// Sleeps in real time; false when stopped.
  bool sleep_for(std::chrono::milliseconds d);

  lease_client& lease_;
  std::string identity_;
  leader_election_timing timing_;
  const clock& clock_;
  mutable std::mutex mutex_;
  std::optional<lease_record> observed_;
  time_point observed_time_{};
  std::optional<time_point> last_renewal_;
  std::condition_variable wake_;
  std::atomic<bool> stopping_{false};
};

} // namespace tessera::io
