// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "metrics/per_second_budget.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace tessera::metrics {
namespace {

constexpr std::uint64_t ms = 1'000'000;

int admitted(per_second_budget& b, int asks) {
  int n = 0;
  for (int i = 0; i < asks; ++i)
    n += b.take() ? 1 : 0;
  return n;
}

TEST(per_second_budget, admits_the_limit_per_window_and_refuses_the_rest) {
  per_second_budget b{100};
  EXPECT_TRUE(b.renew(5 * ms));
  EXPECT_EQ(admitted(b, 250), 100);
  EXPECT_FALSE(b.renew(500 * ms)) << "the window is half a second old";
  EXPECT_EQ(admitted(b, 10), 0);
  EXPECT_TRUE(b.renew(1005 * ms)) << "a second later a new window begins";
  EXPECT_EQ(admitted(b, 250), 100);
}

TEST(per_second_budget, a_chunk_from_an_old_window_is_dropped) {
  per_second_budget b{100};
  b.renew(0);
  // This thread holds most of a chunk when the window turns over.
  ASSERT_TRUE(b.take());
  b.renew(1000 * ms);
  EXPECT_EQ(admitted(b, 1000), 100);
}

TEST(per_second_budget, zero_admits_everything) {
  per_second_budget b{0};
  EXPECT_TRUE(b.renew(0));
  EXPECT_EQ(admitted(b, 5000), 5000);
  b.set_limit(7);
  EXPECT_EQ(admitted(b, 50), 7);
}

// Threads taking at once never get more than the window holds together,
// nor less: a window is spent only when its admissions were handed out.
TEST(per_second_budget, threads_share_one_window) {
  per_second_budget b{1000};
  b.renew(0);
  std::atomic<int> total{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] { total += admitted(b, 5000); });
  for (auto& t : threads)
    t.join();
  // Chunks left unused in a thread's hands are the only shortfall.
  EXPECT_LE(total.load(), 1000);
  EXPECT_GE(total.load(),
            1000 - 8 * static_cast<int>(per_second_budget::chunk));
}

} // namespace
} // namespace tessera::metrics
