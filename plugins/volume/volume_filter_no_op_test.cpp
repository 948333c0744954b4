// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/profile.hpp"
#include "plugins/framework/registry.hpp"
#include "plugins/volume/volume_filter_no_op.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::volume_filter_no_op_test {

struct no_op_plugin {
  const char* name;
  std::shared_ptr<plugin> (*make)();
};

const std::vector<no_op_plugin>& no_op_plugins() {
  static const std::vector<no_op_plugin> all = {
    {"VolumeZone", make_volume_zone},
  };
  return all;
}

// No-ops until tessera models PVs, PVCs and CSI: pods with or without
// claims pass every node.
TEST(volume_filter_no_op, is_a_no_op) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
  };
  const std::vector<test_case> cases = {
    {"pod without volumes", test::make_pod("p").build()},
    {"pod with persistent volume claims",
     test::make_pod("p").claim("data").claim("logs").build()},
  };
  auto info = test::make_node_info(test::make_node("n").zone("a").build());
  for (const auto& np : no_op_plugins()) {
    SCOPED_TRACE(np.name);
    auto made = np.make();
    EXPECT_EQ(made->name(), np.name);
    const auto& pre = dynamic_cast<const pre_filter_plugin&>(*made);
    const auto& filter = dynamic_cast<const filter_plugin&>(*made);
    for (const auto& tc : cases) {
      SCOPED_TRACE(tc.name);
      cycle_state state;
      auto r = pre.pre_filter(state, *tc.pod, cluster_context{});
      EXPECT_EQ(r.result.get_code(), code::skip);
      EXPECT_FALSE(r.nodes.has_value());
      EXPECT_TRUE(filter.filter(state, *tc.pod, info).ok());
    }
    EXPECT_TRUE(made->events_to_register().empty());
    EXPECT_FALSE(pre.has_extensions());
  }
}

TEST(volume_filter_no_op, in_a_profile) {
  for (const auto& np : no_op_plugins()) {
    SCOPED_TRACE(np.name);
    registry reg;
    ASSERT_FALSE(
      reg.add(np.name,
              [make = np.make](const config::plugin_args&)
                -> expected<std::shared_ptr<plugin>> { return make(); }));
    config::profile_config cfg;
    cfg.plugins.pre_filter = {{np.name, 0}};
    cfg.plugins.filter = {{np.name, 0}};
    auto prof = profile::build(cfg, reg, 0);
    ASSERT_TRUE(prof) << prof.err().message;
    auto pod = test::make_pod("p").claim("data").build();
    auto start = begin_cycle(**prof, *pod, cluster_context{});
    ASSERT_TRUE(start.pre_filter_status.ok());
    EXPECT_TRUE(start.state.skip_filter.test((*prof)->find(np.name)->slot()));
    std::vector<model::node_info_ptr> nodes = {
      test::make_node_info_ptr(test::make_node("a").build()),
      test::make_node_info_ptr(test::make_node("b").build()),
    };
    auto shard = filter_and_score(**prof, start.state, *pod, nodes, 0, {});
    EXPECT_EQ(shard.feasible.size(), 2u);
    EXPECT_TRUE(shard.failures.empty());
  }
}

} // namespace tessera::plugins::volume_filter_no_op_test
