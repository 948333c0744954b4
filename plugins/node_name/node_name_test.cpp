// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/node_name/node_name.hpp"
#include "test/support/builders.hpp"
#include "test/support/plugin_cases.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::node_name_test {

TEST(node_name, filter) {
  struct test_case {
    std::string name;
    std::string pod_node;
    std::string node;
    code want_code;
    std::string want_message;
  };
  const std::vector<test_case> cases = {
    {"no node name fits any node", "", "n1", code::success, ""},
    {"matching node name", "n1", "n1", code::success, ""},
    {"other node", "n1", "n2", code::unschedulable_and_unresolvable,
     "node(s) didn't match the requested node name"},
    {"names compare exactly", "n1", "N1", code::unschedulable_and_unresolvable,
     "node(s) didn't match the requested node name"},
  };
  node_name plugin;
  cycle_state state;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto b = test::make_pod("p");
    if (!tc.pod_node.empty())
      b.node(tc.pod_node);
    auto info = test::make_node_info(test::make_node(tc.node).build());
    test::expect_status(plugin.filter(state, b.build_value(), info),
                        tc.want_code, tc.want_message);
  }
}

TEST(node_name, name_and_factory) {
  auto p = make_node_name();
  EXPECT_EQ(p->name(), "NodeName");
  EXPECT_NE(dynamic_cast<const filter_plugin*>(p.get()), nullptr);
}

} // namespace tessera::plugins::node_name_test
