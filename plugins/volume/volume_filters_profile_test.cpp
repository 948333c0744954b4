// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/framework/profile.hpp"
#include "plugins/framework/registry.hpp"
#include "plugins/volume/test_storage.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::volume_filters_profile_test {

using plugin_testing::describe;
using volume_testing::claim_volume;
using volume_testing::storage_builder;
using volume_testing::with_volumes;

/// VolumeRestrictions, NodeVolumeLimits and VolumeZone from the in-tree
/// registry, in the default profile's order.
std::shared_ptr<const profile> volume_profile() {
  registry reg = make_in_tree_registry();
  config::profile_config cfg;
  for (const char* name :
       {"VolumeRestrictions", "NodeVolumeLimits", "VolumeZone"}) {
    cfg.plugins.pre_filter.push_back({name, 0});
    cfg.plugins.filter.push_back({name, 0});
  }
  auto prof = profile::build(cfg, reg, 0);
  EXPECT_TRUE(prof) << prof.err().message;
  return *prof;
}

// What the cache's assume check does with a cycle's state: node-local
// filters on the node's current pods, then the pods added elsewhere since
// the cycle replayed through AddPod before the whole chain runs again.
TEST(volume_filters_in_a_profile, assume_check_sees_pods_added_since) {
  const std::string ebs = "ebs.csi.aws.com";
  auto ctx
    = storage_builder{}
        .csi_node("a", {{ebs, 1}})
        .volume("pv-1", {ebs, "vol-1"}, {{"topology.kubernetes.io/zone", "z1"}})
        .volume("pv-2", {ebs, "vol-2"})
        .claim("solo", "pv-1", std::nullopt, model::read_write_once_pod)
        .claim("other", "pv-2")
        .context();
  auto prof = volume_profile();
  auto pod = with_volumes(test::make_pod("p"), {claim_volume("solo")});
  auto start = begin_cycle(*prof, *pod, ctx);
  ASSERT_TRUE(start.pre_filter_status.ok());
  auto a = test::make_node_info_ptr(test::make_node("a").zone("z1").build());
  auto b = test::make_node_info_ptr(test::make_node("b").zone("z2").build());
  std::vector<model::node_info_ptr> nodes = {a, b};
  auto shard = filter_and_score(*prof, start.state, *pod, nodes, 0, {});
  ASSERT_EQ(shard.feasible, std::vector<model::symbol>{a->name()});
  ASSERT_EQ(shard.failures.size(), 1u);
  EXPECT_EQ(describe(shard.failures.front().result),
            "UnschedulableAndUnresolvable: node(s) had no available volume "
            "zone");

  // Another cycle put a pod with the same ReadWriteOncePod claim on b.
  auto rival
    = with_volumes(test::make_pod("r").node("b"), {claim_volume("solo")});
  EXPECT_TRUE(prof->run_filters(start.state, *pod, *a, true).ok());
  cycle_state replay = start.state;
  ASSERT_TRUE(prof->run_add_pod(replay, *pod, *rival, *b).ok());
  EXPECT_EQ(describe(prof->run_filters(replay, *pod, *a)),
            "Unschedulable: node has pod using PersistentVolumeClaim with the "
            "same name and ReadWriteOncePod access mode");

  // Another cycle put a pod with a second EBS volume on a: over its limit.
  auto filler
    = with_volumes(test::make_pod("f").node("a"), {claim_volume("other")});
  auto a_now = test::make_node_info(a->node_pointer(), {filler});
  EXPECT_EQ(describe(prof->run_filters(start.state, *pod, a_now, true)),
            "Unschedulable: node(s) exceed max volume count");
}

} // namespace tessera::plugins::volume_filters_profile_test
