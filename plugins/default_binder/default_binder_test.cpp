// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/default_binder/default_binder.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/framework/registry.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::default_binder_test {

TEST(default_binder, accepts_every_pod) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    std::string node;
  };
  const std::vector<test_case> cases = {
    {"plain pod", test::make_pod("p").build(), "n1"},
    {"pod in another namespace", test::make_pod("q").ns("team").build(), "n2"},
    {"high-priority pod with a nominated node",
     test::make_pod("r").priority(1000).nominated_node("n3").build(), "n3"},
  };
  default_binder plugin;
  cycle_state state;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    status s = plugin.accepts(state, *tc.pod, model::symbol{tc.node});
    EXPECT_EQ(s.get_code(), code::success);
    EXPECT_EQ(s.message(), "");
  }
}

TEST(default_binder, in_a_profile) {
  auto prof = plugin_testing::one_plugin_profile(
    "DefaultBinder", no_args_factory("DefaultBinder", make_default_binder),
    {{config::extension_point::bind, 0}});
  ASSERT_NE(prof, nullptr);
  ASSERT_EQ(prof->bind().size(), 1u);
  EXPECT_EQ(prof->bind()[0]->name(), "DefaultBinder");
  EXPECT_TRUE(prof->events().empty());
}

} // namespace tessera::plugins::default_binder_test
