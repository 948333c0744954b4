// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/volume/test_storage.hpp"
#include "plugins/volume/volume_restrictions.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::volume_restrictions_test {

using plugin_testing::describe;
using volume_testing::claim_volume;
using volume_testing::disk;
using volume_testing::ephemeral_volume;
using volume_testing::storage_builder;
using volume_testing::with_volumes;

const std::string disk_reason = "Unschedulable: node(s) had no available disk";
const std::string rwop_reason
  = "Unschedulable: node has pod using PersistentVolumeClaim with the same "
    "name and ReadWriteOncePod access mode";

const std::vector<std::string> mon_ab = {"10.0.0.1", "10.0.0.2"};
const std::vector<std::string> mon_b = {"10.0.0.2"};
const std::vector<std::string> mon_c = {"10.0.0.3"};

TEST(volume_restrictions, disk_conflicts) {
  struct test_case {
    std::string name;
    std::vector<model::volume> wanted;
    std::vector<model::volume> on_node;
    std::string want;
  };
  const std::vector<test_case> cases = {
    {"no disk on the node", {disk("gcePersistentDisk", "pd1")}, {}, "Success"},
    {"gce pd in use read-write",
     {disk("gcePersistentDisk", "pd1")},
     {disk("gcePersistentDisk", "pd1")},
     disk_reason},
    {"gce pd read-only by both",
     {disk("gcePersistentDisk", "pd1", true)},
     {disk("gcePersistentDisk", "pd1", true)},
     "Success"},
    {"gce pd read-only by the new pod only",
     {disk("gcePersistentDisk", "pd1", true)},
     {disk("gcePersistentDisk", "pd1")},
     disk_reason},
    {"gce pd read-only by the existing pod only",
     {disk("gcePersistentDisk", "pd1")},
     {disk("gcePersistentDisk", "pd1", true)},
     disk_reason},
    {"another gce pd",
     {disk("gcePersistentDisk", "pd1")},
     {disk("gcePersistentDisk", "pd2")},
     "Success"},
    {"ebs volume in use, even read-only by both",
     {disk("awsElasticBlockStore", "vol-1", true)},
     {disk("awsElasticBlockStore", "vol-1", true)},
     disk_reason},
    {"another ebs volume",
     {disk("awsElasticBlockStore", "vol-1")},
     {disk("awsElasticBlockStore", "vol-2")},
     "Success"},
    {"iscsi iqn in use read-write",
     {disk("iscsi", "iqn.2026-01.io.example:t1")},
     {disk("iscsi", "iqn.2026-01.io.example:t1")},
     disk_reason},
    {"iscsi iqn read-only by both",
     {disk("iscsi", "iqn.2026-01.io.example:t1", true)},
     {disk("iscsi", "iqn.2026-01.io.example:t1", true)},
     "Success"},
    {"another iscsi iqn",
     {disk("iscsi", "iqn.2026-01.io.example:t1")},
     {disk("iscsi", "iqn.2026-01.io.example:t2")},
     "Success"},
    {"rbd image in use behind a shared monitor",
     {disk("rbd", "rbd/img", false, mon_ab)},
     {disk("rbd", "rbd/img", false, mon_b)},
     disk_reason},
    {"rbd image of the same name on other monitors",
     {disk("rbd", "rbd/img", false, mon_ab)},
     {disk("rbd", "rbd/img", false, mon_c)},
     "Success"},
    {"rbd image read-only by both",
     {disk("rbd", "rbd/img", true, mon_ab)},
     {disk("rbd", "rbd/img", true, mon_b)},
     "Success"},
    {"rbd image in another pool",
     {disk("rbd", "rbd/img", false, mon_ab)},
     {disk("rbd", "other/img", false, mon_b)},
     "Success"},
    {"same id under another source kind",
     {disk("gcePersistentDisk", "x")},
     {disk("awsElasticBlockStore", "x")},
     "Success"},
    {"second volume of the pod conflicts",
     {disk("gcePersistentDisk", "pd9"), disk("awsElasticBlockStore", "vol-1")},
     {claim_volume("data"), disk("awsElasticBlockStore", "vol-1")},
     disk_reason},
  };
  volume_restrictions plugin;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto pod = with_volumes(test::make_pod("p"), tc.wanted);
    auto other = with_volumes(test::make_pod("q").node("n"), tc.on_node);
    auto node = test::make_node_info(test::make_node("n").build(), {other});
    cycle_state state{1};
    auto pre = plugin.pre_filter(state, *pod, cluster_context{});
    ASSERT_EQ(describe(pre.result), "Success");
    EXPECT_EQ(describe(plugin.filter(state, *pod, node)), tc.want);
    // The hint for the existing pod's deletion agrees with the conflict.
    auto hint = plugin.events_to_register().front().hint;
    EXPECT_EQ(plugin_testing::hint_for(hint, *pod, other, model::pod_ptr{}),
              tc.want == "Success" ? queueing_hint::skip
                                   : queueing_hint::queue);
  }
}

TEST(volume_restrictions, pre_filter_and_read_write_once_pod) {
  const auto rwop = model::read_write_once_pod;
  const auto storage
    = storage_builder{}
        .claim("rwo", "pv1")
        .claim("rwop", "pv2", std::nullopt, rwop)
        .claim("rwop-used", "pv3", std::nullopt, rwop)
        .claim("rwop-used", "pv4", std::nullopt, rwop, "", "other")
        .users("rwo", 3)
        .users("rwop-used", 1);
  struct test_case {
    std::string name;
    std::vector<model::volume> volumes;
    std::string want_pre_filter;
    std::string want_filter;
  };
  const std::vector<test_case> cases = {
    {"no volumes", {}, "Skip: ", ""},
    {"read-write-once claim used elsewhere",
     {claim_volume("rwo")},
     "Skip: ",
     ""},
    {"missing claim",
     {claim_volume("rwo"), claim_volume("gone")},
     "UnschedulableAndUnresolvable: persistentvolumeclaim \"gone\" not found",
     ""},
    {"ephemeral volume is not looked up",
     {ephemeral_volume("p", "scratch")},
     "Skip: ",
     ""},
    {"unused read-write-once-pod claim",
     {claim_volume("rwop")},
     "Success",
     "Success"},
    {"read-write-once-pod claim in use",
     {claim_volume("rwop-used")},
     "Success",
     rwop_reason},
    {"claim named twice counts once",
     {claim_volume("rwop-used"), claim_volume("rwop-used", true)},
     "Success",
     rwop_reason},
    {"inline disk with an unused claim",
     {disk("gcePersistentDisk", "pd1"), claim_volume("rwop")},
     "Success",
     "Success"},
  };
  volume_restrictions plugin;
  auto ctx = storage.context();
  std::vector<model::node_info_ptr> nodes = {
    test::make_node_info_ptr(test::make_node("a").build()),
    test::make_node_info_ptr(test::make_node("b").build()),
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto pod = with_volumes(test::make_pod("p"), tc.volumes);
    cycle_state state{1};
    auto pre = plugin.pre_filter(state, *pod, ctx);
    EXPECT_FALSE(pre.nodes.has_value());
    EXPECT_EQ(describe(pre.result), tc.want_pre_filter);
    if (!pre.result.ok())
      continue;
    for (const auto& n : nodes)
      EXPECT_EQ(describe(plugin.filter(state, *pod, *n)), tc.want_filter);
  }
  // Without any storage object in the cluster, every claim is missing.
  cycle_state state{1};
  auto pod = with_volumes(test::make_pod("p"), {claim_volume("rwo")});
  EXPECT_EQ(describe(plugin.pre_filter(state, *pod, cluster_context{}).result),
            "UnschedulableAndUnresolvable: persistentvolumeclaim \"rwo\" not "
            "found");
}

// Preemption removes the claim's user; a nominated user adds one.
TEST(volume_restrictions, add_and_remove_pod) {
  const auto rwop = model::read_write_once_pod;
  auto ctx = storage_builder{}
               .claim("free", "pv1", std::nullopt, rwop)
               .claim("taken", "pv2", std::nullopt, rwop)
               .users("taken", 1)
               .context();
  auto user
    = with_volumes(test::make_pod("user").node("a"), {claim_volume("taken")});
  auto namesake = with_volumes(test::make_pod("user").ns("other").node("a"),
                               {claim_volume("taken")});
  auto free_user
    = with_volumes(test::make_pod("n").node("a"), {claim_volume("free")});
  auto unrelated
    = with_volumes(test::make_pod("u").node("a"), {claim_volume("else")});
  std::vector<model::node_info_ptr> nodes = {
    test::make_node_info_ptr(test::make_node("a").build(), {user}),
  };
  struct test_case {
    std::string name;
    std::string claim;
    std::vector<model::pod_ptr> added;
    std::vector<model::pod_ptr> removed;
    std::string want;
  };
  const std::vector<test_case> cases = {
    {"claim in use", "taken", {}, {}, rwop_reason},
    {"its user removed", "taken", {}, {user}, "Success"},
    {"a namesake of another namespace removed",
     "taken",
     {},
     {namesake},
     rwop_reason},
    {"an unrelated pod removed", "taken", {}, {unrelated}, rwop_reason},
    {"free claim", "free", {}, {}, "Success"},
    {"a nominated user of the free claim",
     "free",
     {free_user},
     {},
     rwop_reason},
    {"a namesake nominated", "taken", {namesake}, {user}, "Success"},
  };
  volume_restrictions plugin;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto pod = with_volumes(test::make_pod("p"), {claim_volume(tc.claim)});
    cycle_state state{1};
    ASSERT_TRUE(plugin.pre_filter(state, *pod, ctx).result.ok());
    auto got = plugin_testing::filter_after_extensions(
      plugin, state, *pod, nodes, tc.added, tc.removed);
    EXPECT_EQ(got, std::vector<std::string>{tc.want});
    // The cycle's own state is left as it was.
    EXPECT_EQ(
      plugin_testing::filter_all(plugin, state, *pod, nodes),
      std::vector<std::string>{tc.claim == "taken" ? rwop_reason : "Success"});
  }
  cycle_state empty{1};
  EXPECT_EQ(plugin.add_pod(empty, *user, *user, *nodes.front()).get_code(),
            code::error);
}

TEST(volume_restrictions, events_and_hints) {
  volume_restrictions plugin;
  EXPECT_FALSE(plugin.node_local());
  EXPECT_TRUE(plugin.has_extensions());
  using plugin_testing::registered_event;
  EXPECT_EQ(plugin_testing::registered_events(plugin),
            (std::vector<registered_event>{
              {event_resource::pod, action::remove, true},
              {event_resource::node, action::add, false},
              {event_resource::persistent_volume_claim, action::add, true},
            }));
  auto events = plugin.events_to_register();
  auto waiting
    = with_volumes(test::make_pod("w"),
                   {claim_volume("data"), disk("gcePersistentDisk", "pd1")});
  auto same_claim
    = with_volumes(test::make_pod("x").node("n"), {claim_volume("data")});
  auto claim_elsewhere = with_volumes(test::make_pod("x").ns("other").node("n"),
                                      {claim_volume("data")});
  auto other_claim
    = with_volumes(test::make_pod("x").node("n"), {claim_volume("logs")});
  auto same_disk_other_ns
    = with_volumes(test::make_pod("x").ns("other").node("n"),
                   {disk("gcePersistentDisk", "pd1")});
  plugin_testing::expect_hints<model::pod_ptr>(
    events[0].hint,
    {
      {"deleted pod used the claim", waiting, same_claim, nullptr,
       queueing_hint::queue},
      {"deleted pod used a namesake claim", waiting, claim_elsewhere, nullptr,
       queueing_hint::skip},
      {"deleted pod used another claim", waiting, other_claim, nullptr,
       queueing_hint::skip},
      {"deleted pod of another namespace held the disk", waiting,
       same_disk_other_ns, nullptr, queueing_hint::skip},
    });
  volume_testing::expect_claim_added_hints(events[2].hint, waiting);
}

} // namespace tessera::plugins::volume_restrictions_test
