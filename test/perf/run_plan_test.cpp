// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Small workloads end to end on the in-process and embedded-HTTP targets
// (the shipped workloads are in shipped_workloads_test.cpp).
#include "test/perf/perf_fixture.hpp"

#include <gtest/gtest.h>

namespace tessera::perf {
namespace {

using testing::only_plan;
using testing::small_workload_text;
using testing::temp_dir;
using testing::test_options;
using testing::write_small_workload;

TEST(run_plan, binds_every_pod_on_each_embedded_target) {
  struct test_case {
    std::string name;
    target_kind kind;
    int nodes, init, measured;
  };
  for (const auto& tc : std::vector<test_case>{
         {"inprocess", target_kind::inprocess, 10, 20, 200},
         {"embedded-http", target_kind::embedded_http, 5, 5, 50},
       }) {
    SCOPED_TRACE(tc.name);
    temp_dir dir;
    auto p = only_plan(write_small_workload(
      dir, small_workload_text(tc.nodes, tc.init, tc.measured)));
    progress quiet{progress_mode::off};
    auto out = run_plan(p, test_options(tc.kind), quiet);
    EXPECT_EQ(out.failure, "");
    ASSERT_EQ(out.results.size(), 1u);
    const auto& r = out.results[0];
    EXPECT_EQ(r.name, "Small/w");
    EXPECT_EQ(r.target, tc.name);
    EXPECT_EQ(r.measured_pods, static_cast<std::size_t>(tc.measured));
    EXPECT_EQ(r.bound_pods, static_cast<std::size_t>(tc.measured));
    EXPECT_EQ(r.failure, "");
    EXPECT_GT(r.throughput.average, 0);
    EXPECT_GE(r.throughput.p99, r.throughput.p50);
    EXPECT_EQ(r.e2e_ms.count, static_cast<std::size_t>(tc.measured));
    // Every measured pod had at least one reported attempt.
    EXPECT_TRUE(r.attempts_reported);
    EXPECT_GE(r.attempts_per_pod, 1.0);
    EXPECT_GE(r.attempt_ms.count, static_cast<std::size_t>(tc.measured));
    EXPECT_EQ(r.binds_failed, 0u);
    EXPECT_GT(r.peak_rss_bytes, 0u);
    EXPECT_GE(r.scheduler_cpu_seconds, 0.0);
  }
}

TEST(run_plan, reports_a_timeout_with_the_pods_bound_so_far) {
  temp_dir dir;
  dir.write("templates/huge.yaml",
            "apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: huge-\n"
            "spec:\n  containers:\n  - name: c\n    image: pause\n"
            "    resources:\n      requests: {cpu: \"64\"}\n");
  auto file
    = write_small_workload(dir, "- name: Stuck\n  workloadTemplate:\n"
                                "  - opcode: createNodes\n    count: 2\n"
                                "    nodeTemplatePath: templates/node.yaml\n"
                                "  - opcode: createPods\n    count: 3\n"
                                "    podTemplatePath: templates/huge.yaml\n"
                                "    collectMetrics: true\n"
                                "  - opcode: createPods\n    count: 3\n"
                                "    podTemplatePath: templates/pod.yaml\n"
                                "  workloads:\n  - name: w\n");
  auto o = test_options(target_kind::inprocess);
  o.op_timeout = std::chrono::seconds(1);
  progress quiet{progress_mode::off};
  auto out = run_plan(only_plan(file), o, quiet);
  EXPECT_NE(out.failure.find("[0].workloadTemplate[1] (createPods): 0 of 3 "
                             "pods bound before the timeout"),
            std::string::npos)
    << out.failure;
  ASSERT_EQ(out.results.size(), 1u);
  EXPECT_EQ(out.results[0].failure, "timed out: 0 of 3 measured pods bound");
  EXPECT_EQ(out.results[0].bound_pods, 0u);
}

} // namespace
} // namespace tessera::perf
