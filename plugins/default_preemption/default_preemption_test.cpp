// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/default_preemption/default_preemption.hpp"
#include "plugins/default_preemption/test_cycle.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::plugins::default_preemption_test {
namespace {

using test::make_node;
using test::make_pod;

/// A pod bound to n1.
test::pod_builder on_n1(std::string name) {
  return make_pod(std::move(name)).node("n1");
}

/// A pod being terminated by preemption.
model::pod_ptr preempted_victim(std::string name, std::int32_t priority) {
  auto v = on_n1(std::move(name)).priority(priority).deleting().build_value();
  v.disrupted_by_preemption = true;
  return std::make_shared<const model::pod>(std::move(v));
}

TEST(default_preemption, check_pod_eligible) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    std::string want;
  };
  const std::vector<test_case> cases = {
    {"default policy may preempt", make_pod("p").priority(10).build(),
     "Success"},
    {"preemptionPolicy Never",
     make_pod("p").priority(10).preemption_never().build(),
     "Unschedulable: not eligible due to preemptionPolicy=Never."},
  };
  auto prof = preemption_profile();
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(describe(plugin_of(*prof).check_pod_eligible(*tc.pod)), tc.want);
  }
}

TEST(default_preemption, check_nominated_node) {
  const std::string terminating
    = "Unschedulable: not eligible due to a terminating pod on the nominated "
      "node.";
  const status unresolvable{code::unschedulable_and_unresolvable,
                            model::symbol{"node(s) had untolerated taint(s)"}};
  const status unschedulable{code::unschedulable,
                             model::symbol{"Insufficient cpu"}};
  auto deleting_only = on_n1("d").priority(1).deleting().build();
  auto disrupted_value = on_n1("x").priority(1).build_value();
  disrupted_value.disrupted_by_preemption = true;
  auto disrupted_only
    = std::make_shared<const model::pod>(std::move(disrupted_value));

  struct test_case {
    std::string name;
    std::vector<model::pod_ptr> pods;
    status nominated_status;
    std::string want;
  };
  const std::vector<test_case> cases = {
    {"lower-priority victim still terminating",
     {preempted_victim("v", 1)},
     unschedulable,
     terminating},
    {"also when the node passed the filters",
     {preempted_victim("v", 1)},
     status{},
     terminating},
    {"nominated node now unresolvable: preempt again",
     {preempted_victim("v", 1)},
     unresolvable,
     "Success"},
    {"terminating pod of equal priority does not count",
     {preempted_victim("v", 10)},
     unschedulable,
     "Success"},
    {"deleting without the preemption condition",
     {deleting_only},
     unschedulable,
     "Success"},
    {"preemption condition without deletion",
     {disrupted_only},
     unschedulable,
     "Success"},
    {"no pods", {}, unschedulable, "Success"},
  };
  auto prof = preemption_profile();
  const auto p = make_pod("p").priority(10).nominated_node("n1").build();
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto info = test::make_node_info(make_node("n1").pods(110).cpu("4").build(),
                                     tc.pods);
    EXPECT_EQ(describe(plugin_of(*prof).check_nominated_node(
                *p, info, tc.nominated_status)),
              tc.want);
  }
}

TEST(default_preemption, candidates_wanted) {
  struct test_case {
    std::string name;
    std::int32_t percentage;
    std::int32_t absolute;
    std::size_t potential;
    std::size_t want;
  };
  const std::vector<test_case> cases = {
    {"no potential nodes", 10, 100, 0, 0},
    {"absolute floor capped at the node count", 10, 100, 1, 1},
    {"below the floor: every node", 10, 100, 50, 50},
    {"exactly the floor", 10, 100, 100, 100},
    {"10% of 1000 is the floor", 10, 100, 1000, 100},
    {"10% of 2000", 10, 100, 2000, 200},
    {"10% of 5005 truncates", 10, 100, 5005, 500},
    {"percentage 0 uses the absolute count", 0, 5, 10, 5},
    {"absolute above the node count", 0, 5, 3, 3},
    {"50% of 3 truncates to 1", 50, 0, 3, 1},
    {"100% is every node", 100, 0, 7, 7},
    {"both zero finds none", 0, 0, 7, 0},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    default_preemption plugin{
      config::default_preemption_args{tc.percentage, tc.absolute}};
    EXPECT_EQ(plugin.candidates_wanted(tc.potential), tc.want);
  }
}

TEST(default_preemption, args_reach_the_plugin_through_the_registry) {
  auto prof = preemption_profile({50, 1});
  EXPECT_EQ(plugin_of(*prof).candidates_wanted(10), 5u);
  EXPECT_EQ(plugin_of(*prof).name(), "DefaultPreemption");
}

TEST(default_preemption, more_important) {
  struct test_case {
    std::string name;
    model::pod_ptr a;
    model::pod_ptr b;
    bool want;
  };
  const std::vector<test_case> cases = {
    {"higher priority", make_pod("a").priority(5).started(900).build(),
     make_pod("b").priority(1).started(100).build(), true},
    {"lower priority", make_pod("a").priority(1).build(),
     make_pod("b").priority(5).build(), false},
    {"equal priority, earlier start",
     make_pod("a").priority(1).started(100).build(),
     make_pod("b").priority(1).started(200).build(), true},
    {"equal priority, later start",
     make_pod("a").priority(1).started(200).build(),
     make_pod("b").priority(1).started(100).build(), false},
    {"not started counts as now", make_pod("a").priority(1).build(),
     make_pod("b").priority(1).started(200).build(), false},
    {"started beats not started",
     make_pod("a").priority(1).started(200).build(),
     make_pod("b").priority(1).build(), true},
    {"neither started: equal", make_pod("a").priority(1).build(),
     make_pod("b").priority(1).build(), false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(default_preemption::more_important(*tc.a, *tc.b), tc.want);
  }
}

TEST(default_preemption, select_victims_on_node) {
  const auto web_budget0 = budget(0, {{"app", "web"}});
  struct test_case {
    std::string name;
    model::node_ptr node;
    std::vector<model::pod_ptr> pods;
    model::pod_ptr incoming;
    std::vector<model::disruption_budget_ptr> budgets;
    std::vector<model::pod_ptr> nominated;
    std::string want_status;
    std::vector<std::string> want_victims;
    std::int32_t want_violations;
  };
  auto node4 = make_node("n1").pods(110).cpu("4").memory("8Gi").build();
  auto node3 = make_node("n1").pods(110).cpu("3").memory("8Gi").build();
  auto node2 = make_node("n1").pods(110).cpu("2").memory("8Gi").build();
  auto p2 = make_pod("p").cpu("2").priority(10).build();
  auto p1 = make_pod("p").cpu("1").priority(10).build();
  const std::vector<test_case> cases = {
    {"keeps what still fits, most important first",
     node4,
     {on_n1("a").cpu("1").priority(1).started(100).build(),
      on_n1("b").cpu("2").priority(2).started(100).build(),
      on_n1("c").cpu("1").priority(3).started(100).build()},
     p2,
     {},
     {},
     "Success",
     {"b"},
     0},
    {"no lower-priority pod",
     node4,
     {on_n1("a").cpu("2").priority(10).build(),
      on_n1("b").cpu("2").priority(20).build()},
     p2,
     {},
     {},
     "UnschedulableAndUnresolvable: No preemption victims found for "
     "incoming pod",
     {},
     0},
    {"does not fit even without every victim",
     node4,
     {on_n1("h").cpu("3").priority(20).build(),
      on_n1("a").cpu("1").priority(1).build()},
     p2,
     {},
     {},
     "Unschedulable: Insufficient cpu",
     {},
     0},
    {"equal priority: the later-started pod goes",
     node2,
     {on_n1("a").cpu("1").priority(1).started(100).build(),
      on_n1("b").cpu("1").priority(1).started(200).build()},
     p1,
     {},
     {},
     "Success",
     {"b"},
     0},
    {"equal priority: a pod not started yet goes first",
     node2,
     {on_n1("a").cpu("1").priority(1).build(),
      on_n1("b").cpu("1").priority(1).started(200).build()},
     p1,
     {},
     {},
     "Success",
     {"a"},
     0},
    {"lower priority goes before an older pod",
     node2,
     {on_n1("a").cpu("1").priority(5).started(300).build(),
      on_n1("b").cpu("1").priority(1).started(100).build()},
     p1,
     {},
     {},
     "Success",
     {"b"},
     0},
    {"several victims, most important first",
     node4,
     {on_n1("d").cpu("1").priority(1).started(400).build(),
      on_n1("b").cpu("1").priority(1).started(200).build(),
      on_n1("a").cpu("1").priority(1).started(100).build(),
      on_n1("c").cpu("1").priority(1).started(300).build()},
     make_pod("p").cpu("3").priority(10).build(),
     {},
     {},
     "Success",
     {"b", "c", "d"},
     0},
    {"a host port holder is the victim",
     node4,
     {on_n1("a").cpu("100m").host_port(80).priority(1).started(100).build(),
      on_n1("b").cpu("100m").priority(1).started(200).build()},
     make_pod("p").cpu("100m").host_port(80).priority(10).build(),
     {},
     {},
     "Success",
     {"a"},
     0},
    {"PDB: the protected pod is spared, the other goes",
     node3,
     {on_n1("x").cpu("1").priority(1).started(200).label("app", "web").build(),
      on_n1("y").cpu("1").priority(1).started(100).build()},
     p2,
     {web_budget0},
     {},
     "Success",
     {"y"},
     0},
    {"same node without the PDB: importance decides",
     node3,
     {on_n1("x").cpu("1").priority(1).started(200).label("app", "web").build(),
      on_n1("y").cpu("1").priority(1).started(100).build()},
     p2,
     {},
     {},
     "Success",
     {"x"},
     0},
    {"violating and other victims are re-sorted by importance",
     node2,
     {on_n1("v").cpu("1").priority(1).label("app", "web").build(),
      on_n1("n").cpu("1").priority(5).build()},
     p2,
     {web_budget0},
     {},
     "Success",
     {"n", "v"},
     1},
    {"budget of one: the second matching pod violates",
     node2,
     {on_n1("x2").cpu("1").priority(1).started(200).label("app", "web").build(),
      on_n1("x1")
        .cpu("1")
        .priority(1)
        .started(100)
        .label("app", "web")
        .build()},
     p2,
     {budget(1, {{"app", "web"}})},
     {},
     "Success",
     {"x1", "x2"},
     1},
    {"pods already in disruptedPods do not count",
     node2,
     {on_n1("x1").cpu("1").priority(1).started(100).label("app", "web").build(),
      on_n1("x2")
        .cpu("1")
        .priority(1)
        .started(200)
        .label("app", "web")
        .build()},
     p2,
     {budget(0, {{"app", "web"}}, "default", {"x1", "x2"})},
     {},
     "Success",
     {"x1", "x2"},
     0},
    {"a budget in another namespace does not apply",
     node2,
     {on_n1("x").cpu("2").priority(1).label("app", "web").build()},
     p2,
     {budget(0, {{"app", "web"}}, "other")},
     {},
     "Success",
     {"x"},
     0},
    {"an empty selector protects nothing",
     node2,
     {on_n1("x").cpu("2").priority(1).label("app", "web").build()},
     p2,
     {budget(0, {})},
     {},
     "Success",
     {"x"},
     0},
    {"a pod without labels matches no budget",
     node2,
     {on_n1("x").cpu("2").priority(1).build()},
     p2,
     {budget(0, {{"app", "web"}})},
     {},
     "Success",
     {"x"},
     0},
    {"a budget without status allows no disruption",
     node2,
     {on_n1("x").cpu("2").priority(1).label("app", "web").build()},
     p2,
     {budget(std::nullopt, {{"app", "web"}})},
     {},
     "Success",
     {"x"},
     1},
    {"a higher-priority nominated pod takes its room first",
     node4,
     {on_n1("a").cpu("1").priority(1).started(100).build(),
      on_n1("b").cpu("1").priority(1).started(200).build()},
     p2,
     {},
     {make_pod("q").cpu("2").priority(20).nominated_node("n1").build()},
     "Success",
     {"a", "b"},
     0},
    {"a lower-priority nominated pod is ignored",
     node4,
     {on_n1("a").cpu("1").priority(1).started(100).build(),
      on_n1("b").cpu("1").priority(1).started(200).build(),
      on_n1("c").cpu("1").priority(1).started(300).build()},
     p2,
     {},
     {make_pod("q").cpu("2").priority(5).nominated_node("n1").build()},
     "Success",
     {"c"},
     0},
    // Two nominees fill the third pod slot whichever victim comes back.
    {"nominated pods count as pods",
     make_node("n1").pods(3).cpu("8").build(),
     {on_n1("a").cpu("1").priority(1).started(100).build(),
      on_n1("b").cpu("1").priority(1).started(200).build()},
     p1,
     {},
     {make_pod("q").priority(20).nominated_node("n1").build(),
      make_pod("r").priority(20).nominated_node("n1").build()},
     "Success",
     {"a", "b"},
     0},
    {"a nominated pod's host port stays taken without the victims",
     node4,
     {on_n1("a").cpu("1").priority(1).host_port(8080).build()},
     make_pod("p").cpu("1").priority(10).host_port(8080).build(),
     {},
     {make_pod("q").priority(20).host_port(8080).nominated_node("n1").build()},
     "Unschedulable: node(s) didn't have free ports for the requested pod "
     "ports",
     {},
     0},
    {"existing anti-affinity: RemovePod / AddPod keep the state right",
     make_node("n1").pods(110).cpu("8").build(),
     {on_n1("a")
        .cpu("1")
        .priority(1)
        .started(100)
        .required_anti_affinity("app", "incoming", hostname)
        .build(),
      on_n1("b").cpu("1").priority(1).started(200).build()},
     make_pod("p").cpu("1").priority(10).label("app", "incoming").build(),
     {},
     {},
     "Success",
     {"a"},
     0},
  };
  auto prof = preemption_profile();
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    std::vector<model::node_info_ptr> nodes{
      test::make_node_info_ptr(tc.node, tc.pods)};
    auto c = prepare(prof, *tc.incoming, nodes, tc.budgets);
    dry_run_node n{nodes[0].get(), tc.nominated};
    auto found = plugin_of(*prof).select_victims_on_node(
      *prof, c->state, *tc.incoming, n, c->cluster->disruption_budgets);
    EXPECT_EQ(describe(found.result), tc.want_status);
    EXPECT_EQ(names(found.victims), tc.want_victims);
    EXPECT_EQ(found.pdb_violations, tc.want_violations);
    // The dry run works on copies: the node keeps its pods.
    EXPECT_EQ(nodes[0]->pods().size(), tc.pods.size());
  }
}

TEST(default_preemption, wrap_message) {
  struct test_case {
    std::string name;
    std::string message;
    std::string want;
  };
  const std::vector<test_case> cases = {
    {"wrapped", "not eligible due to preemptionPolicy=Never.",
     "preemption: not eligible due to preemptionPolicy=Never."},
    {"empty stays empty", "", ""},
  };
  auto prof = preemption_profile();
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(plugin_of(*prof).wrap_message(tc.message), tc.want);
  }
}

} // namespace
} // namespace tessera::plugins::default_preemption_test
