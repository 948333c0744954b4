// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/leader_election.hpp"

#include "io/rest_client.hpp"
#include "support/flags.hpp"
#include "support/log.hpp"
#include "support/uuid.hpp"

#include <cstdio>
#include <random>
#include <unistd.h>

namespace tessera::io {

// rest_lease_client

rest_lease_client::rest_lease_client(rest_client& client, std::string ns,
                                     std::string name)
  : client_(client), ns_(std::move(ns)), name_(std::move(name)) {
}

expected<std::optional<lease_record>> rest_lease_client::get() {
  return client_.get_lease(ns_, name_);
}

expected<lease_record> rest_lease_client::create(const lease_record& r) {
  return client_.create_lease(ns_, name_, r);
}

expected<lease_record> rest_lease_client::update(const lease_record& r) {
  return client_.update_lease(ns_, name_, r);
}

// helpers

error validate(const leader_election_timing& t) {
  auto bad = [](const char* flag, const std::string& why) {
    return make_error(ec::invalid_input, std::string{"--"} + flag + ": " + why);
  };
  if (t.lease_duration.count() <= 0)
    return bad("leader-elect-lease-duration", "must be greater than zero");
  if (t.renew_deadline.count() <= 0)
    return bad("leader-elect-renew-deadline", "must be greater than zero");
  if (t.retry_period.count() <= 0)
    return bad("leader-elect-retry-period", "must be greater than zero");
  if (t.lease_duration <= t.renew_deadline)
    return bad("leader-elect-lease-duration",
               format_duration(t.lease_duration)
                 + " must be greater than the renew deadline "
                 + format_duration(t.renew_deadline));
  if (static_cast<double>(t.renew_deadline.count())
      <= 1.2 * static_cast<double>(t.retry_period.count()))
    return bad("leader-elect-renew-deadline",
               format_duration(t.renew_deadline)
                 + " must be greater than 1.2 x the retry period "
                 + format_duration(t.retry_period));
  return {};
}

std::string make_leader_identity() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0 || host[0] == '\0')
    std::snprintf(host, sizeof host, "localhost");
  std::random_device rd;
  std::mt19937_64 gen{(static_cast<std::uint64_t>(rd()) << 32) ^ rd()};
  std::uint64_t a = gen();
  std::uint64_t b = gen();
  return std::string{host} + "_" + format_uuid_v4(a, b);
}

// leader_elector

leader_elector::leader_elector(lease_client& lease, std::string identity,
                               leader_election_timing timing, const clock& clk)
  : lease_(lease), identity_(std::move(identity)), timing_(timing),
    clock_(clk) {
}

bool leader_elector::is_leader() const {
  std::lock_guard guard{mutex_};
  return observed_ && observed_->holder_identity == identity_;
}

bool leader_elector::holds_lease() const {
  std::lock_guard guard{mutex_};
  return observed_ && observed_->holder_identity == identity_ && last_renewal_
         && clock_.now() - *last_renewal_ < timing_.lease_duration;
}

std::string leader_elector::observed_holder() const {
  std::lock_guard guard{mutex_};
  return observed_ ? observed_->holder_identity : std::string{};
}

std::optional<time_point> leader_elector::last_renewal() const {
  std::lock_guard guard{mutex_};
  return last_renewal_;
}

bool leader_elector::lease_valid(time_point now) const {
  if (!observed_)
    return false;
  return observed_time_
           + std::chrono::seconds(observed_->lease_duration_seconds)
         > now;
}

void leader_elector::observe(const lease_record& r, time_point now) {
  std::lock_guard guard{mutex_};
  observed_ = r;
  observed_time_ = now;
}

bool leader_elector::try_acquire_or_renew() {
  time_point now = clock_.now();
  // MicroTime precision, as the API stores it.
  wall_time wall = std::chrono::time_point_cast<std::chrono::microseconds>(
    clock_.wall_now());
  lease_record want;
  want.holder_identity = identity_;
  want.lease_duration_seconds = static_cast<std::int32_t>(
    std::chrono::duration_cast<std::chrono::seconds>(timing_.lease_duration)
      .count());
  want.acquire_time = wall;
  want.renew_time = wall;

  std::optional<lease_record> seen;
  bool leading = false;
  bool valid = false;
  {
    std::lock_guard guard{mutex_};
    seen = observed_;
    leading = observed_ && observed_->holder_identity == identity_;
    valid = lease_valid(now);
  }
  // Fast path: still the holder, the lease still valid: update directly.
  if (leading && valid) {
    lease_record r = want;
    r.acquire_time = seen->acquire_time;
    r.lease_transitions = seen->lease_transitions;
    r.resource_version = seen->resource_version;
    auto updated = lease_.update(r);
    if (updated) {
      observe(*updated, now);
      std::lock_guard guard{mutex_};
      last_renewal_ = now;
      return true;
    }
    TLOG_V(2, "optimistic lease update failed; reading it", "err",
           updated.err().message);
  }
  auto current = lease_.get();
  if (!current) {
    TLOG_WARN("error retrieving the lease", "err", current.err().message);
    return false;
  }
  if (!*current) {
    auto created = lease_.create(want);
    if (!created) {
      TLOG_WARN("error creating the lease", "err", created.err().message);
      return false;
    }
    observe(*created, now);
    std::lock_guard guard{mutex_};
    last_renewal_ = now;
    return true;
  }
  const lease_record& old = **current;
  {
    std::lock_guard guard{mutex_};
    if (!observed_ || !observed_->same_record(old)) {
      observed_ = old;
      observed_time_ = now;
    } else {
      observed_->resource_version = old.resource_version;
    }
    leading = observed_->holder_identity == identity_;
    valid = lease_valid(now);
  }
  if (!old.holder_identity.empty() && valid && !leading) {
    TLOG_V(4, "lease is held by another candidate", "holder",
           old.holder_identity);
    return false;
  }
  lease_record r = want;
  if (leading) {
    r.acquire_time = old.acquire_time;
    r.lease_transitions = old.lease_transitions;
  } else {
    r.lease_transitions = old.lease_transitions + 1;
  }
  r.resource_version = old.resource_version;
  auto updated = lease_.update(r);
  if (!updated) {
    TLOG_V(2, "failed to update the lease", "err", updated.err().message);
    return false;
  }
  observe(*updated, now);
  std::lock_guard guard{mutex_};
  last_renewal_ = now;
  return true;
}

bool leader_elector::release() {
  std::optional<lease_record> seen;
  {
    std::lock_guard guard{mutex_};
    if (!observed_ || observed_->holder_identity != identity_)
      return true;
    seen = observed_;
  }
  wall_time wall = std::chrono::time_point_cast<std::chrono::microseconds>(
    clock_.wall_now());
  lease_record r;
  r.holder_identity.clear();
  r.lease_duration_seconds = 1;
  r.acquire_time = wall;
  r.renew_time = wall;
  r.lease_transitions = seen->lease_transitions;
  r.resource_version = seen->resource_version;
  auto updated = lease_.update(r);
  if (!updated) {
    TLOG_ERROR("failed to release the lease", "err", updated.err().message);
    return false;
  }
  observe(*updated, clock_.now());
  TLOG_INFO("released the lease", "identity", identity_);
  return true;
}

bool leader_elector::sleep_for(std::chrono::milliseconds d) {
  std::unique_lock lock{mutex_};
  wake_.wait_for(lock, d, [this] { return stopping_.load(); });
  return !stopping_.load();
}

void leader_elector::stop() {
  {
    std::lock_guard guard{mutex_};
    stopping_.store(true);
  }
  wake_.notify_all();
}

leader_elector::outcome
leader_elector::run(const std::function<void()>& on_started) {
  std::mt19937_64 gen{std::random_device{}()};
  std::uniform_real_distribution<double> jitter{0.0, 1.2};
  TLOG_INFO("attempting to acquire the leader lease", "identity", identity_);
  for (;;) {
    if (stopping_.load())
      return outcome::stopped;
    if (try_acquire_or_renew())
      break;
    auto wait = std::chrono::milliseconds(static_cast<std::int64_t>(
      static_cast<double>(timing_.retry_period.count()) * (1.0 + jitter(gen))));
    if (!sleep_for(wait))
      return outcome::stopped;
  }
  TLOG_INFO("successfully acquired the lease", "identity", identity_);
  if (stopping_.load()) {
    release();
    return outcome::stopped;
  }
  if (on_started)
    on_started();
  for (;;) {
    if (!sleep_for(timing_.retry_period))
      break;
    time_point deadline = clock_.now() + timing_.renew_deadline;
    bool renewed = false;
    for (;;) {
      if (try_acquire_or_renew()) {
        renewed = true;
        break;
      }
      if (stopping_.load() || clock_.now() >= deadline)
        break;
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - clock_.now());
      if (!sleep_for(std::min(timing_.retry_period, left)))
        break;
    }
    if (stopping_.load())
      break;
    if (!renewed) {
      TLOG_ERROR("leader election lost", "identity", identity_);
      return outcome::lost;
    }
  }
  release();
  return outcome::stopped;
}

} // namespace tessera::io
