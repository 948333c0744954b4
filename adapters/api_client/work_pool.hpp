// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `work_pool`: a fixed set of io threads running blocking API calls handed
/// over by actors, which must never block themselves. Jobs start in arrival
/// order (FIFO across the threads), except that jobs sharing a non-empty
/// key run one at a time: a later job of a key waits for the earlier one,
/// so writes to one object land in the order they were made while other
/// objects' writes pass them. `shutdown(timeout)` stops taking jobs,
/// lets the running and queued ones finish for at most `timeout`, then
/// hands every job still queued to `abandon` instead of running it. A job
/// whose `run` throws is logged and handed to `abandon` too: no exception
/// leaves a pool thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

namespace tessera::adapters {

class work_pool {
public:
  /// A job; `run` does the work, `abandon` (optional) reports that it will
  /// never run; `key` (optional) orders it after the jobs of the same key.
  struct job {
    std::function<void()> run;
    std::function<void()> abandon;
    std::string key;
  };

  /// Starts `threads` (at least 1) threads named `name` in logs.
  work_pool(std::string name, std::size_t threads);
  /// shutdown(0).
  ~work_pool();
  work_pool(const work_pool&) = delete;
  work_pool& operator=(const work_pool&) = delete;

  /// Queues a job; false (and nothing queued) after shutdown began.
  bool post(job j);
  /// Jobs queued or running.
  std::size_t pending() const;
  /// Stops taking jobs (post() returns false from now on).
  void close();
  /// Waits until nothing is queued or running, at most `timeout`; true
  /// when idle.
  bool wait_idle(std::chrono::milliseconds timeout);
  /// close(), wait_idle(timeout), then abandons what is still queued and
  /// joins the threads (a running job must end by itself: cancel its
  /// calls first). Returns how many jobs were abandoned.
  std::size_t shutdown(std::chrono::milliseconds timeout);

private:
  void loop();
  void run_guarded(job& j);
  /// The first queued job whose key has no job running, or end().
  std::deque<job>::iterator next_ready();

  std::string name_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<job> queue_;
  std::size_t running_ = 0;
  /// Keys with a job running.
  std::unordered_set<std::string> running_keys_;
  bool closed_ = false;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

} // namespace tessera::adapters
