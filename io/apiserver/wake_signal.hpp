// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `wake_signal`: how a `controller_loop` of the embedded cluster sleeps
/// until a watch reports a change, a deadline passes, or its owner stops
/// it. A notify while the thread is busy is not lost: the next wait
/// returns at once. Internal to io/apiserver.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

namespace tessera::apiserver {

class wake_signal {
public:
  /// Wakes the thread; quick, so watch notify callbacks may call it.
  void notify() {
    {
      std::lock_guard l{mu_};
      wake_ = true;
    }
    cv_.notify_one();
  }

  /// Makes every later wait return false at once.
  void stop() {
    {
      std::lock_guard l{mu_};
      stopping_ = true;
    }
    cv_.notify_one();
  }

  /// Waits for notify() or stop(), at most `limit` (none: without limit; a
  /// non-positive one: not at all). False once stopping.
  template <class Rep, class Period>
  bool wait(std::optional<std::chrono::duration<Rep, Period>> limit) {
    std::unique_lock l{mu_};
    auto ready = [&] { return wake_ || stopping_; };
    if (!limit)
      cv_.wait(l, ready);
    else if (limit->count() > 0)
      cv_.wait_for(l, *limit, ready);
    wake_ = false;
    return !stopping_;
  }

  bool stopping() const {
    std::lock_guard l{mu_};
    return stopping_;
  }

private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool wake_ = false;
  bool stopping_ = false;
};

} // namespace tessera::apiserver
