// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// Templates: parsing, and what render_node / render_pod add per copy; the
// storage objects createNodes and createPods add beside nodes and pods.
#include "model/decode.hpp"
#include "model/storage.hpp"
#include "perf/harness/templates.hpp"

#include <gtest/gtest.h>

namespace tessera::perf {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(templates, parse_reads_kind_and_names) {
  auto t = parse_template("apiVersion: v1\nkind: Pod\nmetadata:\n"
                          "  generateName: p-\n  namespace: ns\n",
                          "pod.yaml");
  ASSERT_TRUE(t) << t.err().message;
  EXPECT_EQ(t->kind, "Pod");
  EXPECT_EQ(t->api_version, "v1");
  EXPECT_EQ(t->generate_name, "p-");
  EXPECT_EQ(t->ns, "ns");
  EXPECT_TRUE(contains(t->json, "\"generateName\":\"p-\""));
}

TEST(templates, bad_templates_name_the_file) {
  struct test_case {
    std::string name;
    std::string text;
    std::string expected;
  };
  for (const auto& tc : std::vector<test_case>{
         {"unsupported Go template function",
          "kind: Pod\nmetadata: {name: '{{ printf \"%d\" .Index }}'}\n",
          "t.yaml: in action \"{{printf \"%d\" .Index}}\": function "
          "\"printf\" is not supported"},
         {"no kind", "apiVersion: v1\n", "t.yaml: kind: Required value"},
         {"no apiVersion", "kind: Pod\n", "t.yaml: apiVersion: Required value"},
         {"two documents", "kind: Pod\n---\nkind: Pod\n",
          "t.yaml: expected exactly one document, found 2"},
         {"bad quantity",
          "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: c\n"
          "    resources: {requests: {cpu: lots}}\n",
          "t.yaml: "},
         {"not an object", "[1, 2]\n", "t.yaml: "},
       }) {
    SCOPED_TRACE(tc.name);
    auto t = parse_template(tc.text, "t.yaml");
    ASSERT_FALSE(t);
    EXPECT_EQ(t.err().code, ec::invalid_input);
    EXPECT_TRUE(contains(t.err().message, tc.expected)) << t.err().message;
  }
}

TEST(templates, render_node_applies_label_strategies_and_marks) {
  auto t = default_node_template();
  struct test_case {
    std::string name;
    node_label_strategy strategy;
    std::size_t index;
    node_marks marks;
    std::vector<std::string> expected;
    std::vector<std::string> absent;
  };
  node_label_strategy zones{node_label_strategy::kind::values,
                            "topology.kubernetes.io/zone",
                            {"z1", "z2", "z3"}};
  node_label_strategy hosts{
    node_label_strategy::kind::unique, "kubernetes.io/hostname", {}};
  for (const auto& tc : std::vector<test_case>{
         {"round robin values",
          zones,
          4,
          {},
          {"\"topology.kubernetes.io/zone\":\"z2\""},
          {"kwok"}},
         {"unique value",
          hosts,
          7,
          {},
          {"\"kubernetes.io/hostname\":\"node-7\""},
          {"kwok"}},
         {"kwok marks and run label",
          {},
          0,
          node_marks{true, "tessera.dev/perf-run", "r1"},
          {"\"kwok.x-k8s.io/node\":\"fake\"", "\"type\":\"kwok\"",
           "\"effect\":\"NoSchedule\"", "\"tessera.dev/perf-run\":\"r1\""},
          {}},
       }) {
    SCOPED_TRACE(tc.name);
    auto json = render_node(t, tc.strategy, tc.index, tc.marks);
    ASSERT_TRUE(json) << json.err().message;
    // Named by the harness and labelled with its name, as upstream's node
    // preparer does (unless the strategy sets the hostname itself).
    std::string name = "node-" + std::to_string(tc.index);
    EXPECT_TRUE(contains(*json, "\"name\":\"" + name + "\"")) << *json;
    EXPECT_FALSE(contains(*json, "generateName")) << *json;
    if (tc.strategy.key != "kubernetes.io/hostname") {
      EXPECT_TRUE(
        contains(*json, "\"kubernetes.io/hostname\":\"" + name + "\""))
        << *json;
    }
    for (const auto& e : tc.expected)
      EXPECT_TRUE(contains(*json, e)) << *json;
    for (const auto& a : tc.absent)
      EXPECT_FALSE(contains(*json, a)) << *json;
  }
}

TEST(templates, render_pod_tolerates_kwok_only_when_asked) {
  auto t = parse_template("apiVersion: v1\nkind: Pod\nmetadata:\n"
                          "  generateName: p-\nspec:\n  containers:\n"
                          "  - name: c\n    image: pause\n",
                          "pod.yaml");
  ASSERT_TRUE(t);
  auto plain = render_pod(*t, false);
  ASSERT_TRUE(plain);
  EXPECT_EQ(*plain, t->json);
  auto kwok = render_pod(*t, true);
  ASSERT_TRUE(kwok);
  EXPECT_TRUE(contains(*kwok, "\"tolerations\":[{\"key\":\"kwok.x-k8s.io/"
                              "node\",\"operator\":\"Exists\""))
    << *kwok;
}

TEST(templates, field_names_match_case_insensitively_as_upstream) {
  auto t = parse_template("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                          "spec:\n  topologySpreadConstraints:\n"
                          "  - maxSkew: 1\n    topologyKey: k\n"
                          "    whenUnsatisfiable: DoNotSchedule\n"
                          "    NodeAffinityPolicy: Honor\n"
                          "    NodeTaintsPolicy: Honor\n",
                          "pod.yaml");
  ASSERT_TRUE(t) << t.err().message;
  EXPECT_TRUE(contains(t->json, "\"nodeAffinityPolicy\":\"Honor\"")) << t->json;
  EXPECT_TRUE(contains(t->json, "\"nodeTaintsPolicy\":\"Honor\"")) << t->json;
}

TEST(templates, go_templates_render_per_object) {
  auto t = parse_template(
    "apiVersion: v1\nkind: Pod\nmetadata:\n"
    "  name: p-{{ .Index }}-of-{{ .Count }}\n"
    "  labels:\n    half: \"{{ div .Index 2 }}\"\n"
    "    odd: \"{{ if eq (mod .Index 2) 1 }}yes{{ else }}no{{ end }}\"\n"
    "    next: \"{{ AddInt .Index 1 }}-{{ DivideInt .Count 4 }}\"\n"
    "    {{- if .Extra }}\n    extra: \"{{ .Extra }}\"{{ end }}\n",
    "pod.yaml");
  ASSERT_TRUE(t) << t.err().message;
  EXPECT_EQ(t->kind, "Pod");
  struct test_case {
    std::int64_t index;
    template_params params;
    std::vector<std::string> expected;
    std::vector<std::string> absent;
  };
  for (const auto& tc : std::vector<test_case>{
         {3,
          {},
          {"\"name\":\"p-3-of-8\"", "\"half\":\"1\"", "\"odd\":\"yes\"",
           "\"next\":\"4-2\""},
          {"extra"}},
         {4,
          {{"Extra", "x"}},
          {"\"name\":\"p-4-of-8\"", "\"odd\":\"no\"", "\"extra\":\"x\""},
          {}},
       }) {
    SCOPED_TRACE(tc.index);
    auto o = instantiate_template(*t, tc.index, 8, tc.params);
    ASSERT_TRUE(o) << o.err().message;
    for (const auto& e : tc.expected)
      EXPECT_TRUE(contains(o->json, e)) << o->json;
    for (const auto& a : tc.absent)
      EXPECT_FALSE(contains(o->json, a)) << o->json;
  }
  // A field the op does not give is Go's zero value: false, "<no value>".
  auto missing = parse_template(
    "apiVersion: v1\nkind: Pod\nmetadata: {name: 'a{{ if .Nope }}b{{ end }}', "
    "labels: {v: '{{ .Nope }}'}}\n",
    "t.yaml");
  ASSERT_TRUE(missing) << missing.err().message;
  auto o = instantiate_template(*missing, 0, 1, {});
  ASSERT_TRUE(o) << o.err().message;
  EXPECT_TRUE(contains(o->json, "\"name\":\"a\"")) << o->json;
  EXPECT_TRUE(contains(o->json, "\"v\":\"<no value>\"")) << o->json;
}

// Decoded as the scheduler decodes them: claim pvc-<i> bound to volume
// <ns>-vol-<i> and back, both Bound; the handle or EBS volume ID unique.
TEST(templates, bound_claims_are_bound_both_ways) {
  auto claim = parse_template(
    "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n"
    "  annotations:\n    pv.kubernetes.io/bind-completed: \"true\"\n"
    "spec:\n  accessModes: [ReadWriteOncePod]\n"
    "  resources: {requests: {storage: 1Gi}}\n",
    "pvc.yaml");
  ASSERT_TRUE(claim) << claim.err().message;
  struct test_case {
    std::string name;
    std::string volume;
    std::string driver;
    std::string handle;
  };
  for (const auto& tc : std::vector<test_case>{
         {"CSI",
          "apiVersion: v1\nkind: PersistentVolume\nspec:\n"
          "  accessModes: [ReadOnlyMany]\n  capacity: {storage: 1Gi}\n"
          "  csi: {driver: ebs.csi.aws.com}\n",
          "ebs.csi.aws.com", "ns1-vol-7"},
         {"in-tree AWS EBS",
          "apiVersion: v1\nkind: PersistentVolume\nspec:\n"
          "  accessModes: [ReadOnlyMany]\n  capacity: {storage: 1Gi}\n"
          "  awsElasticBlockStore: {volumeID: <volume-id>}\n",
          "ebs.csi.aws.com", "vol-7"},
       }) {
    SCOPED_TRACE(tc.name);
    auto volume = parse_template(tc.volume, "pv.yaml");
    ASSERT_TRUE(volume) << volume.err().message;
    auto b = render_bound_claim(*volume, *claim, "ns1", 7);
    ASSERT_TRUE(b) << b.err().message;
    EXPECT_EQ(b->claim_name, "pvc-7");
    EXPECT_EQ(b->volume_name, "ns1-vol-7");

    auto c = model::decode_object_json(b->claim_json);
    ASSERT_TRUE(c) << c.err().message;
    const auto& pvc = *std::get<model::persistent_volume_claim_ptr>(*c);
    EXPECT_EQ(pvc.name, "pvc-7");
    EXPECT_EQ(pvc.ns.view(), "ns1");
    EXPECT_EQ(pvc.volume_name, "ns1-vol-7");
    EXPECT_TRUE(pvc.fully_bound());
    EXPECT_EQ(pvc.phase, model::claim_phase::bound);
    EXPECT_EQ(pvc.access_modes, model::read_write_once_pod);

    auto v = model::decode_object_json(b->volume_json);
    ASSERT_TRUE(v) << v.err().message;
    const auto& pv = *std::get<model::persistent_volume_ptr>(*v);
    EXPECT_EQ(pv.name, "ns1-vol-7");
    ASSERT_TRUE(pv.claim_ref.has_value());
    EXPECT_EQ(pv.claim_ref->ns.view(), "ns1");
    EXPECT_EQ(pv.claim_ref->name, "pvc-7");
    EXPECT_EQ(pv.phase, model::volume_phase::bound);
    EXPECT_EQ(pv.attach.driver, tc.driver);
    EXPECT_EQ(pv.attach.handle, tc.handle);
  }
}

// The pod's own volumes give way to the claim, as upstream's harness does.
TEST(templates, a_claim_replaces_the_pods_volumes) {
  auto pod = with_claim_volume(
    R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},)"
    R"("spec":{"containers":[{"name":"c","image":"pause"}],)"
    R"("volumes":[{"name":"secret","secret":{"secretName":"s"}}]}})",
    "pvc-3");
  ASSERT_TRUE(pod) << pod.err().message;
  auto o = model::decode_object_json(*pod);
  ASSERT_TRUE(o) << o.err().message;
  EXPECT_FALSE(contains(*pod, "secret")) << *pod;
  EXPECT_TRUE(contains(*pod, "\"volumes\":[{\"name\":\"vol\","
                             "\"persistentVolumeClaim\":{\"claimName\":"
                             "\"pvc-3\"}}]"))
    << *pod;
}

TEST(templates, node_allocatable_strategy_adds_limits_and_a_csi_node) {
  node_allocatable_strategy s;
  s.set = true;
  s.node_allocatable["attachable-volumes-csi-ebs.csi.aws.com"] = "39";
  s.csi_allocatable["ebs.csi.aws.com"] = 39;
  s.csi_allocatable["other.csi"] = std::nullopt;
  s.migrated_plugins = {"kubernetes.io/aws-ebs", "kubernetes.io/gce-pd"};

  // A template with capacity only: allocatable starts from capacity.
  auto t = parse_template("apiVersion: v1\nkind: Node\nmetadata:\n"
                          "  generateName: n-\nstatus:\n"
                          "  capacity: {cpu: \"4\", pods: \"110\"}\n",
                          "node.yaml");
  ASSERT_TRUE(t) << t.err().message;
  auto json = render_node(*t, {}, 2, {}, s);
  ASSERT_TRUE(json) << json.err().message;
  auto n = model::decode_object_json(*json);
  ASSERT_TRUE(n) << n.err().message;
  EXPECT_TRUE(contains(*json, "\"allocatable\":{\"cpu\":\"4\",\"pods\":"
                              "\"110\",\"attachable-volumes-csi-ebs.csi.aws."
                              "com\":\"39\"}"))
    << *json;
  auto plain = render_node(*t, {}, 2, {});
  ASSERT_TRUE(plain);
  EXPECT_FALSE(contains(*plain, "allocatable")) << *plain;

  auto csi_json = render_csi_node("n-2", s);
  EXPECT_TRUE(contains(csi_json,
                       "\"storage.alpha.kubernetes.io/migrated-plugins\":"
                       "\"kubernetes.io/aws-ebs,kubernetes.io/gce-pd\""))
    << csi_json;
  auto c = model::decode_object_json(csi_json);
  ASSERT_TRUE(c) << c.err().message;
  const auto& csi = *std::get<model::csi_node_ptr>(*c);
  EXPECT_EQ(csi.name.view(), "n-2");
  ASSERT_NE(csi.driver("ebs.csi.aws.com"), nullptr);
  EXPECT_EQ(csi.driver("ebs.csi.aws.com")->allocatable_count, 39);
  ASSERT_NE(csi.driver("other.csi"), nullptr);
  EXPECT_FALSE(csi.driver("other.csi")->allocatable_count.has_value());
  EXPECT_TRUE(contains(csi_json, "\"nodeID\":\"n-2\"")) << csi_json;
}

TEST(templates, namespace_and_object_name) {
  auto ns = render_namespace(nullptr, "sched-0", {false, "l", "v"});
  ASSERT_TRUE(ns);
  EXPECT_TRUE(contains(*ns, "\"name\":\"sched-0\""));
  EXPECT_TRUE(contains(*ns, "\"l\":\"v\""));
  auto name = object_name_of(R"({"metadata":{"name":"p-abcde"}})");
  ASSERT_TRUE(name);
  EXPECT_EQ(*name, "p-abcde");
  EXPECT_FALSE(object_name_of(R"({"metadata":{}})"));
}

} // namespace
} // namespace tessera::perf
