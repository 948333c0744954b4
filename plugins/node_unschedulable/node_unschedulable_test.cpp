// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/node_unschedulable/node_unschedulable.hpp"
#include "test/support/builders.hpp"
#include "test/support/plugin_cases.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::node_unschedulable_test {

constexpr const char* key = "node.kubernetes.io/unschedulable";

TEST(node_unschedulable, filter) {
  auto plain = test::make_pod("p").build();
  const std::vector<test::filter_case> cases = {
    {"schedulable node", plain, test::make_node("n").build(), code::success,
     ""},
    {"cordoned node rejects a plain pod", plain,
     test::make_node("n").unschedulable().build(),
     code::unschedulable_and_unresolvable, "node(s) were unschedulable"},
    {"Exists toleration on the key with NoSchedule",
     test::make_pod("p").toleration_exists(key, "NoSchedule").build(),
     test::make_node("n").unschedulable().build(), code::success, ""},
    {"Exists toleration on the key with any effect",
     test::make_pod("p").toleration_exists(key).build(),
     test::make_node("n").unschedulable().build(), code::success, ""},
    {"Equal toleration with the empty value",
     test::make_pod("p").toleration(key, "", "NoSchedule").build(),
     test::make_node("n").unschedulable().build(), code::success, ""},
    {"Equal toleration with another value does not tolerate",
     test::make_pod("p").toleration(key, "yes", "NoSchedule").build(),
     test::make_node("n").unschedulable().build(),
     code::unschedulable_and_unresolvable, "node(s) were unschedulable"},
    {"toleration for NoExecute only does not tolerate",
     test::make_pod("p").toleration_exists(key, "NoExecute").build(),
     test::make_node("n").unschedulable().build(),
     code::unschedulable_and_unresolvable, "node(s) were unschedulable"},
    {"tolerate-everything toleration",
     test::make_pod("p").toleration_exists("").build(),
     test::make_node("n").unschedulable().build(), code::success, ""},
    {"toleration for another key does not tolerate",
     test::make_pod("p").toleration_exists("other", "NoSchedule").build(),
     test::make_node("n").unschedulable().build(),
     code::unschedulable_and_unresolvable, "node(s) were unschedulable"},
    {"the taint itself is not what the filter checks", plain,
     test::make_node("n").taint(key, "", "NoSchedule").build(), code::success,
     ""},
  };
  node_unschedulable plugin;
  cycle_state state;
  test::expect_filter(plugin, state, cases);
}

TEST(node_unschedulable, node_hint) {
  node_unschedulable plugin;
  auto events = plugin.events_to_register();
  ASSERT_EQ(events.size(), 2u);
  auto pod = test::make_pod("p").build();
  auto cordoned = test::make_node("n").unschedulable().build();
  auto open = test::make_node("n").build();
  plugin_testing::expect_hints<model::node_ptr>(
    events[0].hint, *pod,
    {
      {"added schedulable", nullptr, open, queueing_hint::queue},
      {"added cordoned", nullptr, cordoned, queueing_hint::skip},
      {"uncordoned", cordoned, open, queueing_hint::queue},
      {"cordoned", open, cordoned, queueing_hint::skip},
      {"stays schedulable", open, open, queueing_hint::skip},
      {"stays cordoned", cordoned, cordoned, queueing_hint::skip},
    });
}

TEST(node_unschedulable, pod_toleration_hint) {
  node_unschedulable plugin;
  auto events = plugin.events_to_register();
  ASSERT_EQ(events.size(), 2u);
  auto waiting = test::make_pod("w").build();
  plugin_testing::expect_hints<model::pod_ptr>(
    events[1].hint, *waiting,
    {
      {"waiting pod now tolerates the unschedulable taint", waiting,
       test::make_pod("w").toleration_exists(key, "NoSchedule").build(),
       queueing_hint::queue},
      {"waiting pod gained an unrelated toleration", waiting,
       test::make_pod("w").toleration_exists("gpu", "NoSchedule").build(),
       queueing_hint::skip},
      {"another pod tolerates the taint", waiting,
       test::make_pod("other").toleration_exists(key, "NoSchedule").build(),
       queueing_hint::skip},
    });
}

TEST(node_unschedulable, name_and_factory) {
  auto p = make_node_unschedulable();
  EXPECT_EQ(p->name(), "NodeUnschedulable");
  EXPECT_NE(dynamic_cast<const filter_plugin*>(p.get()), nullptr);
}

} // namespace tessera::plugins::node_unschedulable_test
