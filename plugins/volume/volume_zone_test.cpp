// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/profile.hpp"
#include "plugins/framework/registry.hpp"
#include "plugins/volume/volume_zone.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::volume_zone_test {

// A no-op until tessera models PVs, PVCs and CSI: pods with or without
// claims pass every node.
TEST(volume_zone, is_a_no_op) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
  };
  const std::vector<test_case> cases = {
    {"pod without volumes", test::make_pod("p").build()},
    {"pod with persistent volume claims",
     test::make_pod("p").claim("data").claim("logs").build()},
  };
  volume_zone plugin;
  auto info = test::make_node_info(test::make_node("n").zone("a").build());
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    cycle_state state;
    auto r = plugin.pre_filter(state, *tc.pod, cluster_context{});
    EXPECT_EQ(r.result.get_code(), code::skip);
    EXPECT_FALSE(r.nodes.has_value());
    EXPECT_TRUE(plugin.filter(state, *tc.pod, info).ok());
  }
  EXPECT_TRUE(plugin.events_to_register().empty());
  EXPECT_FALSE(plugin.has_extensions());
}

TEST(volume_zone, in_a_profile) {
  registry reg;
  ASSERT_FALSE(reg.add(
    "VolumeZone",
    [](const config::plugin_args&) -> expected<std::shared_ptr<plugin>> {
      return make_volume_zone();
    }));
  config::profile_config cfg;
  cfg.plugins.pre_filter = {{"VolumeZone", 0}};
  cfg.plugins.filter = {{"VolumeZone", 0}};
  auto prof = profile::build(cfg, reg, 0);
  ASSERT_TRUE(prof) << prof.err().message;
  auto pod = test::make_pod("p").claim("data").build();
  auto start = begin_cycle(**prof, *pod, cluster_context{});
  ASSERT_TRUE(start.pre_filter_status.ok());
  EXPECT_TRUE(
    start.state.skip_filter.test((*prof)->find("VolumeZone")->slot()));
  std::vector<model::node_info_ptr> nodes = {
    test::make_node_info_ptr(test::make_node("a").build()),
    test::make_node_info_ptr(test::make_node("b").build()),
  };
  auto shard = filter_and_score(**prof, start.state, *pod, nodes, 0, {});
  EXPECT_EQ(shard.feasible.size(), 2u);
  EXPECT_TRUE(shard.failures.empty());
}

} // namespace tessera::plugins::volume_zone_test
