// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `pod_tracker`: what became of every pod the harness created — when it
/// was created, each scheduling attempt (outcome and latency), when its
/// binding succeeded — counted per createPods op ("group") and per
/// namespace, so that ops can wait for their pods and measurements can be
/// computed afterwards from exact timestamps. Thread-safe: the harness
/// thread reports creations, scheduler threads report attempts and binds,
/// in any order (a pod may be bound before its creator hears back).
#pragma once

#include "support/clock.hpp"

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tessera::perf {

/// How one scheduling attempt ended.
enum class attempt_result : std::uint8_t {
  scheduled,
  unschedulable,
  error,
  conflict,
};

/// "scheduled", "unschedulable", "error", "conflict".
std::string_view to_string(attempt_result r) noexcept;

struct attempt_sample {
  attempt_result result = attempt_result::scheduled;
  /// Latency in seconds.
  double seconds = 0;
};

/// One pod's story.
struct pod_record {
  std::string ns;
  /// The createPods op that created it; -1 = not created by one.
  int group = -1;
  std::optional<time_point> created;
  std::optional<time_point> bound;
  /// Reported attempts (needs a scheduler in this process).
  std::vector<attempt_sample> attempts;
  /// Seen unschedulable at least once (also without attempt reports).
  bool failed_once = false;
  bool deleted = false;
};

/// Counts of one group or namespace.
struct pod_counts {
  std::size_t created = 0;
  std::size_t bound = 0;
  /// Bound or failed at least once.
  std::size_t attempted = 0;
  std::size_t deleted = 0;
};

class pod_tracker {
public:
  explicit pod_tracker(const clock& clk = system_clock::instance());

  /// The harness created `ns/name` at `t` (taken before the create call).
  void created(const std::string& ns, const std::string& name, int group,
               time_point t);
  /// A pod the harness deleted (it will never be bound).
  void deleted(const std::string& ns, const std::string& name);
  /// The binding of `ns/name` succeeded.
  void bound(const std::string& key, time_point t);
  /// A binding failed.
  void bind_failed(const std::string& key);
  /// One scheduling attempt ended.
  void attempted(const std::string& key, attempt_result r, duration latency);
  /// A FailedScheduling report (counts as attempted).
  void failed(const std::string& key);

  pod_counts group(int g) const;
  /// Counts over `namespaces` (empty = all pods the harness created).
  pod_counts namespaces(const std::set<std::string>& namespaces) const;
  /// Bindings so far (of any pod, including ones the harness did not
  /// create).
  std::uint64_t total_bound() const;
  std::uint64_t binds_failed() const;
  /// A pod was placed from an opportunistic batch.
  void batched();
  std::uint64_t batched_total() const;
  std::uint64_t attempts_reported() const;

  /// Waits until `done(counts)` holds for the group (or namespaces);
  /// `tick` runs about every 100 ms while waiting. False on timeout.
  bool wait(const std::function<bool()>& done, time_point deadline,
            const std::function<void()>& tick);

  /// The records of one group (a copy).
  std::vector<pod_record> records(int g) const;

  /// Names and groups of the pods in `ns` the harness created and has not
  /// deleted, in creation order of their names.
  std::vector<std::pair<std::string, int>>
  live_pods(const std::string& ns) const;

  const clock& time() const noexcept {
    return clk_;
  }

private:
  pod_record& slot(const std::string& key);
  void count_bound(const pod_record& r);
  void count_attempted(const pod_record& r);

  const clock& clk_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::unordered_map<std::string, pod_record> pods_;
  std::unordered_map<int, pod_counts> groups_;
  std::unordered_map<std::string, pod_counts> namespaces_;
  pod_counts all_;
  std::uint64_t total_bound_ = 0;
  std::uint64_t binds_failed_ = 0;
  std::uint64_t batched_ = 0;
  std::uint64_t attempts_ = 0;
};

} // namespace tessera::perf
