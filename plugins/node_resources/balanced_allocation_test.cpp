// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/node_resources/balanced_allocation.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessera::plugins {
namespace {

using test::make_node;
using test::make_node_info;
using test::make_pod;

config::node_resources_balanced_allocation_args
balanced_args(std::vector<config::resource_spec> resources
              = {{"cpu", 1}, {"memory", 1}}) {
  config::node_resources_balanced_allocation_args args;
  args.resources = std::move(resources);
  return args;
}

// The plugin bound to slot 0 of a one-slot cycle state.
struct balanced_under_test {
  explicit balanced_under_test(
    const config::node_resources_balanced_allocation_args& args)
    : owner(make_node_resources_balanced_allocation(args)),
      plugin(dynamic_cast<node_resources_balanced_allocation&>(*owner)) {
    owner->bind_context({0});
  }
  std::shared_ptr<tessera::plugins::plugin> owner;
  node_resources_balanced_allocation& plugin;
  cluster_context cluster;
};

TEST(node_resources_balanced_allocation, balance_of_fractions) {
  struct test_case {
    std::string name;
    std::vector<double> fractions;
    std::int64_t expected;
  };
  const std::vector<test_case> cases = {
    {"no resource", {}, 100},
    {"one resource has no deviation", {0.3}, 100},
    {"two equal", {0.4, 0.4}, 100},
    {"two: half their difference", {0.75, 0.5}, 87},
    {"two: extremes", {1, 0}, 50},
    // mean 0.25, population std sqrt(0.125 / 3) = 0.2041: 79.58 truncates.
    {"three: population standard deviation", {0.5, 0.25, 0}, 79},
    {"three equal", {0.6, 0.6, 0.6}, 100},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    EXPECT_EQ(node_resources_balanced_allocation::balance(tc.fractions),
              tc.expected);
  }
}

TEST(node_resources_balanced_allocation, score) {
  struct test_case {
    std::string name;
    config::node_resources_balanced_allocation_args args;
    model::pod_ptr pod;
    model::node_ptr node;
    std::vector<model::pod_ptr> existing;
    std::int64_t expected;
  };
  const auto with_gpu
    = balanced_args({{"cpu", 1}, {"memory", 1}, {"example.com/gpu", 1}});
  const auto gpu_node = make_node("n1")
                          .cpu("4")
                          .memory("4000")
                          .pods(110)
                          .capacity("example.com/gpu", "4")
                          .build();

  const std::vector<test_case> cases = {
    // With the pod 0.75 / 0.5 (balance 87), without 0 / 0 (100):
    // 50 + (50 + 87 - 100) / 2 = 68.
    {"empty node, the pod unbalances it",
     balanced_args(),
     make_pod("p").cpu("3").memory("5000").build(),
     make_node("n1").cpu("4").memory("10000").pods(110).build(),
     {},
     68},
    {"empty node, balance unchanged scores 75",
     balanced_args(),
     make_pod("p").cpu("3").memory("5000").build(),
     make_node("n1").cpu("6").memory("10000").pods(110).build(),
     {},
     75},
    // Without 0.5 / 0 (75), with 0.5 / 0.5 (100): 50 + (50 + 25) / 2 = 87.
    {"the pod improves the balance",
     balanced_args(),
     make_pod("p").memory("4000").build(),
     make_node("n1").cpu("4").memory("8000").pods(110).build(),
     {make_pod("a").cpu("2").memory("0").node("n1").build()},
     87},
    // Without 0.5 / 0.5 (100), with 1 (capped) / 0.5 (75): 62.
    {"the pod worsens the balance, usage capped at allocatable",
     balanced_args(),
     make_pod("p").cpu("6").build(),
     make_node("n1").cpu("4").memory("8000").pods(110).build(),
     {make_pod("a").cpu("2").memory("4000").node("n1").build()},
     62},
    {"balanced to fully unbalanced scores 50",
     balanced_args(),
     make_pod("p").cpu("4").build(),
     make_node("n1").cpu("4").memory("8000").pods(110).build(),
     {},
     50},
    {"fully unbalanced to balanced scores 100",
     balanced_args(),
     make_pod("p").memory("8000").build(),
     make_node("n1").cpu("4").memory("8000").pods(110).build(),
     {make_pod("a").cpu("4").memory("0").node("n1").build()},
     100},
    // Actual requests: the existing pod without requests counts nothing
    // (with the 100m / 200Mi scoring defaults it would count).
    {"no defaults for pods without requests",
     balanced_args(),
     make_pod("p").cpu("500m").memory("500").build(),
     make_node("n1").cpu("1").memory("1000").pods(110).build(),
     {make_pod("a").node("n1").build()},
     75},
    // Without 0.5 / 0.25 / 0 (79), with 0.5 / 0.25 / 0.25 (88): 50 + 59 / 2.
    {"a requested scalar takes part",
     with_gpu,
     make_pod("p").cpu("0").memory("0").request("example.com/gpu", "1").build(),
     gpu_node,
     {make_pod("a").cpu("2").memory("1000").node("n1").build()},
     79},
    // Only cpu and memory: without 0 / 0, with 0.75 / 0.5. Counting the
    // node's full gpu would give 88.
    {"a scalar the pod does not request is left out",
     with_gpu,
     make_pod("p").cpu("3").memory("2000").build(),
     gpu_node,
     {make_pod("a").request("example.com/gpu", "4").node("n1").build()},
     68},
    {"a scalar the node lacks is left out",
     with_gpu,
     make_pod("p")
       .cpu("3")
       .memory("2000")
       .request("example.com/gpu", "1")
       .build(),
     make_node("n1").cpu("4").memory("4000").pods(110).build(),
     {},
     68},
    {"a single resource is always balanced",
     balanced_args({{"cpu", 1}}),
     make_pod("p").cpu("3").build(),
     make_node("n1").cpu("4").memory("4000").pods(110).build(),
     {},
     75},
    {"weights are ignored",
     balanced_args({{"cpu", 50}, {"memory", 1}}),
     make_pod("p").cpu("3").memory("5000").build(),
     make_node("n1").cpu("4").memory("10000").pods(110).build(),
     {},
     68},
    // Without 0.25 / 0.25 / 0 (88), with 0.5 / 0.5 / 0.25 (88).
    {"ephemeral-storage counts its actual requests",
     balanced_args({{"cpu", 1}, {"memory", 1}, {"ephemeral-storage", 1}}),
     make_pod("p").cpu("1").memory("1000").ephemeral_storage("1000").build(),
     make_node("n1")
       .cpu("4")
       .memory("4000")
       .ephemeral_storage("4000")
       .pods(110)
       .build(),
     {make_pod("a").cpu("1").memory("1000").node("n1").build()},
     75},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    balanced_under_test t{tc.args};
    const auto node = make_node_info(tc.node, tc.existing);
    cycle_state state{1};
    ASSERT_TRUE(t.plugin.pre_score(state, *tc.pod, t.cluster).ok());
    const std::int64_t got = t.plugin.score(state, *tc.pod, node);
    EXPECT_EQ(got, tc.expected);
    EXPECT_GE(got, 0);
    EXPECT_LE(got, 100);
    // Without PreScore the plugin computes the requests itself.
    cycle_state fresh{1};
    EXPECT_EQ(t.plugin.score(fresh, *tc.pod, node), tc.expected);
  }
}

TEST(node_resources_balanced_allocation, skips_best_effort_pods) {
  struct test_case {
    std::string name;
    config::node_resources_balanced_allocation_args args;
    model::pod_ptr pod;
    code expected;
  };
  const std::vector<test_case> cases = {
    {"no requests at all", balanced_args(), make_pod("p").build(), code::skip},
    {"explicit zero requests", balanced_args(),
     make_pod("p").cpu("0").memory("0").build(), code::skip},
    {"requests only resources that are not configured", balanced_args(),
     make_pod("p").request("example.com/gpu", "1").build(), code::skip},
    {"a configured scalar counts",
     balanced_args({{"cpu", 1}, {"memory", 1}, {"example.com/gpu", 1}}),
     make_pod("p").request("example.com/gpu", "1").build(), code::success},
    {"memory only", balanced_args(), make_pod("p").memory("1Gi").build(),
     code::success},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    balanced_under_test t{tc.args};
    cycle_state state{1};
    EXPECT_EQ(t.plugin.pre_score(state, *tc.pod, t.cluster).get_code(),
              tc.expected);
  }
  // Scored without PreScore, a best-effort pod gets 0.
  balanced_under_test t{balanced_args()};
  cycle_state state{1};
  const auto node
    = make_node_info(make_node("n1").cpu("4").memory("4000").pods(110).build());
  EXPECT_EQ(t.plugin.score(state, *make_pod("p").build(), node), 0);
}

TEST(node_resources_balanced_allocation, has_no_events) {
  balanced_under_test t{balanced_args()};
  EXPECT_EQ(t.plugin.name(), "NodeResourcesBalancedAllocation");
  EXPECT_TRUE(t.plugin.events_to_register().empty());
  EXPECT_FALSE(t.plugin.has_normalize());
}

} // namespace
} // namespace tessera::plugins
