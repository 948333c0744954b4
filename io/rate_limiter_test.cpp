// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/rate_limiter.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace tessera::io {
namespace {

using namespace std::chrono_literals;
using ms = std::chrono::milliseconds;

ms as_ms(duration d) {
  return std::chrono::duration_cast<ms>(d);
}

TEST(RateLimiter, BurstThenOneTokenPerInterval) {
  struct test_case {
    std::string name;
    double qps;
    std::int32_t burst;
    /// Time to advance before each reservation, and the expected wait.
    std::vector<std::pair<ms, ms>> steps;
  };
  std::vector<test_case> cases = {
    {"burst is free, then queue at 1/qps",
     2,
     3,
     {{0ms, 0ms}, {0ms, 0ms}, {0ms, 0ms}, {0ms, 500ms}, {0ms, 1000ms}}},
    {"tokens refill while idle",
     10,
     2,
     {{0ms, 0ms}, {0ms, 0ms}, {0ms, 100ms}, {300ms, 0ms}, {0ms, 0ms}}},
    {"refill never exceeds burst",
     100,
     1,
     {{0ms, 0ms}, {10s, 0ms}, {0ms, 10ms}}},
    {"burst below one acts as one", 4, 0, {{0ms, 0ms}, {0ms, 250ms}}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    manual_clock clk;
    rate_limiter limiter{tc.qps, tc.burst, clk};
    for (std::size_t i = 0; i < tc.steps.size(); ++i) {
      SCOPED_TRACE("step " + std::to_string(i));
      clk.advance(tc.steps[i].first);
      EXPECT_EQ(as_ms(limiter.reserve()), tc.steps[i].second);
    }
  }
}

TEST(RateLimiter, ZeroQpsIsUnlimited) {
  manual_clock clk;
  rate_limiter limiter{0, 1, clk};
  EXPECT_TRUE(limiter.unlimited());
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(limiter.reserve(), duration::zero());
  EXPECT_TRUE(limiter.acquire());
}

TEST(RateLimiter, AcquireSleepsAndStopWakesSleepers) {
  rate_limiter limiter{1, 1};
  EXPECT_TRUE(limiter.acquire()); // the burst token
  auto t0 = std::chrono::steady_clock::now();
  std::thread stopper{[&] {
    std::this_thread::sleep_for(50ms);
    limiter.stop();
  }};
  // Would sleep ~1 s; stop() cuts it short.
  EXPECT_FALSE(limiter.acquire());
  stopper.join();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 900ms);
  EXPECT_FALSE(limiter.acquire());
}

TEST(RateLimiter, AcquireWaitsForTheNextToken) {
  rate_limiter limiter{20, 1}; // one token per 50 ms
  ASSERT_TRUE(limiter.acquire());
  auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(limiter.acquire());
  ASSERT_TRUE(limiter.acquire());
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 90ms);
}

} // namespace
} // namespace tessera::io
