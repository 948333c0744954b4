// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/scheduling_gates/scheduling_gates.hpp"
#include "test/support/builders.hpp"
#include "test/support/plugin_cases.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::scheduling_gates_test {

TEST(scheduling_gates, pre_enqueue) {
  struct test_case {
    std::string name;
    std::vector<std::string> gates;
    code want_code;
    std::string want_message;
  };
  const std::vector<test_case> cases = {
    {"no gates admits the pod", {}, code::success, ""},
    {"one gate",
     {"example.com/quota"},
     code::unschedulable_and_unresolvable,
     "waiting for scheduling gates: [example.com/quota]"},
    {"gates in spec order, space separated",
     {"b.io/second", "a.io/first", "c"},
     code::unschedulable_and_unresolvable,
     "waiting for scheduling gates: [b.io/second a.io/first c]"},
  };
  scheduling_gates plugin;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto b = test::make_pod("p");
    for (const auto& g : tc.gates)
      b.gate(g);
    test::expect_status(plugin.pre_enqueue(b.build_value()), tc.want_code,
                        tc.want_message);
  }
}

TEST(scheduling_gates, queueing_hint) {
  scheduling_gates plugin;
  auto events = plugin.events_to_register();
  ASSERT_EQ(events.size(), 1u);
  auto waiting = test::make_pod("gated").gate("g").build();
  plugin_testing::expect_hints<model::pod_ptr>(
    events[0].hint, *waiting,
    {
      {"the gated pod lost its gates", waiting, test::make_pod("gated").build(),
       queueing_hint::queue},
      {"another pod lost its gates", waiting, test::make_pod("other").build(),
       queueing_hint::skip},
      {"same name in another namespace", waiting,
       test::make_pod("gated").ns("elsewhere").build(), queueing_hint::skip},
    });
}

TEST(scheduling_gates, name_and_factory) {
  auto p = make_scheduling_gates();
  EXPECT_EQ(p->name(), "SchedulingGates");
  EXPECT_NE(dynamic_cast<const pre_enqueue_plugin*>(p.get()), nullptr);
}

} // namespace tessera::plugins::scheduling_gates_test
