// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/default_preemption/default_preemption.hpp"
#include "plugins/default_preemption/test_cycle.hpp"
#include "plugins/framework/diagnosis.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::plugins::default_preemption_test {
namespace {

using test::make_node;
using test::make_pod;

/// Nodes n1, n2, ... for a 2-cpu pod of priority 10, one per letter: 'v' a
/// 2-cpu node whose 2-cpu pod the app=web budget protects (a violating
/// candidate); 'c' the same without the label (a clean candidate); 'f' a
/// 2-cpu node with a 1-cpu high-priority pod and a 1-cpu low one (fails:
/// Insufficient cpu); 'x' an empty 2-cpu node (fails: no victims); 'e' a
/// 4-cpu node with a small low-priority pod the incoming pod fits next to
/// (an error: nothing to preempt).
std::vector<model::node_info_ptr> cluster_of(const std::string& kinds) {
  std::vector<model::node_info_ptr> out;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    std::string node = "n" + std::to_string(i + 1);
    auto pod
      = [&](const char* prefix) { return make_pod(prefix + node).node(node); };
    std::vector<model::pod_ptr> pods;
    switch (kinds[i]) {
    case 'v':
      pods.push_back(
        pod("web-").cpu("2").priority(1).label("app", "web").build());
      break;
    case 'c':
      pods.push_back(pod("low-").cpu("2").priority(1).build());
      break;
    case 'f':
      pods.push_back(pod("high-").cpu("1").priority(100).build());
      pods.push_back(pod("low-").cpu("1").priority(1).build());
      break;
    case 'e':
      pods.push_back(pod("small-").cpu("100m").priority(1).build());
      break;
    default:
      break;
    }
    const char* cpu = kinds[i] == 'e' ? "4" : "2";
    out.push_back(test::make_node_info_ptr(
      make_node(node).pods(110).cpu(cpu).build(), pods));
  }
  return out;
}

TEST(default_preemption, dry_run) {
  struct test_case {
    std::string name;
    std::string kinds;
    std::size_t wanted;
    std::vector<std::string> want_non_violating;
    std::vector<std::string> want_violating;
    std::vector<std::string> want_failures;
    std::size_t want_fits_without_victims = 0;
  };
  const std::vector<test_case> cases = {
    {"stops at the first clean candidate when one is wanted",
     "ccc",
     1,
     {"n1"},
     {},
     {}},
    {"violating candidates do not stop the walk", "vcc", 2, {"n2"}, {"n1"}, {}},
    {"keeps walking until enough candidates",
     "vcc",
     3,
     {"n2", "n3"},
     {"n1"},
     {}},
    {"only violating candidates: every node is visited",
     "vv",
     1,
     {},
     {"n1"},
     {}},
    {"each list holds at most `wanted` candidates",
     "vvc",
     1,
     {"n3"},
     {"n1"},
     {}},
    {"statuses of visited non-candidates",
     "xfcf",
     1,
     {"n3"},
     {},
     {"n1 UnschedulableAndUnresolvable: No preemption victims found for "
      "incoming pod",
      "n2 Unschedulable: Insufficient cpu"}},
    {"no candidate at all",
     "xf",
     2,
     {},
     {},
     {"n1 UnschedulableAndUnresolvable: No preemption victims found for "
      "incoming pod",
      "n2 Unschedulable: Insufficient cpu"}},
    {"a node needing no victim is an error",
     "ec",
     1,
     {"n2"},
     {},
     {"n1 Error: expected at least one victim pod on node \"n1\""},
     1},
  };
  auto prof = preemption_profile();
  const auto p = make_pod("p").cpu("2").priority(10).build();
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto nodes = cluster_of(tc.kinds);
    auto c = prepare(prof, *p, nodes, {budget(0, {{"app", "web"}})});
    auto visit = dry_run_nodes(nodes, {});
    auto r = plugin_of(*prof).dry_run(*prof, c->state, *p, visit, tc.wanted,
                                      *c->cluster);
    std::vector<std::string> nv, v, failures;
    for (const auto& cand : r.non_violating)
      nv.push_back(cand.node.str());
    for (const auto& cand : r.violating) {
      v.push_back(cand.node.str());
      EXPECT_EQ(cand.pdb_violations, 1);
    }
    for (const auto& [node, st] : r.failures)
      failures.push_back(node.str() + " " + describe(st));
    EXPECT_EQ(nv, tc.want_non_violating);
    EXPECT_EQ(v, tc.want_violating);
    EXPECT_EQ(failures, tc.want_failures);
    EXPECT_EQ(r.fits_without_victims, tc.want_fits_without_victims);
  }
}

TEST(default_preemption, dry_run_candidate_carries_victims) {
  auto prof = preemption_profile();
  const auto p = make_pod("p").cpu("2").priority(10).build();
  auto nodes = cluster_of("cv");
  auto c = prepare(prof, *p, nodes, {budget(0, {{"app", "web"}})});
  auto r = plugin_of(*prof).dry_run(*prof, c->state, *p,
                                    dry_run_nodes(nodes, {}), 2, *c->cluster);
  ASSERT_EQ(r.non_violating.size(), 1u);
  EXPECT_EQ(r.non_violating[0].node, "n1");
  EXPECT_EQ(names(r.non_violating[0].victims),
            std::vector<std::string>{"low-n1"});
  EXPECT_EQ(r.non_violating[0].pdb_violations, 0);
  ASSERT_EQ(r.violating.size(), 1u);
  EXPECT_EQ(names(r.violating[0].victims), std::vector<std::string>{"web-n2"});
}

/// A victim with `priority` started at `start` (nullopt = not started).
model::pod_ptr victim(const std::string& name, std::int32_t priority,
                      std::optional<std::int64_t> start = 100) {
  auto b = make_pod(name).priority(priority);
  if (start)
    b.started(*start);
  return b.build();
}

preemption_candidate candidate(const char* node,
                               std::vector<model::pod_core_ptr> victims,
                               std::int32_t violations = 0) {
  return {model::symbol{node}, std::move(victims), violations};
}

TEST(default_preemption, select) {
  constexpr std::int32_t lowest = std::numeric_limits<std::int32_t>::min();
  struct test_case {
    std::string name;
    std::vector<preemption_candidate> candidates;
    std::string want_node;
    std::vector<std::string> want_victims;
  };
  const std::vector<test_case> cases = {
    {"a single candidate is taken as is",
     {candidate("n1", {victim("a", 5)}, 3)},
     "n1",
     {"a"}},
    {"fewest PDB violations first",
     {candidate("n1", {victim("a", 1)}, 1),
      candidate("n2", {victim("b", 9), victim("c", 9)}, 0)},
     "n2",
     {"b", "c"}},
    {"then the lowest highest-victim priority",
     {candidate("n1", {victim("a", 5), victim("b", 1)}),
      candidate("n2", {victim("c", 3), victim("d", 3), victim("e", 3)})},
     "n2",
     {"c", "d", "e"}},
    {"then the smallest sum of priorities",
     {candidate("n1", {victim("a", 5), victim("b", 5)}),
      candidate("n2", {victim("c", 5), victim("d", 1)})},
     "n2",
     {"c", "d"}},
    {"shifted sums: fewer negative-priority victims win",
     {candidate("n1", {victim("a", -10), victim("b", -10)}),
      candidate("n2", {victim("c", -10)})},
     "n2",
     {"c"}},
    {"then the fewest victims",
     {candidate("n1", {victim("a", lowest), victim("b", lowest)}),
      candidate("n2", {victim("c", lowest)})},
     "n2",
     {"c"}},
    {"then the latest start among the top victims",
     {candidate("n1", {victim("a", 5, 100), victim("b", 1, 900)}),
      candidate("n2", {victim("c", 5, 200), victim("d", 1, 50)})},
     "n2",
     {"c", "d"}},
    {"the earliest of several top victims counts",
     {candidate("n1", {victim("a", 5, 300), victim("b", 5, 100)}),
      candidate("n2", {victim("c", 5, 200), victim("d", 5, 250)})},
     "n2",
     {"c", "d"}},
    {"a top victim not started yet counts as now",
     {candidate("n1", {victim("a", 5, 900)}),
      candidate("n2", {victim("b", 5, std::nullopt)})},
     "n2",
     {"b"}},
    {"all equal: the first candidate",
     {candidate("n1", {victim("a", 5)}), candidate("n2", {victim("b", 5)}),
      candidate("n3", {victim("c", 5)})},
     "n1",
     {"a"}},
    {"ties narrow the field step by step",
     {candidate("n1", {victim("a", 5)}, 1), candidate("n2", {victim("b", 7)}),
      candidate("n3", {victim("c", 7, 500)})},
     "n3",
     {"c"}},
  };
  auto prof = preemption_profile();
  const auto p = make_pod("p").priority(100).build();
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto out = plugin_of(*prof).select(*p, tc.candidates);
    EXPECT_TRUE(out.result.ok());
    EXPECT_EQ(out.nominated_node.str(), tc.want_node);
    EXPECT_EQ(names(out.victims), tc.want_victims);
  }
}

TEST(default_preemption, select_without_candidates) {
  auto prof = preemption_profile();
  const auto p = make_pod("p").priority(100).build();
  auto out = plugin_of(*prof).select(*p, {});
  EXPECT_EQ(describe(out.result),
            "Unschedulable: no candidate node for preemption");
  EXPECT_TRUE(out.nominated_node.empty());
  EXPECT_TRUE(out.victims.empty());
}

/// PostFilter as the coordinator drives it with one shard: eligibility,
/// potential nodes (filter status not UR), the dry run from offset 0, then
/// select or the FitError over all nodes. Returns the nominated node and
/// victims as "n1: a b", or the wrapped failure message.
std::string post_filter(const profile_ptr& prof, const model::pod& p,
                        const std::vector<model::node_info_ptr>& nodes,
                        std::vector<model::disruption_budget_ptr> budgets
                        = {}) {
  const auto& pf = plugin_of(*prof);
  if (status s = pf.check_pod_eligible(p); !s.ok())
    return pf.wrap_message(s.message());
  auto c = prepare(prof, p, nodes, std::move(budgets));
  diagnosis why;
  std::vector<model::node_info_ptr> potential;
  for (const auto& ni : nodes) {
    status s = prof->run_filters(c->state, p, *ni);
    if (s.ok())
      test::builder_failure("post_filter needs a pod that fits nowhere");
    if (s.get_code() == code::unschedulable_and_unresolvable)
      why.add(
        ni->name(),
        status{code::unschedulable_and_unresolvable,
               model::symbol{"Preemption is not helpful for scheduling"}});
    else
      potential.push_back(ni);
  }
  auto r = pf.dry_run(*prof, c->state, p, dry_run_nodes(potential, {}),
                      pf.candidates_wanted(potential.size()), *c->cluster);
  std::vector<preemption_candidate> candidates = r.non_violating;
  candidates.insert(candidates.end(), r.violating.begin(), r.violating.end());
  if (candidates.empty()) {
    for (const auto& [node, st] : r.failures)
      why.add(node, st);
    return pf.wrap_message(fit_error_message(nodes.size(), why));
  }
  auto out = pf.select(p, std::move(candidates));
  if (!out.result.ok())
    return pf.wrap_message(out.result.message());
  std::string text = out.nominated_node.str() + ":";
  for (const auto& v : out.victims)
    text += " " + v->name;
  return text;
}

TEST(default_preemption, post_filter_outcome) {
  auto tainted = [](const char* name) {
    return make_node(name).pods(110).cpu("2").taint("dedicated", "db",
                                                    "NoSchedule");
  };
  struct test_case {
    std::string name;
    std::vector<model::node_info_ptr> nodes;
    model::pod_ptr pod;
    std::string want;
  };
  const auto p = make_pod("p").cpu("2").priority(10).build();
  const std::vector<test_case> cases = {
    {"no candidate: the FitError over all nodes",
     {test::make_node_info_ptr(tainted("n1").build()),
      test::make_node_info_ptr(
        make_node("n2").pods(110).cpu("2").build(),
        {make_pod("h2").node("n2").cpu("1").priority(50).build()}),
      test::make_node_info_ptr(
        make_node("n3").pods(110).cpu("2").build(),
        {make_pod("h3").node("n3").cpu("2").priority(10).build()})},
     p,
     "preemption: 0/3 nodes are available: 1 Preemption is not helpful for "
     "scheduling, 2 No preemption victims found for incoming pod."},
    {"filter failures after removing victims are counted",
     {test::make_node_info_ptr(
       make_node("n1").pods(110).cpu("2").build(),
       {make_pod("h").node("n1").cpu("1").priority(50).build(),
        make_pod("l").node("n1").cpu("1").priority(1).build()})},
     p,
     "preemption: 0/1 nodes are available: 1 Insufficient cpu."},
    {"preemptionPolicy Never",
     {test::make_node_info_ptr(tainted("n1").build())},
     make_pod("p").cpu("2").priority(10).preemption_never().build(),
     "preemption: not eligible due to preemptionPolicy=Never."},
    {"the cheapest node is nominated",
     {test::make_node_info_ptr(
        make_node("n1").pods(110).cpu("2").build(),
        {make_pod("a").node("n1").cpu("2").priority(5).build()}),
      test::make_node_info_ptr(
        make_node("n2").pods(110).cpu("2").build(),
        {make_pod("b").node("n2").cpu("1").priority(2).build(),
         make_pod("c").node("n2").cpu("1").priority(1).build()})},
     p,
     "n2: b c"},
    {"a PDB steers preemption to the other node",
     {test::make_node_info_ptr(make_node("n1").pods(110).cpu("2").build(),
                               {make_pod("a")
                                  .node("n1")
                                  .cpu("2")
                                  .priority(1)
                                  .label("app", "web")
                                  .build()}),
      test::make_node_info_ptr(
        make_node("n2").pods(110).cpu("2").build(),
        {make_pod("b").node("n2").cpu("2").priority(5).build()})},
     p,
     "n2: b"},
  };
  auto prof = preemption_profile();
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(
      post_filter(prof, *tc.pod, tc.nodes, {budget(0, {{"app", "web"}})}),
      tc.want);
  }
}

} // namespace
} // namespace tessera::plugins::default_preemption_test
