// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `cpu_meter` and the memory probes: the CPU time and memory of the
/// scheduler when it shares the process with the harness and, for the
/// embedded targets, with the API server.
///
/// CPU: the process's CPU time minus the CPU time of every thread that is
/// not the scheduler's. Those are the threads alive when `exclude_existing()`
/// runs (right before the scheduler starts: the harness's main thread, the
/// embedded server's I/O threads, the fake kubelet) plus any harness thread
/// that calls `exclude_this_thread()`; the rest — CAF's workers, the source
/// and sink threads, API client threads — is the scheduler. Per-thread
/// times come from /proc/self/task/<tid>/schedstat (nanoseconds).
///
/// Memory: the process's resident set (VmRSS) and its peak (VmHWM), which
/// `reset_peak_rss()` restarts from the current value (Linux clear_refs).
#pragma once

#include <cstdint>
#include <mutex>
#include <set>

namespace tessera::perf {

class cpu_meter {
public:
  /// Marks every thread alive now as not the scheduler's.
  void exclude_existing();
  /// Marks the calling thread as not the scheduler's (call it on harness
  /// threads started later, and `thread_exiting()` before they end).
  void exclude_this_thread();
  /// Folds an excluded thread's CPU time in before it exits.
  void thread_exiting();
  /// CPU seconds used so far by the scheduler's threads.
  double scheduler_seconds() const;

private:
  mutable std::mutex mu_;
  std::set<long> excluded_;
  /// CPU ns of excluded threads that exited.
  std::uint64_t exited_ns_ = 0;
};

/// CPU seconds the whole process used so far.
double process_cpu_seconds();
/// Resident set size in bytes (0 when unknown).
std::uint64_t current_rss_bytes();
/// Peak resident set size in bytes since start or the last reset.
std::uint64_t peak_rss_bytes();
/// Restarts the peak from the current RSS; false when the kernel refused.
bool reset_peak_rss();

} // namespace tessera::perf
