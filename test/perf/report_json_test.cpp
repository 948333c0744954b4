// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The JSON output of a real (small, in-process) run: upstream's dataItems
// shape, parsed back with Boost.JSON.
#include "perf/harness/report.hpp"
#include "test/perf/perf_fixture.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <map>

namespace tessera::perf {
namespace {

namespace json = boost::json;

TEST(report_json, a_run_yields_upstreams_data_items) {
  testing::temp_dir dir;
  auto p = testing::only_plan(
    testing::write_small_workload(dir, testing::small_workload_text(4, 4, 40)));
  progress quiet{progress_mode::off};
  auto out = run_plan(p, testing::test_options(target_kind::inprocess), quiet);
  ASSERT_EQ(out.failure, "");
  ASSERT_EQ(out.results.size(), 1u);

  boost::system::error_code ec;
  auto doc = json::parse(render_results_json(out.results), ec);
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_EQ(doc.at("version"), "v1");
  const auto& items = doc.at("dataItems").as_array();
  std::map<std::string, const json::object*> by_metric;
  for (const auto& it : items) {
    const auto& labels = it.at("labels").as_object();
    EXPECT_EQ(labels.at("Name"), "Small/w");
    EXPECT_EQ(labels.at("Target"), "inprocess");
    by_metric[std::string{labels.at("Metric").as_string()}] = &it.as_object();
  }
  struct test_case {
    std::string metric;
    std::string unit;
    std::vector<std::string> fields;
  };
  for (const auto& tc : std::vector<test_case>{
         {"SchedulingThroughput",
          "pods/s",
          {"Average", "Perc50", "Perc90", "Perc95", "Perc99"}},
         {"SchedulingAttemptLatency",
          "ms",
          {"Average", "Perc50", "Perc90", "Perc95", "Perc99", "Max"}},
         {"PodE2ELatency", "ms", {"Average", "Perc50", "Perc99", "Max"}},
         {"AttemptsPerPod", "attempts", {"Average", "Max"}},
         {"AssumeConflicts", "count", {"Count"}},
         {"BindsFailed", "count", {"Count"}},
         {"BatchedPods", "pods", {"Count"}},
         {"SchedulerCPU", "s", {"Seconds", "Cores"}},
         {"PeakRSS", "MB", {"Process", "BeforeScheduler"}},
         {"MeasuredPods", "pods", {"Measured", "Bound", "Seconds"}},
       }) {
    SCOPED_TRACE(tc.metric);
    ASSERT_EQ(by_metric.count(tc.metric), 1u);
    const auto& item = *by_metric[tc.metric];
    EXPECT_EQ(item.at("unit"), tc.unit.c_str());
    for (const auto& f : tc.fields)
      EXPECT_TRUE(item.at("data").as_object().contains(f)) << f;
  }
  const auto& tp = by_metric["SchedulingThroughput"]->at("data");
  EXPECT_GT(tp.at("Average").to_number<double>(), 0);
  const auto& pods = by_metric["MeasuredPods"]->at("data");
  EXPECT_EQ(pods.at("Measured").to_number<std::int64_t>(), 40);
  EXPECT_EQ(pods.at("Bound").to_number<std::int64_t>(), 40);
}

// Thresholds, feature gates and skipped runs reach the document.
TEST(report_json, summary_counts_ran_failed_and_skipped) {
  run_result ok;
  ok.name = "A/w";
  ok.threshold = 50;
  ok.feature_gates = "G=true";
  ok.throughput.average = 40;
  run_result failed = ok;
  failed.name = "B/w";
  failed.failure = "timed out";
  failed.threshold = 0;
  auto text
    = render_results_json({ok, failed}, {{"C/w", "uses op updateAny ..."}});
  boost::system::error_code ec;
  auto doc = json::parse(text, ec);
  ASSERT_FALSE(ec) << ec.message();
  const auto& summary = doc.at("summary").as_object();
  EXPECT_EQ(summary.at("Ran").to_number<std::uint64_t>(), 1u);
  EXPECT_EQ(summary.at("Failed").to_number<std::uint64_t>(), 1u);
  EXPECT_EQ(summary.at("Skipped").to_number<std::uint64_t>(), 1u);
  EXPECT_EQ(summary.at("SkippedRuns").as_array().at(0).at("Name"), "C/w");
  const auto& first = doc.at("dataItems").as_array().at(0).as_object();
  EXPECT_EQ(first.at("data").at("Threshold").as_double(), 50);
  EXPECT_EQ(first.at("labels").at("FeatureGates"), "G=true");
  auto below = below_thresholds({ok, failed});
  ASSERT_EQ(below.size(), 1u);
  EXPECT_NE(below[0].find("A/w: average 40.0 pods/s is below upstream's "
                          "floor 50"),
            std::string::npos)
    << below[0];
}

} // namespace
} // namespace tessera::perf
