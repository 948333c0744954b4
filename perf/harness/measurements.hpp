// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `run_result` and the statistics behind it, computed after the fact from
/// the exact timestamps the `pod_tracker` kept.
///
/// SchedulingThroughput follows upstream's collector: one sample per second
/// of the measured pods bound in it, the first interval starting at the
/// first measured binding; an interval without a binding is merged with
/// the next one (every merged interval records the same rate), and a
/// trailing partial interval shorter than half a second is merged into the
/// previous sample instead of becoming a sample of its own (a run shorter
/// than one second yields one sample: pods / time from first creation to
/// last binding). Percentiles are nearest-rank, as upstream's
/// (`sorted[ceil(n * p / 100) - 1]`).
#pragma once

#include "perf/harness/pod_tracker.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera::perf {

struct summary {
  std::size_t count = 0;
  double average = 0;
  double p50 = 0;
  double p90 = 0;
  double p95 = 0;
  double p99 = 0;
  double max = 0;
};

/// Nearest-rank percentiles and the mean of `values` (any order).
summary summarize(std::vector<double> values);

struct throughput_series {
  /// pods/s, one per sampled interval.
  std::vector<double> samples;
  /// Finer series for the chart: (seconds since the window start, pods/s).
  std::vector<std::pair<double, double>> curve;
  /// Measured pods bound / (last binding - window start).
  double overall = 0;
};

/// Throughput of bindings at `bound` (any order) in a window that began at
/// `start`.
throughput_series throughput(std::vector<time_point> bound, time_point start,
                             duration interval = std::chrono::seconds(1));

/// Everything measured for one workload run (one collectMetrics op).
struct run_result {
  /// "<TestCase>/<Workload>".
  std::string name;
  std::string target;
  std::size_t shards = 0;
  std::size_t inflight = 0;
  bool baseline = false;

  std::size_t measured_pods = 0;
  std::size_t bound_pods = 0;
  /// Window: first creation to last binding (seconds).
  double seconds = 0;
  summary throughput;
  throughput_series series;
  /// Creation -> bound, ms.
  summary e2e_ms;
  std::vector<double> e2e_samples_ms;
  /// Scheduling attempt latency, ms: every attempt, and by result.
  summary attempt_ms;
  std::map<std::string, summary> attempt_ms_by_result;
  std::vector<double> attempt_samples_ms;
  /// Attempts per measured pod (including assume conflicts).
  double attempts_per_pod = 0;
  double attempts_per_pod_max = 0;
  bool attempts_reported = false;
  std::uint64_t assume_conflicts = 0;
  std::uint64_t binds_failed = 0;
  /// Pods placed from an opportunistic batch (no full cycle of their own).
  std::uint64_t batched_pods = 0;
  double scheduler_cpu_seconds = 0;
  std::uint64_t peak_rss_bytes = 0;
  /// Process RSS just before the scheduler started (the cluster's share
  /// when it runs in this process).
  std::uint64_t rss_before_scheduler_bytes = 0;
  /// Set when the run did not finish (timeout, error) or one of its ops
  /// failed (churn, deletions).
  std::string failure;
  /// Upstream's floor for the average throughput (pods/s, from the
  /// workload's `threshold`; measured on upstream's CI machines); 0 = none.
  double threshold = 0;
  /// The workload's feature gates ("A=true,B=false"), as reported.
  std::string feature_gates;
  /// The scheduler's Prometheus metrics (text exposition) at the end of the
  /// workload run this result belongs to; empty with --metrics=false.
  std::string metrics_exposition;
};

/// Fills the pod-derived fields of `out` from the measured group.
void measure_pods(const std::vector<pod_record>& pods, time_point window_start,
                  run_result& out);

} // namespace tessera::perf
