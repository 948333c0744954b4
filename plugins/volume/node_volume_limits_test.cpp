// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/volume/node_volume_limits.hpp"
#include "plugins/volume/test_storage.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace tessera::plugins::node_volume_limits_test {

using plugin_testing::describe;
using volume_testing::claim_object;
using volume_testing::claim_volume;
using volume_testing::disk;
using volume_testing::ephemeral_volume;
using volume_testing::inline_attach;
using volume_testing::storage_builder;
using volume_testing::with_volumes;

const std::string ebs = "ebs.csi.aws.com";
const std::string pd = "pd.csi.storage.gke.io";
const std::string portworx = "pxd.portworx.com";
const std::string exceeded = "Unschedulable: node(s) exceed max volume count";

/// Node "n" allows two EBS volumes and any number of PD volumes; node "m"
/// has no CSINode; node "big" allows three EBS volumes.
storage_builder base_storage() {
  storage_builder b;
  b.csi_node("n", {{ebs, 2}, {pd, std::nullopt}, {portworx, 0}})
    .csi_node("big", {{ebs, 3}})
    .volume("pv-a", {ebs, "vol-a"})
    .volume("pv-b", {ebs, "vol-b"})
    .volume("pv-c", {ebs, "vol-c"})
    .volume("pv-local", {})
    .volume("pv-pd", {pd, "disk-1"})
    .storage_class("gp", ebs)
    .storage_class("in-tree", "kubernetes.io/aws-ebs")
    .storage_class("vsphere", "kubernetes.io/vsphere-volume")
    .storage_class("portworx", "kubernetes.io/portworx-volume")
    .claim("a", "pv-a")
    .claim("b", "pv-b")
    .claim("c", "pv-c")
    .claim("local", "pv-local")
    .claim("pd", "pv-pd")
    .claim("unbound", "", "gp")
    .claim("unbound-in-tree", "", "in-tree")
    .claim("unbound-vsphere", "", "vsphere")
    .claim("unbound-portworx", "", "portworx")
    .claim("unbound-no-class")
    .claim("unbound-missing-class", "", "nope")
    .claim("volume-gone", "pv-gone", "gp")
    .claim("p-scratch", "", "gp", model::read_write_once, "uid-default-p")
    .claim("p-stolen", "", "gp", model::read_write_once, "uid-default-q");
  return b;
}

TEST(node_volume_limits, filter) {
  struct test_case {
    std::string name;
    std::vector<model::volume> wanted;
    std::vector<std::vector<model::volume>> on_node;
    std::vector<std::pair<std::string, std::string>> attachments;
    std::string want;
    std::string node = "n";
  };
  const std::vector<test_case> cases = {
    {"within the limit",
     {claim_volume("b")},
     {{claim_volume("a")}},
     {},
     "Success"},
    {"over the limit",
     {claim_volume("c")},
     {{claim_volume("a")}, {claim_volume("b")}},
     {},
     exceeded},
    {"a volume already on the node takes no slot",
     {claim_volume("a")},
     {{claim_volume("a")}, {claim_volume("b")}},
     {},
     "Success"},
    {"a claim named twice counts once",
     {claim_volume("b"), claim_volume("b", true)},
     {{claim_volume("a")}},
     {},
     "Success"},
    {"volume nothing attaches",
     {claim_volume("local")},
     {{claim_volume("a"), claim_volume("b")}},
     {},
     "Success"},
    {"driver without a count",
     {claim_volume("pd")},
     {{claim_volume("a"), claim_volume("b")}},
     {},
     "Success"},
    {"node without a CSINode",
     {claim_volume("c")},
     {{claim_volume("a"), claim_volume("b")}},
     {},
     "Success",
     "m"},
    {"a node allowing more than the smallest limit is checked by its own",
     {claim_volume("c")},
     {{claim_volume("a")}, {claim_volume("b")}},
     {},
     "Success",
     "big"},
    {"and rejects past it",
     {claim_volume("c")},
     {{claim_volume("a")}, {claim_volume("b")}},
     {{ebs, "vol-x"}},
     exceeded,
     "big"},
    {"an attachment takes a slot",
     {claim_volume("c")},
     {{claim_volume("a")}},
     {{ebs, "vol-x"}},
     exceeded},
    {"an attachment of a volume in use counts once",
     {claim_volume("b")},
     {{claim_volume("a")}},
     {{ebs, "vol-a"}},
     "Success"},
    {"unbound claim counts under its provisioner",
     {claim_volume("unbound")},
     {{claim_volume("a"), claim_volume("b")}},
     {},
     exceeded},
    {"unbound claim of a migrated in-tree provisioner",
     {claim_volume("unbound-in-tree")},
     {{claim_volume("a"), claim_volume("b")}},
     {},
     exceeded},
    {"unbound claim of Portworx counts under its CSI driver",
     {claim_volume("unbound-portworx")},
     {},
     {},
     exceeded},
    {"unbound claim of an in-tree provisioner not migrated",
     {claim_volume("unbound-vsphere")},
     {{claim_volume("a"), claim_volume("b")}},
     {},
     "Success"},
    {"unbound claim without a class",
     {claim_volume("unbound-no-class")},
     {{claim_volume("a"), claim_volume("b")}},
     {},
     "Success"},
    {"unbound claim of a missing class",
     {claim_volume("unbound-missing-class")},
     {{claim_volume("a"), claim_volume("b")}},
     {},
     "Success"},
    {"claim whose volume is gone counts under its class",
     {claim_volume("volume-gone")},
     {{claim_volume("a"), claim_volume("b")}},
     {},
     exceeded},
    {"unbound claim shared with a pod on the node",
     {claim_volume("unbound"), claim_volume("b")},
     {{claim_volume("unbound")}},
     {},
     "Success"},
    {"generic ephemeral volume",
     {ephemeral_volume("p", "scratch")},
     {{claim_volume("a"), claim_volume("b")}},
     {},
     exceeded},
    {"inline in-tree source",
     {inline_attach("awsElasticBlockStore", ebs, "vol-z")},
     {{claim_volume("a"), claim_volume("b")}},
     {},
     exceeded},
    {"inline source already on the node",
     {inline_attach("awsElasticBlockStore", ebs, "vol-z")},
     {{claim_volume("a"), inline_attach("awsElasticBlockStore", ebs, "vol-z")}},
     {},
     "Success"},
    {"missing claim of the new pod",
     {claim_volume("gone")},
     {},
     {},
     "UnschedulableAndUnresolvable: looking up PVC default/gone: "
     "persistentvolumeclaim \"gone\" not found"},
    {"missing claim of a pod on the node is not counted",
     {claim_volume("b")},
     {{claim_volume("gone"), claim_volume("a")}},
     {},
     "Success"},
    {"ephemeral claim the pod does not own",
     {ephemeral_volume("p", "stolen")},
     {},
     {},
     "Error: PVC default/p-stolen was not created for pod default/p (pod is "
     "not owner)"},
  };
  node_volume_limits plugin;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto storage = base_storage();
    for (const auto& [driver, handle] : tc.attachments)
      storage.attachment(tc.node, driver, handle);
    auto ctx = storage.context();
    auto pod = with_volumes(test::make_pod("p"), tc.wanted);
    std::vector<model::pod_ptr> others;
    for (std::size_t i = 0; i < tc.on_node.size(); ++i)
      others.push_back(
        with_volumes(test::make_pod("other-" + std::to_string(i)).node(tc.node),
                     tc.on_node[i]));
    auto node = test::make_node_info(test::make_node(tc.node).build(), others);
    cycle_state state{1};
    ASSERT_EQ(describe(plugin.pre_filter(state, *pod, ctx).result), "Success");
    EXPECT_EQ(describe(plugin.filter(state, *pod, node)), tc.want);
  }
}

TEST(node_volume_limits, pre_filter) {
  model::volume empty_dir;
  empty_dir.name = "tmp";
  empty_dir.type = "emptyDir";
  struct test_case {
    std::string name;
    std::vector<model::volume> volumes;
    code want;
  };
  const std::vector<test_case> cases = {
    {"no volumes", {}, code::skip},
    {"emptyDir", {empty_dir}, code::skip},
    {"inline disk nothing attaches", {disk("iscsi", "iqn.x")}, code::skip},
    {"claim, even a missing one", {claim_volume("gone")}, code::success},
    {"generic ephemeral volume", {ephemeral_volume("p", "s")}, code::success},
    {"inline in-tree source",
     {inline_attach("gcePersistentDisk", pd, "disk-2")},
     code::success},
  };
  node_volume_limits plugin;
  EXPECT_TRUE(plugin.node_local());
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto pod = with_volumes(test::make_pod("p"), tc.volumes);
    cycle_state state{1};
    auto r = plugin.pre_filter(state, *pod, cluster_context{});
    EXPECT_EQ(r.result.get_code(), tc.want);
    EXPECT_FALSE(r.nodes.has_value());
  }
}

// The cache re-runs the node-local Filter on the node's current pods with
// the cycle's state: a pod assumed there since the cycle began is counted.
TEST(node_volume_limits, rerun_on_current_pods) {
  node_volume_limits plugin;
  auto ctx = base_storage().context();
  auto pod = with_volumes(test::make_pod("p"), {claim_volume("c")});
  cycle_state state{1};
  ASSERT_TRUE(plugin.pre_filter(state, *pod, ctx).result.ok());
  auto first = with_volumes(test::make_pod("x").node("n"), {claim_volume("a")});
  auto second
    = with_volumes(test::make_pod("y").node("n"), {claim_volume("b")});
  auto seen = test::make_node_info(test::make_node("n").build(), {first});
  auto now
    = test::make_node_info(test::make_node("n").build(), {first, second});
  EXPECT_EQ(describe(plugin.filter(state, *pod, seen)), "Success");
  EXPECT_EQ(describe(plugin.filter(state, *pod, now)), exceeded);
}

TEST(node_volume_limits, events_and_hints) {
  node_volume_limits plugin;
  using plugin_testing::registered_event;
  EXPECT_EQ(plugin_testing::registered_events(plugin),
            (std::vector<registered_event>{
              {event_resource::csi_node, action::add, false},
              {event_resource::csi_node, action::update, true},
              {event_resource::pod, action::remove, true},
              {event_resource::persistent_volume_claim, action::add, true},
              {event_resource::volume_attachment, action::remove, true},
            }));
  auto events = plugin.events_to_register();
  auto waiting = with_volumes(test::make_pod("w"), {claim_volume("data")});
  auto inline_waiting = with_volumes(
    test::make_pod("w"), {inline_attach("awsElasticBlockStore", ebs, "v")});

  auto csi = [](std::vector<model::csi_node_driver> drivers) {
    auto c = std::make_shared<model::csi_node>();
    c->name = model::symbol{"n"};
    c->drivers = std::move(drivers);
    return model::csi_node_ptr{c};
  };
  plugin_testing::expect_hints<model::csi_node_ptr>(
    events[1].hint, *waiting,
    {
      {"limit raised", csi({{ebs, 2}}), csi({{ebs, 3}}), queueing_hint::queue},
      {"limit lifted", csi({{ebs, 2}}), csi({{ebs, std::nullopt}}),
       queueing_hint::queue},
      {"driver gone", csi({{ebs, 2}}), csi({}), queueing_hint::queue},
      {"limit lowered", csi({{ebs, 2}}), csi({{ebs, 1}}), queueing_hint::skip},
      {"limit unchanged", csi({{ebs, 2}}), csi({{ebs, 2}, {pd, 5}}),
       queueing_hint::skip},
      {"limit added", csi({}), csi({{ebs, 2}}), queueing_hint::skip},
    });

  auto bound
    = with_volumes(test::make_pod("x").node("n"), {claim_volume("other")});
  auto nominated = with_volumes(test::make_pod("x").nominated_node("n"),
                                {ephemeral_volume("x", "s")});
  auto pending = with_volumes(test::make_pod("x"), {claim_volume("other")});
  auto no_volumes = test::make_pod("x").node("n").build();
  auto inline_disk
    = with_volumes(test::make_pod("x").node("n"),
                   {inline_attach("gcePersistentDisk", pd, "d")});
  plugin_testing::expect_hints<model::pod_ptr>(
    events[2].hint, *waiting,
    {
      {"bound pod with a claim", bound, nullptr, queueing_hint::queue},
      {"nominated pod with an ephemeral volume", nominated, nullptr,
       queueing_hint::queue},
      {"pod on no node", pending, nullptr, queueing_hint::skip},
      {"pod without volumes", no_volumes, nullptr, queueing_hint::skip},
      {"pod with an inline source", inline_disk, nullptr, queueing_hint::queue},
    });

  auto ephemeral_waiting
    = with_volumes(test::make_pod("w"), {ephemeral_volume("w", "s")});
  volume_testing::expect_claim_added_hints(
    events[3].hint, waiting,
    {
      {"the pod's ephemeral claim", ephemeral_waiting, nullptr,
       claim_object("default", "w-s"), queueing_hint::queue},
    });

  auto va = [](std::string attacher) {
    auto a = std::make_shared<model::volume_attachment>();
    a->attacher = std::move(attacher);
    a->node = model::symbol{"n"};
    return model::volume_attachment_ptr{a};
  };
  auto no_claims = test::make_pod("w").build();
  plugin_testing::expect_hints<model::volume_attachment_ptr>(
    events[4].hint,
    {
      {"pod with a claim", waiting, va(pd), nullptr, queueing_hint::queue},
      {"inline source of the driver", inline_waiting, va(ebs), nullptr,
       queueing_hint::queue},
      {"inline source of another driver", inline_waiting, va(pd), nullptr,
       queueing_hint::skip},
      {"pod without volumes", no_claims, va(ebs), nullptr, queueing_hint::skip},
    });
}

} // namespace tessera::plugins::node_volume_limits_test
