// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/node_info.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/node_declared_features/node_declared_features.hpp"
#include "test/support/builders.hpp"
#include "test/support/plugin_cases.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace tessera::plugins::node_declared_features_test {

constexpr const char* restart_all = "RestartAllContainersOnContainerExits";
constexpr const char* userns_host_network = "UserNamespacesHostNetworkSupport";
constexpr const char* reason = "node(s) didn't match Pod's required features";

model::pod_ptr restarting_pod(std::string name) {
  return test::make_pod(std::move(name))
    .container(test::make_container("worker").restart_all_containers())
    .build();
}

model::pod_ptr userns_host_network_pod(std::string name) {
  return test::make_pod(std::move(name))
    .host_network()
    .host_users(false)
    .build();
}

TEST(node_declared_features, required_features) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    std::vector<std::string> want;
  };
  const std::vector<test_case> cases = {
    {"plain pod needs nothing", test::make_pod("p").build(), {}},
    {"restart rule on a container", restarting_pod("p"), {restart_all}},
    {"restart rule on an init container",
     test::make_pod("p")
       .init_container(test::make_container("init").restart_all_containers())
       .build(),
     {restart_all}},
    {"restart rule on a sidecar",
     test::make_pod("p")
       .sidecar(test::make_container("proxy").restart_all_containers())
       .build(),
     {restart_all}},
    {"host network in its own user namespace",
     userns_host_network_pod("p"),
     {userns_host_network}},
    {"host network sharing the host's users",
     test::make_pod("p").host_network().build(),
     {}},
    {"own user namespace without host network",
     test::make_pod("p").host_users(false).build(),
     {}},
    {"both",
     test::make_pod("p")
       .host_network()
       .host_users(false)
       .container(test::make_container("worker").restart_all_containers())
       .build(),
     {restart_all, userns_host_network}},
  };
  node_declared_features plugin;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    // The plugin keeps intern order, as nodes keep their declared features.
    std::vector<model::symbol> want(tc.want.begin(), tc.want.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(plugin.required_features(*tc.pod), want);
  }
}

TEST(node_declared_features, pre_filter) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    code want;
  };
  const std::vector<test_case> cases = {
    {"pod needing no feature skips", test::make_pod("p").build(), code::skip},
    {"host network alone skips", test::make_pod("p").host_network().build(),
     code::skip},
    {"restart rule runs the filter", restarting_pod("p"), code::success},
    {"user-namespaced host network runs the filter",
     userns_host_network_pod("p"), code::success},
  };
  node_declared_features plugin;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    cycle_state state(1);
    auto r = plugin.pre_filter(state, *tc.pod, cluster_context{});
    EXPECT_EQ(r.result.get_code(), tc.want);
    EXPECT_FALSE(r.nodes.has_value());
  }
}

TEST(node_declared_features, filter) {
  auto node = [](std::vector<std::string> features) {
    auto b = test::make_node("n");
    for (const auto& f : features)
      b.declared_feature(f);
    return b.build();
  };
  const std::vector<test::filter_case> cases = {
    {"node declares the feature", restarting_pod("p"), node({restart_all}),
     code::success, ""},
    {"node declares a superset", restarting_pod("p"),
     node({"GuaranteedQoSPodCPUResize", restart_all, userns_host_network}),
     code::success, ""},
    {"node declares other features", restarting_pod("p"),
     node({"GuaranteedQoSPodCPUResize"}), code::unschedulable_and_unresolvable,
     reason},
    {"node declares no features", restarting_pod("p"), node({}),
     code::unschedulable_and_unresolvable, reason},
    {"pod needs two, node declares one",
     test::make_pod("p")
       .host_network()
       .host_users(false)
       .container(test::make_container("worker").restart_all_containers())
       .build(),
     node({userns_host_network}), code::unschedulable_and_unresolvable, reason},
    {"pod needs two, node declares both",
     test::make_pod("p")
       .host_network()
       .host_users(false)
       .container(test::make_container("worker").restart_all_containers())
       .build(),
     node({userns_host_network, restart_all}), code::success, ""},
    {"placeholder node without a node object", restarting_pod("p"), nullptr,
     code::unschedulable_and_unresolvable, reason},
  };
  node_declared_features plugin;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto info = test::make_node_info(tc.node);
    // Through PreFilter, as a cycle runs it, and without its record, as a
    // filter re-run outside a cycle does: both give the same answer.
    cycle_state state(1);
    auto pre = plugin.pre_filter(state, *tc.pod, cluster_context{});
    ASSERT_EQ(pre.result.get_code(), code::success);
    test::expect_status(plugin.filter(state, *tc.pod, info), tc.want_code,
                        tc.want_message);
    auto without_record = plugin.filter(cycle_state(1), *tc.pod, info);
    EXPECT_EQ(without_record.get_code(), tc.want_code);
  }
}

TEST(node_declared_features, node_hint) {
  node_declared_features plugin;
  auto events = plugin.events_to_register();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].event.label(), "NodeAdd|UpdateNodeDeclaredFeature");
  auto pod = restarting_pod("p");
  auto bare = test::make_node("n").build();
  auto declaring = test::make_node("n").declared_feature(restart_all).build();
  auto relabelled = test::make_node("n")
                      .declared_feature(restart_all)
                      .label("team", "a")
                      .build();
  plugin_testing::expect_hints<model::node_ptr>(
    events[0].hint, *pod,
    {
      {"node added", nullptr, bare, queueing_hint::queue},
      {"feature declared", bare, declaring, queueing_hint::queue},
      {"feature withdrawn", declaring, bare, queueing_hint::queue},
      {"declared features unchanged", declaring, relabelled,
       queueing_hint::skip},
    });
}

TEST(node_declared_features, pod_update_hint) {
  node_declared_features plugin;
  auto events = plugin.events_to_register();
  ASSERT_EQ(events.size(), 2u);
  auto waiting = userns_host_network_pod("w");
  plugin_testing::expect_hints<model::pod_ptr>(
    events[1].hint, *waiting,
    {
      {"waiting pod no longer needs the feature", waiting,
       test::make_pod("w").host_network().build(), queueing_hint::queue},
      {"waiting pod relabelled", waiting,
       test::make_pod("w")
         .host_network()
         .host_users(false)
         .label("a", "b")
         .build(),
       queueing_hint::skip},
      {"another pod changed", userns_host_network_pod("other"),
       test::make_pod("other").build(), queueing_hint::skip},
    });
}

TEST(node_declared_features, name_and_factory) {
  auto p = make_node_declared_features();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->name(), "NodeDeclaredFeatures");
  EXPECT_NE(dynamic_cast<pre_filter_plugin*>(p.get()), nullptr);
  EXPECT_NE(dynamic_cast<filter_plugin*>(p.get()), nullptr);
}

} // namespace tessera::plugins::node_declared_features_test
