// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The JSON output, in the shape of upstream's scheduler_perf results
// (perf-dash's DataItems), plus tessera's own items.
#include "perf/harness/report.hpp"

#include <boost/json.hpp>

namespace tessera::perf {

namespace json = boost::json;

namespace {

json::object labels(const run_result& r, const char* metric) {
  json::object l{
    {"Metric", metric},
    {"Name", r.name},
    {"Target", r.target},
    {"Shards", std::to_string(r.shards)},
    {"Inflight", std::to_string(r.inflight)},
    {"Baseline", r.baseline ? "true" : "false"},
  };
  if (!r.feature_gates.empty())
    l["FeatureGates"] = r.feature_gates;
  return l;
}

json::object percentiles(const summary& s, bool with_max) {
  json::object o{{"Average", s.average},
                 {"Perc50", s.p50},
                 {"Perc90", s.p90},
                 {"Perc95", s.p95},
                 {"Perc99", s.p99}};
  if (with_max)
    o["Max"] = s.max;
  return o;
}

json::object item(json::object data, const char* unit, json::object l) {
  return json::object{
    {"data", std::move(data)}, {"unit", unit}, {"labels", std::move(l)}};
}

} // namespace

std::string render_results_json(const std::vector<run_result>& runs,
                                const std::vector<skipped_run>& skipped) {
  json::array items;
  std::size_t failed = 0;
  for (const auto& r : runs) {
    failed += r.failure.empty() ? 0 : 1;
    auto throughput = percentiles(r.throughput, false);
    if (r.threshold > 0)
      throughput["Threshold"] = r.threshold;
    items.push_back(
      item(std::move(throughput), "pods/s", labels(r, "SchedulingThroughput")));
    if (r.attempts_reported) {
      items.push_back(item(percentiles(r.attempt_ms, true), "ms",
                           labels(r, "SchedulingAttemptLatency")));
      for (const auto& [result, s] : r.attempt_ms_by_result) {
        auto l = labels(r, "SchedulingAttemptLatency");
        l["Result"] = result;
        items.push_back(item(percentiles(s, true), "ms", std::move(l)));
      }
    }
    items.push_back(
      item(percentiles(r.e2e_ms, true), "ms", labels(r, "PodE2ELatency")));
    items.push_back(item(json::object{{"Average", r.attempts_per_pod},
                                      {"Max", r.attempts_per_pod_max}},
                         "attempts", labels(r, "AttemptsPerPod")));
    items.push_back(item(json::object{{"Count", r.assume_conflicts}}, "count",
                         labels(r, "AssumeConflicts")));
    items.push_back(item(json::object{{"Count", r.binds_failed}}, "count",
                         labels(r, "BindsFailed")));
    items.push_back(item(json::object{{"Count", r.batched_pods}}, "pods",
                         labels(r, "BatchedPods")));
    double cores = r.seconds > 0 ? r.scheduler_cpu_seconds / r.seconds : 0;
    items.push_back(
      item(json::object{{"Seconds", r.scheduler_cpu_seconds}, {"Cores", cores}},
           "s", labels(r, "SchedulerCPU")));
    constexpr double mib = 1024.0 * 1024.0;
    items.push_back(item(
      json::object{{"Process", static_cast<double>(r.peak_rss_bytes) / mib},
                   {"BeforeScheduler",
                    static_cast<double>(r.rss_before_scheduler_bytes) / mib}},
      "MB", labels(r, "PeakRSS")));
    auto pods = labels(r, "MeasuredPods");
    if (!r.failure.empty())
      pods["Failure"] = r.failure;
    items.push_back(item(json::object{{"Measured", r.measured_pods},
                                      {"Bound", r.bound_pods},
                                      {"Seconds", r.seconds}},
                         "pods", std::move(pods)));
  }
  json::array skips;
  for (const auto& s : skipped)
    skips.push_back(json::object{{"Name", s.name}, {"Reason", s.reason}});
  json::object summary{{"Ran", runs.size() - failed},
                       {"Failed", failed},
                       {"Skipped", skipped.size()},
                       {"SkippedRuns", std::move(skips)}};
  json::object doc{{"version", "v1"},
                   {"dataItems", std::move(items)},
                   {"summary", std::move(summary)}};
  return json::serialize(doc) + "\n";
}

} // namespace tessera::perf
