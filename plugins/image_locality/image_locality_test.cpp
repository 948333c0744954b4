// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/framework/profile.hpp"
#include "plugins/framework/registry.hpp"
#include "plugins/image_locality/image_locality.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

namespace tessera::plugins::image_locality_test {

constexpr std::int64_t mib = 1024 * 1024;

cluster_context make_cluster(std::int64_t nodes,
                             const std::map<std::string, int>& spread) {
  cluster_context c;
  c.node_count = nodes;
  for (const auto& [image, count] : spread)
    c.image_node_counts[model::symbol{image}] = count;
  return c;
}

TEST(image_locality, priority_of) {
  struct test_case {
    std::string name;
    std::int64_t sum;
    std::int64_t containers;
    std::int64_t want;
  };
  const std::vector<test_case> cases = {
    {"nothing on the node", 0, 1, 0},
    {"exactly the minimum", 23 * mib, 1, 0},
    {"one byte above the minimum", 23 * mib + 1, 1, 0},
    {"middle of the range truncates", 500 * mib, 1, 48},
    {"exactly the per-container maximum", 1000 * mib, 1, 100},
    {"above the maximum is clamped", 5000 * mib, 1, 100},
    {"the maximum grows with containers", 1000 * mib, 2, 49},
    {"no containers", 0, 0, 0},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(image_locality::priority_of(tc.sum, tc.containers), tc.want);
  }
}

TEST(image_locality, score) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    model::node_ptr node;
    cluster_context cluster;
    std::int64_t want;
  };
  const std::vector<test_case> cases = {
    {"image on half the nodes: 250 MiB counted",
     test::make_pod("p").image("nginx").build(),
     test::make_node("n").image({"nginx:latest"}, 500 * mib).build(),
     make_cluster(10, {{"nginx:latest", 5}}), 23},
    {"image on a quarter of the nodes: 125 MiB counted",
     test::make_pod("p").image("nginx:1.25").build(),
     test::make_node("n").image({"nginx:1.25"}, 500 * mib).build(),
     make_cluster(4, {{"nginx:1.25", 1}}), 10},
    {"image everywhere at full size",
     test::make_pod("p").image("nginx:1.25").build(),
     test::make_node("n").image({"nginx:1.25"}, 500 * mib).build(),
     make_cluster(4, {{"nginx:1.25", 4}}), 48},
    {"image not on the node", test::make_pod("p").image("redis").build(),
     test::make_node("n").image({"nginx:latest"}, 500 * mib).build(),
     make_cluster(2, {{"nginx:latest", 2}}), 0},
    {"small images stay under the minimum",
     test::make_pod("p").image("busybox").build(),
     test::make_node("n").image({"busybox:latest"}, 10 * mib).build(),
     make_cluster(1, {{"busybox:latest", 1}}), 0},
    {"huge image is clamped", test::make_pod("p").image("cuda:12").build(),
     test::make_node("n").image({"cuda:12"}, 3000 * mib).build(),
     make_cluster(1, {{"cuda:12", 1}}), 100},
    {"the threshold scales with the number of containers",
     test::make_pod("p")
       .image("app:1")
       .container(test::make_container("side").image("absent:1"))
       .build(),
     test::make_node("n").image({"app:1"}, 600 * mib).build(),
     make_cluster(3, {{"app:1", 3}}), 29},
    {"init container images count",
     test::make_pod("p")
       .image("absent:1")
       .init_container(test::make_container("init").image("tools:1.0"))
       .build(),
     test::make_node("n").image({"tools:1.0"}, 300 * mib).build(),
     make_cluster(1, {{"tools:1.0", 1}}), 14},
    {"a duplicated image counts once per container",
     test::make_pod("p")
       .image("app:1")
       .container(test::make_container("twin").image("app:1"))
       .build(),
     test::make_node("n").image({"app:1"}, 300 * mib).build(),
     make_cluster(1, {{"app:1", 1}}), 29},
    {"untagged name with a registry port gets :latest",
     test::make_pod("p").image("registry.local:5000/team/app").build(),
     test::make_node("n")
       .image({"registry.local:5000/team/app:latest"}, 1000 * mib)
       .build(),
     make_cluster(1, {{"registry.local:5000/team/app:latest", 1}}), 100},
    {"any of the image's names matches",
     test::make_pod("p").image("app@sha256:abc").build(),
     test::make_node("n")
       .image({"app:1", "app@sha256:abc"}, 1000 * mib)
       .build(),
     make_cluster(1, {{"app@sha256:abc", 1}}), 100},
    {"a fractional contribution truncates toward zero",
     test::make_pod("p").image("odd:1").build(),
     test::make_node("n").image({"odd:1"}, 3 * 100 * mib + 2).build(),
     make_cluster(3, {{"odd:1", 1}}), 7},
  };
  image_locality plugin;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    cycle_state state{1};
    state.cluster = &tc.cluster;
    auto info = test::make_node_info(tc.node);
    EXPECT_EQ(plugin.score(state, *tc.pod, info), tc.want);
  }
}

TEST(image_locality, scaled_image_score) {
  struct test_case {
    std::string name;
    std::int64_t size;
    std::int32_t with_image;
    std::int64_t total;
    std::int64_t want;
  };
  const std::vector<test_case> cases = {
    {"on every node: the full size", 500 * mib, 7, 7, 500 * mib},
    {"on half the nodes", 500 * mib, 5, 10, 250 * mib},
    {"a third truncates toward zero", 1000, 1, 3, 333},
    {"two thirds truncates toward zero", 1000, 2, 3, 666},
    {"no node counted", 500 * mib, 0, 3, 0},
    {"no nodes in the cluster", 500 * mib, 1, 0, 0},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(
      image_locality::scaled_image_score(tc.size, tc.with_image, tc.total),
      tc.want);
  }
}

TEST(image_locality, score_without_cluster_facts_is_zero) {
  image_locality plugin;
  cycle_state state{1};
  auto pod = test::make_pod("p").image("cuda:12").build();
  auto info = test::make_node_info(
    test::make_node("n").image({"cuda:12"}, 3000 * mib).build());
  EXPECT_EQ(plugin.score(state, *pod, info), 0);
}

TEST(image_locality, through_the_profile) {
  auto prof = plugin_testing::one_plugin_profile(
    "ImageLocality", no_args_factory("ImageLocality", make_image_locality),
    {{config::extension_point::score, 1}});
  ASSERT_NE(prof, nullptr);
  EXPECT_TRUE(prof->events().empty());

  std::vector<model::node_info_ptr> nodes = {
    test::make_node_info_ptr(
      test::make_node("big").image({"ml:2"}, 2000 * mib).build()),
    test::make_node_info_ptr(test::make_node("none").build()),
    test::make_node_info_ptr(
      test::make_node("half").image({"ml:2"}, 1000 * mib).build()),
  };
  auto pod = test::make_pod("p").image("ml:2").build();
  auto cluster = make_cluster(3, {{"ml:2", 2}});
  auto start = begin_cycle(*prof, *pod, cluster);
  ASSERT_TRUE(start.pre_score_status.ok());
  auto shard = filter_and_score(*prof, start.state, *pod, nodes, 0, {});
  ASSERT_EQ(shard.feasible.size(), 3u);
  // big: 2000 MiB * 2/3 = 1333.3 MiB, clamped -> 100;
  // half: 1000 MiB * 2/3 = 666.6 MiB -> 100 * (666.6 - 23) / 977 = 65.
  EXPECT_EQ(shard.scores, (std::vector<std::int64_t>{100, 0, 65}));
  score_table table;
  table.nodes = shard.feasible;
  table.plugins = score_plan(*prof, start.state).local;
  table.scores = shard.scores;
  std::mt19937_64 rng{3};
  auto chosen = select_host(*prof, start.state, *pod, table, rng);
  ASSERT_TRUE(chosen);
  EXPECT_EQ(table.totals, (std::vector<std::int64_t>{100, 0, 65}));
  EXPECT_EQ(table.nodes[*chosen].view(), "big");
}

} // namespace tessera::plugins::image_locality_test
