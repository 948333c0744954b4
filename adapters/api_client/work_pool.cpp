// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "adapters/api_client/work_pool.hpp"

#include "support/log.hpp"
#include "support/thread_body.hpp"
#include "support/thread_name.hpp"

#include <algorithm>

namespace tessera::adapters {

work_pool::work_pool(std::string name, std::size_t threads)
  : name_(std::move(name)) {
  for (std::size_t i = 0; i < std::max<std::size_t>(threads, 1); ++i)
    threads_.emplace_back([this] {
      set_thread_name(name_);
      // run_guarded() catches around each job; what still escapes (a
      // failed lock) ends this thread, logged, and the others serve.
      (void)run_thread_body(name_, [this] { loop(); });
    });
}

work_pool::~work_pool() {
  shutdown(std::chrono::milliseconds(0));
}

bool work_pool::post(job j) {
  {
    std::lock_guard guard{mutex_};
    if (closed_)
      return false;
    queue_.push_back(std::move(j));
  }
  wake_.notify_one();
  return true;
}

std::size_t work_pool::pending() const {
  std::lock_guard guard{mutex_};
  return queue_.size() + running_;
}

void work_pool::run_guarded(job& j) {
  if (!j.run)
    return;
  // An exception leaving a pool thread would end the process; the job's
  // owner hears of the failure through `abandon`.
  try {
    j.run();
    return;
  } catch (...) {
    TLOG_ERROR("work pool job threw", "pool", name_, "error",
               exception_text(std::current_exception()));
  }
  if (!j.abandon)
    return;
  // `abandon` is the owner's code too: it must not take the thread down.
  try {
    j.abandon();
  } catch (...) {
    TLOG_ERROR("work pool abandon threw", "pool", name_, "error",
               exception_text(std::current_exception()));
  }
}

std::deque<work_pool::job>::iterator work_pool::next_ready() {
  return std::find_if(queue_.begin(), queue_.end(), [this](const job& j) {
    return j.key.empty() || running_keys_.count(j.key) == 0;
  });
}

void work_pool::loop() {
  for (;;) {
    job j;
    {
      std::unique_lock lock{mutex_};
      wake_.wait(lock,
                 [this] { return stopping_ || next_ready() != queue_.end(); });
      if (stopping_)
        return;
      auto it = next_ready();
      j = std::move(*it);
      queue_.erase(it);
      ++running_;
      if (!j.key.empty())
        running_keys_.insert(j.key);
    }
    run_guarded(j);
    bool key_freed = false;
    {
      std::lock_guard guard{mutex_};
      --running_;
      if (!j.key.empty())
        key_freed = running_keys_.erase(j.key) > 0 && !queue_.empty();
      if (queue_.empty() && running_ == 0)
        idle_.notify_all();
    }
    // A job of this key may have been waiting for this one.
    if (key_freed)
      wake_.notify_all();
  }
}

void work_pool::close() {
  std::lock_guard guard{mutex_};
  closed_ = true;
}

bool work_pool::wait_idle(std::chrono::milliseconds timeout) {
  std::unique_lock lock{mutex_};
  return idle_.wait_for(lock, timeout,
                        [this] { return queue_.empty() && running_ == 0; });
}

std::size_t work_pool::shutdown(std::chrono::milliseconds timeout) {
  std::deque<job> left;
  std::vector<std::thread> threads;
  {
    std::unique_lock lock{mutex_};
    closed_ = true;
    if (timeout.count() > 0)
      idle_.wait_for(lock, timeout,
                     [this] { return queue_.empty() && running_ == 0; });
    stopping_ = true;
    left.swap(queue_);
    threads.swap(threads_);
  }
  wake_.notify_all();
  for (auto& j : left)
    if (j.abandon)
      j.abandon();
  for (auto& t : threads)
    t.join();
  return left.size();
}

} // namespace tessera::adapters
