// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// InterPodAffinity: queueing hints (the registered events are in
// plugins/registered_events_test.cpp), and the sharding property — any
// split of the nodes into scan shards gives the same filter outcomes and
// scores as one shard.
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"
#include "plugins/inter_pod_affinity/test_cycle.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::plugins::inter_pod_affinity_test {

TEST(inter_pod_affinity_events, pod_hint) {
  auto waiting = test::make_pod("w")
                   .required_affinity("app", "db", zone)
                   .required_anti_affinity("app", "web", hostname)
                   .build();
  auto plain = test::make_pod("w").build();
  auto db = bound("db", "n1", {{"app", "db"}});
  auto web = bound("web", "n1", {{"app", "web"}});
  auto other = bound("other", "n1", {{"app", "other"}});
  auto pending_db = test::make_pod("db").label("app", "db").build();
  auto db_elsewhere = bound("db", "n1", {{"app", "db"}}, "other-ns");
  inter_pod_affinity plugin{config::inter_pod_affinity_args{}};
  plugin_testing::expect_hints<model::pod_ptr>(
    plugin.events_to_register()[0].hint,
    {
      {"an unscheduled pod added", waiting, nullptr, pending_db,
       queueing_hint::skip},
      {"an assigned pod matching the affinity added", waiting, nullptr, db,
       queueing_hint::queue},
      {"an assigned pod not matching the affinity added", waiting, nullptr,
       other, queueing_hint::skip},
      {"an assigned pod matching only the anti-affinity added", waiting,
       nullptr, web, queueing_hint::skip},
      {"a matching pod of another namespace added", waiting, nullptr,
       db_elsewhere, queueing_hint::skip},
      {"labels updated to match the affinity", waiting, other, db,
       queueing_hint::queue},
      {"labels updated to stop matching the anti-affinity", waiting, web, other,
       queueing_hint::queue},
      {"labels updated, still matching the affinity", waiting, db, db,
       queueing_hint::skip},
      {"labels updated from unrelated to anti-affinity match", waiting, other,
       web, queueing_hint::skip},
      {"a pod matching the anti-affinity deleted", waiting, web, nullptr,
       queueing_hint::queue},
      {"a pod not matching the anti-affinity deleted", waiting, db, nullptr,
       queueing_hint::skip},
      {"an unscheduled pod deleted", waiting, pending_db, nullptr,
       queueing_hint::skip},
      {"a waiting pod without terms ignores additions", plain, nullptr, db,
       queueing_hint::skip},
    });
}

TEST(inter_pod_affinity_events, node_hint) {
  auto affinity = test::make_pod("w").required_affinity("a", "b", zone).build();
  auto anti
    = test::make_pod("w").required_anti_affinity("a", "b", zone).build();
  auto plain = test::make_pod("w").build();
  auto bare = test::make_node("n").build();
  auto z1 = test::make_node("n").zone("z1").build();
  auto z2 = test::make_node("n").zone("z2").build();
  auto z1_more = test::make_node("n").zone("z1").label("x", "y").build();
  inter_pod_affinity plugin{config::inter_pod_affinity_args{}};
  plugin_testing::expect_hints<model::node_ptr>(
    plugin.events_to_register()[1].hint,
    {
      {"affinity: node added with the key", affinity, nullptr, z1,
       queueing_hint::queue},
      {"affinity: node added without the key", affinity, nullptr, bare,
       queueing_hint::skip},
      {"affinity: node gains the key", affinity, bare, z1,
       queueing_hint::queue},
      {"affinity: node changes the value", affinity, z1, z2,
       queueing_hint::queue},
      {"affinity: node loses the key", affinity, z1, bare, queueing_hint::skip},
      {"affinity: unrelated label change", affinity, z1, z1_more,
       queueing_hint::skip},
      {"anti-affinity: any node added", anti, nullptr, bare,
       queueing_hint::queue},
      {"anti-affinity: node loses the key", anti, z1, bare,
       queueing_hint::queue},
      {"anti-affinity: node gains the key", anti, bare, z1,
       queueing_hint::skip},
      {"anti-affinity: node changes the value", anti, z1, z2,
       queueing_hint::queue},
      {"anti-affinity: unrelated label change", anti, z1, z1_more,
       queueing_hint::skip},
      {"no terms: node added", plain, nullptr, z1, queueing_hint::skip},
    });
}

// A deterministic mixed cluster: 15 nodes over 3 zones (one node without a
// zone), pods of three apps in two namespaces, some with required and
// preferred (anti-)affinity of their own.
std::vector<model::node_info_ptr> mixed_cluster() {
  std::uint32_t seed = 12345;
  auto next = [&seed](std::uint32_t n) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) % n;
  };
  const char* apps[] = {"web", "db", "cache"};
  const char* namespaces[] = {"default", "team-a"};
  std::vector<zoned_node> specs;
  std::vector<model::pod_ptr> pods;
  for (int i = 0; i < 15; ++i) {
    std::string name = "node-" + std::to_string(i);
    specs.push_back({name, i == 14 ? "" : "z" + std::to_string(i % 3)});
    const auto count = next(5);
    for (std::uint32_t k = 0; k < count; ++k) {
      auto b = test::make_pod(name + "-pod-" + std::to_string(k))
                 .ns(namespaces[next(2)])
                 .label("app", apps[next(3)])
                 .node(name);
      switch (next(6)) {
      case 0:
        b.required_anti_affinity("app", apps[next(3)], hostname);
        break;
      case 1:
        b.required_anti_affinity("app", apps[next(3)], zone);
        break;
      case 2:
        b.required_affinity("app", apps[next(3)], zone);
        break;
      case 3:
        b.preferred_affinity(1 + static_cast<std::int32_t>(next(9)), "app",
                             apps[next(3)], zone);
        break;
      case 4:
        b.preferred_anti_affinity(1 + static_cast<std::int32_t>(next(9)), "app",
                                  apps[next(3)], hostname);
        break;
      default:
        break;
      }
      pods.push_back(b.build());
    }
  }
  return zoned_nodes(specs, pods);
}

TEST(inter_pod_affinity_sharding, any_split_equals_one_shard) {
  auto nodes = mixed_cluster();
  auto team_a = test::make_namespace("team-a", {{"team", "a"}});
  auto ctx = make_context(nodes, {team_a});
  ASSERT_GT(ctx.pods_with_required_anti_affinity, 0);
  struct test_case {
    std::string name;
    model::pod_ptr pod;
  };
  const std::vector<test_case> cases = {
    {"required anti-affinity per host",
     test::make_pod("p")
       .label("app", "web")
       .required_anti_affinity("app", "web", hostname)
       .build()},
    {"required affinity per zone", test::make_pod("p")
                                     .label("app", "cache")
                                     .required_affinity("app", "db", zone)
                                     .build()},
    {"preferred terms both ways",
     test::make_pod("p")
       .label("app", "db")
       .preferred_affinity(7, "app", "cache", zone)
       .preferred_anti_affinity(3, "app", "db", hostname)
       .build()},
    {"no terms, existing pods' terms only",
     test::make_pod("p").label("app", "db").build()},
    {"namespaceSelector terms",
     test::make_pod("p")
       .ns("team-a")
       .label("app", "web")
       .required_anti_affinity_term(
         term({{"app", "db"}}, zone, {}, test::match_labels({{"team", "a"}})))
       .preferred_affinity_term(5, term({{"app", "cache"}}, hostname, {},
                                        model::label_selector::everything()))
       .build()},
  };
  inter_pod_affinity plugin{config::inter_pod_affinity_args{}};
  plugin.bind_context({0});
  // The cluster must exercise the rules, or the comparison proves little.
  std::size_t rejections = 0;
  std::size_t nonzero_scores = 0;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto one = prepare(plugin, *tc.pod, nodes, ctx, 1);
    ASSERT_TRUE(one.scanned);
    auto want_filter = filter_all(plugin, one.state, *tc.pod, nodes);
    auto want_scores = score_all(plugin, one.state, *tc.pod, nodes);
    for (const auto& f : want_filter)
      rejections += f != ok ? 1 : 0;
    for (auto s : want_scores.raw)
      nonzero_scores += s != 0 ? 1 : 0;
    for (std::size_t shards : {2u, 3u, 4u, 15u, 20u}) {
      SCOPED_TRACE("shards " + std::to_string(shards));
      auto split = prepare(plugin, *tc.pod, nodes, ctx, shards);
      EXPECT_EQ(split.state.skip_filter, one.state.skip_filter);
      EXPECT_EQ(split.state.skip_score, one.state.skip_score);
      EXPECT_EQ(filter_all(plugin, split.state, *tc.pod, nodes), want_filter);
      auto got = score_all(plugin, split.state, *tc.pod, nodes);
      EXPECT_EQ(got.raw, want_scores.raw);
      EXPECT_EQ(got.normalized, want_scores.normalized);
    }
  }
  EXPECT_GT(rejections, 10u);
  EXPECT_GT(nonzero_scores, 10u);
}

} // namespace tessera::plugins::inter_pod_affinity_test
