// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "adapters/api_client/work_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <mutex>
#include <thread>

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
                           {},
                           {}}));
  ASSERT_TRUE(pool.wait_idle(5s));
  std::vector<int> want(100);
  for (int i = 0; i < 100; ++i)
    want[static_cast<std::size_t>(i)] = i;
  EXPECT_EQ(order, want);
  EXPECT_EQ(pool.pending(), 0u);
}

// Jobs of one key run one at a time and in order; jobs of other keys pass
// a job waiting for its key.
TEST(WorkPool, JobsOfOneKeyWaitForEachOtherOnly) {
  work_pool pool{"test", 2};
  std::atomic<bool> first_running{false}, other_ran{false};
  std::atomic<bool> first_saw_other{false}, second_overlapped{false};
  std::atomic<int> second_ran{0};
  work_pool::job first{[&] {
                         first_running = true;
                         auto deadline = std::chrono::steady_clock::now() + 5s;
                         while (!other_ran
                                && std::chrono::steady_clock::now() < deadline)
                           std::this_thread::sleep_for(1ms);
                         first_saw_other = other_ran.load();
                         first_running = false;
                       },
                       {},
                       "a"};
  work_pool::job second{[&] {
                          second_overlapped = first_running.load();
                          ++second_ran;
                        },
                        {},
                        "a"};
  work_pool::job other{[&] { other_ran = true; }, {}, "b"};
  ASSERT_TRUE(pool.post(std::move(first)));
  while (!first_running)
    std::this_thread::sleep_for(1ms);
  ASSERT_TRUE(pool.post(std::move(second)));
  ASSERT_TRUE(pool.post(std::move(other)));
  ASSERT_TRUE(pool.wait_idle(10s));
  EXPECT_TRUE(first_saw_other) << "the other key's job waited behind key a";
  EXPECT_FALSE(second_overlapped) << "two jobs of key a ran at once";
  EXPECT_EQ(second_ran.load(), 1);
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
               [&] { ++abandoned; },
               {}});
  started.wait();
  for (int i = 0; i < 5; ++i)
    pool.post({[&] { ++ran; }, [&] { ++abandoned; }, {}});
  EXPECT_EQ(pool.pending(), 7u);
  pool.close();
  EXPECT_FALSE(pool.post({[&] { ++ran; }, {}, {}}));
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
               {},
               {}});
  EXPECT_EQ(pool.shutdown(5s), 0u);
  EXPECT_EQ(ran.load(), 20);
}

} // namespace
} // namespace tessera::adapters
