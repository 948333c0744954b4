// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/framework/profile.hpp"
#include "plugins/framework/registry.hpp"
#include "plugins/node_resources/fit.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tessera::plugins {
namespace {

using test::make_container;
using test::make_node;
using test::make_node_info;
using test::make_pod;

std::vector<std::string> reason_texts(const status& s) {
  std::vector<std::string> out;
  for (auto r : s.reasons())
    out.push_back(r.str());
  return out;
}

// A Fit plugin bound to slot 0 of a one-slot cycle state.
struct fit_under_test {
  explicit fit_under_test(const config::node_resources_fit_args& args = {})
    : owner(make_node_resources_fit(args)),
      fit(dynamic_cast<node_resources_fit&>(*owner)) {
    owner->bind_context({0});
  }
  status run_filter(const model::pod& p, const model::node_info& node) {
    cycle_state state{1};
    auto r = fit.pre_filter(state, p, cluster);
    EXPECT_TRUE(r.result.ok());
    EXPECT_FALSE(r.nodes.has_value());
    return fit.filter(state, p, node);
  }
  std::int64_t run_score(const model::pod& p, const model::node_info& node,
                         bool with_pre_score = true) {
    cycle_state state{1};
    if (with_pre_score) {
      EXPECT_TRUE(fit.pre_score(state, p, cluster).ok());
    }
    return fit.score(state, p, node);
  }
  std::shared_ptr<plugin> owner;
  node_resources_fit& fit;
  cluster_context cluster;
};

config::node_resources_fit_args
fit_args(config::scoring_strategy::kind type,
         std::vector<config::resource_spec> resources
         = {{"cpu", 1}, {"memory", 1}},
         std::vector<config::utilization_shape_point> shape = {}) {
  config::node_resources_fit_args args;
  args.strategy.type = type;
  args.strategy.resources = std::move(resources);
  args.strategy.shape = std::move(shape);
  return args;
}

TEST(node_resources_fit, filter) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    model::node_ptr node;
    std::vector<model::pod_ptr> existing;
    config::node_resources_fit_args args;
    code expected_code;
    std::vector<std::string> expected_reasons;
  };
  const auto node_4cpu = make_node("n1")
                           .cpu("4")
                           .memory("8Gi")
                           .pods(110)
                           .ephemeral_storage("100Gi")
                           .build();
  const auto busy = [](std::string name, std::string cpu, std::string memory) {
    return make_pod(std::move(name)).cpu(cpu).memory(memory).node("n1").build();
  };
  config::node_resources_fit_args ignore_gpu;
  ignore_gpu.ignored_resources = {"example.com/gpu"};
  config::node_resources_fit_args ignore_group;
  ignore_group.ignored_resource_groups = {"example.com"};
  config::node_resources_fit_args ignore_non_extended;
  ignore_non_extended.ignored_resources = {"hugepages-2Mi"};
  ignore_non_extended.ignored_resource_groups = {"kubernetes.io"};

  const std::vector<test_case> cases = {
    {"fits with room to spare",
     make_pod("p").cpu("1").memory("1Gi").build(),
     node_4cpu,
     {busy("a", "1", "1Gi")},
     {},
     code::success,
     {}},
    {"fits exactly",
     make_pod("p").cpu("3").memory("7Gi").build(),
     node_4cpu,
     {busy("a", "1", "1Gi")},
     {},
     code::success,
     {}},
    {"a pod without requests fits an over-committed node",
     make_pod("p").build(),
     node_4cpu,
     {busy("a", "5", "9Gi")},
     {},
     code::success,
     {}},
    {"no free pod slot: Too many pods is resolvable by preemption",
     make_pod("p").build(),
     make_node("n1").cpu("4").memory("8Gi").pods(1).build(),
     {busy("a", "1", "1Gi")},
     {},
     code::unschedulable,
     {"Too many pods"}},
    {"a node allowing no pods is not unresolvable either",
     make_pod("p").cpu("1").build(),
     make_node("n1").cpu("4").memory("8Gi").build(),
     {},
     {},
     code::unschedulable,
     {"Too many pods"}},
    {"cpu taken by other pods",
     make_pod("p").cpu("1").memory("1Gi").build(),
     node_4cpu,
     {busy("a", "3500m", "1Gi")},
     {},
     code::unschedulable,
     {"Insufficient cpu"}},
    {"cpu beyond the node's allocatable is unresolvable",
     make_pod("p").cpu("5").build(),
     node_4cpu,
     {},
     {},
     code::unschedulable_and_unresolvable,
     {"Insufficient cpu"}},
    {"every failing resource in order, resolvable",
     make_pod("p").cpu("2").memory("4Gi").ephemeral_storage("60Gi").build(),
     make_node("n1")
       .cpu("4")
       .memory("8Gi")
       .ephemeral_storage("100Gi")
       .pods(1)
       .build(),
     {make_pod("a")
        .cpu("3")
        .memory("5Gi")
        .ephemeral_storage("50Gi")
        .node("n1")
        .build()},
     {},
     code::unschedulable,
     {"Too many pods", "Insufficient cpu", "Insufficient memory",
      "Insufficient ephemeral-storage"}},
    {"one resource beyond allocatable makes all unresolvable",
     make_pod("p").cpu("2").memory("9Gi").build(),
     node_4cpu,
     {busy("a", "3", "1Gi")},
     {},
     code::unschedulable_and_unresolvable,
     {"Insufficient cpu", "Insufficient memory"}},
    {"ephemeral storage",
     make_pod("p").ephemeral_storage("200Gi").build(),
     node_4cpu,
     {},
     {},
     code::unschedulable_and_unresolvable,
     {"Insufficient ephemeral-storage"}},
    {"requests include overhead and init containers",
     make_pod("p")
       .cpu("1")
       .overhead("cpu", "500m")
       .init_container(make_container("init").cpu("3"))
       .build(),
     node_4cpu,
     {busy("a", "1", "1Gi")},
     {},
     code::unschedulable,
     {"Insufficient cpu"}},
    {"extended resource the node lacks",
     make_pod("p").request("example.com/gpu", "2").build(),
     node_4cpu,
     {},
     {},
     code::unschedulable_and_unresolvable,
     {"Insufficient example.com/gpu"}},
    {"extended resource taken by other pods",
     make_pod("p").request("example.com/gpu", "2").build(),
     make_node("n1")
       .cpu("4")
       .memory("8Gi")
       .pods(110)
       .capacity("example.com/gpu", "4")
       .build(),
     {make_pod("a").request("example.com/gpu", "3").node("n1").build()},
     {},
     code::unschedulable,
     {"Insufficient example.com/gpu"}},
    {"extended resource fits",
     make_pod("p").request("example.com/gpu", "1").build(),
     make_node("n1")
       .cpu("4")
       .memory("8Gi")
       .pods(110)
       .capacity("example.com/gpu", "4")
       .build(),
     {make_pod("a").request("example.com/gpu", "3").node("n1").build()},
     {},
     code::success,
     {}},
    {"an explicit zero request is not checked",
     make_pod("p").request("example.com/gpu", "0").build(),
     node_4cpu,
     {},
     {},
     code::success,
     {}},
    {"ignoredResources skips an extended resource",
     make_pod("p").request("example.com/gpu", "2").build(),
     node_4cpu,
     {},
     ignore_gpu,
     code::success,
     {}},
    {"ignoredResources does not skip other names",
     make_pod("p").request("example.com/fpga", "1").build(),
     node_4cpu,
     {},
     ignore_gpu,
     code::unschedulable_and_unresolvable,
     {"Insufficient example.com/fpga"}},
    {"ignoredResourceGroups skips the whole prefix",
     make_pod("p")
       .request("example.com/gpu", "2")
       .request("example.com/fpga", "1")
       .request("other.io/nic", "1")
       .build(),
     node_4cpu,
     {},
     ignore_group,
     code::unschedulable_and_unresolvable,
     {"Insufficient other.io/nic"}},
    {"only extended resources can be ignored",
     make_pod("p")
       .request("hugepages-2Mi", "4Mi")
       .request("kubernetes.io/something", "1")
       .build(),
     node_4cpu,
     {},
     ignore_non_extended,
     code::unschedulable_and_unresolvable,
     {"Insufficient hugepages-2Mi", "Insufficient kubernetes.io/something"}},
    {"ignored resources still fail cpu",
     make_pod("p").cpu("8").request("example.com/gpu", "2").build(),
     node_4cpu,
     {},
     ignore_gpu,
     code::unschedulable_and_unresolvable,
     {"Insufficient cpu"}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    fit_under_test t{tc.args};
    const auto node = make_node_info(tc.node, tc.existing);
    const status s = t.run_filter(*tc.pod, node);
    EXPECT_EQ(to_string(s.get_code()), to_string(tc.expected_code));
    EXPECT_EQ(reason_texts(s), tc.expected_reasons);
  }
}

TEST(node_resources_fit, scalar_reasons_are_sorted_by_name) {
  // Intern the names in reverse so that symbol order differs from name
  // order. kube-scheduler emits these in Go map order (random); tessera
  // sorts them by resource name.
  model::symbol{"zz.sort-test.io/last"};
  model::symbol{"mm.sort-test.io/middle"};
  model::symbol{"aa.sort-test.io/first"};
  const auto pod = make_pod("p")
                     .request("zz.sort-test.io/last", "1")
                     .request("aa.sort-test.io/first", "1")
                     .request("mm.sort-test.io/middle", "1")
                     .cpu("9")
                     .build();
  const auto node
    = make_node_info(make_node("n1").cpu("4").memory("8Gi").pods(0).build());
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round == 0 ? "first cycle" : "cached reasons");
    fit_under_test t;
    const status s = t.run_filter(*pod, node);
    EXPECT_EQ(s.get_code(), code::unschedulable_and_unresolvable);
    EXPECT_EQ(reason_texts(s),
              (std::vector<std::string>{"Too many pods", "Insufficient cpu",
                                        "Insufficient aa.sort-test.io/first",
                                        "Insufficient mm.sort-test.io/middle",
                                        "Insufficient zz.sort-test.io/last"}));
  }
}

TEST(node_resources_fit, filter_without_pre_filter_is_an_error) {
  fit_under_test t;
  cycle_state state{1};
  const auto pod = make_pod("p").cpu("1").build();
  const auto node
    = make_node_info(make_node("n1").cpu("4").memory("8Gi").pods(10).build());
  EXPECT_EQ(t.fit.filter(state, *pod, node).get_code(), code::error);
}

TEST(node_resources_fit, score) {
  using kind = config::scoring_strategy::kind;
  struct test_case {
    std::string name;
    config::node_resources_fit_args args;
    model::pod_ptr pod;
    model::node_ptr node;
    std::vector<model::pod_ptr> existing;
    std::int64_t expected;
  };
  const auto small = make_node("n1")
                       .cpu("4")
                       .memory("10000")
                       .pods(110)
                       .ephemeral_storage("1000")
                       .build();
  const auto gpu_node = make_node("n1")
                          .cpu("4")
                          .memory("10000")
                          .pods(110)
                          .capacity("example.com/gpu", "4")
                          .build();
  const auto least = fit_args(kind::least_allocated);
  const auto most = fit_args(kind::most_allocated);
  const std::vector<config::resource_spec> with_gpu
    = {{"cpu", 1}, {"memory", 1}, {"example.com/gpu", 2}};

  const std::vector<test_case> cases = {
    // cpu: (4000 - 3000) * 100 / 4000 = 25; memory: 5000 of 10000 free = 50.
    {"least: empty node",
     least,
     make_pod("p").cpu("3").memory("5000").build(),
     small,
     {},
     37},
    // cpu: 1000 + 2000 of 4000 = 25; memory: 2000 + 3000 of 10000 = 50.
    {"least: with other pods",
     least,
     make_pod("p").cpu("1").memory("2000").build(),
     small,
     {make_pod("a").cpu("2").memory("3000").node("n1").build()},
     37},
    // 100m and 200Mi defaults: cpu (4000 - 100) * 100 / 4000 = 97;
    // memory (8Gi - 200Mi) * 100 / 8Gi = 97.
    {"least: a pod without requests counts the defaults",
     least,
     make_pod("p").build(),
     make_node("n1").cpu("4").memory("8Gi").pods(110).build(),
     {},
     97},
    // The existing pod counts 100m cpu and 200Mi memory, which is more
    // memory than the node has: memory scores 0.
    {"least: existing pods without requests count the defaults",
     least,
     make_pod("p").cpu("1").memory("1000").build(),
     small,
     {make_pod("a").node("n1").build()},
     36},
    {"least: explicit zero requests stay zero",
     least,
     make_pod("p").cpu("0").memory("0").build(),
     small,
     {},
     100},
    {"least: over-committed node",
     least,
     make_pod("p").cpu("5").memory("20000").build(),
     small,
     {},
     0},
    // (25 * 3 + 50) / 4.
    {"least: weights",
     fit_args(kind::least_allocated, {{"cpu", 3}, {"memory", 1}}),
     make_pod("p").cpu("3").memory("5000").build(),
     small,
     {},
     31},
    {"least: a scalar the pod does not request is not scored",
     fit_args(kind::least_allocated, with_gpu),
     make_pod("p").cpu("3").memory("5000").build(),
     gpu_node,
     {},
     37},
    {"least: a scalar the node lacks is not scored",
     fit_args(kind::least_allocated, with_gpu),
     make_pod("p")
       .cpu("3")
       .memory("5000")
       .request("example.com/gpu", "1")
       .build(),
     small,
     {},
     37},
    // gpu: (4 - 1 - 1) * 100 / 4 = 50 with weight 2: (25 + 50 + 100) / 4.
    {"least: a requested scalar is scored with its weight",
     fit_args(kind::least_allocated, with_gpu),
     make_pod("p")
       .cpu("3")
       .memory("5000")
       .request("example.com/gpu", "1")
       .build(),
     gpu_node,
     {make_pod("a")
        .cpu("0")
        .memory("0")
        .request("example.com/gpu", "1")
        .node("n1")
        .build()},
     43},
    // ephemeral-storage counts even when the pod requests none: 700 of 1000
    // used by others gives 30.
    {"least: ephemeral-storage uses the plain requested",
     fit_args(kind::least_allocated, {{"ephemeral-storage", 1}}),
     make_pod("p").build(),
     small,
     {make_pod("a").ephemeral_storage("700").node("n1").build()},
     30},
    {"least: pods and unknown names are never scored",
     fit_args(kind::least_allocated, {{"cpu", 1}, {"pods", 5}, {"storage", 5}}),
     make_pod("p").cpu("3").build(),
     small,
     {},
     25},
    {"least: only resources the node lacks",
     fit_args(kind::least_allocated, {{"example.com/gpu", 1}}),
     make_pod("p").request("example.com/gpu", "1").build(),
     small,
     {},
     0},
    // cpu: 3000 of 4000 = 75; memory: 5000 of 10000 = 50.
    {"most: empty node",
     most,
     make_pod("p").cpu("3").memory("5000").build(),
     small,
     {},
     62},
    {"most: over-committed node is full",
     most,
     make_pod("p").cpu("5").memory("20000").build(),
     small,
     {},
     100},
    {"most: a pod without requests counts the defaults",
     most,
     make_pod("p").build(),
     make_node("n1").cpu("1").memory("1Gi").pods(110).build(),
     {},
     14},
    // Shape 0 -> 0, 100 -> 10: (75 + 50) / 2 = 62.5 rounds to 63.
    {"requested to capacity ratio: rounds half away from zero",
     fit_args(kind::requested_to_capacity_ratio, {{"cpu", 1}, {"memory", 1}},
              {{0, 0}, {100, 10}}),
     make_pod("p").cpu("3").memory("5000").build(),
     small,
     {},
     63},
    // Shape 0 -> 10, 100 -> 0: (25 + 50) / 2 = 37.5 rounds to 38.
    {"requested to capacity ratio: spreading shape",
     fit_args(kind::requested_to_capacity_ratio, {{"cpu", 1}, {"memory", 1}},
              {{0, 10}, {100, 0}}),
     make_pod("p").cpu("3").memory("5000").build(),
     small,
     {},
     38},
    // A full memory scores 0 and drops out: only cpu's 75 remains.
    {"requested to capacity ratio: zero scores are left out",
     fit_args(kind::requested_to_capacity_ratio, {{"cpu", 1}, {"memory", 1}},
              {{0, 10}, {100, 0}}),
     make_pod("p").cpu("1").memory("10000").build(),
     small,
     {},
     75},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    const auto node = make_node_info(tc.node, tc.existing);
    fit_under_test t{tc.args};
    const std::int64_t with_pre_score = t.run_score(*tc.pod, node);
    EXPECT_EQ(with_pre_score, tc.expected);
    EXPECT_GE(with_pre_score, 0);
    EXPECT_LE(with_pre_score, 100);
    // Without PreScore the plugin computes the requests itself.
    EXPECT_EQ(t.run_score(*tc.pod, node, false), tc.expected);
  }
}

TEST(node_resources_fit, pre_score_keeps_the_pre_filter_state) {
  // PreFilter and PreScore share the plugin's slot; the framework runs both
  // before Filter.
  fit_under_test t;
  cycle_state state{1};
  const auto pod = make_pod("p").cpu("3").memory("5000").build();
  const auto node = make_node_info(
    make_node("n1").cpu("4").memory("10000").pods(110).build());
  ASSERT_TRUE(t.fit.pre_filter(state, *pod, t.cluster).result.ok());
  ASSERT_TRUE(t.fit.pre_score(state, *pod, t.cluster).ok());
  EXPECT_TRUE(t.fit.filter(state, *pod, node).ok());
  EXPECT_EQ(t.fit.score(state, *pod, node), 37);
  const auto too_big = make_node_info(
    make_node("n2").cpu("2").memory("10000").pods(110).build());
  EXPECT_EQ(reason_texts(t.fit.filter(state, *pod, too_big)),
            std::vector<std::string>{"Insufficient cpu"});
}

TEST(node_resources_fit, pre_score_without_resources_is_an_error) {
  fit_under_test t{
    fit_args(config::scoring_strategy::kind::least_allocated, {})};
  cycle_state state{1};
  const auto pod = make_pod("p").cpu("1").build();
  EXPECT_EQ(t.fit.pre_score(state, *pod, t.cluster).get_code(), code::error);
}

TEST(node_resources_fit, registers_events) {
  fit_under_test t;
  const auto events = t.fit.events_to_register();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].event.label(), "PodDelete|UpdatePodScaleDown");
  EXPECT_EQ(events[1].event.label(), "NodeAdd|UpdateNodeAllocatable");
  EXPECT_TRUE(events[0].hint);
  EXPECT_TRUE(events[1].hint);
  EXPECT_FALSE(
    events[0].event.matches({event_resource::pod, action::update_pod_label}));
  EXPECT_TRUE(events[1].event.matches(
    {event_resource::node, action::update_node_allocatable}));
  EXPECT_FALSE(
    events[1].event.matches({event_resource::node, action::update_node_taint}));
}

TEST(node_resources_fit, hint_after_pod_event) {
  struct test_case {
    std::string name;
    std::optional<model::object> old_object;
    std::optional<model::object> new_object;
    queueing_hint expected;
  };
  const auto waiting
    = make_pod("waiting").cpu("2").request("example.com/gpu", "1").build();
  const model::object bound_big = make_pod("a")
                                    .cpu("3")
                                    .memory("4Gi")
                                    .request("example.com/gpu", "2")
                                    .node("n1")
                                    .build();
  const std::vector<test_case> cases = {
    {"a bound pod was deleted", bound_big, std::nullopt, queueing_hint::queue},
    {"an unscheduled pod was deleted",
     model::object{make_pod("a").cpu("3").build()}, std::nullopt,
     queueing_hint::skip},
    {"a pod nominated to a node was deleted",
     model::object{make_pod("a").cpu("3").nominated_node("n1").build()},
     std::nullopt, queueing_hint::queue},
    {"the waiting pod itself scaled down",
     model::object{make_pod("waiting").cpu("4").build()},
     model::object{make_pod("waiting").cpu("2").build()}, queueing_hint::queue},
    {"an unscheduled pod scaled down",
     model::object{make_pod("a").cpu("4").build()},
     model::object{make_pod("a").cpu("1").build()}, queueing_hint::skip},
    {"a bound pod released cpu the pod requests", bound_big,
     model::object{make_pod("a")
                     .cpu("1")
                     .memory("4Gi")
                     .request("example.com/gpu", "2")
                     .node("n1")
                     .build()},
     queueing_hint::queue},
    {"a bound pod released a scalar the pod requests", bound_big,
     model::object{make_pod("a")
                     .cpu("3")
                     .memory("4Gi")
                     .request("example.com/gpu", "1")
                     .node("n1")
                     .build()},
     queueing_hint::queue},
    {"a bound pod released only memory, which the pod does not request",
     bound_big,
     model::object{make_pod("a")
                     .cpu("3")
                     .memory("1Gi")
                     .request("example.com/gpu", "2")
                     .node("n1")
                     .build()},
     queueing_hint::skip},
    {"a bound pod grew", bound_big,
     model::object{make_pod("a")
                     .cpu("5")
                     .memory("4Gi")
                     .request("example.com/gpu", "2")
                     .node("n1")
                     .build()},
     queueing_hint::skip},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(node_resources_fit::hint_after_pod_event(
                *waiting, tc.old_object ? &*tc.old_object : nullptr,
                tc.new_object ? &*tc.new_object : nullptr),
              tc.expected);
  }
}

TEST(node_resources_fit, hint_after_node_change) {
  struct test_case {
    std::string name;
    model::pod_ptr waiting;
    std::optional<model::object> old_object;
    model::object new_object;
    queueing_hint expected;
  };
  const auto cpu_pod = make_pod("w").cpu("2").build();
  const auto gpu_pod = make_pod("w").request("example.com/gpu", "1").build();
  const auto empty_pod = make_pod("w").build();
  const auto node = [](std::string cpu, std::string memory, std::int64_t pods,
                       std::string gpus = "0") {
    return model::object{make_node("n1")
                           .cpu(cpu)
                           .memory(memory)
                           .pods(pods)
                           .capacity("example.com/gpu", gpus)
                           .build()};
  };
  const std::vector<test_case> cases = {
    {"a node that fits was added", cpu_pod, std::nullopt, node("4", "8Gi", 10),
     queueing_hint::queue},
    {"a node too small was added", cpu_pod, std::nullopt, node("1", "8Gi", 10),
     queueing_hint::skip},
    {"a node without pod slots was added", cpu_pod, std::nullopt,
     node("4", "8Gi", 0), queueing_hint::skip},
    {"cpu the pod requests grew", cpu_pod, node("1", "8Gi", 10),
     node("4", "8Gi", 10), queueing_hint::queue},
    {"only memory grew", cpu_pod, node("4", "4Gi", 10), node("4", "8Gi", 10),
     queueing_hint::skip},
    {"the pod count grew", cpu_pod, node("4", "8Gi", 10), node("4", "8Gi", 20),
     queueing_hint::queue},
    {"cpu grew but still too little", cpu_pod, node("1", "8Gi", 10),
     node("1500m", "8Gi", 10), queueing_hint::skip},
    {"a pod requesting nothing ignores resource growth", empty_pod,
     node("1", "8Gi", 10), node("4", "8Gi", 10), queueing_hint::skip},
    {"a requested scalar grew", gpu_pod, node("4", "8Gi", 10, "1"),
     node("4", "8Gi", 10, "2"), queueing_hint::queue},
    {"a scalar the node still lacks", gpu_pod, std::nullopt,
     node("4", "8Gi", 10), queueing_hint::skip},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(
      node_resources_fit::hint_after_node_change(
        *tc.waiting, tc.old_object ? &*tc.old_object : nullptr, &tc.new_object),
      tc.expected);
  }
}

TEST(node_resources_fit, hints_via_events_ignore_ignored_resources) {
  // kube-scheduler's node hint checks the fit without the ignore lists, so
  // a pod requesting an ignored extended resource is not requeued by nodes
  // lacking it.
  config::node_resources_fit_args args;
  args.ignored_resources = {"example.com/gpu"};
  fit_under_test t{args};
  const auto pod = make_pod("w").request("example.com/gpu", "1").build();
  const model::object added{
    make_node("n1").cpu("4").memory("8Gi").pods(10).build()};
  const auto events = t.fit.events_to_register();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].hint(*pod, nullptr, &added), queueing_hint::skip);
  // The filter itself ignores it.
  EXPECT_TRUE(
    t.run_filter(*pod, make_node_info(std::get<model::node_ptr>(added))).ok());
}

TEST(node_resources_fit, runs_in_a_profile) {
  auto built = plugin_testing::one_plugin_profile(
    "NodeResourcesFit",
    args_factory<config::node_resources_fit_args>("NodeResourcesFit",
                                                  make_node_resources_fit),
    plugin_testing::filter_and_score_points(1),
    fit_args(config::scoring_strategy::kind::most_allocated));
  ASSERT_NE(built, nullptr);
  const auto& prof = *built;

  const auto pod = make_pod("p").cpu("1").memory("1000").build();
  std::vector<model::node_info_ptr> nodes = {
    test::make_node_info_ptr(
      make_node("n1").cpu("4").memory("10000").pods(110).build()),
    test::make_node_info_ptr(
      make_node("n2").cpu("2").memory("10000").pods(110).build()),
    test::make_node_info_ptr(
      make_node("n3").cpu("500m").memory("10000").pods(110).build()),
  };
  cluster_context cluster;
  auto start = begin_cycle(prof, *pod, cluster);
  ASSERT_TRUE(start.pre_filter_status.ok());
  ASSERT_TRUE(start.pre_score_status.ok());
  const auto result
    = filter_and_score(prof, start.state, *pod, nodes, 0, filter_options{});
  ASSERT_TRUE(result.error.ok());
  ASSERT_EQ(result.feasible.size(), 2u);
  EXPECT_EQ(result.feasible[0], "n1");
  EXPECT_EQ(result.feasible[1], "n2");
  // Most allocated: n1 (25 + 10) / 2 = 17, n2 (50 + 10) / 2 = 30.
  EXPECT_EQ(result.scores, (std::vector<std::int64_t>{17, 30}));
  ASSERT_EQ(result.failures.size(), 1u);
  EXPECT_EQ(result.failures[0].result.plugin(), "NodeResourcesFit");
  EXPECT_EQ(result.failures[0].result.get_code(),
            code::unschedulable_and_unresolvable);
  EXPECT_EQ(reason_texts(result.failures[0].result),
            std::vector<std::string>{"Insufficient cpu"});
}

} // namespace
} // namespace tessera::plugins
