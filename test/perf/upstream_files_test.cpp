// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// kube-scheduler's own scheduler_perf files (perf/upstream, unchanged):
// the smallest workload of every test case is classified as upstream's
// files demand (runs, or is skipped naming what tessera lacks) and, when
// it runs in-process, binds every measured pod; hostname-keyed
// anti-affinity binds only what fits, and so do CSINode volume limits.
#include "perf/harness/runner.hpp"
#include "test/perf/perf_fixture.hpp"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

namespace tessera::perf {
namespace {

struct upstream_case {
  std::string file;
  std::string test_case;
  std::string workload;
  /// Empty = runs; otherwise a part of the skip reason.
  std::string skipped_for;
  /// Whether the test runs it: upstream gives some test cases no workload
  /// small enough for a unit test (thousands of pods); those are only
  /// classified and their templates checked.
  bool run = true;
};

void PrintTo(const upstream_case& c, std::ostream* os) {
  *os << c.file << "/" << c.test_case << "/" << c.workload;
}

std::string upstream_file(const std::string& folder) {
  return testing::source_dir() + "/perf/upstream/" + folder
         + "/performance-config.yaml";
}

/// Runs the only plan of `file` in-process and returns its only result
/// (one start/stopCollectingMetrics window).
run_result run_collected(const std::string& file) {
  auto p = testing::only_plan(file);
  auto o = testing::test_options(target_kind::inprocess);
  o.op_timeout = std::chrono::seconds(30);
  progress quiet{progress_mode::off};
  auto out = run_plan(p, o, quiet);
  EXPECT_EQ(out.failure, "");
  EXPECT_EQ(out.results.size(), 1u);
  return out.results.empty() ? run_result{} : out.results.front();
}

/// A workload of two nodes (createNodes with `node_fields` added) and three
/// measured pods (createPods with `pod_fields` added), measured once every
/// pod was attempted.
std::string three_pods_on_two_nodes(const std::string& node_fields,
                                    const std::string& pod_fields) {
  return R"(
- name: Three
  workloadTemplate:
  - opcode: createNodes
    count: 2)"
         + node_fields + R"(
  - opcode: startCollectingMetrics
  - opcode: createPods
    count: 3
    skipWaitToCompletion: true)"
         + pod_fields + R"(
  - opcode: barrier
    stageRequirement: Attempted
  - opcode: stopCollectingMetrics
  workloads:
  - name: w
)";
}

class upstream_workload : public ::testing::TestWithParam<upstream_case> {};

TEST_P(upstream_workload, is_classified_and_runs_when_supported) {
  const auto& tc = GetParam();
  auto p
    = testing::only_plan(upstream_file(tc.file), tc.test_case, tc.workload);
  if (p.skip_reason.empty())
    p.skip_reason = unsupported_by_target(p, target_kind::inprocess);
  if (!tc.skipped_for.empty()) {
    EXPECT_NE(p.skip_reason.find(tc.skipped_for), std::string::npos)
      << p.skip_reason;
    return;
  }
  ASSERT_EQ(p.skip_reason, "");
  ASSERT_FALSE(error{check_templates(p)}) << check_templates(p).message;
  if (!tc.run)
    return;
  auto o = testing::test_options(target_kind::inprocess);
  o.op_timeout = std::chrono::seconds(30);
  progress quiet{progress_mode::off};
  auto out = run_plan(p, o, quiet);
  EXPECT_EQ(out.failure, "");
  ASSERT_FALSE(out.results.empty());
  for (const auto& r : out.results) {
    EXPECT_EQ(r.failure, "");
    EXPECT_GT(r.measured_pods, 0u);
    EXPECT_EQ(r.bound_pods, r.measured_pods);
  }
}

std::vector<upstream_case> cases() {
  return {
    {"misc", "SchedulingBasic", "5Nodes", ""},
    {"misc", "SchedulingDaemonset", "5Nodes", ""},
    {"misc", "PreemptionBasic", "5Nodes", ""},
    {"misc", "PreemptionAsync", "5Nodes", ""},
    {"misc", "Unschedulable", "5Nodes/1Init/10Pods", ""},
    {"misc", "SchedulingWithMixedChurn", "10Nodes", ""},
    {"misc", "SchedulingWhileGated", "1Node_10GatedPods", ""},
    {"misc", "SchedulingDeletedPodsWithFinalizers", "10Node_100DeletingPods",
     ""},
    {"misc", "SchedulingWithExtendedResource", "fast", ""},
    {"affinity", "SchedulingPodAntiAffinity", "5Nodes", ""},
    {"affinity", "SchedulingPodMatchingAntiAffinity", "5Nodes", ""},
    {"affinity", "SchedulingPodAffinity", "5Nodes", ""},
    {"affinity", "SchedulingPreferredPodAffinity", "5Nodes", ""},
    {"affinity", "SchedulingPreferredPodAntiAffinity", "5Nodes", ""},
    {"affinity", "SchedulingNodeAffinity", "5Nodes", ""},
    {"affinity", "MixedSchedulingBasePod", "5Nodes", ""},
    {"affinity", "SchedulingRequiredPodAntiAffinityWithNSSelector", "10Nodes",
     ""},
    {"affinity", "SchedulingPreferredAntiAffinityWithNSSelector", "10Nodes",
     ""},
    {"affinity", "SchedulingRequiredPodAffinityWithNSSelector", "10Nodes", ""},
    {"affinity", "SchedulingPreferredAffinityWithNSSelector", "10Nodes", ""},
    {"affinity", "SchedulingGatedPodsWithPodAffinityImpactForThroughput",
     "1Node_10GatedPods", ""},
    {"topology_spreading", "TopologySpreading", "5Nodes", ""},
    {"topology_spreading", "PreferredTopologySpreading", "5Nodes", ""},
    {"topology_spreading", "DefaultTopologySpreading", "5Nodes", ""},
    {"topology_spreading", "SchedulingWithNodeInclusionPolicy", "5Nodes", ""},
    {"default_preemption", "PreemptionBasic", "5Nodes", ""},
    {"default_preemption", "PreemptionAsync", "5Nodes", ""},
    {"default_preemption", "Unschedulable", "5Nodes/1Init/10Pods", ""},
    {"batching", "HostPortConflict", "10Nodes_10Pods_10BatchSize", ""},
    {"batching", "ResourceSaturation", "10Nodes_10Pods_10BatchSize", ""},
    {"volumes", "SchedulingSecrets", "5Nodes", ""},
    {"volumes", "SchedulingInTreePVs", "5Nodes", ""},
    {"volumes", "SchedulingMigratedInTreePVs", "5Nodes", ""},
    {"volumes", "SchedulingCSIPVs", "5Nodes", ""},
    {"volumes", "PreemptionPVs", "5Nodes", ""},
    {"event_handling", "EventHandlingPodDelete", "50Nodes_500Pods", ""},
    {"event_handling", "EventHandlingPodUpdate", "1Node_1000Pods", "", false},
    {"event_handling", "EventHandlingNodeAdd", "100Nodes_500Pods", "", false},
    {"event_handling", "EventHandlingPodAdd", "1000Pods", "", false},
    {"event_handling", "EventHandlingNodeUpdate", "100Nodes_1000Pods", "",
     false},
  };
}

std::string case_name(const ::testing::TestParamInfo<upstream_case>& info) {
  std::string out = info.param.file + "_" + info.param.test_case;
  for (char& c : out)
    if (std::isalnum(static_cast<unsigned char>(c)) == 0)
      c = '_';
  return out;
}

INSTANTIATE_TEST_SUITE_P(upstream, upstream_workload,
                         ::testing::ValuesIn(cases()), case_name);

// An op tessera lacks skips its own test case only, naming the op.
TEST(upstream_selection, unsupported_op_skips_only_its_test_case) {
  testing::temp_dir dir;
  auto file = testing::write_small_workload(
    dir, testing::small_workload_text(2, 0, 2) + R"(
- name: Updates
  workloadTemplate:
  - opcode: createNodes
    count: 1
  - opcode: createPodGroups
    count: 1
  workloads:
  - name: w
)");
  auto f = load_workload_file(file);
  ASSERT_TRUE(f) << f.err().message;
  auto plans = select_plans(*f, "", "");
  ASSERT_TRUE(plans) << plans.err().message;
  ASSERT_EQ(plans->size(), 2u);
  EXPECT_EQ((*plans)[0].skip_reason, "");
  EXPECT_NE((*plans)[1].skip_reason.find("op createPodGroups"),
            std::string::npos)
    << (*plans)[1].skip_reason;
}

// Two nodes named and labelled by the harness, three pods that must not
// share a hostname: upstream binds two, and so must we.
TEST(upstream_cluster, hostname_anti_affinity_binds_only_what_fits) {
  testing::temp_dir dir;
  dir.write("templates/anti.yaml", R"(apiVersion: v1
kind: Pod
metadata:
  generateName: anti-
  labels:
    color: green
spec:
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchLabels:
            color: green
        topologyKey: kubernetes.io/hostname
  containers:
  - image: registry.k8s.io/pause:3.10
    name: pause
)");
  auto file = dir.write("workload.yaml", three_pods_on_two_nodes("", R"(
    podTemplatePath: templates/anti.yaml)"));
  auto r = run_collected(file);
  EXPECT_EQ(r.measured_pods, 3u);
  EXPECT_EQ(r.bound_pods, 2u);
}

/// Two nodes whose CSINodes allow `limit` volumes of ebs.csi.aws.com each,
/// three pods each with a claim bound to a volume of that driver; returns
/// the measured result once every pod was attempted.
run_result run_with_csi_limit(int limit) {
  testing::temp_dir dir;
  dir.write("templates/pv.yaml", R"(apiVersion: v1
kind: PersistentVolume
spec:
  accessModes:
  - ReadOnlyMany
  capacity:
    storage: 1Gi
  csi:
    driver: ebs.csi.aws.com
)");
  dir.write("templates/pvc.yaml", R"(apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  annotations:
    pv.kubernetes.io/bind-completed: "true"
spec:
  accessModes:
  - ReadOnlyMany
  resources:
    requests:
      storage: 1Gi
)");
  auto file = dir.write("workload.yaml", three_pods_on_two_nodes(R"(
    nodeAllocatableStrategy:
      csiNodeAllocatable:
        ebs.csi.aws.com:
          count: )" + std::to_string(limit),
                                                                 R"(
    persistentVolumeTemplatePath: templates/pv.yaml
    persistentVolumeClaimTemplatePath: templates/pvc.yaml)"));
  return run_collected(file);
}

// The CSINodes of nodeAllocatableStrategy bite: with room for one volume
// per node, the third pod's volume fits nowhere and it stays pending; with
// room for two, all three bind.
TEST(upstream_ops, csi_node_limits_leave_pods_pending) {
  auto tight = run_with_csi_limit(1);
  EXPECT_EQ(tight.measured_pods, 3u);
  EXPECT_EQ(tight.bound_pods, 2u);
  auto roomy = run_with_csi_limit(2);
  EXPECT_EQ(roomy.measured_pods, 3u);
  EXPECT_EQ(roomy.bound_pods, 3u);
}

// A volume template that is not a PersistentVolume is bad input, named.
TEST(upstream_ops, claim_templates_must_be_volumes_and_claims) {
  testing::temp_dir dir;
  auto file = testing::write_small_workload(dir, R"(
- name: Wrong
  workloadTemplate:
  - opcode: createNodes
    count: 1
  - opcode: createPods
    count: 1
    collectMetrics: true
    persistentVolumeTemplatePath: templates/pod.yaml
    persistentVolumeClaimTemplatePath: templates/pod.yaml
  workloads:
  - name: w
)");
  auto p = testing::only_plan(file);
  auto e = check_templates(p);
  EXPECT_EQ(e.code, ec::invalid_input);
  EXPECT_NE(e.message.find("templates/pod.yaml: kind: must be a v1 "
                           "PersistentVolume, got v1 Pod"),
            std::string::npos)
    << e.message;
}

// Gated pods named by a Go template count as Attempted; updateAny then
// replaces each with its ungated version, and every one binds.
TEST(upstream_ops, update_any_lifts_scheduling_gates) {
  testing::temp_dir dir;
  const std::string pod = R"(apiVersion: v1
kind: Pod
metadata:
  name: gated-{{ .Index }}
  labels:
    type: unsched
spec:
  terminationGracePeriodSeconds: 0
  {{- if .Gated }}
  schedulingGates:
  - name: example.com/hold
  {{- end }}
  tolerations:
  - key: node.kubernetes.io/not-ready
    operator: Exists
    effect: NoExecute
    tolerationSeconds: 300
  - key: node.kubernetes.io/unreachable
    operator: Exists
    effect: NoExecute
    tolerationSeconds: 300
  containers:
  - image: registry.k8s.io/pause:3.10
    name: pause
)";
  dir.write("templates/gated.yaml", pod);
  auto file = dir.write("workload.yaml", R"(
- name: Gates
  workloadTemplate:
  - opcode: createNodes
    count: 1
  - opcode: startCollectingMetrics
    namespaces: [gates]
    labelSelector: {type: unsched}
  - opcode: createPods
    count: 3
    namespace: gates
    podTemplatePath: templates/gated.yaml
    templateParams: {Gated: "yes"}
    skipWaitToCompletion: true
  - opcode: barrier
    stageRequirement: Attempted
    labelSelector: {type: unsched}
  - opcode: updateAny
    countParam: $pods
    namespace: gates
    templatePath: templates/gated.yaml
    updatePerSecond: 100
  - opcode: barrier
    labelSelector: {type: unsched}
  - opcode: stopCollectingMetrics
  workloads:
  - name: w
    params: {pods: 3}
)");
  auto r = run_collected(file);
  EXPECT_EQ(r.measured_pods, 3u);
  EXPECT_EQ(r.bound_pods, 3u);
}

// A churn whose creates the cluster refuses fails the run: what it
// measured is not what the file describes.
TEST(upstream_ops, failed_churn_calls_fail_the_run) {
  testing::temp_dir dir;
  dir.write("templates/bad.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n"
                                  "  name: Not_A_Valid_Name\nspec:\n"
                                  "  containers:\n  - name: c\n"
                                  "    image: pause\n");
  auto file = dir.write("workload.yaml", R"(
- name: Churn
  workloadTemplate:
  - opcode: createNodes
    count: 1
  - opcode: churn
    mode: create
    number: 1
    intervalMilliseconds: 50
    templatePaths: [templates/bad.yaml]
  - opcode: createPods
    count: 2
    collectMetrics: true
  - opcode: sleep
    duration: 300ms
  workloads:
  - name: w
)");
  auto p = testing::only_plan(file);
  auto o = testing::test_options(target_kind::inprocess);
  progress quiet{progress_mode::off};
  auto out = run_plan(p, o, quiet);
  EXPECT_NE(out.failure.find("churn: 1 create/delete calls failed"),
            std::string::npos)
    << out.failure;
  ASSERT_EQ(out.results.size(), 1u);
  EXPECT_EQ(out.results[0].bound_pods, 2u);
  EXPECT_EQ(out.results[0].failure, out.failure);
}

} // namespace
} // namespace tessera::perf
