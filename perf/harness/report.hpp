// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The harness's outputs for a set of `run_result`s: the human tables on
/// stdout (one row per run; the sweep grid with the best setting marked;
/// the baseline speedup), the JSON file in upstream's `dataItems` shape,
/// and SVG charts (throughput over time, attempt latency histogram).
///
/// JSON items (all carry labels Name, Metric, Target, Shards, Inflight and
/// Baseline): SchedulingThroughput (pods/s; Average, Perc50/90/95/99 —
/// upstream's item), SchedulingAttemptLatency and PodE2ELatency (ms;
/// Average, Perc50/90/95/99, Max), AttemptsPerPod (Average, Max),
/// AssumeConflicts and BindsFailed (count), SchedulerCPU (s; Seconds,
/// Cores), PeakRSS (MB; Process, BeforeScheduler).
#pragma once

#include "perf/harness/measurements.hpp"

#include <string>
#include <vector>

namespace tessera::perf {

/// One row per run: throughput, latencies, attempts, conflicts, CPU, RSS.
std::string render_results_table(const std::vector<run_result>& runs);

/// A --sweep grid for the runs of one workload (rows shards, columns
/// in-flight cycles, cells average pods/s), the best cell marked `*`.
std::string render_sweep_table(const std::vector<run_result>& runs);

/// "speedup over shards=1 inflight=1: 3.1x" for every non-baseline run
/// of a workload that has a baseline run.
std::string render_baseline_lines(const std::vector<run_result>& runs);

/// One line per run whose average throughput is below its workload's
/// `threshold` (runs without one are never below).
std::vector<std::string> below_thresholds(const std::vector<run_result>& runs);

/// A workload that did not run, and why.
struct skipped_run {
  std::string name;
  std::string reason;
};

/// The JSON document `{"version":"v1","dataItems":[...],"summary":{...}}`:
/// `summary` counts the runs (ran, failed) and the skipped workloads, and
/// lists each skipped one with its reason.
std::string render_results_json(const std::vector<run_result>& runs,
                                const std::vector<skipped_run>& skipped = {});

/// Throughput over time (pods/s against seconds since the op started).
std::string render_throughput_svg(const run_result& run);

/// Histogram of scheduling attempt latencies (ms), or of end-to-end
/// latencies when no attempts were reported.
std::string render_latency_svg(const run_result& run);

/// A file name for a run's outputs: `name` with `/` and other characters
/// outside [A-Za-z0-9._-] replaced by `_`.
std::string file_stem(const std::string& name);

} // namespace tessera::perf
