// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/thread_name.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>

namespace tessera {
namespace {

std::string named_in_thread(std::string_view name) {
  std::string seen;
  std::thread t{[&] {
    set_thread_name(name);
    seen = thread_name();
  }};
  t.join();
  return seen;
}

TEST(ThreadName, NamesTheCallingThread) {
  EXPECT_EQ(named_in_thread("bind"), "bind");
  EXPECT_EQ(named_in_thread(""), "");
}

TEST(ThreadName, CutsLongNamesToWhatLinuxKeeps) {
  EXPECT_EQ(named_in_thread("watch:persistentvolumeclaims"), "watch:persisten");
}

TEST(ThreadName, LeavesOtherThreadsAlone) {
  std::string before = thread_name();
  named_in_thread("other");
  EXPECT_EQ(thread_name(), before);
}

} // namespace
} // namespace tessera
