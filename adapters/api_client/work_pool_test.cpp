// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "adapters/api_client/work_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <mutex>

namespace tessera::adapters {
namespace {

using namespace std::chrono_literals;

TEST(WorkPool, RunsEveryJobInArrivalOrderPerThread) {
  work_pool pool{"test", 1};
  std::mutex m;
  std::vector<int> order;
  for (int i = 0; i < 100; ++i)
    ASSERT_TRUE(pool.post({[&, i] {
                             std::lock_guard g{m};
                             order.push_back(i);
                           },
                           {}}));
  ASSERT_TRUE(pool.wait_idle(5s));
  std::vector<int> want(100);
  for (int i = 0; i < 100; ++i)
    want[static_cast<std::size_t>(i)] = i;
  EXPECT_EQ(order, want);
  EXPECT_EQ(pool.pending(), 0u);
}

TEST(WorkPool, ShutdownAbandonsWhatDidNotStart) {
  work_pool pool{"test", 2};
  std::latch started{2};
  std::atomic<bool> release{false};
  std::atomic<int> ran{0}, abandoned{0};
  for (int i = 0; i < 2; ++i)
    pool.post({[&] {
                 started.count_down();
                 while (!release)
                   std::this_thread::sleep_for(1ms);
                 ++ran;
               },
               [&] { ++abandoned; }});
  started.wait();
  for (int i = 0; i < 5; ++i)
    pool.post({[&] { ++ran; }, [&] { ++abandoned; }});
  EXPECT_EQ(pool.pending(), 7u);
  pool.close();
  EXPECT_FALSE(pool.post({[&] { ++ran; }, {}}));
  EXPECT_FALSE(pool.wait_idle(20ms));
  std::thread releaser{[&] {
    std::this_thread::sleep_for(50ms);
    release = true;
  }};
  // The two running jobs finish; the five queued ones are abandoned.
  EXPECT_EQ(pool.shutdown(0ms), 5u);
  releaser.join();
  EXPECT_EQ(ran.load(), 2);
  EXPECT_EQ(abandoned.load(), 5);
}

TEST(WorkPool, ShutdownWithGraceLetsQueuedJobsRun) {
  work_pool pool{"test", 2};
  std::atomic<int> ran{0};
  for (int i = 0; i < 20; ++i)
    pool.post({[&] {
                 std::this_thread::sleep_for(1ms);
                 ++ran;
               },
               {}});
  EXPECT_EQ(pool.shutdown(5s), 0u);
  EXPECT_EQ(ran.load(), 20);
}

} // namespace
} // namespace tessera::adapters
