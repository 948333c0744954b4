// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/log.hpp"
#include "support/thread_body.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace tessera {
namespace {

class thread_body : public ::testing::Test {
protected:
  void SetUp() override {
    log::set_sink([this](std::string_view line) { lines.emplace_back(line); });
  }
  void TearDown() override {
    log::set_sink(nullptr);
  }
  std::vector<std::string> lines;
};

// Each body runs on a thread of its own, as in production: an exception
// that left it would call std::terminate and end this test binary.
TEST_F(thread_body, logs_what_escapes_and_keeps_the_process) {
  struct test_case {
    std::string name;
    std::function<void()> body;
    bool completed;
    std::string logged; // empty: nothing logged
  };
  std::vector<test_case> cases{
    {"returns", [] {}, true, ""},
    {"std exception", [] { throw std::runtime_error("disk on fire"); }, false,
     R"("exception escaped thread" thread="worker" error="disk on fire")"},
    {"not a std exception", [] { throw 42; }, false,
     R"("exception escaped thread" thread="worker" error="unknown exception")"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    lines.clear();
    bool completed = !tc.completed;
    std::thread t{[&] { completed = run_thread_body("worker", tc.body); }};
    t.join();
    EXPECT_EQ(completed, tc.completed);
    if (tc.logged.empty()) {
      EXPECT_TRUE(lines.empty());
      continue;
    }
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0].front(), 'E') << lines[0];
    EXPECT_NE(lines[0].find(tc.logged), std::string::npos) << lines[0];
  }
}

TEST(thread_body_death, a_vital_thread_that_throws_ends_the_process) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
    {
      std::thread t{[] {
        run_vital_thread_body("signals",
                              [] { throw std::runtime_error("no sigwait"); });
      }};
      t.join();
      std::_Exit(0); // not reached when the helper works
    },
    ::testing::ExitedWithCode(exit_internal_error),
    R"("internal error; exiting" thread="signals" error="no sigwait" )"
    R"(exitCode=70)");
}

TEST(thread_body_death, a_vital_thread_that_returns_keeps_the_process) {
  bool ran = false;
  run_vital_thread_body("signals", [&] { ran = true; });
  EXPECT_TRUE(ran);
}

} // namespace
} // namespace tessera
