// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Workload files: strict parsing, $param substitution, template paths, and
// errors that name the file, the line and the field path.
#include "perf/harness/sweep.hpp"
#include "perf/harness/workload.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <unistd.h>

namespace tessera::perf {
namespace {

namespace fs = std::filesystem;

/// A directory with the template files workloads refer to.
class workload_dir : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path()
           / ("tessera-perf-workload-" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "templates");
    std::ofstream{dir_ / "templates/pod.yaml"}
      << "apiVersion: v1\nkind: Pod\nmetadata:\n  generateName: p-\n";
    std::ofstream{dir_ / "templates/node.yaml"}
      << "apiVersion: v1\nkind: Node\nmetadata:\n  generateName: n-\n";
    std::ofstream{dir_ / "templates/pv.yaml"}
      << "apiVersion: v1\nkind: PersistentVolume\n";
    std::ofstream{dir_ / "templates/pvc.yaml"}
      << "apiVersion: v1\nkind: PersistentVolumeClaim\n";
  }
  void TearDown() override {
    fs::remove_all(dir_);
  }
  expected<workload_file> parse(const std::string& text) {
    return parse_workload_file(text, "w.yaml", dir_.string());
  }
  fs::path dir_;
};

constexpr const char* basic = R"(
- name: Basic
  defaultPodTemplatePath: templates/pod.yaml
  featureGates: {SomeGate: true}
  workloadTemplate:
  - opcode: createNodes
    countParam: $initNodes
    nodeTemplatePath: templates/node.yaml
    uniqueNodeLabelStrategy:
      labelKey: kubernetes.io/hostname
  - opcode: createPods
    countParam: $measurePods
    collectMetrics: true
  - opcode: barrier
    stageRequirement: Attempted
  - opcode: sleep
    durationParam: $pause
  workloads:
  - name: small
    labels: [performance]
    params: {initNodes: 5, measurePods: 10, pause: 2s}
  - name: big
    params: {initNodes: 500, measurePods: 1000, pause: 1m30s}
)";

TEST_F(workload_dir, parses_ops_and_substitutes_params) {
  auto f = parse(basic);
  ASSERT_TRUE(f) << f.err().message;
  ASSERT_EQ(f->test_cases.size(), 1u);
  const auto& tc = f->test_cases[0];
  EXPECT_EQ(tc.name, "Basic");
  ASSERT_EQ(tc.ops.size(), 4u);
  EXPECT_EQ(tc.default_pod_template, (dir_ / "templates/pod.yaml").string());
  // featureGates are kept; workload labels are ignored with a notice that
  // belongs to the workload, so only its runs report it.
  EXPECT_EQ(to_string(tc.gates), "SomeGate=true");
  EXPECT_TRUE(tc.notices.empty());
  ASSERT_EQ(tc.workloads[0].notices.size(), 1u);
  EXPECT_NE(tc.workloads[0].notices[0].find("workloads[0].labels: ignored"),
            std::string::npos);
  EXPECT_TRUE(tc.workloads[1].notices.empty());

  struct test_case {
    std::string workload;
    std::int64_t nodes;
    std::int64_t pods;
    std::chrono::milliseconds pause;
  };
  for (const auto& c :
       std::vector<test_case>{{"small", 5, 10, std::chrono::seconds(2)},
                              {"big", 500, 1000, std::chrono::seconds(90)}}) {
    SCOPED_TRACE(c.workload);
    auto plans = select_plans(*f, "Basic", c.workload);
    ASSERT_TRUE(plans) << plans.err().message;
    ASSERT_EQ(plans->size(), 1u);
    const auto& p = (*plans)[0];
    EXPECT_EQ(p.name(), "Basic/" + c.workload);
    EXPECT_EQ(p.notices.size(), c.workload == "small" ? 1u : 0u);
    const auto& nodes = std::get<create_nodes_op>(p.ops[0].body);
    EXPECT_EQ(nodes.count.value, c.nodes);
    EXPECT_EQ(nodes.labels.type, node_label_strategy::kind::unique);
    EXPECT_EQ(nodes.template_path, (dir_ / "templates/node.yaml").string());
    const auto& pods = std::get<create_pods_op>(p.ops[1].body);
    EXPECT_EQ(pods.count.value, c.pods);
    EXPECT_TRUE(pods.collect_metrics);
    // The test case's default pod template and upstream's namespace.
    EXPECT_EQ(pods.template_path, (dir_ / "templates/pod.yaml").string());
    EXPECT_EQ(pods.ns, "namespace-1");
    EXPECT_FALSE(std::get<barrier_op>(p.ops[2].body).scheduled);
    EXPECT_EQ(std::get<sleep_op>(p.ops[3].body).duration, c.pause);
  }
  auto all = select_plans(*f, "", "");
  ASSERT_TRUE(all);
  EXPECT_EQ(all->size(), 2u);
}

TEST_F(workload_dir, errors_name_file_line_and_field_path) {
  struct test_case {
    std::string name;
    std::string text;
    std::vector<std::string> expected;
  };
  std::vector<test_case> cases{
    {"unknown op names the op",
     "- name: A\n  workloadTemplate:\n  - opcode: createPodz\n"
     "  workloads:\n  - name: w\n",
     {"w.yaml:3: [0].workloadTemplate[0].opcode: unknown op \"createPodz\"",
      "supported ops: createNodes"}},
    {"unknown field",
     "- name: A\n  workloadTemplate:\n  - opcode: createNodes\n    count: 1\n"
     "    colour: red\n  workloads:\n  - name: w\n",
     {"w.yaml:5: [0].workloadTemplate[0].colour: unknown field"}},
    {"missing template file",
     "- name: A\n  workloadTemplate:\n  - opcode: createPods\n    count: 1\n"
     "    podTemplatePath: nope.yaml\n  workloads:\n  - name: w\n",
     {"[0].workloadTemplate[0].podTemplatePath: template file",
      "nope.yaml\" does not exist"}},
    {"count not an integer",
     "- name: A\n  workloadTemplate:\n  - opcode: createNodes\n"
     "    count: many\n  workloads:\n  - name: w\n",
     {"w.yaml:4: [0].workloadTemplate[0].count: must be an integer"}},
    {"countParam without $",
     "- name: A\n  workloadTemplate:\n  - opcode: createNodes\n"
     "    countParam: initNodes\n  workloads:\n  - name: w\n",
     {"[0].workloadTemplate[0].countParam: must name a parameter as $name"}},
    {"collectMetrics and skipWaitToCompletion",
     "- name: A\n  defaultPodTemplatePath: templates/pod.yaml\n"
     "  workloadTemplate:\n  - opcode: createPods\n    count: 1\n"
     "    collectMetrics: true\n    skipWaitToCompletion: true\n"
     "  workloads:\n  - name: w\n",
     {"[0].workloadTemplate[0]: collectMetrics and skipWaitToCompletion "
      "cannot both be true"}},
    {"duplicate test case",
     "- name: A\n  workloadTemplate:\n  - opcode: sleep\n    duration: 1s\n"
     "  workloads:\n  - name: w\n"
     "- name: A\n  workloadTemplate:\n  - opcode: sleep\n    duration: 1s\n"
     "  workloads:\n  - name: w\n",
     {"[1].name: duplicate test case name \"A\""}},
    {"bad duration",
     "- name: A\n  workloadTemplate:\n  - opcode: sleep\n    duration: soon\n"
     "  workloads:\n  - name: w\n",
     {"[0].workloadTemplate[0].duration: invalid duration \"soon\""}},
    {"bad barrier stage",
     "- name: A\n  workloadTemplate:\n  - opcode: barrier\n"
     "    stageRequirement: Done\n  workloads:\n  - name: w\n",
     {"stageRequirement: must be Scheduled or Attempted"}},
    {"volume template without a claim template",
     "- name: A\n  workloadTemplate:\n  - opcode: createPods\n    count: 1\n"
     "    persistentVolumeTemplatePath: templates/pod.yaml\n"
     "  workloads:\n  - name: w\n",
     {"w.yaml:3: [0].workloadTemplate[0].persistentVolumeClaimTemplatePath: "
      "required with persistentVolumeTemplatePath"}},
    {"two node prepare strategies",
     "- name: A\n  workloadTemplate:\n  - opcode: createNodes\n    count: 1\n"
     "    uniqueNodeLabelStrategy: {labelKey: k}\n"
     "    nodeAllocatableStrategy: {migratedPlugins: [a]}\n"
     "  workloads:\n  - name: w\n",
     {"[0].workloadTemplate[0]: at most one node prepare strategy"}},
    {"bad nodeAllocatable quantity",
     "- name: A\n  workloadTemplate:\n  - opcode: createNodes\n    count: 1\n"
     "    nodeAllocatableStrategy:\n      nodeAllocatable: {disks: lots}\n"
     "  workloads:\n  - name: w\n",
     {"[0].workloadTemplate[0].nodeAllocatableStrategy.nodeAllocatable.disks: "
      "invalid quantity \"lots\""}},
    {"bad csiNodeAllocatable count",
     "- name: A\n  workloadTemplate:\n  - opcode: createNodes\n    count: 1\n"
     "    nodeAllocatableStrategy:\n      csiNodeAllocatable:\n"
     "        d.csi: {count: -1, size: 2}\n"
     "  workloads:\n  - name: w\n",
     {"nodeAllocatableStrategy.csiNodeAllocatable.d.csi.count: must not be "
      "negative",
      "nodeAllocatableStrategy.csiNodeAllocatable.d.csi.size: unknown field"}},
    {"not a list", "name: A\n", {"must be a list of test cases"}},
    {"invalid YAML", "- name: [A\n", {"w.yaml:", "invalid YAML"}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    // A malformed file fails to load; a malformed test case fails when it
    // is selected.
    auto f = parse(tc.text);
    error e = f ? select_plans(*f, "", "").err() : f.err();
    EXPECT_EQ(e.code, ec::invalid_input);
    EXPECT_EQ(e.message.rfind("w.yaml", 0), 0u) << e.message;
    for (const auto& want : tc.expected)
      EXPECT_NE(e.message.find(want), std::string::npos)
        << "missing \"" << want << "\" in:\n"
        << e.message;
  }
}

TEST_F(workload_dir, a_malformed_test_case_fails_only_when_selected) {
  auto f = parse(std::string{basic}
                 + "- name: Broken\n  workloadTemplate:\n"
                   "  - opcode: createPodz\n  workloads:\n  - name: w\n");
  ASSERT_TRUE(f) << f.err().message;
  auto good = select_plans(*f, "Basic", "small");
  EXPECT_TRUE(good) << good.err().message;
  auto bad = select_plans(*f, "Broken", "");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.err().message.find("unknown op \"createPodz\""),
            std::string::npos);
}

TEST_F(workload_dir, param_errors_name_the_workload) {
  struct test_case {
    std::string name;
    std::string params;
    std::string expected;
  };
  std::vector<test_case> cases{
    {"undefined", "{}",
     "w.yaml:3: [0].workloadTemplate[0].countParam: parameter \"n\" is not "
     "defined by workload \"w\""},
    {"unused", "{n: 1, extra: 2}",
     "[0].workloads[0].params.extra: parameter is defined but no op"},
    {"mistyped", "{n: lots}", "[0].workloads[0].params.n: must be an integer"},
    {"negative", "{n: -3}", "[0].workloads[0].params.n: must not be negative"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto f = parse("- name: A\n  workloadTemplate:\n  - opcode: createNodes\n"
                   "    countParam: $n\n  workloads:\n  - name: w\n"
                   "    params: "
                   + tc.params + "\n");
    ASSERT_TRUE(f) << f.err().message;
    auto p = select_plans(*f, "", "");
    ASSERT_FALSE(p);
    EXPECT_NE(p.err().message.find(tc.expected), std::string::npos)
      << p.err().message;
  }
}

TEST_F(workload_dir, unmatched_selection_lists_what_exists) {
  auto f = parse(basic);
  ASSERT_TRUE(f);
  auto p = select_plans(*f, "Basic", "huge");
  ASSERT_FALSE(p);
  EXPECT_NE(p.err().message.find("--workload huge"), std::string::npos);
  EXPECT_NE(p.err().message.find("Basic/small"), std::string::npos);
  EXPECT_NE(p.err().message.find("Basic/big"), std::string::npos);
}

TEST(workload_file_load, missing_file_names_it) {
  auto f = load_workload_file("/nonexistent/perf.yaml");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.err().message,
            "/nonexistent/perf.yaml: cannot read: No such file or directory");
}

// Workload files go through the shared file reader: its refusals name the
// file, and a key given twice is refused although yaml-cpp would keep one.
TEST(workload_file_load, bad_files_are_refused_with_their_name) {
  struct test_case {
    std::string name;
    std::string text;
    std::string want_after_path;
  };
  const std::vector<test_case> cases{
    {"key twice",
     "- name: Basic\n  workloadTemplate:\n  - opcode: createNodes\n"
     "    count: 1\n    count: 2\n",
     ": line 5: [0].workloadTemplate[0]: mapping key \"count\" already "
     "defined at line 4"},
    {"UTF-16", std::string{"\xFF\xFE-\0 \0", 6},
     ": encoding not supported: UTF-16 (byte order mark); only UTF-8 is "
     "read"},
    {"too deep", "- " + std::string(100, '['),
     ": line 1, column 67: nesting deeper than 64 levels"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    const std::string path = testing::TempDir() + "tessera_bad_workload_"
                             + std::to_string(getpid()) + ".yaml";
    std::ofstream{path, std::ios::binary} << tc.text;
    auto f = load_workload_file(path);
    ASSERT_FALSE(f);
    EXPECT_EQ(f.err().message, path + tc.want_after_path);
  }
}

// Every shipped workload parses, instantiates, and has the sizes documented
// in perf/README.md.
TEST(shipped_workloads, parse_and_instantiate) {
  const char* src = std::getenv("TESSERA_SOURCE_DIR");
  ASSERT_NE(src, nullptr);
  auto f = load_workload_file(std::string{src}
                              + "/perf/workloads/performance-config.yaml");
  ASSERT_TRUE(f) << f.err().message;
  auto plans = select_plans(*f, "", "");
  ASSERT_TRUE(plans) << plans.err().message;
  std::set<std::string> names;
  for (const auto& p : *plans)
    names.insert(p.name());
  for (std::string tc :
       {"SchedulingBasic", "SchedulingPodAntiAffinity", "SchedulingPodAffinity",
        "SchedulingPreferredPodAntiAffinity", "SchedulingNodeAffinity",
        "TopologySpreading", "PreferredTopologySpreading", "PreemptionBasic",
        "Unschedulable", "SchedulingWithMixedChurn"})
    for (std::string w : {"5Nodes", "500Nodes", "5000Nodes"})
      EXPECT_EQ(names.count(tc + "/" + w), 1u) << tc << "/" << w;
  EXPECT_EQ(names.count("SchedulingBasic/50000Nodes"), 1u);
  for (std::string w :
       {"PreemptionBasic/1000Nodes", "PreemptionAsync/5Nodes",
        "PreemptionAsync/1000Nodes", "PreemptionAsync/5000Nodes"})
    EXPECT_EQ(names.count(w), 1u) << w;
  for (const auto& p : *plans) {
    SCOPED_TRACE(p.name());
    std::size_t measured = 0;
    for (const auto& o : p.ops)
      if (const auto* c = std::get_if<create_pods_op>(&o.body))
        measured += c->collect_metrics ? 1 : 0;
    EXPECT_EQ(measured, 1u);
  }
}

TEST(sweep, parses_axes_and_plans_the_grid) {
  auto g = parse_sweep({"shards=1,2,4", "inflight=1,16"});
  ASSERT_TRUE(g) << g.err().message;
  EXPECT_EQ(g->shards, (std::vector<std::size_t>{1, 2, 4}));
  EXPECT_EQ(g->inflight, (std::vector<std::size_t>{1, 16}));
  auto settings = plan_settings(*g, {3, 5, false}, true);
  ASSERT_EQ(settings.size(), 7u);
  EXPECT_TRUE(settings[0].baseline);
  EXPECT_EQ(settings[0].shards, 1u);
  EXPECT_EQ(settings[0].inflight, 1u);
  EXPECT_EQ(settings[6].shards, 4u);
  EXPECT_EQ(settings[6].inflight, 16u);
  // Without --sweep: the configured setting only.
  auto one = plan_settings({}, {3, 5, false}, false);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].shards, 3u);
  EXPECT_EQ(one[0].inflight, 5u);

  struct test_case {
    std::string name;
    std::vector<std::string> axes;
    std::string expected;
  };
  for (const auto& tc : std::vector<test_case>{
         {"zero", {"shards=0"}, "\"0\" is not a positive integer"},
         {"text", {"inflight=1,x"}, "\"x\" is not a positive integer"},
         {"axis", {"threads=1"}, "unknown axis \"threads\""},
         {"twice", {"shards=1", "shards=2"}, "given twice"},
         {"no =", {"shards"}, "must be shards=LIST"},
       }) {
    SCOPED_TRACE(tc.name);
    auto bad = parse_sweep(tc.axes);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.err().message.find(tc.expected), std::string::npos)
      << bad.err().message;
  }
}

} // namespace
} // namespace tessera::perf

namespace tessera::perf {
namespace {

// What upstream's files carry beside the ops: gates, floors, client
// limits, batching params, pod sets, deletions and collection windows.
TEST_F(workload_dir, upstream_fields_reach_the_plan) {
  auto f = parse(R"(
- name: Upstream
  featureGates: {A: true, B: true}
  schedulerApiClientQPS: 100
  workloadTemplate:
  - opcode: createNamespaces
    prefix: ns
    count: 2
  - opcode: startCollectingMetrics
    namespaces: [ns-0]
    labelSelector: {type: unsched}
  - opcode: createPodSets
    countParam: $sets
    namespacePrefix: ns
    createPodsOp:
      opcode: createPods
      countParam: $perSet
      podTemplatePath: templates/pod.yaml
  - opcode: createPods
    signatureBatchSizeParam: $batch
    count: 1
    persistentVolumeTemplatePath: templates/pv.yaml
    persistentVolumeClaimTemplatePath: templates/pvc.yaml
  - opcode: createNodes
    count: 2
    nodeAllocatableStrategy:
      nodeAllocatable: {attachable-volumes-csi-d: "39"}
      csiNodeAllocatable:
        d: {count: 39}
        e:
      migratedPlugins: [kubernetes.io/aws-ebs]
  - opcode: deletePods
    namespace: ns-0
    deletePodsPerSecond: 50
    labelSelector: {type: blocker}
    skipWaitToCompletion: true
  - opcode: barrier
    labelSelector: {type: unsched}
  - opcode: stopCollectingMetrics
  workloads:
  - name: w
    featureGates: {B: false}
    threshold: 42.5
    schedulerApiClientBurst: 7
    params: {sets: 2, perSet: 3, batch: 10}
- name: Multiplied
  workloadTemplate:
  - opcode: createPods
    count: 1
    countMultiplierParam: $m
  workloads:
  - name: w
    params: {m: 2}
)");
  ASSERT_TRUE(f) << f.err().message;
  auto plans = select_plans(*f, "", "");
  ASSERT_TRUE(plans) << plans.err().message;
  ASSERT_EQ(plans->size(), 2u);
  const auto& p = (*plans)[0];
  EXPECT_EQ(p.skip_reason, "");
  EXPECT_EQ(to_string(p.gates), "A=true,B=false");
  EXPECT_EQ(p.threshold, 42.5);
  EXPECT_EQ(p.api_qps, 100);
  EXPECT_EQ(p.api_burst, 7);
  ASSERT_EQ(p.ops.size(), 8u);
  const auto& start = std::get<collect_metrics_op>(p.ops[1].body);
  EXPECT_TRUE(start.start);
  EXPECT_EQ(start.selector.at("type"), "unsched");
  const auto& sets = std::get<create_pod_sets_op>(p.ops[2].body);
  EXPECT_EQ(sets.count.value, 2);
  EXPECT_EQ(sets.pods.count.value, 3);
  EXPECT_EQ(sets.ns_prefix, "ns");
  const auto& pods = std::get<create_pods_op>(p.ops[3].body);
  EXPECT_EQ(pods.signature_batch.value, 10);
  // No template anywhere: upstream's built-in base pod.
  EXPECT_EQ(pods.template_path, "");
  EXPECT_EQ(pods.volume_template_path, (dir_ / "templates/pv.yaml").string());
  EXPECT_EQ(pods.claim_template_path, (dir_ / "templates/pvc.yaml").string());
  const auto& nodes = std::get<create_nodes_op>(p.ops[4].body);
  EXPECT_TRUE(nodes.allocatable.set);
  EXPECT_EQ(nodes.allocatable.node_allocatable.at("attachable-volumes-csi-d"),
            "39");
  EXPECT_EQ(nodes.allocatable.csi_allocatable.at("d"), 39);
  EXPECT_FALSE(nodes.allocatable.csi_allocatable.at("e").has_value());
  EXPECT_EQ(nodes.allocatable.migrated_plugins,
            std::vector<std::string>{"kubernetes.io/aws-ebs"});
  const auto& del = std::get<delete_pods_op>(p.ops[5].body);
  EXPECT_EQ(del.per_second, 50);
  EXPECT_TRUE(del.skip_wait);
  EXPECT_EQ(del.selector.at("type"), "blocker");
  EXPECT_EQ(std::get<barrier_op>(p.ops[6].body).selector.at("type"), "unsched");
  EXPECT_FALSE(std::get<collect_metrics_op>(p.ops[7].body).start);
  EXPECT_EQ(opcode(p.ops[7].body), "stopCollectingMetrics");
  // A field tessera lacks skips its test case, naming the field.
  EXPECT_NE((*plans)[1].skip_reason.find("field countMultiplierParam"),
            std::string::npos)
    << (*plans)[1].skip_reason;
}

} // namespace
} // namespace tessera::perf
