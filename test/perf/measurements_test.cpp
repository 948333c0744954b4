// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Statistics, throughput sampling, the pod tracker and the text reports.
#include "perf/harness/measurements.hpp"
#include "perf/harness/pod_tracker.hpp"
#include "perf/harness/report.hpp"

#include <gtest/gtest.h>

namespace tessera::perf {
namespace {

using std::chrono::milliseconds;

TEST(measurements, summarize_uses_nearest_rank) {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i)
    v.push_back(i);
  auto s = summarize(v);
  EXPECT_EQ(s.count, 100u);
  EXPECT_DOUBLE_EQ(s.average, 50.5);
  EXPECT_DOUBLE_EQ(s.p50, 50);
  EXPECT_DOUBLE_EQ(s.p90, 90);
  EXPECT_DOUBLE_EQ(s.p95, 95);
  EXPECT_DOUBLE_EQ(s.p99, 99);
  EXPECT_DOUBLE_EQ(s.max, 100);
  EXPECT_EQ(summarize({}).count, 0u);
  EXPECT_DOUBLE_EQ(summarize({7}).p99, 7);
}

TEST(measurements, throughput_samples_each_second) {
  time_point t0{};
  struct test_case {
    std::string name;
    /// (offset ms, pods bound at it)
    std::vector<std::pair<int, int>> bursts;
    std::vector<double> expected;
  };
  for (const auto& tc : std::vector<test_case>{
         // 100 pods in [0,1s), 200 in [1s,2s), last one at 1.9s: the
         // trailing 0.9 s interval is a sample of its own.
         {"two intervals",
          {{0, 1}, {500, 99}, {1100, 199}, {1900, 1}},
          {100, 200 / 0.9}},
         // Nothing in [1s,2s): merged with the next interval.
         {"gap merged",
          {{0, 1}, {500, 99}, {2500, 99}, {2990, 1}, {3600, 1}},
          {100, 50, 50, 1 / 0.6}},
         // A run shorter than a second: one sample, pods / span.
         {"short run", {{100, 5}, {400, 5}}, {10 / 0.4}},
       }) {
    SCOPED_TRACE(tc.name);
    std::vector<time_point> bound;
    for (const auto& [ms, n] : tc.bursts)
      for (int i = 0; i < n; ++i)
        bound.push_back(t0 + milliseconds(ms));
    auto s = throughput(bound, t0);
    ASSERT_EQ(s.samples.size(), tc.expected.size());
    for (std::size_t i = 0; i < s.samples.size(); ++i)
      EXPECT_NEAR(s.samples[i], tc.expected[i], 1e-6) << i;
    EXPECT_FALSE(s.curve.empty());
  }
}

TEST(pod_tracker, counts_bindings_reported_before_creation) {
  pod_tracker t;
  time_point t0{};
  // The scheduler can bind a pod before its creator hears back.
  t.bound("ns/a", t0 + milliseconds(5));
  t.created("ns", "a", 1, t0);
  t.created("ns", "b", 1, t0);
  t.attempted("ns/b", attempt_result::unschedulable, milliseconds(2));
  t.created("other", "c", 2, t0);
  auto g = t.group(1);
  EXPECT_EQ(g.created, 2u);
  EXPECT_EQ(g.bound, 1u);
  EXPECT_EQ(g.attempted, 2u);
  EXPECT_EQ(t.namespaces({"other"}).created, 1u);
  EXPECT_EQ(t.namespaces({}).created, 3u);
  t.deleted("ns", "b");
  EXPECT_EQ(t.group(1).created, 1u);
  auto records = t.records(1);
  ASSERT_EQ(records.size(), 1u);
  run_result r;
  measure_pods(records, t0, r);
  EXPECT_EQ(r.bound_pods, 1u);
  EXPECT_NEAR(r.e2e_ms.p50, 5.0, 1e-9);
  // wait() returns at once when the condition holds, false on timeout.
  EXPECT_TRUE(t.wait([&] { return t.group(1).bound == 1; },
                     system_clock::instance().now(), {}));
  EXPECT_FALSE(t.wait([] { return false; },
                      system_clock::instance().now() + milliseconds(20), {}));
}

run_result result(std::string name, std::size_t shards, std::size_t inflight,
                  double avg, bool baseline = false) {
  run_result r;
  r.name = std::move(name);
  r.target = "inprocess";
  r.shards = shards;
  r.inflight = inflight;
  r.baseline = baseline;
  r.throughput.average = avg;
  r.series.curve = {{0.5, avg}, {1.0, avg}};
  r.e2e_samples_ms = {1, 2, 3};
  r.e2e_ms = summarize(r.e2e_samples_ms);
  return r;
}

TEST(report, sweep_marks_the_best_cell_and_baseline_gives_speedup) {
  std::vector<run_result> runs{
    result("A/w", 1, 1, 100, true), result("A/w", 1, 1, 110),
    result("A/w", 1, 4, 300), result("A/w", 2, 1, 150),
    result("A/w", 2, 4, 250)};
  auto sweep = render_sweep_table(runs);
  EXPECT_NE(sweep.find("* = best: shards=1 inflight=4"), std::string::npos)
    << sweep;
  EXPECT_NE(sweep.find("300 *"), std::string::npos) << sweep;
  auto lines = render_baseline_lines(runs);
  EXPECT_NE(lines.find("A/w shards=1 inflight=4: speedup over shards=1 "
                       "inflight=1 = 3.00x"),
            std::string::npos)
    << lines;
  auto table = render_results_table(runs);
  EXPECT_NE(table.find("A/w (baseline)"), std::string::npos) << table;
  EXPECT_EQ(file_stem("A/w x"), "A_w_x");
  auto svg = render_throughput_svg(runs[2]);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  auto hist = render_latency_svg(runs[2]);
  EXPECT_NE(hist.find("pod end-to-end latency (n=3)"), std::string::npos);
}

} // namespace
} // namespace tessera::perf
