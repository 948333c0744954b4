// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/apiserver/resources.hpp"
#include "io/apiserver/server.hpp"
#include "io/apiserver/store.hpp"
#include "io/leader_election.hpp"
#include "io/rest_client.hpp"
#include "test/support/api_client.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace tessera::io {
namespace {

using namespace std::chrono_literals;

/// An in-memory Lease with the API server's optimistic concurrency.
class fake_lease final : public lease_client {
public:
  expected<std::optional<lease_record>> get() override {
    ++gets;
    if (fail_next) {
      fail_next = false;
      return make_error(ec::unavailable, "connection refused");
    }
    return stored;
  }
  expected<lease_record> create(const lease_record& r) override {
    if (stored)
      return make_error(ec::conflict, "already exists");
    stored = r;
    stored->resource_version = std::to_string(++rv);
    return *stored;
  }
  expected<lease_record> update(const lease_record& r) override {
    ++updates;
    if (!stored)
      return make_error(ec::not_found, "not found");
    if (r.resource_version != stored->resource_version)
      return make_error(ec::conflict, "the object has been modified");
    stored = r;
    stored->resource_version = std::to_string(++rv);
    return *stored;
  }
  std::optional<lease_record> stored;
  int rv = 100;
  int gets = 0;
  int updates = 0;
  bool fail_next = false;
};

leader_election_timing timing() {
  return {15s, 10s, 2s};
}

TEST(LeaderElection, AcquireRenewTakeOverRelease) {
  manual_clock clk;
  fake_lease lease;
  leader_elector a{lease, "host-a_1", timing(), clk};
  leader_elector b{lease, "host-b_2", timing(), clk};

  // A creates the lease and leads.
  ASSERT_TRUE(a.try_acquire_or_renew());
  EXPECT_TRUE(a.is_leader());
  ASSERT_TRUE(lease.stored);
  EXPECT_EQ(lease.stored->holder_identity, "host-a_1");
  EXPECT_EQ(lease.stored->lease_duration_seconds, 15);
  EXPECT_EQ(lease.stored->lease_transitions, 0);
  auto acquired = lease.stored->acquire_time;

  // B is refused while A's lease is valid (as B observes it).
  EXPECT_FALSE(b.try_acquire_or_renew());
  EXPECT_EQ(b.observed_holder(), "host-a_1");

  // A renews: the fast path updates without reading, keeping acquireTime
  // and transitions.
  clk.advance(2s);
  int gets = lease.gets;
  ASSERT_TRUE(a.try_acquire_or_renew());
  EXPECT_EQ(lease.gets, gets);
  EXPECT_EQ(lease.stored->acquire_time, acquired);
  EXPECT_GT(*lease.stored->renew_time, *acquired);

  // B saw the record change at +2 s; 14 s later it is still valid...
  EXPECT_FALSE(b.try_acquire_or_renew());
  clk.advance(14s);
  EXPECT_FALSE(b.try_acquire_or_renew());
  // ... and once 15 s passed since B last saw it change, B takes over.
  clk.advance(2s);
  ASSERT_TRUE(b.try_acquire_or_renew());
  EXPECT_TRUE(b.is_leader());
  EXPECT_EQ(lease.stored->holder_identity, "host-b_2");
  EXPECT_EQ(lease.stored->lease_transitions, 1);

  // A's renewal now fails: its optimistic update is stale (409), and the
  // lease it reads is B's, still valid.
  EXPECT_FALSE(a.try_acquire_or_renew());
  EXPECT_FALSE(a.is_leader());

  // B releases: holder "" and 1 s, so A takes over at once.
  ASSERT_TRUE(b.release());
  EXPECT_EQ(lease.stored->holder_identity, "");
  EXPECT_EQ(lease.stored->lease_duration_seconds, 1);
  EXPECT_FALSE(b.is_leader());
  EXPECT_TRUE(b.release()); // not holding: nothing to do
  ASSERT_TRUE(a.try_acquire_or_renew());
  EXPECT_EQ(lease.stored->holder_identity, "host-a_1");
  EXPECT_EQ(lease.stored->lease_transitions, 2);
}

// A leader paused past its lease (no renewal ran) must stop acting as one
// on its own clock, before any renewal attempt tells it another took over.
TEST(LeaderElection, PausedLeaderStopsHoldingTheLeaseOnItsOwnClock) {
  manual_clock clk;
  fake_lease lease;
  leader_elector a{lease, "host-a_1", timing(), clk};
  leader_elector b{lease, "host-b_2", timing(), clk};
  EXPECT_FALSE(a.holds_lease());
  ASSERT_TRUE(a.try_acquire_or_renew());
  EXPECT_TRUE(a.holds_lease());
  EXPECT_FALSE(b.try_acquire_or_renew());
  EXPECT_FALSE(b.holds_lease());

  clk.advance(14999ms);
  EXPECT_TRUE(a.holds_lease());
  clk.advance(1ms);
  // Still the holder as far as A last saw, but no longer allowed to act.
  EXPECT_TRUE(a.is_leader());
  EXPECT_FALSE(a.holds_lease());

  // The lease is free for B now; A's late renewal fails and A stays out.
  ASSERT_TRUE(b.try_acquire_or_renew());
  EXPECT_TRUE(b.holds_lease());
  EXPECT_FALSE(a.try_acquire_or_renew());
  EXPECT_FALSE(a.holds_lease());

  // A renewal that succeeds after a lapse (nobody took over) restores it.
  clk.advance(20s);
  EXPECT_FALSE(b.holds_lease());
  ASSERT_TRUE(b.try_acquire_or_renew());
  EXPECT_TRUE(b.holds_lease());
}

TEST(LeaderElection, ErrorsAndConflictsFailTheAttempt) {
  manual_clock clk;
  fake_lease lease;
  leader_elector a{lease, "a", timing(), clk};
  lease.fail_next = true;
  EXPECT_FALSE(a.try_acquire_or_renew());
  EXPECT_TRUE(a.try_acquire_or_renew());
  // Someone else writes the lease behind our back (not expired for us).
  lease.stored->holder_identity = "intruder";
  lease.stored->resource_version = "999";
  clk.advance(3s);
  EXPECT_FALSE(a.try_acquire_or_renew());
  EXPECT_FALSE(a.is_leader());
  EXPECT_EQ(a.observed_holder(), "intruder");
}

TEST(LeaderElection, TimingValidation) {
  struct test_case {
    std::string name;
    leader_election_timing t;
    std::string fragment; // empty = valid
  };
  std::vector<test_case> cases = {
    {"defaults", {15s, 10s, 2s}, ""},
    {"lease not above renew", {10s, 10s, 2s}, "leader-elect-lease-duration"},
    {"renew not above 1.2 retry",
     {15s, 2400ms, 2s},
     "leader-elect-renew-deadline"},
    {"zero retry", {15s, 10s, 0s}, "leader-elect-retry-period"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    error e = validate(tc.t);
    if (tc.fragment.empty()) {
      EXPECT_FALSE(e) << e.message;
    } else {
      ASSERT_TRUE(e);
      EXPECT_NE(e.message.find(tc.fragment), std::string::npos) << e.message;
    }
  }
}

TEST(LeaderElection, IdentityIsHostnameUnderscoreUuid) {
  std::string a = make_leader_identity();
  std::string b = make_leader_identity();
  EXPECT_NE(a, b);
  EXPECT_TRUE(test::is_host_uuid(a)) << a;
  EXPECT_FALSE(test::is_host_uuid("host-no-uuid"));
  EXPECT_FALSE(test::is_host_uuid("_" + a.substr(a.rfind('_') + 1)));
}

/// Two electors through the embedded API server in real time.
TEST(LeaderElection, RunLoopsAgainstTheApiServer) {
  apiserver::store st;
  auto srv = test::start_test_server(st);
  auto rc = test::client_config_for(srv->url());
  rc.request_timeout = 2s;
  rest_client client{rc};
  rest_lease_client lease{client, "kube-system", "tessera-test"};
  leader_election_timing t{2s, 1500ms, 250ms};
  leader_elector a{lease, "a_1", t};
  leader_elector b{lease, "b_2", t};
  std::atomic<int> leaders{0};
  std::atomic<int> max_leaders{0};
  auto track = [&] {
    int n = ++leaders;
    int m = max_leaders.load();
    while (n > m && !max_leaders.compare_exchange_weak(m, n)) {
    }
  };
  std::atomic<bool> a_led{false}, b_led{false};
  leader_elector::outcome a_out{}, b_out{};
  std::thread ta{[&] {
    a_out = a.run([&] {
      a_led = true;
      track();
    });
    if (a_led)
      --leaders;
  }};
  // Let A win first.
  auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!a_led && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(a_led);
  std::thread tb{[&] {
    b_out = b.run([&] {
      b_led = true;
      track();
    });
    if (b_led)
      --leaders;
  }};
  // B stays a standby while A renews.
  std::this_thread::sleep_for(2500ms);
  EXPECT_FALSE(b_led);
  // A stops and releases; B takes over quickly (well before 2 s).
  auto stopped = std::chrono::steady_clock::now();
  a.stop();
  ta.join();
  EXPECT_EQ(a_out, leader_elector::outcome::stopped);
  deadline = std::chrono::steady_clock::now() + 5s;
  while (!b_led && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(b_led);
  EXPECT_LT(std::chrono::steady_clock::now() - stopped, 1500ms);
  EXPECT_EQ(max_leaders.load(), 1);

  // Someone else grabs the lease: B's renewals fail until the renew
  // deadline, then B reports the loss.
  auto cur = lease.get();
  ASSERT_TRUE(cur && *cur);
  lease_record r = **cur;
  r.holder_identity = "thief";
  r.lease_duration_seconds = 30;
  ASSERT_TRUE(lease.update(r));
  tb.join();
  EXPECT_EQ(b_out, leader_elector::outcome::lost);
  srv->stop();
}

} // namespace
} // namespace tessera::io
