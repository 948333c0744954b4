// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/framework/profile.hpp"
#include "plugins/framework/registry.hpp"
#include "plugins/node_ports/node_ports.hpp"
#include "test/support/builders.hpp"
#include "test/support/plugin_cases.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::node_ports_test {

constexpr const char* ports_reason
  = "node(s) didn't have free ports for the requested pod ports";

TEST(node_ports, pre_filter) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    code want;
  };
  const std::vector<test_case> cases = {
    {"no ports skips", test::make_pod("p").build(), code::skip},
    {"host port runs the filter", test::make_pod("p").host_port(80).build(),
     code::success},
    {"sidecar host port runs the filter",
     test::make_pod("p")
       .sidecar(test::make_container("proxy").host_port(15001))
       .build(),
     code::success},
    {"ordinary init container ports do not count",
     test::make_pod("p")
       .init_container(test::make_container("init").host_port(80))
       .build(),
     code::skip},
  };
  node_ports plugin;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    cycle_state state;
    auto r = plugin.pre_filter(state, *tc.pod, cluster_context{});
    EXPECT_EQ(r.result.get_code(), tc.want);
    EXPECT_FALSE(r.nodes.has_value());
  }
}

TEST(node_ports, filter) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    std::vector<model::pod_ptr> existing;
    code want_code;
    std::string want_message;
  };
  auto on_node = [](std::string name) {
    return test::make_pod(std::move(name)).node("n");
  };
  const std::vector<test_case> cases = {
    {"empty node",
     test::make_pod("p").host_port(80).build(),
     {},
     code::success,
     ""},
    {"same port, protocol and wildcard IP",
     test::make_pod("p").host_port(80).build(),
     {on_node("e").host_port(80).build()},
     code::unschedulable,
     ports_reason},
    {"same port, other protocol",
     test::make_pod("p").host_port(53, "UDP").build(),
     {on_node("e").host_port(53, "TCP").build()},
     code::success,
     ""},
    {"other port",
     test::make_pod("p").host_port(8080).build(),
     {on_node("e").host_port(80).build()},
     code::success,
     ""},
    {"specific IP against an existing wildcard",
     test::make_pod("p").host_port(80, "TCP", "127.0.0.1").build(),
     {on_node("e").host_port(80).build()},
     code::unschedulable,
     ports_reason},
    {"wildcard against an existing specific IP",
     test::make_pod("p").host_port(80).build(),
     {on_node("e").host_port(80, "TCP", "10.0.0.1").build()},
     code::unschedulable,
     ports_reason},
    {"two different specific IPs",
     test::make_pod("p").host_port(80, "TCP", "10.0.0.2").build(),
     {on_node("e").host_port(80, "TCP", "10.0.0.1").build()},
     code::success,
     ""},
    {"the same specific IP",
     test::make_pod("p").host_port(80, "TCP", "10.0.0.1").build(),
     {on_node("e").host_port(80, "TCP", "10.0.0.1").build()},
     code::unschedulable,
     ports_reason},
    {"one of several wanted ports is taken",
     test::make_pod("p").host_port(80).host_port(443).build(),
     {on_node("e").host_port(443).build()},
     code::unschedulable,
     ports_reason},
    {"the pod's sidecar port is taken",
     test::make_pod("p")
       .sidecar(test::make_container("proxy").host_port(15001))
       .build(),
     {on_node("e").host_port(15001).build()},
     code::unschedulable,
     ports_reason},
    {"an existing pod's sidecar holds its port",
     test::make_pod("p").host_port(9000).build(),
     {on_node("e")
        .sidecar(test::make_container("proxy").host_port(9000))
        .build()},
     code::unschedulable,
     ports_reason},
  };
  node_ports plugin;
  cycle_state state;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto info = test::make_node_info(test::make_node("n").build(), tc.existing);
    test::expect_status(plugin.filter(state, *tc.pod, info), tc.want_code,
                        tc.want_message);
  }
}

TEST(node_ports, pod_deleted_hint) {
  node_ports plugin;
  auto events = plugin.events_to_register();
  ASSERT_EQ(events.size(), 2u);

  auto waiting = test::make_pod("w").host_port(80).build();
  struct test_case {
    std::string name;
    model::pod_ptr deleted;
    queueing_hint want;
  };
  const std::vector<test_case> cases = {
    {"assigned pod holding the port",
     test::make_pod("d").node("n").host_port(80).build(), queueing_hint::queue},
    {"nominated pod holding the port",
     test::make_pod("d").nominated_node("n").host_port(80).build(),
     queueing_hint::queue},
    {"unscheduled pod", test::make_pod("d").host_port(80).build(),
     queueing_hint::skip},
    {"assigned pod without host ports", test::make_pod("d").node("n").build(),
     queueing_hint::skip},
    {"assigned pod with another port",
     test::make_pod("d").node("n").host_port(81).build(), queueing_hint::skip},
    {"assigned pod with the port on another protocol",
     test::make_pod("d").node("n").host_port(80, "UDP").build(),
     queueing_hint::skip},
    {"assigned pod with the port on a specific IP",
     test::make_pod("d").node("n").host_port(80, "TCP", "10.1.1.1").build(),
     queueing_hint::queue},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    model::object gone{tc.deleted};
    EXPECT_EQ(events[0].hint(*waiting, &gone, nullptr), tc.want);
  }
}

TEST(node_ports, through_the_profile) {
  auto prof = plugin_testing::one_plugin_profile(
    "NodePorts", no_args_factory("NodePorts", make_node_ports),
    {{config::extension_point::pre_filter, 0},
     {config::extension_point::filter, 0}});
  ASSERT_NE(prof, nullptr);
  std::vector<model::node_info_ptr> nodes = {
    test::make_node_info_ptr(
      test::make_node("busy").build(),
      {test::make_pod("e").node("busy").host_port(8080).build()}),
    test::make_node_info_ptr(test::make_node("free").build()),
  };
  auto pod = test::make_pod("p").host_port(8080).build();
  auto start = begin_cycle(*prof, *pod, cluster_context{});
  ASSERT_TRUE(start.pre_filter_status.ok());
  auto shard = filter_and_score(*prof, start.state, *pod, nodes, 0, {});
  ASSERT_EQ(shard.failures.size(), 1u);
  EXPECT_EQ(shard.failures[0].node.view(), "busy");
  EXPECT_EQ(shard.failures[0].result.get_code(), code::unschedulable);
  EXPECT_EQ(shard.failures[0].result.message(), ports_reason);
  EXPECT_EQ(shard.failures[0].result.plugin(), "NodePorts");
  ASSERT_EQ(shard.feasible.size(), 1u);
  EXPECT_EQ(shard.feasible[0].view(), "free");

  // Without host ports the filter is skipped for the cycle.
  auto plain = test::make_pod("q").build();
  auto plain_start = begin_cycle(*prof, *plain, cluster_context{});
  EXPECT_TRUE(
    plain_start.state.skip_filter.test(prof->find("NodePorts")->slot()));
  auto all = filter_and_score(*prof, plain_start.state, *plain, nodes, 0, {});
  EXPECT_EQ(all.feasible.size(), 2u);
}

} // namespace tessera::plugins::node_ports_test
