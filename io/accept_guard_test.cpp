// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "io/accept_guard.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <vector>

namespace tessera::io {
namespace {

using namespace std::chrono_literals;

accept_limits small_limits() {
  accept_limits l;
  l.max_connections = 2;
  l.backoff_initial = 5ms;
  l.backoff_max = 40ms;
  l.log_every = 10s;
  return l;
}

TEST(accept_guard, backoff_doubles_caps_and_resets_on_success) {
  manual_clock clk;
  accept_guard g{"test", small_limits(), clk};
  std::vector<std::chrono::milliseconds> waits;
  for (int i = 0; i < 6; ++i)
    waits.push_back(g.failed(EMFILE, "too many open files"));
  EXPECT_EQ(waits, (std::vector<std::chrono::milliseconds>{5ms, 10ms, 20ms,
                                                           40ms, 40ms, 40ms}));
  { auto s = g.accepted(); }
  EXPECT_EQ(g.failed(EMFILE, "too many open files"), 5ms);
  EXPECT_EQ(g.errors(), 7u);
}

TEST(accept_guard, repeated_failures_log_once_per_interval) {
  manual_clock clk;
  accept_guard g{"test", small_limits(), clk};
  for (int i = 0; i < 1000; ++i)
    (void)g.failed(ENFILE, "file table overflow");
  EXPECT_EQ(g.logged(), 1u);
  clk.advance(9s);
  (void)g.failed(ENFILE, "file table overflow");
  EXPECT_EQ(g.logged(), 1u);
  clk.advance(1s);
  (void)g.failed(ENFILE, "file table overflow");
  EXPECT_EQ(g.logged(), 2u);
}

TEST(accept_guard, slots_hold_the_connection_limit) {
  manual_clock clk;
  accept_guard g{"test", small_limits(), clk};
  EXPECT_TRUE(g.has_room());
  auto a = g.accepted();
  auto b = g.accepted();
  EXPECT_EQ(g.open(), 2u);
  EXPECT_FALSE(g.has_room());
  {
    auto moved = std::move(a);
    EXPECT_EQ(g.open(), 2u);
  }
  EXPECT_EQ(g.open(), 1u);
  EXPECT_TRUE(g.has_room());
  b = accept_guard::slot{};
  EXPECT_EQ(g.open(), 0u);
}

TEST(accept_guard, derived_limit_is_a_share_of_the_descriptor_limit) {
  accept_limits l;
  l.fd_share_percent = 25;
  accept_guard g{"test", l};
  EXPECT_EQ(g.max_connections(), derived_connection_limit(25));
  EXPECT_GE(g.max_connections(), 8u);
  EXPECT_LE(g.max_connections(), 65536u);
}

} // namespace
} // namespace tessera::io
