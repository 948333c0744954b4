// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/dynamic_resources/dynamic_resources.hpp"
#include "test/support/builders.hpp"
#include "test/support/plugin_cases.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::dynamic_resources_test {

TEST(dynamic_resources, pre_filter) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    code want_code;
    std::string want_message;
  };
  const std::vector<test_case> cases = {
    {"no claims: skip", test::make_pod("p").cpu("1").build(), code::skip, ""},
    {"a claim is refused",
     test::make_pod("p").resource_claim("gpu", "shared-gpu").build(),
     code::unschedulable_and_unresolvable,
     "pod has resource claim \"gpu\" (ResourceClaim \"shared-gpu\"): tessera "
     "does not allocate dynamic resources yet"},
    {"every claim is named",
     test::make_pod("p")
       .resource_claim("gpu", "shared-gpu")
       .resource_claim("nic", "fast-nic", true)
       .build(),
     code::unschedulable_and_unresolvable,
     "pod has resource claim \"gpu\" (ResourceClaim \"shared-gpu\"), \"nic\" "
     "(ResourceClaimTemplate \"fast-nic\"): tessera does not allocate dynamic "
     "resources yet"},
  };
  dynamic_resources plugin;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    cycle_state state;
    auto r = plugin.pre_filter(state, *tc.pod, cluster_context{});
    test::expect_status(r.result, tc.want_code, tc.want_message);
    EXPECT_FALSE(r.nodes.has_value());
  }
}

TEST(dynamic_resources, name_factory_and_no_events) {
  auto p = make_dynamic_resources();
  EXPECT_EQ(p->name(), "DynamicResources");
  EXPECT_NE(dynamic_cast<const pre_filter_plugin*>(p.get()), nullptr);
  EXPECT_EQ(dynamic_cast<const filter_plugin*>(p.get()), nullptr);
  EXPECT_TRUE(p->events_to_register().empty())
    << "a pod's claims are immutable: no event can help";
}

} // namespace tessera::plugins::dynamic_resources_test
