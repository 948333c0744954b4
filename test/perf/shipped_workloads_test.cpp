// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Every shipped test case at its CI size (5Nodes) on every target: each
// measured pod is bound, and nothing is left failed. The kubeconfig target
// runs against a fresh embedded API server per case, through a kubeconfig
// file.
#include "test/perf/perf_fixture.hpp"

#include <gtest/gtest.h>

#include <optional>

namespace tessera::perf {
namespace {

/// One way to run a shipped workload.
enum class way : std::uint8_t {
  inprocess,         // the default: no fake kubelet, as upstream
  inprocess_kubelet, // --fake-kubelet on the in-process target
  embedded_http,     // the default target, fake kubelet on
  kubeconfig,        // a kubeconfig naming an embedded server
};

std::string_view name_of(way w) {
  switch (w) {
  case way::inprocess:
    return "inprocess";
  case way::inprocess_kubelet:
    return "inprocess_fake_kubelet";
  case way::embedded_http:
    return "embedded_http";
  case way::kubeconfig:
    return "kubeconfig";
  }
  return "unknown";
}

using param = std::tuple<way, std::string>;

class shipped_workload : public ::testing::TestWithParam<param> {};

TEST_P(shipped_workload, binds_every_measured_pod) {
  auto [w, test_case] = GetParam();
  auto p
    = testing::only_plan(testing::shipped_workload_file(), test_case, "5Nodes");
  ASSERT_FALSE(p.ops.empty());
  testing::temp_dir dir;
  std::optional<testing::kubeconfig_cluster> cluster;
  run_options o;
  switch (w) {
  case way::inprocess:
    o = testing::test_options(target_kind::inprocess);
    break;
  case way::inprocess_kubelet:
    o = testing::test_options(target_kind::inprocess);
    o.target.fake_kubelet = true;
    break;
  case way::embedded_http:
    o = testing::test_options(target_kind::embedded_http);
    break;
  case way::kubeconfig:
    cluster.emplace(dir);
    ASSERT_TRUE(cluster->up());
    o = cluster->options();
    break;
  }
  progress quiet{progress_mode::off};
  auto out = run_plan(p, o, quiet);
  EXPECT_EQ(out.failure, "");
  ASSERT_EQ(out.results.size(), 1u);
  const auto& r = out.results[0];
  EXPECT_EQ(r.failure, "");
  EXPECT_GT(r.measured_pods, 0u);
  EXPECT_EQ(r.bound_pods, r.measured_pods);
  EXPECT_EQ(r.binds_failed, 0u);
  if (w == way::kubeconfig) {
    // The run removed the nodes it made (kwok-fake ones), and the volumes
    // and CSINodes it made beside pods and nodes.
    for (auto kind : {apiserver::storage_kind::node,
                      apiserver::storage_kind::persistent_volume,
                      apiserver::storage_kind::csi_node})
      EXPECT_TRUE(cluster->names(kind).empty());
  }
}

std::vector<param> every_way_and_case() {
  std::vector<param> out;
  for (way w : {way::inprocess, way::embedded_http, way::kubeconfig})
    for (const auto& tc : testing::shipped_test_cases())
      out.emplace_back(w, tc);
  // The in-process target with the fake kubelet where it changes the
  // cluster's behaviour: pods turn Running, victims and churned pods are
  // deleted by the kubelet.
  for (std::string tc :
       {"SchedulingBasic", "PreemptionBasic", "SchedulingWithMixedChurn"})
    out.emplace_back(way::inprocess_kubelet, tc);
  return out;
}

INSTANTIATE_TEST_SUITE_P(all, shipped_workload,
                         ::testing::ValuesIn(every_way_and_case()),
                         [](const ::testing::TestParamInfo<param>& info) {
                           return std::string{name_of(std::get<0>(info.param))}
                                  + "_" + std::get<1>(info.param);
                         });

// deploy/kwok's workload file (for kwok clusters) loads, and its templates
// (one shared with perf/workloads) resolve and parse.
TEST(kwok_recipe, workload_file_and_templates_load) {
  auto file = load_workload_file(testing::source_dir()
                                 + "/deploy/kwok/kwok-workloads.yaml");
  ASSERT_TRUE(file) << file.err().message;
  for (std::string w : {"500Nodes", "5000Nodes"}) {
    SCOPED_TRACE(w);
    auto plans = select_plans(*file, "", w);
    ASSERT_TRUE(plans) << plans.err().message;
    ASSERT_EQ(plans->size(), 1u);
    EXPECT_EQ(plans->front().name(), "SchedulingBasicKwok/" + w);
    EXPECT_FALSE(check_templates(plans->front()));
  }
}

} // namespace
} // namespace tessera::perf
