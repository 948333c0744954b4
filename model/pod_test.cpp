// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/decode.hpp"
#include "model/object.hpp"
#include "model/pod.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

// Each test file has its own namespace so that unity builds, which merge
// files, see no clashing helpers.
namespace tessera::model::pod_test {
namespace {

using test::describe;
using test::make_container;
using test::make_pod;
using test::make_resources;
using test::resource_pairs;

symbol sym(std::string_view s) {
  return symbol{s};
}

// In-place resize: while the kubelet reports a container's resources, the
// pod counts per resource the largest of the desired, allocated and actual
// sums; an Infeasible resize counts only what the kubelet reports.
TEST(pod, requests_during_an_in_place_resize) {
  struct test_case {
    std::string name;
    std::string status;
    resource_pairs requests;
  };
  // Spec: c1 wants 2 cpu / 1Gi, c2 wants 1 cpu.
  const std::string spec
    = R"("spec":{"containers":[)"
      R"({"name":"c1","resources":{"requests":{"cpu":"2","memory":"1Gi"}}},)"
      R"({"name":"c2","resources":{"requests":{"cpu":"1"}}}]})";
  const std::vector<test_case> cases = {
    {"no reported resources: the spec",
     R"({"phase":"Running"})",
     {{"cpu", "3"}, {"memory", "1Gi"}}},
    {"up-size pending: the desired requests",
     R"({"containerStatuses":[{"name":"c1","allocatedResources":{"cpu":"1",)"
     R"("memory":"1Gi"},"resources":{"requests":{"cpu":"1","memory":"1Gi"}}}]})",
     {{"cpu", "3"}, {"memory", "1Gi"}}},
    {"down-size not yet actuated: the actual requests",
     R"({"containerStatuses":[{"name":"c1","allocatedResources":{"cpu":"2",)"
     R"("memory":"1Gi"},"resources":{"requests":{"cpu":"4","memory":"3Gi"}}}]})",
     {{"cpu", "5"}, {"memory", "3Gi"}}},
    {"allocated above the others",
     R"({"containerStatuses":[{"name":"c2","allocatedResources":{"cpu":"3"}}]})",
     {{"cpu", "5"}, {"memory", "1Gi"}}},
    {"infeasible: only what the kubelet reports",
     R"({"conditions":[{"type":"PodResizePending","status":"True",)"
     R"("reason":"Infeasible"}],"containerStatuses":[{"name":"c1",)"
     R"("allocatedResources":{"cpu":"500m","memory":"512Mi"},)"
     R"("resources":{"requests":{"cpu":"500m","memory":"512Mi"}}}]})",
     {{"cpu", "500m"}, {"memory", "512Mi"}}},
    {"deferred is not infeasible",
     R"({"conditions":[{"type":"PodResizePending","status":"True",)"
     R"("reason":"Deferred"}],"containerStatuses":[{"name":"c1",)"
     R"("allocatedResources":{"cpu":"500m","memory":"512Mi"}}]})",
     {{"cpu", "3"}, {"memory", "1Gi"}}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto p = decode_pod_json(R"({"apiVersion":"v1","kind":"Pod",)"
                             R"("metadata":{"name":"p"},)"
                             + spec + R"(,"status":)" + tc.status + "}");
    ASSERT_TRUE(p) << p.err().message;
    EXPECT_EQ(describe(p->requests), describe(make_resources(tc.requests)));
  }
}

TEST(pod, disruption_target_marks_a_preemption_victim) {
  auto p = decode_pod_json(
    R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"v"},)"
    R"("spec":{"nodeName":"n1","containers":[{"name":"c"}]},"status":)"
    R"({"conditions":[{"type":"DisruptionTarget","status":"True",)"
    R"("reason":"PreemptionByScheduler"}]}})");
  ASSERT_TRUE(p) << p.err().message;
  EXPECT_TRUE(p->disrupted_by_preemption);
}

TEST(pod, compute_pod_requests) {
  struct test_case {
    std::string name;
    pod p;
    resource_pairs requests;
    resource_pairs non_zero;
  };
  const std::vector<test_case> cases = {
    {"semantics example: init containers and the max rule",
     make_pod("p")
       .init_container(make_container("ic1").cpu("2").memory("1G"))
       .init_container(make_container("ic2").cpu("2").memory("3G"))
       .container(make_container("c1").cpu("2").memory("1G"))
       .container(make_container("c2").cpu("1").memory("1G"))
       .build_value(),
     {{"cpu", "3"}, {"memory", "3G"}},
     {{"cpu", "3"}, {"memory", "3G"}}},
    {"no requests: scoring defaults only",
     make_pod("p").build_value(),
     {},
     {{"cpu", "100m"}, {"memory", "200Mi"}}},
    {"explicit zero cpu keeps zero",
     make_pod("p").cpu("0").build_value(),
     {},
     {{"memory", "200Mi"}}},
    {"defaults per container lacking a request",
     make_pod("p")
       .cpu("500m")
       .memory("1Gi")
       .container(make_container("helper"))
       .build_value(),
     {{"cpu", "500m"}, {"memory", "1Gi"}},
     {{"cpu", "600m"}, {"memory", "1224Mi"}}},
    {"sidecar before an init container counts for it",
     make_pod("p")
       .sidecar(make_container("s").cpu("1").memory("1Gi"))
       .init_container(make_container("i").cpu("2").memory("1Gi"))
       .container(make_container("c").cpu("1").memory("1Gi"))
       .build_value(),
     {{"cpu", "3"}, {"memory", "2Gi"}},
     {{"cpu", "3"}, {"memory", "2Gi"}}},
    {"sidecar after an init container does not",
     make_pod("p")
       .init_container(make_container("i").cpu("2").memory("1Gi"))
       .sidecar(make_container("s").cpu("1").memory("1Gi"))
       .container(make_container("c").cpu("1").memory("1Gi"))
       .build_value(),
     {{"cpu", "2"}, {"memory", "2Gi"}},
     {{"cpu", "2"}, {"memory", "2Gi"}}},
    {"two sidecars under one init container",
     make_pod("p")
       .sidecar(make_container("s1").cpu("500m"))
       .sidecar(make_container("s2").cpu("500m"))
       .init_container(make_container("i").cpu("2"))
       .container(make_container("c").cpu("1"))
       .build_value(),
     {{"cpu", "3"}},
     {{"cpu", "3"}, {"memory", "600Mi"}}},
    {"init container without requests gets the defaults",
     make_pod("p")
       .init_container(make_container("i"))
       .cpu("50m")
       .memory("100Mi")
       .build_value(),
     {{"cpu", "50m"}, {"memory", "100Mi"}},
     {{"cpu", "100m"}, {"memory", "200Mi"}}},
    {"overhead is added",
     make_pod("p")
       .cpu("1")
       .memory("1Gi")
       .overhead("cpu", "250m")
       .overhead("memory", "120Mi")
       .build_value(),
     {{"cpu", "1250m"}, {"memory", "1144Mi"}},
     {{"cpu", "1250m"}, {"memory", "1144Mi"}}},
    {"overhead is added after the defaults",
     make_pod("p").overhead("cpu", "100m").build_value(),
     {{"cpu", "100m"}},
     {{"cpu", "200m"}, {"memory", "200Mi"}}},
    {"pod-level requests replace cpu and memory",
     make_pod("p")
       .cpu("1")
       .memory("1Gi")
       .pod_request("cpu", "2")
       .pod_request("memory", "2Gi")
       .build_value(),
     {{"cpu", "2"}, {"memory", "2Gi"}},
     {{"cpu", "2"}, {"memory", "2Gi"}}},
    {"pod-level cpu only: memory defaults per container",
     make_pod("p")
       .cpu("500m")
       .container(make_container("helper"))
       .pod_request("cpu", "1")
       .build_value(),
     {{"cpu", "1"}},
     {{"cpu", "1"}, {"memory", "400Mi"}}},
    {"pod-level requests then overhead",
     make_pod("p")
       .cpu("500m")
       .memory("512Mi")
       .pod_request("cpu", "1")
       .pod_request("memory", "1Gi")
       .overhead("cpu", "100m")
       .build_value(),
     {{"cpu", "1100m"}, {"memory", "1Gi"}},
     {{"cpu", "1100m"}, {"memory", "1Gi"}}},
    {"pod-level memory only and no cpu anywhere",
     make_pod("p").pod_request("memory", "1Gi").build_value(),
     {{"memory", "1Gi"}},
     {{"cpu", "100m"}, {"memory", "1Gi"}}},
    {"pod-level memory only, cpu named by the overhead",
     make_pod("p")
       .pod_request("memory", "1Gi")
       .overhead("cpu", "50m")
       .build_value(),
     {{"cpu", "50m"}, {"memory", "1Gi"}},
     {{"cpu", "50m"}, {"memory", "1Gi"}}},
    {"pod-level hugepages replace the containers' sum",
     make_pod("p")
       .cpu("1")
       .request("hugepages-2Mi", "2Mi")
       .pod_request("hugepages-2Mi", "4Mi")
       .build_value(),
     {{"cpu", "1"}, {"hugepages-2Mi", "4Mi"}},
     {{"cpu", "1"}, {"memory", "200Mi"}, {"hugepages-2Mi", "4Mi"}}},
    {"extended resources follow the max rule",
     make_pod("p")
       .cpu("1")
       .request("example.com/gpu", "1")
       .init_container(make_container("i").request("example.com/gpu", "2"))
       .build_value(),
     {{"cpu", "1"}, {"example.com/gpu", "2"}},
     {{"cpu", "1"}, {"memory", "200Mi"}, {"example.com/gpu", "2"}}},
    {"ephemeral storage is summed",
     make_pod("p")
       .cpu("100m")
       .memory("1Mi")
       .ephemeral_storage("1Gi")
       .container(
         make_container("c2").cpu("100m").memory("1Mi").ephemeral_storage(
           "2Gi"))
       .build_value(),
     {{"cpu", "200m"}, {"memory", "2Mi"}, {"ephemeral-storage", "3Gi"}},
     {{"cpu", "200m"}, {"memory", "2Mi"}, {"ephemeral-storage", "3Gi"}}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto want = make_resources(tc.requests);
    auto want_non_zero = make_resources(tc.non_zero);
    EXPECT_EQ(describe(compute_pod_requests(tc.p, false)), describe(want));
    EXPECT_EQ(describe(compute_pod_requests(tc.p, true)),
              describe(want_non_zero));
    // complete() (run by the builder) stores the same values.
    EXPECT_TRUE(tc.p.requests == want) << describe(tc.p.requests);
    EXPECT_TRUE(tc.p.non_zero_requests == want_non_zero)
      << describe(tc.p.non_zero_requests);
    // pod_core keeps only cpu and memory of the non-zero request: the scoring
    // defaults leave every other resource equal to the effective request.
    auto rebuilt = tc.p.requests;
    rebuilt.milli_cpu = tc.p.non_zero_milli_cpu;
    rebuilt.memory = tc.p.non_zero_memory;
    EXPECT_TRUE(rebuilt == tc.p.non_zero_requests) << describe(rebuilt);
  }
}

TEST(pod, normalize_image_name) {
  struct test_case {
    std::string name;
    std::string image;
    std::string expected;
  };
  const std::vector<test_case> cases = {
    {"untagged", "nginx", "nginx:latest"},
    {"tagged", "nginx:1.2", "nginx:1.2"},
    {"registry with port, untagged", "registry:5000/nginx",
     "registry:5000/nginx:latest"},
    {"registry with port, tagged", "registry:5000/nginx:1.2",
     "registry:5000/nginx:1.2"},
    {"digest", "nginx@sha256:0123abcd", "nginx@sha256:0123abcd"},
    {"full path untagged", "docker.io/library/nginx",
     "docker.io/library/nginx:latest"},
    {"colon before the last slash", "a/b:c/d", "a/b:c/d:latest"},
    {"empty", "", ":latest"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(normalize_image_name(tc.image), tc.expected);
  }
}

TEST(pod, images_of_containers_then_init_containers) {
  auto p = make_pod("p")
             .image("nginx")
             .container(make_container("c2").image("redis:7"))
             .init_container(make_container("init").image("busybox"))
             .sidecar(make_container("proxy").image("envoy@sha256:abc"))
             .build_value();
  const std::vector<symbol> expected
    = {sym("nginx:latest"), sym("redis:7"), sym("busybox:latest"),
       sym("envoy@sha256:abc")};
  EXPECT_EQ(p.images, expected);
}

TEST(pod, host_ports_of_containers_and_sidecars) {
  auto p = make_pod("p")
             .sidecar(make_container("proxy").host_port(9000, "UDP"))
             .init_container(make_container("init").host_port(9001))
             .host_port(80)
             .host_port(0)
             .container(make_container("c2").host_port(443, "", ""))
             .container(make_container("c3").host_port(8080, "TCP", "10.0.0.1"))
             .build_value();
  const std::vector<host_port> expected = {
    {sym("0.0.0.0"), sym("UDP"), 9000},
    {sym("0.0.0.0"), sym("TCP"), 80},
    {sym("0.0.0.0"), sym("TCP"), 443},
    {sym("10.0.0.1"), sym("TCP"), 8080},
  };
  EXPECT_EQ(p.host_ports, expected);
}

TEST(pod, host_port_conflicts) {
  struct test_case {
    std::string name;
    host_port a;
    host_port b;
    bool expected;
  };
  auto hp = [](std::string_view ip, std::string_view proto, int port) {
    return host_port{sym(ip), sym(proto), port};
  };
  const std::vector<test_case> cases = {
    {"identical", hp("10.0.0.1", "TCP", 80), hp("10.0.0.1", "TCP", 80), true},
    {"different port", hp("10.0.0.1", "TCP", 80), hp("10.0.0.1", "TCP", 81),
     false},
    {"different protocol", hp("10.0.0.1", "TCP", 80), hp("10.0.0.1", "UDP", 80),
     false},
    {"different IPs", hp("10.0.0.1", "TCP", 80), hp("10.0.0.2", "TCP", 80),
     false},
    {"any IP against a specific one", hp("0.0.0.0", "TCP", 80),
     hp("10.0.0.2", "TCP", 80), true},
    {"specific IP against any", hp("10.0.0.2", "TCP", 80),
     hp("0.0.0.0", "TCP", 80), true},
    {"empty IP reads as any", hp("", "TCP", 80), hp("10.0.0.2", "TCP", 80),
     true},
    {"empty protocol reads as TCP", hp("0.0.0.0", "", 80),
     hp("0.0.0.0", "TCP", 80), true},
    {"empty protocol is not UDP", hp("0.0.0.0", "", 80),
     hp("0.0.0.0", "UDP", 80), false},
    {"SCTP on both", hp("0.0.0.0", "SCTP", 9), hp("1.2.3.4", "SCTP", 9), true},
    {"port zero never conflicts", hp("0.0.0.0", "TCP", 0),
     hp("0.0.0.0", "TCP", 0), false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(conflicts(tc.a, tc.b), tc.expected);
  }
}

TEST(pod, affinity_flags) {
  struct test_case {
    std::string name;
    pod p;
    bool has_terms;
    bool required_anti;
  };
  auto empty_affinity = make_pod("p").build_value();
  empty_affinity.affinity.edit().pod.emplace();
  empty_affinity.affinity.edit().pod_anti.emplace();
  empty_affinity.complete();
  const std::string host{node_labels::hostname};
  const std::vector<test_case> cases = {
    {"none", make_pod("p").build_value(), false, false},
    {"present but empty", empty_affinity, false, false},
    {"node affinity does not count",
     make_pod("p").required_node_affinity("a", "Exists", {}).build_value(),
     false, false},
    {"required affinity",
     make_pod("p").required_affinity("app", "db", host).build_value(), true,
     false},
    {"preferred affinity",
     make_pod("p").preferred_affinity(5, "app", "db", host).build_value(), true,
     false},
    {"preferred anti-affinity",
     make_pod("p").preferred_anti_affinity(5, "app", "db", host).build_value(),
     true, false},
    {"required anti-affinity",
     make_pod("p").required_anti_affinity("app", "web", host).build_value(),
     true, true},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.p.has_pod_affinity_terms, tc.has_terms);
    EXPECT_EQ(tc.p.has_required_anti_affinity, tc.required_anti);
  }
}

TEST(pod, key_and_identity) {
  struct test_case {
    std::string name;
    pod a;
    pod b;
    bool same;
  };
  const std::vector<test_case> cases = {
    {"same uid, different names", make_pod("a").uid("u1").build_value(),
     make_pod("b").uid("u1").build_value(), true},
    {"different uids, same key", make_pod("a").uid("u1").build_value(),
     make_pod("a").uid("u2").build_value(), false},
    {"one uid missing: key decides", make_pod("a").uid("").build_value(),
     make_pod("a").uid("u2").build_value(), true},
    {"no uids, same key", make_pod("a").uid("").build_value(),
     make_pod("a").uid("").build_value(), true},
    {"no uids, other namespace", make_pod("a").uid("").build_value(),
     make_pod("a").ns("kube-system").uid("").build_value(), false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.a.same_identity(tc.b), tc.same);
    EXPECT_EQ(tc.b.same_identity(tc.a), tc.same);
  }
  EXPECT_EQ(make_pod("web-1").ns("shop").build_value().key(), "shop/web-1");
  EXPECT_EQ(make_pod("web-1").build_value().uid, "uid-default-web-1");
}

TEST(pod, core_fields_derived_by_complete) {
  struct test_case {
    std::string name;
    pod p;
    bool has_controller;
  };
  const pod plain = make_pod("p").build_value();
  const std::vector<test_case> cases = {
    {"no owner", plain, false},
    {"controller owner", make_pod("p").owner("ReplicaSet", "rs").build_value(),
     true},
    {"owner that is not the controller",
     [] {
       auto p = make_pod("p").owner("ReplicaSet", "rs").build_value();
       p.owners.front().controller = false;
       p.complete();
       return p;
     }(),
     false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(tc.p.has_controller, tc.has_controller);
  }

  // The fingerprint follows the tolerations and nothing else.
  const pod tolerant
    = make_pod("p").toleration("dedicated", "gpu", "NoSchedule").build_value();
  const pod other_value
    = make_pod("p").toleration("dedicated", "cpu", "NoSchedule").build_value();
  const pod exists = make_pod("p").toleration_exists("dedicated").build_value();
  EXPECT_NE(tolerant.tolerations_fingerprint, plain.tolerations_fingerprint);
  EXPECT_NE(tolerant.tolerations_fingerprint,
            other_value.tolerations_fingerprint);
  EXPECT_NE(tolerant.tolerations_fingerprint, exists.tolerations_fingerprint);
  EXPECT_EQ(tolerant.tolerations_fingerprint,
            make_pod("p")
              .toleration("dedicated", "gpu", "NoSchedule")
              .build_value()
              .tolerations_fingerprint);
  EXPECT_EQ(make_pod("q").cpu("1").build_value().tolerations_fingerprint,
            plain.tolerations_fingerprint);
}

TEST(pod, core_is_a_slice_of_the_pod) {
  const pod p = make_pod("p")
                  .ns("shop")
                  .cpu("1")
                  .label("app", "web")
                  .node("n1")
                  .owner("ReplicaSet", "rs")
                  .build_value();
  const pod_core core{p};
  EXPECT_TRUE(core == p);
  EXPECT_EQ(core.key(), "shop/p");
  EXPECT_TRUE(core.same_identity(p));
  EXPECT_TRUE(p.same_identity(core));
  EXPECT_TRUE(core.is_bound());
  EXPECT_TRUE(core.has_controller);
}

TEST(pod, phase_names_and_predicates) {
  struct test_case {
    pod_phase phase;
    std::string text;
    bool terminal;
  };
  const std::vector<test_case> cases = {
    {pod_phase::pending, "Pending", false},
    {pod_phase::running, "Running", false},
    {pod_phase::succeeded, "Succeeded", true},
    {pod_phase::failed, "Failed", true},
    {pod_phase::unknown, "Unknown", false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.text);
    EXPECT_EQ(to_string(tc.phase), tc.text);
    EXPECT_EQ(make_pod("p").phase(tc.phase).build_value().is_terminal(),
              tc.terminal);
  }
  EXPECT_FALSE(make_pod("p").build_value().is_bound());
  EXPECT_TRUE(make_pod("p").node("n1").build_value().is_bound());
}

TEST(priority, resolve_priority) {
  using test::make_priority_class;
  const auto never = preemption_policy::never;
  const auto lower = preemption_policy::preempt_lower_priority;
  struct test_case {
    std::string name;
    std::vector<priority_class_ptr> classes;
    std::string class_name;
    std::int32_t priority;
    preemption_policy preemption;
    std::string class_name_after;
    std::string error;
    /// spec.priority as the file gives it; nullopt = absent.
    std::optional<std::int32_t> given = std::nullopt;
  };
  const std::vector<test_case> cases = {
    {"no class and no default",
     {make_priority_class("high", 1000)},
     "",
     0,
     lower,
     "",
     ""},
    {"no class takes the global default",
     {make_priority_class("high", 1000),
      make_priority_class("base", 10, true, never)},
     "",
     10,
     never,
     "base",
     ""},
    {"several defaults: the lowest value wins",
     {make_priority_class("d2", 20, true), make_priority_class("d1", 5, true)},
     "",
     5,
     lower,
     "d1",
     ""},
    {"named class",
     {make_priority_class("batch", -5, false, never),
      make_priority_class("base", 10, true)},
     "batch",
     -5,
     never,
     "batch",
     ""},
    {"system node critical is built in",
     {},
     "system-node-critical",
     2000001000,
     lower,
     "system-node-critical",
     ""},
    {"system cluster critical is built in",
     {},
     "system-cluster-critical",
     2000000000,
     lower,
     "system-cluster-critical",
     ""},
    {"a listed system class is used as given",
     {make_priority_class("system-cluster-critical", 7)},
     "system-cluster-critical",
     7,
     lower,
     "system-cluster-critical",
     ""},
    {"null entries are skipped",
     {nullptr, make_priority_class("x", 3)},
     "x",
     3,
     lower,
     "x",
     ""},
    {"unknown class",
     {make_priority_class("high", 1000)},
     "missing",
     42,
     never,
     "missing",
     "spec.priorityClassName: no PriorityClass with name missing was found"},
    // A given spec.priority is kept without a class, even over a global
    // default, and must be the value of a named class.
    {"given without a class", {}, "", 1000, never, "", "", 1000},
    {"given without a class: the global default is not applied",
     {make_priority_class("base", 10, true)},
     "",
     1000,
     never,
     "",
     "",
     1000},
    {"given and the class's own value",
     {make_priority_class("high", 1000, false, lower)},
     "high",
     1000,
     lower,
     "high",
     "",
     1000},
    {"given and a built-in class's value",
     {},
     "system-node-critical",
     2000001000,
     lower,
     "system-node-critical",
     "",
     2000001000},
    {"given contradicts the class",
     {make_priority_class("high", 1000)},
     "high",
     5,
     never,
     "high",
     "spec.priority: 5 contradicts PriorityClass high, whose value is 1000",
     5},
    {"given contradicts a built-in class",
     {},
     "system-cluster-critical",
     0,
     never,
     "system-cluster-critical",
     "spec.priority: 0 contradicts PriorityClass system-cluster-critical, "
     "whose value is 2000000000",
     0},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto p = make_pod("p")
               .priority(tc.given.value_or(42))
               .preemption_never()
               .priority_class(tc.class_name)
               .build_value();
    p.priority_given = tc.given.has_value();
    auto err = resolve_priority(p, tc.classes);
    if (tc.error.empty()) {
      EXPECT_FALSE(err) << err.message;
    } else {
      EXPECT_EQ(err.code, tc.given ? ec::invalid_input : ec::not_found);
      EXPECT_EQ(err.message, tc.error);
    }
    EXPECT_EQ(p.priority, tc.priority);
    EXPECT_EQ(p.preemption, tc.preemption);
    EXPECT_EQ(p.priority_class_name, tc.class_name_after);
  }
}

TEST(object, kind_names) {
  struct test_case {
    object o;
    object_kind kind;
    std::string text;
  };
  const std::vector<test_case> cases = {
    {object{test::make_pod("p").build()}, object_kind::pod, "Pod"},
    {object{test::make_node("n").build()}, object_kind::node, "Node"},
    {object{test::make_namespace("ns")}, object_kind::namespace_, "Namespace"},
    {object{test::make_priority_class("pc", 1)}, object_kind::priority_class,
     "PriorityClass"},
    {object{std::make_shared<const disruption_budget>()},
     object_kind::pod_disruption_budget, "PodDisruptionBudget"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.text);
    EXPECT_EQ(kind_of(tc.o), tc.kind);
    EXPECT_EQ(to_string(tc.kind), tc.text);
  }
}

} // namespace
} // namespace tessera::model::pod_test
