// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// PodTopologySpread: PreScore skip, weights from the feasible set, raw
// scores (exact rounding) and NormalizeScore, default constraints.
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"
#include "plugins/pod_topology_spread/test_cycle.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::pod_topology_spread_test {

// n1, n2 in z1; n3 in z2; n4 in z3; n5 without a zone. n1, n3 have ssd.
std::vector<model::node_info_ptr>
score_nodes(const std::vector<model::pod_ptr>& pods) {
  return zoned_nodes({{"n1", "z1", {{"disk", "ssd"}}},
                      {"n2", "z1"},
                      {"n3", "z2", {{"disk", "ssd"}}},
                      {"n4", "z3"},
                      {"n5", ""}},
                     pods);
}

// Feasible sets: the nodes with a zone, and all five.
const std::vector<std::string> four = {"n1", "n2", "n3", "n4"};
const std::vector<std::string> five = {"n1", "n2", "n3", "n4", "n5"};

// The nodes of `all` named in `names`, in that order.
std::vector<model::node_info_ptr>
pick(const std::vector<model::node_info_ptr>& all,
     const std::vector<std::string>& names) {
  std::vector<model::node_info_ptr> out;
  for (const auto& n : names)
    for (const auto& ni : all)
      if (ni->name() == n)
        out.push_back(ni);
  return out;
}

model::label_selector web_selector(const model::pod&, const cluster_context&) {
  return test::match_labels({{"app", "web"}});
}

TEST(pod_topology_spread_score, raw_and_normalized) {
  using policy = model::topology_spread_constraint::inclusion_policy;
  using defaulting = config::pod_topology_spread_args::defaulting;
  // Most cases score n1..n4 under the system defaults without a default
  // selector, and PreScore runs: those fields come last, defaulted.
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    std::vector<model::pod_ptr> existing;
    std::vector<std::int64_t> want_raw;
    std::vector<std::int64_t> want_normalized;
    std::vector<std::string> feasible = four;
    config::pod_topology_spread_args args = {};
    selector_source defaults = no_default_selector;
    bool want_skip = false;
  };
  const config::pod_topology_spread_args system{};
  config::pod_topology_spread_args list{};
  list.defaulting_type = defaulting::list;
  list.default_constraints = {constraint(zone_key, 2, false, {})};
  auto soft = [](std::vector<model::topology_spread_constraint> cs) {
    auto b = test::make_pod("p").label("app", "web");
    for (auto& c : cs)
      b.spread(std::move(c));
    return b.build();
  };
  const std::vector<test_case> cases = {
    {"no constraints, no default selector: PreScore skips",
     test::make_pod("p").label("app", "web").build(),
     pods_on("n1", 2),
     {},
     {},
     four,
     system,
     no_default_selector,
     true},
    {"only DoNotSchedule constraints: PreScore skips",
     soft({constraint(zone_key, 1, true)}),
     pods_on("n1", 2),
     {},
     {},
     four,
     system,
     no_default_selector,
     true},
    {"zone: weight ln(3 domains + 2)",
     soft({constraint(zone_key, 1, false)}),
     all_of({pods_on("n1", 2), pods_on("n3", 1)}),
     {3, 3, 2, 0},
     {0, 0, 33, 100}},
    {"hostname: the node's own pods, weight ln(4 nodes + 2)",
     soft({constraint(host_key, 1, false)}),
     all_of({pods_on("n1", 2), pods_on("n3", 1)}),
     {4, 0, 2, 0},
     {0, 100, 50, 100}},
    {"maxSkew - 1 is added per constraint",
     soft({constraint(zone_key, 3, false)}),
     all_of({pods_on("n1", 2), pods_on("n3", 1)}),
     {5, 5, 4, 2},
     {40, 40, 60, 100}},
    {"a feasible node lacking a key is ignored and scores 0",
     soft({constraint(zone_key, 1, false)}),
     all_of({pods_on("n1", 2), pods_on("n3", 1), pods_on("n5", 4)}),
     {3, 3, 2, 0, 0},
     {0, 0, 33, 100, 0},
     five},
    {"weights come from the feasible set, counts from all nodes",
     soft({constraint(zone_key, 1, false)}),
     all_of({pods_on("n1", 2), pods_on("n2", 2), pods_on("n3", 1)}),
     {6, 1},
     {16, 100},
     {"n1", "n3"}},
    {"two constraints add up",
     soft({constraint(zone_key, 1, false), constraint(host_key, 1, false)}),
     all_of({pods_on("n1", 2), pods_on("n3", 1)}),
     {7, 3, 3, 0},
     {0, 57, 57, 100}},
    {"no matching pod anywhere: every node 100",
     soft({constraint(zone_key, 1, false)}),
     pods_on("n1", 2, "api"),
     {0, 0, 0, 0},
     {100, 100, 100, 100}},
    {"pods of other namespaces and pods being deleted do not count",
     soft({constraint(zone_key, 1, false)}),
     all_of({pods_on("n1", 2, "web", "other"),
             {test::make_pod("gone")
                .label("app", "web")
                .node("n3")
                .deleting()
                .build()}}),
     {0, 0, 0, 0},
     {100, 100, 100, 100}},
    {"nodeAffinityPolicy Honor leaves out nodes the pod cannot use",
     test::make_pod("p")
       .label("app", "web")
       .node_selector("disk", "ssd")
       .spread(zone_with_policies(false, policy::honor))
       .build(),
     pods_on("n2", 3),
     {0, 0},
     {100, 100},
     {"n1", "n3"}},
    {"nodeAffinityPolicy Ignore counts them",
     test::make_pod("p")
       .label("app", "web")
       .node_selector("disk", "ssd")
       .spread(zone_with_policies(false, policy::ignore))
       .build(),
     pods_on("n2", 3),
     {4, 0},
     {0, 100},
     {"n1", "n3"}},
    {"System defaults with a selector: hostname 3 and zone 5, keys optional",
     test::make_pod("p").label("app", "web").build(),
     all_of({pods_on("n1", 2), pods_on("n3", 1), pods_on("n5", 1)}),
     {13, 10, 10, 6, 4},
     {30, 53, 53, 84, 100},
     five,
     system,
     web_selector},
    {"List defaults with a selector: every key required",
     test::make_pod("p").label("app", "web").build(),
     all_of({pods_on("n1", 2), pods_on("n3", 1), pods_on("n5", 1)}),
     {4, 4, 3, 1, 0},
     {25, 25, 50, 100, 0},
     five,
     list,
     web_selector},
    {"own constraints win over defaults",
     soft({constraint(host_key, 1, false)}),
     all_of({pods_on("n1", 2), pods_on("n3", 1)}),
     {4, 0, 2, 0},
     {0, 100, 50, 100},
     four,
     system,
     web_selector},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    pod_topology_spread plugin{tc.args, tc.defaults};
    plugin.bind_context({0});
    auto nodes = score_nodes(tc.existing);
    auto feasible = pick(nodes, tc.feasible);
    for (std::size_t shards : {1u, 2u, 3u}) {
      SCOPED_TRACE("shards " + std::to_string(shards));
      auto run = prepare(plugin, *tc.pod, nodes, shards);
      EXPECT_EQ(run.pre_score_skipped, tc.want_skip);
      auto got = score_feasible(plugin, run.state, *tc.pod, feasible, shards);
      EXPECT_EQ(got.raw, tc.want_raw);
      EXPECT_EQ(got.normalized, tc.want_normalized);
    }
  }
}

TEST(pod_topology_spread_score, hostname_only_needs_no_scan) {
  pod_topology_spread plugin{config::pod_topology_spread_args{}};
  plugin.bind_context({0});
  auto pod = test::make_pod("p")
               .label("app", "web")
               .spread(constraint(host_key, 1, false))
               .build();
  auto nodes = score_nodes(pods_on("n1", 1));
  auto run = prepare(plugin, *pod, nodes);
  EXPECT_TRUE(run.pre_filter_skipped);
  EXPECT_FALSE(run.pre_score_skipped);
  EXPECT_FALSE(run.scanned);
  auto got = score_feasible(plugin, run.state, *pod, nodes);
  EXPECT_EQ(got.raw, (std::vector<std::int64_t>{2, 0, 0, 0, 0}));
}

} // namespace tessera::plugins::pod_topology_spread_test
