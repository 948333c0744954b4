// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/volume/test_storage.hpp"
#include "plugins/volume/volume_zone.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace tessera::plugins::volume_zone_test {

using plugin_testing::describe;
using volume_testing::claim_object;
using volume_testing::claim_volume;
using volume_testing::ephemeral_volume;
using volume_testing::storage_builder;
using volume_testing::with_volumes;

constexpr const char* ga_zone = "topology.kubernetes.io/zone";
constexpr const char* ga_region = "topology.kubernetes.io/region";
constexpr const char* beta_zone = "failure-domain.beta.kubernetes.io/zone";
const std::string conflict
  = "UnschedulableAndUnresolvable: node(s) had no available volume zone";
const std::string ok = "Success";

cluster_context storage() {
  const auto wffc = model::binding_mode::wait_for_first_consumer;
  return storage_builder{}
    .volume("pv-a", {}, {{ga_zone, "us-a"}})
    .volume("pv-ab", {}, {{ga_zone, "us-a__us-b"}})
    .volume("pv-spaces", {}, {{ga_zone, " us-a __ us-b "}})
    .volume("pv-beta", {}, {{beta_zone, "us-a"}})
    .volume("pv-region", {}, {{ga_region, "us"}})
    .volume("pv-none", {}, {{"app", "db"}})
    .volume("pv-bad", {}, {{ga_zone, "us-a____us-b"}})
    .storage_class("wffc", "ebs.csi.aws.com", wffc)
    .storage_class("immediate", "ebs.csi.aws.com")
    .claim("a", "pv-a")
    .claim("ab", "pv-ab")
    .claim("spaces", "pv-spaces")
    .claim("beta", "pv-beta")
    .claim("region", "pv-region")
    .claim("none", "pv-none")
    .claim("bad", "pv-bad")
    .claim("wffc", "", "wffc")
    .claim("immediate", "", "immediate")
    .claim("no-class", "")
    .claim("empty-class", "", "")
    .claim("missing-class", "", "gone")
    .claim("pv-gone", "pv-gone")
    .context();
}

/// A pod with `volumes` through PreFilter on `state`, over storage() (one
/// context, kept for the filters that read it after).
std::pair<model::pod_ptr, pre_filter_result>
pre_filter_pod(const volume_zone& plugin, cycle_state& state,
               const std::vector<model::volume>& volumes) {
  static const cluster_context ctx = storage();
  auto pod = with_volumes(test::make_pod("p"), volumes);
  auto r = plugin.pre_filter(state, *pod, ctx);
  return {pod, std::move(r)};
}

TEST(volume_zone, pre_filter) {
  struct test_case {
    std::string name;
    std::vector<model::volume> volumes;
    std::string want;
  };
  const std::string ur = "UnschedulableAndUnresolvable: ";
  const std::vector<test_case> cases = {
    {"no volumes", {}, "Skip: "},
    {"volume without zone labels", {claim_volume("none")}, "Skip: "},
    {"zone label with an empty entry is ignored",
     {claim_volume("bad")},
     "Skip: "},
    {"unbound claim waiting for its consumer",
     {claim_volume("wffc")},
     "Skip: "},
    {"ephemeral volumes are not read",
     {ephemeral_volume("p", "scratch")},
     "Skip: "},
    {"bound volume with a zone", {claim_volume("a")}, ok},
    {"skipped claim next to a zoned one",
     {claim_volume("wffc"), claim_volume("a")},
     ok},
    {"missing claim",
     {claim_volume("a"), claim_volume("gone")},
     ur + "persistentvolumeclaim \"gone\" not found"},
    {"unbound claim without a class",
     {claim_volume("no-class")},
     ur + "PersistentVolumeClaim had no pv name and storageClass name"},
    {"unbound claim with the empty class",
     {claim_volume("empty-class")},
     ur + "PersistentVolumeClaim had no pv name and storageClass name"},
    {"unbound claim of a missing class",
     {claim_volume("missing-class")},
     ur + "storageclass.storage.k8s.io \"gone\" not found"},
    {"unbound claim of an immediate class",
     {claim_volume("immediate")},
     ur + "PersistentVolume had no name"},
    {"bound to a missing volume",
     {claim_volume("pv-gone")},
     ur + "persistentvolume \"pv-gone\" not found"},
  };
  volume_zone plugin;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    cycle_state state{1};
    auto [pod, r] = pre_filter_pod(plugin, state, tc.volumes);
    EXPECT_EQ(describe(r.result), tc.want);
    EXPECT_FALSE(r.nodes.has_value());
  }
}

TEST(volume_zone, filter) {
  const std::vector<model::node_info_ptr> nodes = {
    test::make_node_info_ptr(test::make_node("zone-a").zone("us-a").build()),
    test::make_node_info_ptr(test::make_node("zone-b").zone("us-b").build()),
    test::make_node_info_ptr(test::make_node("bare").label("x", "y").build()),
    test::make_node_info_ptr(
      test::make_node("beta-a").label(beta_zone, "us-a").build()),
    test::make_node_info_ptr(test::make_node("region").region("us").build()),
  };
  struct test_case {
    std::string name;
    std::vector<model::volume> volumes;
    /// One outcome per node: zone-a, zone-b, bare, beta-a, region.
    std::vector<std::string> want;
  };
  const std::vector<test_case> cases = {
    {"single zone",
     {claim_volume("a")},
     {ok, conflict, ok, conflict, conflict}},
    {"two zones", {claim_volume("ab")}, {ok, ok, ok, conflict, conflict}},
    {"two zones with blanks",
     {claim_volume("spaces")},
     {ok, ok, ok, conflict, conflict}},
    {"beta label matches the node's GA label",
     {claim_volume("beta")},
     {ok, conflict, ok, ok, conflict}},
    {"region",
     {claim_volume("region")},
     {conflict, conflict, ok, conflict, ok}},
    {"every volume must match",
     {claim_volume("ab"), claim_volume("a")},
     {ok, conflict, ok, conflict, conflict}},
  };
  volume_zone plugin;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    cycle_state state{1};
    auto [pod, r] = pre_filter_pod(plugin, state, tc.volumes);
    ASSERT_EQ(describe(r.result), ok);
    EXPECT_EQ(plugin_testing::filter_all(plugin, state, *pod, nodes), tc.want);
  }
}

TEST(volume_zone, events_and_hints) {
  volume_zone plugin;
  EXPECT_TRUE(plugin.node_local());
  EXPECT_FALSE(plugin.has_extensions());
  using plugin_testing::registered_event;
  EXPECT_EQ(
    plugin_testing::registered_events(plugin),
    (std::vector<registered_event>{
      {event_resource::storage_class, action::add, true},
      {event_resource::node, action::add | action::update_node_label, false},
      {event_resource::persistent_volume_claim, action::add | action::update,
       true},
      {event_resource::persistent_volume, action::add | action::update, true},
    }));
  auto events = plugin.events_to_register();
  auto waiting = with_volumes(test::make_pod("w"), {claim_volume("data")});

  auto cls = [](model::binding_mode mode) {
    auto c = std::make_shared<model::storage_class>();
    c->name = "c";
    c->binding = mode;
    return model::storage_class_ptr{c};
  };
  plugin_testing::expect_hints<model::storage_class_ptr>(
    events[0].hint, *waiting,
    {
      {"wait for first consumer", nullptr,
       cls(model::binding_mode::wait_for_first_consumer), queueing_hint::queue},
      {"immediate", nullptr, cls(model::binding_mode::immediate),
       queueing_hint::skip},
    });

  plugin_testing::expect_hints<model::persistent_volume_claim_ptr>(
    events[2].hint, *waiting,
    {
      {"the pod's claim added", nullptr, claim_object("default", "data"),
       queueing_hint::queue},
      {"the pod's claim updated", claim_object("default", "data"),
       claim_object("default", "data"), queueing_hint::queue},
      {"a namesake in another namespace", nullptr,
       claim_object("other", "data"), queueing_hint::skip},
      {"another claim", nullptr, claim_object("default", "logs"),
       queueing_hint::skip},
    });

  auto pv = [](const test::label_pairs& labels) {
    auto v = std::make_shared<model::persistent_volume>();
    v->name = "pv";
    v->labels = test::make_labels(labels);
    return model::persistent_volume_ptr{v};
  };
  plugin_testing::expect_hints<model::persistent_volume_ptr>(
    events[3].hint, *waiting,
    {
      {"added", nullptr, pv({}), queueing_hint::queue},
      {"zone changed", pv({{ga_zone, "us-a"}}), pv({{ga_zone, "us-b"}}),
       queueing_hint::queue},
      {"zone label added", pv({}), pv({{beta_zone, "us-a"}}),
       queueing_hint::queue},
      {"other label changed", pv({{ga_zone, "us-a"}, {"app", "x"}}),
       pv({{ga_zone, "us-a"}, {"app", "y"}}), queueing_hint::skip},
      {"same zones reordered", pv({{ga_zone, "us-a__us-b"}}),
       pv({{ga_zone, "us-b__us-a"}}), queueing_hint::skip},
    });
}

} // namespace tessera::plugins::volume_zone_test
