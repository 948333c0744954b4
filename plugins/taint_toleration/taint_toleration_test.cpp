// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/normalize.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/framework/profile.hpp"
#include "plugins/framework/registry.hpp"
#include "plugins/taint_toleration/taint_toleration.hpp"
#include "test/support/builders.hpp"
#include "test/support/plugin_cases.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace tessera::plugins::taint_toleration_test {

constexpr const char* untolerated = "node(s) had untolerated taint(s)";

TEST(taint_toleration, filter) {
  auto plain = test::make_pod("p").build();
  const std::vector<test::filter_case> cases = {
    {"untainted node", plain, test::make_node("n").build(), code::success, ""},
    {"NoSchedule taint not tolerated", plain,
     test::make_node("n").taint("dedicated", "gpu", "NoSchedule").build(),
     code::unschedulable_and_unresolvable, untolerated},
    {"NoExecute taint not tolerated", plain,
     test::make_node("n").taint("k", "v", "NoExecute").build(),
     code::unschedulable_and_unresolvable, untolerated},
    {"PreferNoSchedule taint never filters", plain,
     test::make_node("n").taint("k", "v", "PreferNoSchedule").build(),
     code::success, ""},
    {"Equal toleration with the same value and effect",
     test::make_pod("p").toleration("dedicated", "gpu", "NoSchedule").build(),
     test::make_node("n").taint("dedicated", "gpu", "NoSchedule").build(),
     code::success, ""},
    {"Equal toleration with another value",
     test::make_pod("p").toleration("dedicated", "cpu", "NoSchedule").build(),
     test::make_node("n").taint("dedicated", "gpu", "NoSchedule").build(),
     code::unschedulable_and_unresolvable, untolerated},
    {"toleration with an empty effect matches every effect",
     test::make_pod("p").toleration("dedicated", "gpu", "").build(),
     test::make_node("n").taint("dedicated", "gpu", "NoExecute").build(),
     code::success, ""},
    {"toleration for another effect",
     test::make_pod("p").toleration("k", "v", "NoExecute").build(),
     test::make_node("n").taint("k", "v", "NoSchedule").build(),
     code::unschedulable_and_unresolvable, untolerated},
    {"Exists toleration on the key",
     test::make_pod("p").toleration_exists("k", "NoSchedule").build(),
     test::make_node("n").taint("k", "anything", "NoSchedule").build(),
     code::success, ""},
    {"empty key Exists tolerates everything",
     test::make_pod("p").toleration_exists("").build(),
     test::make_node("n")
       .taint("a", "1", "NoSchedule")
       .taint("b", "2", "NoExecute")
       .build(),
     code::success, ""},
    {"one of two hard taints tolerated",
     test::make_pod("p").toleration_exists("a").build(),
     test::make_node("n")
       .taint("a", "1", "NoSchedule")
       .taint("b", "2", "NoSchedule")
       .build(),
     code::unschedulable_and_unresolvable, untolerated},
  };
  taint_toleration plugin;
  cycle_state state;
  test::expect_filter(plugin, state, cases);
}

TEST(taint_toleration, default_normalize_score) {
  struct test_case {
    std::string name;
    std::vector<std::int64_t> raw;
    bool reverse;
    std::vector<std::int64_t> want;
  };
  const std::vector<test_case> cases = {
    {"scales to the maximum", {0, 1, 3, 6}, false, {0, 16, 50, 100}},
    {"reversed", {0, 1, 3, 6}, true, {100, 84, 50, 0}},
    {"integer division truncates", {1, 2, 3}, false, {33, 66, 100}},
    {"all zero stays zero", {0, 0}, false, {0, 0}},
    {"all zero reversed is all maximum", {0, 0, 0}, true, {100, 100, 100}},
    {"large raw values", {1000, 250, 999}, false, {100, 25, 99}},
    {"empty list", {}, true, {}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    std::vector<node_score> scores;
    for (auto r : tc.raw)
      scores.push_back({model::symbol{"n"}, r});
    default_normalize_score(scores, tc.reverse);
    std::vector<std::int64_t> got;
    for (const auto& s : scores)
      got.push_back(s.score);
    EXPECT_EQ(got, tc.want);
  }
}

TEST(taint_toleration, score_and_normalize) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    std::vector<model::node_ptr> nodes;
    std::vector<std::int64_t> want_raw;
    std::vector<std::int64_t> want_normalized;
  };
  auto plain = test::make_pod("p").build();
  auto prefer = [](std::string_view name, int count) {
    auto b = test::make_node(name);
    for (int i = 0; i < count; ++i)
      b.taint("soft-" + std::to_string(i), "x", "PreferNoSchedule");
    return b.build();
  };
  const std::vector<test_case> cases = {
    {"no taints anywhere: everyone gets 100",
     plain,
     {test::make_node("a").build(), test::make_node("b").build()},
     {0, 0},
     {100, 100}},
    {"fewer intolerable taints score higher",
     plain,
     {prefer("a", 0), prefer("b", 1), prefer("c", 3)},
     {0, 1, 3},
     {100, 67, 0}},
    {"tolerated PreferNoSchedule taints do not count",
     test::make_pod("p").toleration("soft-0", "x", "PreferNoSchedule").build(),
     {prefer("a", 1), prefer("b", 2)},
     {0, 1},
     {100, 0}},
    {"a toleration with an empty effect counts",
     test::make_pod("p").toleration_exists("soft-1").build(),
     {prefer("a", 2), prefer("b", 3)},
     {1, 2},
     {50, 0}},
    {"a NoSchedule toleration does not tolerate PreferNoSchedule",
     test::make_pod("p").toleration_exists("soft-0", "NoSchedule").build(),
     {prefer("a", 1), prefer("b", 0)},
     {1, 0},
     {0, 100}},
    {"hard taints are not counted",
     plain,
     {test::make_node("a")
        .taint("h", "1", "NoSchedule")
        .taint("s", "1", "PreferNoSchedule")
        .build(),
      prefer("b", 3)},
     {1, 3},
     {67, 0}},
  };
  taint_toleration plugin;
  cycle_state state;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_TRUE(plugin.pre_score(state, *tc.pod, cluster_context{}).ok());
    auto got = test::score_nodes(plugin, state, *tc.pod, tc.nodes);
    EXPECT_EQ(got.raw, tc.want_raw);
    EXPECT_EQ(got.normalized, tc.want_normalized);
  }
}

// The plugin through the real framework path: registry -> profile ->
// begin_cycle -> filter_and_score -> select_host, weight 3 as in the
// default profile.
TEST(taint_toleration, through_the_profile) {
  using config::extension_point;
  auto prof = plugin_testing::one_plugin_profile(
    "TaintToleration",
    no_args_factory("TaintToleration", make_taint_toleration),
    {{extension_point::filter, 0},
     {extension_point::pre_score, 0},
     {extension_point::score, 3}});
  ASSERT_NE(prof, nullptr);

  auto pod = test::make_pod("p").toleration_exists("ok").build();
  std::vector<model::node_info_ptr> nodes = {
    test::make_node_info_ptr(
      test::make_node("hard").taint("x", "1", "NoSchedule").build()),
    test::make_node_info_ptr(test::make_node("soft2")
                               .taint("a", "1", "PreferNoSchedule")
                               .taint("b", "1", "PreferNoSchedule")
                               .build()),
    test::make_node_info_ptr(test::make_node("tolerated")
                               .taint("ok", "1", "NoSchedule")
                               .taint("ok", "2", "PreferNoSchedule")
                               .build()),
    test::make_node_info_ptr(
      test::make_node("soft1").taint("a", "1", "PreferNoSchedule").build()),
  };
  cluster_context cluster;
  cluster.node_count = 4;
  auto start = begin_cycle(*prof, *pod, cluster);
  ASSERT_TRUE(start.pre_filter_status.ok());
  ASSERT_TRUE(start.pre_score_status.ok());
  auto shard = filter_and_score(*prof, start.state, *pod, nodes, 0, {});
  ASSERT_TRUE(shard.error.ok());
  ASSERT_EQ(shard.failures.size(), 1u);
  EXPECT_EQ(shard.failures[0].node.view(), "hard");
  EXPECT_EQ(shard.failures[0].result.message(), untolerated);
  EXPECT_EQ(shard.failures[0].result.get_code(),
            code::unschedulable_and_unresolvable);
  EXPECT_EQ(shard.failures[0].result.plugin(), "TaintToleration");

  score_table table;
  table.nodes = shard.feasible;
  table.plugins = score_plan(*prof, start.state).local;
  table.scores = shard.scores;
  EXPECT_EQ(table.scores, (std::vector<std::int64_t>{2, 0, 1}));
  std::mt19937_64 rng{1};
  auto chosen = select_host(*prof, start.state, *pod, table, rng);
  ASSERT_TRUE(chosen);
  EXPECT_EQ(table.scores, (std::vector<std::int64_t>{0, 100, 50}));
  EXPECT_EQ(table.totals, (std::vector<std::int64_t>{0, 300, 150}));
  EXPECT_EQ(table.nodes[*chosen].view(), "tolerated");
}

TEST(taint_toleration, node_hint) {
  taint_toleration plugin;
  auto events = plugin.events_to_register();
  ASSERT_EQ(events.size(), 2u);
  auto pod = test::make_pod("p").toleration_exists("ok").build();
  auto clean = test::make_node("n").build();
  auto hard = test::make_node("n").taint("bad", "1", "NoSchedule").build();
  auto tolerated = test::make_node("n").taint("ok", "1", "NoSchedule").build();
  auto soft
    = test::make_node("n").taint("bad", "1", "PreferNoSchedule").build();
  plugin_testing::expect_hints<model::node_ptr>(
    events[0].hint, *pod,
    {
      {"added without taints", nullptr, clean, queueing_hint::queue},
      {"added with a tolerated taint", nullptr, tolerated,
       queueing_hint::queue},
      {"added with an untolerated taint", nullptr, hard, queueing_hint::skip},
      {"untolerated taint removed", hard, clean, queueing_hint::queue},
      {"untolerated taint became tolerated", hard, tolerated,
       queueing_hint::queue},
      {"untolerated taint became PreferNoSchedule", hard, soft,
       queueing_hint::queue},
      {"was already tolerated", clean, tolerated, queueing_hint::skip},
      {"untolerated taint added", clean, hard, queueing_hint::skip},
    });
}

TEST(taint_toleration, pod_toleration_hint) {
  taint_toleration plugin;
  auto events = plugin.events_to_register();
  ASSERT_EQ(events.size(), 2u);
  auto waiting = test::make_pod("w").build();
  plugin_testing::expect_hints<model::pod_ptr>(
    events[1].hint, *waiting,
    {
      {"the waiting pod gained a toleration", waiting,
       test::make_pod("w").toleration_exists("k").build(),
       queueing_hint::queue},
      {"another pod gained a toleration", waiting,
       test::make_pod("x").toleration_exists("k").build(), queueing_hint::skip},
    });
}

} // namespace tessera::plugins::taint_toleration_test
