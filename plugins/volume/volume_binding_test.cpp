// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/profile.hpp"
#include "plugins/framework/registry.hpp"
#include "plugins/volume/volume_binding.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::volume_binding_test {

// A no-op until tessera models PVs, PVCs and storage capacity: every point
// lets the pod through and Score never runs.
TEST(volume_binding, is_a_no_op) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
  };
  const std::vector<test_case> cases = {
    {"pod without volumes", test::make_pod("p").build()},
    {"pod with a persistent volume claim",
     test::make_pod("p").claim("data").build()},
  };
  volume_binding plugin{config::volume_binding_args{}};
  auto info = test::make_node_info(test::make_node("n").build());
  const model::symbol node{"n"};
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    cycle_state state;
    auto r = plugin.pre_filter(state, *tc.pod, cluster_context{});
    EXPECT_EQ(r.result.get_code(), code::skip);
    EXPECT_FALSE(r.nodes.has_value());
    EXPECT_TRUE(plugin.filter(state, *tc.pod, info).ok());
    EXPECT_EQ(plugin.pre_score(state, *tc.pod, cluster_context{}).get_code(),
              code::skip);
    EXPECT_EQ(plugin.score(state, *tc.pod, info), 0);
    EXPECT_TRUE(plugin.reserve(state, *tc.pod, node).ok());
    plugin.unreserve(state, *tc.pod, node);
    EXPECT_TRUE(plugin.pre_bind(state, *tc.pod, node).ok());
  }
  EXPECT_TRUE(plugin.events_to_register().empty());
}

TEST(volume_binding, keeps_its_args) {
  config::volume_binding_args args;
  args.bind_timeout_seconds = 30;
  volume_binding plugin{args};
  EXPECT_EQ(plugin.args().bind_timeout_seconds, 30);
  EXPECT_EQ(
    volume_binding{config::volume_binding_args{}}.args().bind_timeout_seconds,
    600);
}

// Enabled at every point multiPoint gives it upstream (score weight 1), the
// plugin builds into a profile and drops out of filtering and scoring.
TEST(volume_binding, in_a_profile) {
  registry reg;
  ASSERT_FALSE(reg.add(
    "VolumeBinding",
    [](const config::plugin_args& a) -> expected<std::shared_ptr<plugin>> {
      const auto* typed = std::get_if<config::volume_binding_args>(&a);
      return make_volume_binding(typed ? *typed
                                       : config::volume_binding_args{});
    }));
  config::profile_config cfg;
  cfg.plugins.pre_filter = {{"VolumeBinding", 0}};
  cfg.plugins.filter = {{"VolumeBinding", 0}};
  cfg.plugins.pre_score = {{"VolumeBinding", 0}};
  cfg.plugins.score = {{"VolumeBinding", 1}};
  cfg.plugins.reserve = {{"VolumeBinding", 0}};
  cfg.plugins.pre_bind = {{"VolumeBinding", 0}};
  cfg.plugin_config["VolumeBinding"] = config::volume_binding_args{};
  auto prof = profile::build(cfg, reg, 0);
  ASSERT_TRUE(prof) << prof.err().message;
  auto pod = test::make_pod("p").claim("data").build();
  auto start = begin_cycle(**prof, *pod, cluster_context{});
  ASSERT_TRUE(start.pre_filter_status.ok());
  ASSERT_TRUE(start.pre_score_status.ok());
  const auto slot = (*prof)->find("VolumeBinding")->slot();
  EXPECT_TRUE(start.state.skip_filter.test(slot));
  EXPECT_TRUE(start.state.skip_score.test(slot));
  EXPECT_FALSE(score_plan(**prof, start.state).any());
}

} // namespace tessera::plugins::volume_binding_test
