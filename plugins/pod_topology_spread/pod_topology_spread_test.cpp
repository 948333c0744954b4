// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// PodTopologySpread: constraint preparation (own and default constraints),
// queueing hints (the registered events are in
// plugins/registered_events_test.cpp), and the sharding property — any
// split of the scan and of the feasible-set summaries gives the same filter
// outcomes and scores as one shard.
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"
#include "plugins/pod_topology_spread/test_cycle.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::plugins::pod_topology_spread_test {

model::label_selector app_web_selector(const model::pod&,
                                       const cluster_context&) {
  return test::match_labels({{"app", "web"}});
}

TEST(pod_topology_spread_constraints, own_and_default) {
  using action = model::topology_spread_constraint::when_unsatisfiable;
  using defaulting = config::pod_topology_spread_args::defaulting;
  auto own = test::make_pod("p")
               .spread(constraint(zone_key, 2, true))
               .spread(constraint(host_key, 4, false))
               .build();
  auto bare = test::make_pod("p").label("app", "web").build();
  const cluster_context no_workloads;

  pod_topology_spread system_plain{config::pod_topology_spread_args{}};
  auto hard = system_plain.constraints_for(*own, action::do_not_schedule,
                                           &no_workloads);
  ASSERT_EQ(hard.size(), 1u);
  EXPECT_EQ(hard[0].max_skew, 2);
  auto soft = system_plain.constraints_for(*own, action::schedule_anyway,
                                           &no_workloads);
  ASSERT_EQ(soft.size(), 1u);
  EXPECT_EQ(soft[0].max_skew, 4);
  EXPECT_TRUE(soft[0].hostname);
  // No workload selects the pod: no default constraint applies.
  EXPECT_TRUE(
    system_plain.constraints_for(*bare, action::schedule_anyway, &no_workloads)
      .empty());
  EXPECT_TRUE(no_default_selector(*bare, no_workloads).is_everything());

  pod_topology_spread system_selected{config::pod_topology_spread_args{},
                                      app_web_selector};
  EXPECT_TRUE(system_selected
                .constraints_for(*bare, action::do_not_schedule, &no_workloads)
                .empty());
  auto defaults = system_selected.constraints_for(
    *bare, action::schedule_anyway, &no_workloads);
  ASSERT_EQ(defaults.size(), 2u);
  EXPECT_EQ(defaults[0].topology_key.view(), host_key);
  EXPECT_EQ(defaults[0].max_skew, 3);
  EXPECT_TRUE(defaults[0].hostname);
  EXPECT_EQ(defaults[1].topology_key.view(), zone_key);
  EXPECT_EQ(defaults[1].max_skew, 5);
  for (const auto& c : defaults) {
    EXPECT_EQ(c.selector, test::match_labels({{"app", "web"}}));
    EXPECT_EQ(c.min_domains, 1);
  }

  config::pod_topology_spread_args list;
  list.defaulting_type = defaulting::list;
  list.default_constraints = {constraint("rack", 1, true, {{"x", "y"}}),
                              constraint(zone_key, 2, false, {})};
  pod_topology_spread list_selected{list, app_web_selector};
  auto list_hard = list_selected.constraints_for(*bare, action::do_not_schedule,
                                                 &no_workloads);
  ASSERT_EQ(list_hard.size(), 1u);
  EXPECT_EQ(list_hard[0].topology_key.view(), "rack");
  EXPECT_EQ(list_hard[0].selector, test::match_labels({{"app", "web"}}));
  EXPECT_EQ(
    list_selected.constraints_for(*bare, action::schedule_anyway, &no_workloads)
      .size(),
    1u);
  pod_topology_spread list_plain{list};
  EXPECT_TRUE(
    list_plain.constraints_for(*bare, action::do_not_schedule, &no_workloads)
      .empty());
}

TEST(pod_topology_spread_events, pod_hint) {
  auto waiting = test::make_pod("w")
                   .label("app", "web")
                   .spread(constraint(zone_key, 1, true))
                   .build();
  auto honoring = [] {
    auto c = constraint(zone_key, 1, true);
    c.node_taints_policy
      = model::topology_spread_constraint::inclusion_policy::honor;
    return test::make_pod("w").label("app", "web").spread(c);
  };
  auto waiting_honor = honoring().build();
  auto waiting_honor_tolerant = honoring().toleration_exists("t").build();
  auto soft_only
    = test::make_pod("w").spread(constraint(zone_key, 1, false)).build();
  auto web = test::make_pod("x").label("app", "web").node("n1").build();
  auto web2 = test::make_pod("x")
                .label("app", "web")
                .label("v", "2")
                .node("n1")
                .build();
  auto api = test::make_pod("x").label("app", "api").node("n1").build();
  auto pending = test::make_pod("x").label("app", "web").build();
  auto elsewhere
    = test::make_pod("x").ns("other").label("app", "web").node("n1").build();
  pod_topology_spread plugin{config::pod_topology_spread_args{}};
  plugin_testing::expect_hints<model::pod_ptr>(
    plugin.events_to_register()[0].hint,
    {
      {"an unscheduled pod added", waiting, nullptr, pending,
       queueing_hint::skip},
      {"an assigned pod of another namespace added", waiting, nullptr,
       elsewhere, queueing_hint::skip},
      {"an assigned matching pod added", waiting, nullptr, web,
       queueing_hint::queue},
      {"an assigned pod not matching added", waiting, nullptr, api,
       queueing_hint::skip},
      {"a matching pod deleted", waiting, web, nullptr, queueing_hint::queue},
      {"a pod not matching deleted", waiting, api, nullptr,
       queueing_hint::skip},
      {"labels updated to stop matching", waiting, web, api,
       queueing_hint::queue},
      {"labels updated to match", waiting, api, web, queueing_hint::queue},
      {"labels unchanged", waiting, web, web, queueing_hint::skip},
      {"labels changed, matching unchanged", waiting, web, web2,
       queueing_hint::skip},
      {"the waiting pod gets a toleration, taints honored", waiting_honor,
       waiting_honor, waiting_honor_tolerant, queueing_hint::queue},
      {"only soft constraints: nothing to match", soft_only, nullptr, web,
       queueing_hint::skip},
    });
}

TEST(pod_topology_spread_events, node_hint) {
  auto waiting = test::make_pod("w")
                   .label("app", "web")
                   .spread(constraint(zone_key, 1, true))
                   .build();
  auto unconstrained = test::make_pod("w").build();
  auto bare = test::make_node("n").build();
  auto bare_tainted
    = test::make_node("n").taint("t", "v", "NoSchedule").build();
  auto z1 = test::make_node("n").zone("z1").build();
  auto z2 = test::make_node("n").zone("z2").build();
  auto z1_more = test::make_node("n").zone("z1").label("x", "y").build();
  auto z1_tainted
    = test::make_node("n").zone("z1").taint("t", "v", "NoSchedule").build();
  pod_topology_spread plugin{config::pod_topology_spread_args{}};
  plugin_testing::expect_hints<model::node_ptr>(
    plugin.events_to_register()[1].hint,
    {
      {"node added with the key", waiting, nullptr, z1, queueing_hint::queue},
      {"node added without the key", waiting, nullptr, bare,
       queueing_hint::skip},
      {"node with the key deleted", waiting, z1, nullptr, queueing_hint::queue},
      {"node without the key deleted", waiting, bare, nullptr,
       queueing_hint::skip},
      {"node gains the key", waiting, bare, z1, queueing_hint::queue},
      {"node loses the key", waiting, z1, bare, queueing_hint::queue},
      {"node changes the value", waiting, z1, z2, queueing_hint::queue},
      {"node with the key changes taints", waiting, z1, z1_tainted,
       queueing_hint::queue},
      {"unrelated label change", waiting, z1, z1_more, queueing_hint::skip},
      {"taint change on a node without the key", waiting, bare, bare_tainted,
       queueing_hint::skip},
      {"no hard constraints: every node matches vacuously", unconstrained,
       nullptr, bare, queueing_hint::queue},
    });
}

// A deterministic mixed cluster: 16 nodes over 3 zones (one node without a
// zone), some tainted, some with disk=ssd; pods of three apps in two
// namespaces, a few being deleted.
std::vector<model::node_info_ptr> spread_cluster() {
  std::uint32_t seed = 777;
  auto next = [&seed](std::uint32_t n) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) % n;
  };
  const char* apps[] = {"web", "db", "cache"};
  std::vector<zoned_node> specs;
  std::vector<model::pod_ptr> pods;
  for (int i = 0; i < 16; ++i) {
    zoned_node s{"node-" + std::to_string(i),
                 i == 15 ? "" : "z" + std::to_string(i % 3)};
    if (next(2) == 0)
      s.labels.push_back({"disk", "ssd"});
    s.tainted = next(5) == 0;
    const auto count = next(6);
    for (std::uint32_t k = 0; k < count; ++k) {
      auto b = test::make_pod(s.name + "-" + std::to_string(k))
                 .ns(next(4) == 0 ? "other" : "default")
                 .label("app", apps[next(3)])
                 .node(s.name);
      if (next(10) == 0)
        b.deleting();
      pods.push_back(b.build());
    }
    specs.push_back(std::move(s));
  }
  return zoned_nodes(specs, pods);
}

TEST(pod_topology_spread_sharding, any_split_equals_one_shard) {
  using policy = model::topology_spread_constraint::inclusion_policy;
  auto nodes = spread_cluster();
  auto honoring = [](const char* key, std::int32_t skew, bool hard) {
    auto c = constraint(key, skew, hard);
    c.node_affinity_policy = policy::honor;
    c.node_taints_policy = policy::honor;
    return c;
  };
  auto min_domains = [](std::int32_t d) {
    auto c = constraint(zone_key, 1, true);
    c.min_domains = d;
    c.min_domains_set = true;
    return c;
  };
  struct test_case {
    std::string name;
    selector_source defaults;
    model::pod_ptr pod;
  };
  const std::vector<test_case> cases = {
    {"hard zone and hostname", no_default_selector,
     test::make_pod("p")
       .label("app", "web")
       .spread(constraint(zone_key, 1, true))
       .spread(constraint(host_key, 2, true))
       .build()},
    {"hard zone with minDomains", no_default_selector,
     test::make_pod("p").label("app", "db").spread(min_domains(4)).build()},
    {"inclusion policies honored", no_default_selector,
     test::make_pod("p")
       .label("app", "web")
       .node_selector("disk", "ssd")
       .spread(honoring(zone_key, 1, true))
       .spread(honoring(zone_key, 1, false))
       .build()},
    {"soft zone and hostname", no_default_selector,
     test::make_pod("p")
       .label("app", "cache")
       .spread(constraint(zone_key, 2, false, {{"app", "cache"}}))
       .spread(constraint(host_key, 1, false, {{"app", "cache"}}))
       .build()},
    {"system default constraints with a selector", app_web_selector,
     test::make_pod("p").label("app", "web").build()},
  };
  std::size_t rejections = 0;
  std::size_t scored = 0;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    pod_topology_spread plugin{config::pod_topology_spread_args{}, tc.defaults};
    plugin.bind_context({0});
    auto one = prepare(plugin, *tc.pod, nodes, 1);
    auto want_filter = filter_all(plugin, one.state, *tc.pod, nodes);
    std::vector<model::node_info_ptr> feasible;
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if (want_filter[i] == ok)
        feasible.push_back(nodes[i]);
      else
        ++rejections;
    auto want_scores = score_feasible(plugin, one.state, *tc.pod, feasible, 1);
    scored += want_scores.raw.size();
    for (std::size_t shards : {2u, 3u, 4u, 16u, 20u}) {
      SCOPED_TRACE("shards " + std::to_string(shards));
      auto split = prepare(plugin, *tc.pod, nodes, shards);
      EXPECT_EQ(split.state.skip_filter, one.state.skip_filter);
      EXPECT_EQ(split.state.skip_score, one.state.skip_score);
      EXPECT_EQ(filter_all(plugin, split.state, *tc.pod, nodes), want_filter);
      auto got = score_feasible(plugin, split.state, *tc.pod, feasible, shards);
      EXPECT_EQ(got.raw, want_scores.raw);
      EXPECT_EQ(got.normalized, want_scores.normalized);
    }
  }
  // The cluster must exercise the rules, or the comparison proves little.
  EXPECT_GT(rejections, 5u);
  EXPECT_GT(scored, 20u);
}

} // namespace tessera::plugins::pod_topology_spread_test
