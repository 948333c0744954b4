// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// PodTopologySpread: PreFilter skip, Filter outcomes and reasons (skew,
// minDomains, inclusion policies, missing labels), AddPod / RemovePod.
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"
#include "plugins/pod_topology_spread/test_cycle.hpp"
#include "test/support/builders.hpp"
#include "test/support/plugin_cases.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::pod_topology_spread_test {

// n1, n2 in z1; n3, n4 in z2; n5 without a zone. n1 and n3 carry disk=ssd.
std::vector<model::node_info_ptr>
filter_nodes(const std::vector<model::pod_ptr>& pods, bool taint_n2 = false) {
  return zoned_nodes({{"n1", "z1", {{"disk", "ssd"}}},
                      {"n2", "z1", {}, taint_n2},
                      {"n3", "z2", {{"disk", "ssd"}}},
                      {"n4", "z2"},
                      {"n5", ""}},
                     pods);
}

TEST(pod_topology_spread_filter, outcomes) {
  using policy = model::topology_spread_constraint::inclusion_policy;
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    std::vector<model::pod_ptr> existing;
    bool taint_n2;
    bool want_skip;
    std::vector<std::string> want;
  };
  auto web = [](std::vector<model::topology_spread_constraint> cs) {
    auto b = test::make_pod("p").label("app", "web");
    for (auto& c : cs)
      b.spread(std::move(c));
    return b;
  };
  auto zone_min_domains = [](std::int32_t d) {
    auto c = constraint(zone_key, 1, true);
    c.min_domains = d;
    c.min_domains_set = true;
    return c;
  };
  const std::vector<test_case> cases = {
    {"no constraints: PreFilter skips (default constraints need a selector)",
     test::make_pod("p").label("app", "web").build(),
     pods_on("n1", 3),
     false,
     true,
     {ok, ok, ok, ok, ok}},
    {"only ScheduleAnyway constraints: PreFilter skips",
     web({constraint(zone_key, 1, false)}).build(),
     pods_on("n1", 3),
     false,
     true,
     {ok, ok, ok, ok, ok}},
    {"zone skew with the pod matching its own selector",
     web({constraint(zone_key, 1, true)}).build(),
     all_of({pods_on("n1", 2), pods_on("n3", 1)}),
     false,
     false,
     {skew_fail, skew_fail, ok, ok, label_fail}},
    {"a pod not matching its selector adds nothing to the skew",
     test::make_pod("p")
       .label("app", "api")
       .spread(constraint(zone_key, 1, true))
       .build(),
     all_of({pods_on("n1", 2), pods_on("n3", 1)}),
     false,
     false,
     {ok, ok, ok, ok, label_fail}},
    {"hostname skew; every node is a domain",
     web({constraint(host_key, 1, true)}).build(),
     all_of({pods_on("n1", 2), pods_on("n3", 1)}),
     false,
     false,
     {skew_fail, ok, skew_fail, ok, ok}},
    {"maxSkew 2 tolerates a difference of two",
     web({constraint(host_key, 2, true)}).build(),
     all_of({pods_on("n1", 2), pods_on("n3", 1)}),
     false,
     false,
     {skew_fail, ok, ok, ok, ok}},
    {"fewer domains than minDomains: the global minimum is 0",
     web({zone_min_domains(3)}).build(),
     all_of({pods_on("n1", 1), pods_on("n3", 1)}),
     false,
     false,
     {skew_fail, skew_fail, skew_fail, skew_fail, label_fail}},
    {"as many domains as minDomains: the real minimum",
     web({zone_min_domains(2)}).build(),
     all_of({pods_on("n1", 1), pods_on("n3", 1)}),
     false,
     false,
     {ok, ok, ok, ok, label_fail}},
    {"pods of other namespaces and pods being deleted do not count",
     web({constraint(zone_key, 1, true)}).build(),
     all_of({pods_on("n1", 3, "web", "other"),
             {test::make_pod("gone")
                .label("app", "web")
                .node("n2")
                .deleting()
                .build()}}),
     false,
     false,
     {ok, ok, ok, ok, label_fail}},
    {"nodeAffinityPolicy Honor counts only nodes the pod may land on",
     test::make_pod("p")
       .label("app", "web")
       .node_selector("disk", "ssd")
       .spread(zone_with_policies(true, policy::honor, policy::ignore))
       .build(),
     all_of({pods_on("n2", 3)}),
     false,
     false,
     {ok, ok, ok, ok, label_fail}},
    {"nodeAffinityPolicy Ignore counts every node",
     test::make_pod("p")
       .label("app", "web")
       .node_selector("disk", "ssd")
       .spread(zone_with_policies(true, policy::ignore, policy::ignore))
       .build(),
     all_of({pods_on("n2", 3)}),
     false,
     false,
     {skew_fail, skew_fail, ok, ok, label_fail}},
    {"nodeAffinityPolicy Honor with required node affinity",
     test::make_pod("p")
       .label("app", "web")
       .required_node_affinity("disk", "NotIn", {"ssd"})
       .spread(zone_with_policies(true, policy::honor, policy::ignore))
       .build(),
     all_of({pods_on("n1", 3)}),
     false,
     false,
     {ok, ok, ok, ok, label_fail}},
    {"nodeTaintsPolicy Honor skips nodes with untolerated taints",
     web({zone_with_policies(true, policy::honor, policy::honor)}).build(),
     all_of({pods_on("n2", 3)}),
     true,
     false,
     {ok, ok, ok, ok, label_fail}},
    {"nodeTaintsPolicy Ignore counts tainted nodes",
     web({zone_with_policies(true, policy::honor, policy::ignore)}).build(),
     all_of({pods_on("n2", 3)}),
     true,
     false,
     {skew_fail, skew_fail, ok, ok, label_fail}},
    {"a tolerated taint is honored as no taint",
     test::make_pod("p")
       .label("app", "web")
       .toleration_exists("dedicated")
       .spread(zone_with_policies(true, policy::honor, policy::honor))
       .build(),
     all_of({pods_on("n2", 3)}),
     true,
     false,
     {skew_fail, skew_fail, ok, ok, label_fail}},
    {"a node lacking any constraint's key counts for none; order of checks",
     web({constraint(host_key, 1, true), constraint(zone_key, 10, true)})
       .build(),
     all_of({pods_on("n5", 5), pods_on("n1", 1)}),
     false,
     false,
     {skew_fail, ok, ok, ok, label_fail}},
    {"the empty selector counts no pod but the pod still matches it",
     web({constraint(zone_key, 1, true, {})}).build(),
     all_of({pods_on("n1", 4)}),
     false,
     false,
     {ok, ok, ok, ok, label_fail}},
    {"two constraints: the first failing one decides",
     web({constraint(zone_key, 3, true), constraint(host_key, 1, true)})
       .build(),
     all_of({pods_on("n1", 1), pods_on("n2", 1), pods_on("n4", 1)}),
     false,
     false,
     {skew_fail, skew_fail, ok, skew_fail, label_fail}},
  };
  pod_topology_spread plugin{config::pod_topology_spread_args{}};
  plugin.bind_context({0});
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto nodes = filter_nodes(tc.existing, tc.taint_n2);
    for (std::size_t shards : {1u, 2u, 3u}) {
      SCOPED_TRACE("shards " + std::to_string(shards));
      auto run = prepare(plugin, *tc.pod, nodes, shards);
      EXPECT_EQ(run.pre_filter_skipped, tc.want_skip);
      EXPECT_EQ(filter_all(plugin, run.state, *tc.pod, nodes), tc.want);
    }
  }
}

TEST(pod_topology_spread_filter, node_without_node_object_is_an_error) {
  pod_topology_spread plugin{config::pod_topology_spread_args{}};
  plugin.bind_context({0});
  auto pod = test::make_pod("p").spread(constraint(zone_key, 1, true)).build();
  auto nodes = filter_nodes({});
  auto run = prepare(plugin, *pod, nodes);
  test::expect_missing_node_error(plugin, run.state, *pod);
}

TEST(pod_topology_spread_filter, names_and_locality) {
  pod_topology_spread plugin{config::pod_topology_spread_args{}};
  EXPECT_EQ(plugin.name(), "PodTopologySpread");
  EXPECT_FALSE(plugin.node_local());
  EXPECT_TRUE(plugin.has_extensions());
  EXPECT_TRUE(plugin.has_normalize());
  EXPECT_EQ(plugin.reason_constraints().view(),
            "node(s) didn't match pod topology spread constraints");
  EXPECT_EQ(plugin.reason_missing_label().view(),
            "node(s) didn't match pod topology spread constraints (missing "
            "required label)");
}

TEST(pod_topology_spread_filter, add_and_remove_pod) {
  auto web_zone = test::make_pod("p")
                    .label("app", "web")
                    .spread(constraint(zone_key, 1, true));
  auto web_host = test::make_pod("p")
                    .label("app", "web")
                    .spread(constraint(host_key, 1, true));
  auto taint_honoring = test::make_pod("p").label("app", "web").spread([] {
    auto c = constraint(zone_key, 1, true);
    c.node_taints_policy
      = model::topology_spread_constraint::inclusion_policy::honor;
    return c;
  }());
  const std::vector<test::extension_case> cases = {
    {"a pod added in the empty zone raises the minimum",
     web_zone.build(),
     pods_on("n1", 1),
     pods_on("n3", 1),
     {},
     {skew_fail, skew_fail, ok, ok, label_fail},
     {ok, ok, ok, ok, label_fail}},
    {"a pod removed from the full zone lowers its count",
     web_zone.build(),
     all_of({pods_on("n1", 2), pods_on("n3", 1)}),
     {},
     {pods_on("n1", 1)},
     {skew_fail, skew_fail, ok, ok, label_fail},
     {ok, ok, ok, ok, label_fail}},
    {"the minimum stays exact over several additions",
     web_host.build(),
     all_of({pods_on("n1", 1), pods_on("n2", 1), pods_on("n3", 1),
             pods_on("n4", 1), pods_on("n5", 1)}),
     all_of({{test::make_pod("a1").label("app", "web").node("n1").build()},
             {test::make_pod("a2").label("app", "web").node("n2").build()},
             {test::make_pod("a3").label("app", "web").node("n3").build()},
             {test::make_pod("a4").label("app", "web").node("n4").build()}}),
     {},
     {ok, ok, ok, ok, ok},
     {skew_fail, skew_fail, skew_fail, skew_fail, ok}},
    {"removing the last pod of the minimum domain lowers the minimum",
     web_host.build(),
     all_of({pods_on("n1", 1), pods_on("n2", 1), pods_on("n3", 1),
             pods_on("n4", 1), pods_on("n5", 1)}),
     {},
     pods_on("n5", 1),
     {ok, ok, ok, ok, ok},
     {skew_fail, skew_fail, skew_fail, skew_fail, ok}},
    {"pods of another namespace change nothing",
     web_zone.build(),
     pods_on("n1", 1),
     pods_on("n3", 1, "web", "other"),
     {},
     {skew_fail, skew_fail, ok, ok, label_fail},
     {skew_fail, skew_fail, ok, ok, label_fail}},
    {"pods not matching the selector change nothing",
     web_zone.build(),
     pods_on("n1", 1),
     pods_on("n3", 1, "api"),
     {},
     {skew_fail, skew_fail, ok, ok, label_fail},
     {skew_fail, skew_fail, ok, ok, label_fail}},
    {"pods on a node lacking a key change nothing",
     web_zone.build(),
     pods_on("n3", 1),
     pods_on("n5", 3),
     {},
     {ok, ok, skew_fail, skew_fail, label_fail},
     {ok, ok, skew_fail, skew_fail, label_fail}},
    {"pods on a node excluded by nodeTaintsPolicy change nothing",
     taint_honoring.build(),
     pods_on("n1", 1),
     pods_on("n2", 2),
     {},
     {skew_fail, skew_fail, ok, ok, label_fail},
     {skew_fail, skew_fail, ok, ok, label_fail}},
  };
  pod_topology_spread plugin{config::pod_topology_spread_args{}};
  plugin.bind_context({0});
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto nodes = filter_nodes(tc.existing, true);
    auto run = prepare(plugin, *tc.pod, nodes);
    test::expect_extensions(plugin, run.state, tc, nodes);
  }
}

} // namespace tessera::plugins::pod_topology_spread_test
