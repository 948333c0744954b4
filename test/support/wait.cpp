// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "test/support/wait.hpp"

#include <cstdio>
#include <cstdlib>
#include <future>
#include <thread>

namespace tessera::test {

bool eventually(const std::function<bool()>& pred,
                std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred())
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return pred();
}

void finishes_within(const char* what, const std::function<void()>& work,
                     std::chrono::milliseconds limit) {
  auto done = std::async(std::launch::async, work);
  if (done.wait_for(limit) == std::future_status::ready) {
    done.get();
    return;
  }
  std::fprintf(stderr, "FAILED: %s did not finish within %lld ms\n", what,
               static_cast<long long>(limit.count()));
  std::fflush(stderr);
  std::_Exit(1);
}

} // namespace tessera::test
