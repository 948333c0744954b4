// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/plugin_sets_text.hpp"
#include "config/scheduler_config.hpp"
#include "test/support/wait.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tessera::config {
namespace {

std::string source_dir() {
  const char* dir = std::getenv("TESSERA_SOURCE_DIR");
  return dir != nullptr ? dir : TESSERA_SOURCE_DIR_FALLBACK;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Upstream's defaulted v1 configuration for an empty input, as
// `kube-scheduler --write-config-to` prints it (v1.37 defaults), in tessera's
// layout; DynamicResourcesArgs is not written (tessera reads none).
const std::string default_yaml = R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
parallelism: 16
leaderElection:
  leaderElect: true
  leaseDuration: 15s
  renewDeadline: 10s
  retryPeriod: 2s
  resourceLock: leases
  resourceName: kube-scheduler
  resourceNamespace: kube-system
clientConnection:
  kubeconfig: ""
  acceptContentTypes: ""
  contentType: application/vnd.kubernetes.protobuf
  qps: 50
  burst: 100
enableProfiling: true
enableContentionProfiling: true
percentageOfNodesToScore: 0
podInitialBackoffSeconds: 1
podMaxBackoffSeconds: 10
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled:
      - name: SchedulingGates
      - name: PrioritySort
      - name: NodeUnschedulable
      - name: NodeName
      - name: TaintToleration
        weight: 3
      - name: NodeAffinity
        weight: 2
      - name: NodePorts
      - name: NodeResourcesFit
        weight: 1
      - name: VolumeRestrictions
      - name: NodeVolumeLimits
      - name: VolumeBinding
      - name: VolumeZone
      - name: PodTopologySpread
        weight: 2
      - name: InterPodAffinity
        weight: 2
      - name: DynamicResources
      - name: DefaultPreemption
      - name: NodeResourcesBalancedAllocation
        weight: 1
      - name: ImageLocality
        weight: 1
      - name: DefaultBinder
      - name: NodeDeclaredFeatures
  pluginConfig:
  - name: DefaultPreemption
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: DefaultPreemptionArgs
      minCandidateNodesPercentage: 10
      minCandidateNodesAbsolute: 100
  - name: InterPodAffinity
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: InterPodAffinityArgs
      hardPodAffinityWeight: 1
      ignorePreferredTermsOfExistingPods: false
  - name: NodeAffinity
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeAffinityArgs
  - name: NodeResourcesBalancedAllocation
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeResourcesBalancedAllocationArgs
      resources:
      - name: cpu
        weight: 1
      - name: memory
        weight: 1
  - name: NodeResourcesFit
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeResourcesFitArgs
      scoringStrategy:
        type: LeastAllocated
        resources:
        - name: cpu
          weight: 1
        - name: memory
          weight: 1
  - name: PodTopologySpread
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: PodTopologySpreadArgs
      defaultingType: System
  - name: VolumeBinding
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: VolumeBindingArgs
      bindTimeoutSeconds: 600
delayCacheUntilActive: false
---
apiVersion: tessera.dev/v1alpha1
kind: TesseraConfiguration
shards: 0
maxInflightCycles: 0
bindConcurrency: 64
)";

// yaml-cpp 0.7's LoadAll collects empty documents forever at a ',' where a
// document's root would start.
TEST(scheduler_config, a_comma_where_a_document_starts_is_refused) {
  test::finishes_within("load_config", [] {
    auto cfg = load_config("\"\",");
    ASSERT_FALSE(cfg.has_value());
    EXPECT_EQ(cfg.err().message,
              "yaml: line 1, column 3: did not find expected <document start>");
  });
}

TEST(scheduler_config, default_config_is_upstreams_defaulted_v1) {
  auto cfg = default_config();
  EXPECT_EQ(write_config(cfg), default_yaml);
  ASSERT_EQ(cfg.profiles.size(), 1u);
  EXPECT_EQ(testing::describe(cfg.profiles[0].plugins),
            testing::default_plugin_text());
}

TEST(scheduler_config, defaults_example_is_the_written_default) {
  auto text = read_file(source_dir() + "/examples/config/defaults.yaml");
  // The file is a comment header followed by write_config's output.
  auto start = text.find("apiVersion:");
  ASSERT_NE(start, std::string::npos);
  EXPECT_EQ(text.substr(start), default_yaml);
}

TEST(scheduler_config, minimal_inputs_load_to_the_defaults) {
  struct test_case {
    std::string name;
    std::string text;
  };
  const std::vector<test_case> cases = {
    {"yaml", "apiVersion: kubescheduler.config.k8s.io/v1\n"
             "kind: KubeSchedulerConfiguration\n"},
    {"json", R"({"apiVersion": "kubescheduler.config.k8s.io/v1",
                 "kind": "KubeSchedulerConfiguration"})"},
    {"nulls", "apiVersion: kubescheduler.config.k8s.io/v1\n"
              "kind: KubeSchedulerConfiguration\n"
              "parallelism: null\nprofiles: ~\nleaderElection:\n"},
    {"empty profile list", "apiVersion: kubescheduler.config.k8s.io/v1\n"
                           "kind: KubeSchedulerConfiguration\n"
                           "profiles: []\n"},
    {"one unnamed profile", "apiVersion: kubescheduler.config.k8s.io/v1\n"
                            "kind: KubeSchedulerConfiguration\n"
                            "profiles:\n- plugins: {}\n"},
    {"zero values that upstream defaults",
     "apiVersion: kubescheduler.config.k8s.io/v1\n"
     "kind: KubeSchedulerConfiguration\n"
     "leaderElection: {leaseDuration: 0s, renewDeadline: 0s, retryPeriod: 0s,"
     " resourceLock: \"\"}\n"
     "clientConnection: {qps: 0, burst: 0, contentType: \"\"}\n"},
    {"tessera document first",
     "apiVersion: tessera.dev/v1alpha1\nkind: TesseraConfiguration\n---\n"
     "apiVersion: kubescheduler.config.k8s.io/v1\n"
     "kind: KubeSchedulerConfiguration\n"},
    {"the defaults written out", default_yaml},
  };
  const auto want = default_config();
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto cfg = load_config(tc.text);
    ASSERT_TRUE(cfg.has_value()) << cfg.err().message;
    EXPECT_EQ(*cfg, want);
  }
}

TEST(scheduler_config, top_level_fields) {
  const std::string text = R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
parallelism: 32
percentageOfNodesToScore: 40
podInitialBackoffSeconds: 2
podMaxBackoffSeconds: 20
enableProfiling: false
delayCacheUntilActive: true
leaderElection:
  leaderElect: false
  leaseDuration: 1m30s
  renewDeadline: 45s
  retryPeriod: 500ms
  resourceName: tessera
  resourceNamespace: scheduling
clientConnection:
  kubeconfig: /etc/kubernetes/scheduler.conf
  acceptContentTypes: application/json
  contentType: application/json
  qps: 12.5
  burst: 30
---
apiVersion: tessera.dev/v1alpha1
kind: TesseraConfiguration
shards: 4
maxInflightCycles: 8
bindConcurrency: 16
)";
  auto cfg = load_config(text);
  ASSERT_TRUE(cfg.has_value()) << cfg.err().message;
  EXPECT_EQ(cfg->parallelism, 32);
  EXPECT_EQ(cfg->percentage_of_nodes_to_score, 40);
  EXPECT_EQ(cfg->pod_initial_backoff_seconds, 2);
  EXPECT_EQ(cfg->pod_max_backoff_seconds, 20);
  EXPECT_FALSE(cfg->enable_profiling);
  // Contention profiling defaults to the profiling setting.
  EXPECT_FALSE(cfg->enable_contention_profiling);
  EXPECT_TRUE(cfg->delay_cache_until_active);
  leader_election_config le;
  le.leader_elect = false;
  le.lease_duration = std::chrono::milliseconds{90000};
  le.renew_deadline = std::chrono::milliseconds{45000};
  le.retry_period = std::chrono::milliseconds{500};
  le.resource_name = "tessera";
  le.resource_namespace = "scheduling";
  EXPECT_EQ(cfg->leader_election, le);
  client_connection_config cc;
  cc.kubeconfig = "/etc/kubernetes/scheduler.conf";
  cc.accept_content_types = "application/json";
  cc.content_type = "application/json";
  cc.qps = 12.5f;
  cc.burst = 30;
  EXPECT_EQ(cfg->client_connection, cc);
  EXPECT_EQ(cfg->tessera, (tessera_config{4, 8, 16}));
  EXPECT_EQ(load_config(write_config(*cfg)).value(), *cfg);
}

TEST(scheduler_config, profiling_flags) {
  struct test_case {
    std::string name;
    std::string fields;
    bool profiling;
    bool contention;
  };
  const std::vector<test_case> cases = {
    {"defaults", "", true, true},
    {"profiling off", "enableProfiling: false\n", false, false},
    {"contention off", "enableContentionProfiling: false\n", true, false},
    {"contention without profiling",
     "enableProfiling: false\nenableContentionProfiling: true\n", false, true},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto cfg = load_config("apiVersion: kubescheduler.config.k8s.io/v1\n"
                           "kind: KubeSchedulerConfiguration\n"
                           + tc.fields);
    ASSERT_TRUE(cfg.has_value()) << cfg.err().message;
    EXPECT_EQ(cfg->enable_profiling, tc.profiling);
    EXPECT_EQ(cfg->enable_contention_profiling, tc.contention);
  }
}

// How user plugin lists merge with the defaults and expand from multiPoint.
TEST(scheduler_config, plugin_merging_and_expansion) {
  struct test_case {
    std::string name;
    std::string plugins;
    // Lines that differ from the default profile (see
    // testing::patched_default_text).
    std::string changed;
  };
  const std::vector<test_case> cases = {
    {"explicit score weight overrides and runs first",
     "score:\n  enabled:\n  - {name: NodeResourcesFit, weight: 5}\n",
     "score: NodeResourcesFit(5) TaintToleration(3) NodeAffinity(2) "
     "VolumeBinding(1) PodTopologySpread(2) InterPodAffinity(2) "
     "NodeResourcesBalancedAllocation(1) ImageLocality(1)\n"},
    {"explicit entry without weight gets weight 1, not the default",
     "score:\n  enabled:\n  - name: TaintToleration\n",
     "score: TaintToleration(1) NodeAffinity(2) NodeResourcesFit(1) "
     "VolumeBinding(1) PodTopologySpread(2) InterPodAffinity(2) "
     "NodeResourcesBalancedAllocation(1) ImageLocality(1)\n"},
    {"disabling at one point keeps the plugin elsewhere",
     "score:\n  disabled:\n  - name: NodeResourcesBalancedAllocation\n"
     "  - name: ImageLocality\n",
     "score: TaintToleration(3) NodeAffinity(2) NodeResourcesFit(1) "
     "VolumeBinding(1) PodTopologySpread(2) InterPodAffinity(2)\n"},
    {"disabling at multiPoint removes the plugin everywhere",
     "multiPoint:\n  disabled:\n  - name: NodeResourcesBalancedAllocation\n"
     "  - name: TaintToleration\n",
     "filter: NodeUnschedulable NodeName NodeAffinity NodePorts "
     "NodeResourcesFit VolumeRestrictions NodeVolumeLimits VolumeBinding "
     "VolumeZone PodTopologySpread InterPodAffinity NodeDeclaredFeatures\n"
     "preScore: NodeAffinity NodeResourcesFit VolumeBinding "
     "PodTopologySpread InterPodAffinity\n"
     "score: NodeAffinity(2) NodeResourcesFit(1) VolumeBinding(1) "
     "PodTopologySpread(2) InterPodAffinity(2) ImageLocality(1)\n"},
    {"star at one point keeps only the explicit list",
     "preScore:\n  disabled: [{name: \"*\"}]\n"
     "score:\n  disabled: [{name: \"*\"}]\n"
     "  enabled: [{name: ImageLocality, weight: 4}]\n",
     "preScore:\nscore: ImageLocality(4)\n"},
    {"star at multiPoint disables every default",
     "multiPoint:\n  disabled: [{name: \"*\"}]\n"
     "  enabled:\n  - name: PrioritySort\n  - name: NodeName\n"
     "  - name: DefaultBinder\n",
     "preEnqueue:\npreFilter:\nfilter: NodeName\npostFilter:\npreScore:\n"
     "score:\nreserve:\npreBind:\n"},
    {"a default re-enabled at multiPoint keeps its place and takes the "
     "user weight",
     "multiPoint:\n  enabled:\n  - {name: InterPodAffinity, weight: 7}\n",
     "score: TaintToleration(3) NodeAffinity(2) NodeResourcesFit(1) "
     "VolumeBinding(1) PodTopologySpread(2) InterPodAffinity(7) "
     "NodeResourcesBalancedAllocation(1) ImageLocality(1)\n"},
    {"a disabled default re-enabled at multiPoint moves to the end",
     "multiPoint:\n  disabled: [{name: TaintToleration}]\n"
     "  enabled: [{name: TaintToleration, weight: 1}]\n",
     "filter: NodeUnschedulable NodeName NodeAffinity NodePorts "
     "NodeResourcesFit VolumeRestrictions NodeVolumeLimits VolumeBinding "
     "VolumeZone PodTopologySpread InterPodAffinity NodeDeclaredFeatures "
     "TaintToleration\n"
     "preScore: NodeAffinity NodeResourcesFit VolumeBinding "
     "PodTopologySpread InterPodAffinity NodeResourcesBalancedAllocation "
     "TaintToleration\n"
     "score: NodeAffinity(2) NodeResourcesFit(1) VolumeBinding(1) "
     "PodTopologySpread(2) InterPodAffinity(2) "
     "NodeResourcesBalancedAllocation(1) ImageLocality(1) "
     "TaintToleration(1)\n"},
    {"explicit filter order: overrides, then multiPoint, then the rest",
     "filter:\n  disabled: [{name: NodeName}]\n"
     "  enabled: [{name: NodePorts}, {name: NodeName}]\n",
     "filter: NodePorts NodeUnschedulable TaintToleration NodeAffinity "
     "NodeResourcesFit VolumeRestrictions NodeVolumeLimits VolumeBinding "
     "VolumeZone PodTopologySpread InterPodAffinity NodeDeclaredFeatures "
     "NodeName\n"},
    {"a multiPoint weight only applies when score has no entry",
     "multiPoint:\n  enabled: [{name: ImageLocality, weight: 9}]\n"
     "score:\n  enabled: [{name: ImageLocality, weight: 2}]\n",
     "score: ImageLocality(2) TaintToleration(3) NodeAffinity(2) "
     "NodeResourcesFit(1) VolumeBinding(1) PodTopologySpread(2) "
     "InterPodAffinity(2) NodeResourcesBalancedAllocation(1)\n"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    std::string plugins;
    std::istringstream lines(tc.plugins);
    for (std::string line; std::getline(lines, line);)
      plugins += "    " + line + "\n";
    auto cfg = load_config("apiVersion: kubescheduler.config.k8s.io/v1\n"
                           "kind: KubeSchedulerConfiguration\n"
                           "profiles:\n- plugins:\n"
                           + plugins);
    ASSERT_TRUE(cfg.has_value()) << cfg.err().message;
    EXPECT_EQ(testing::describe(cfg->profiles[0].plugins),
              testing::patched_default_text(tc.changed));
    auto again = load_config(write_config(*cfg));
    ASSERT_TRUE(again.has_value()) << again.err().message;
    EXPECT_EQ(*again, *cfg);
  }
}

TEST(scheduler_config, dynamic_resources_is_a_prefilter_only_default_plugin) {
  // v1.37's defaults include DynamicResources (its gate is locked on);
  // tessera's only refuses pods with claims, at PreFilter.
  auto cfg = default_config();
  std::vector<std::string> where;
  for (auto p : all_extension_points)
    for (const auto& ref : cfg.profiles[0].plugins.at(p))
      if (ref.name == "DynamicResources")
        where.emplace_back(field_name(p));
  EXPECT_EQ(where, std::vector<std::string>{"preFilter"});
  auto enabled = load_config("apiVersion: kubescheduler.config.k8s.io/v1\n"
                             "kind: KubeSchedulerConfiguration\n"
                             "profiles:\n- plugins:\n    multiPoint:\n"
                             "      enabled: [{name: DynamicResources}]\n"
                             "  pluginConfig:\n  - name: DynamicResources\n"
                             "    args: {filterTimeout: 10s}\n");
  ASSERT_TRUE(enabled.has_value()) << enabled.err().message;
  EXPECT_EQ(enabled->profiles[0].plugins.pre_filter,
            cfg.profiles[0].plugins.pre_filter);
}

TEST(scheduler_config, load_config_file_prefixes_the_file_name) {
  auto dir = source_dir() + "/config/testdata/";
  auto ok = load_config_file(dir + "minimal.json");
  ASSERT_TRUE(ok.has_value()) << ok.err().message;
  EXPECT_EQ(ok->client_connection.kubeconfig, "/etc/kubernetes/scheduler.conf");

  auto bad = load_config_file(dir + "two-problems.yaml");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.err().code, ec::invalid_input);
  EXPECT_EQ(
    bad.err().message,
    dir
      + "two-problems.yaml: strict decoding error: unknown field "
        "\"profiles[0].pluginConfg\"\n"
      + dir
      + "two-problems.yaml: parallelism: Invalid value: 0: should be an "
        "integer value greater than zero");

  auto missing = load_config_file(dir + "does-not-exist.yaml");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.err().code, ec::not_found);
  EXPECT_EQ(missing.err().message,
            dir
              + "does-not-exist.yaml: cannot read: No such file or directory");
}

} // namespace
} // namespace tessera::config
