// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/pod_topology_spread/spread_constraint.hpp"
#include "plugins/pod_topology_spread/test_cycle.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::pod_topology_spread_test {

TEST(pod_topology_spread_constraint, select_by_action) {
  using namespace pod_topology_spread_detail;
  std::vector<model::topology_spread_constraint> api
    = {constraint(zone_key, 2, true), constraint(host_key, 3, false),
       constraint(host_key, 1, true)};
  api[0].min_domains = 4;
  api[0].node_taints_policy = inclusion_policy::honor;
  const model::symbol hostname{host_key};
  auto hard
    = select_constraints(api, when_unsatisfiable::do_not_schedule, hostname);
  ASSERT_EQ(hard.size(), 2u);
  EXPECT_EQ(hard[0].topology_key.view(), zone_key);
  EXPECT_EQ(hard[0].max_skew, 2);
  EXPECT_EQ(hard[0].min_domains, 4);
  EXPECT_EQ(hard[0].node_affinity_policy, inclusion_policy::honor);
  EXPECT_EQ(hard[0].node_taints_policy, inclusion_policy::honor);
  EXPECT_FALSE(hard[0].hostname);
  EXPECT_TRUE(hard[1].hostname);
  EXPECT_EQ(hard[1].max_skew, 1);
  auto soft
    = select_constraints(api, when_unsatisfiable::schedule_anyway, hostname);
  ASSERT_EQ(soft.size(), 1u);
  EXPECT_EQ(soft[0].max_skew, 3);
  EXPECT_TRUE(soft[0].hostname);
}

TEST(pod_topology_spread_constraint, node_rules) {
  using namespace pod_topology_spread_detail;
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    model::node_ptr node;
    inclusion_policy affinity_policy;
    inclusion_policy taints_policy;
    bool want_affinity;
    bool want_included;
  };
  const auto honor = inclusion_policy::honor;
  const auto ignore = inclusion_policy::ignore;
  auto plain = test::make_pod("p").build();
  auto ssd_selector = test::make_pod("p").node_selector("disk", "ssd").build();
  auto ssd_affinity
    = test::make_pod("p").required_node_affinity("disk", "In", {"ssd"}).build();
  auto tolerant = test::make_pod("p").toleration_exists("t").build();
  auto ssd = test::make_node("n").label("disk", "ssd").build();
  auto hdd = test::make_node("n").label("disk", "hdd").build();
  auto no_schedule = test::make_node("n").taint("t", "v", "NoSchedule").build();
  auto no_execute = test::make_node("n").taint("t", "v", "NoExecute").build();
  auto prefer
    = test::make_node("n").taint("t", "v", "PreferNoSchedule").build();
  const std::vector<test_case> cases = {
    {"no node constraints", plain, hdd, honor, ignore, true, true},
    {"nodeSelector matches", ssd_selector, ssd, honor, ignore, true, true},
    {"nodeSelector does not match, Honor", ssd_selector, hdd, honor, ignore,
     false, false},
    {"nodeSelector does not match, Ignore", ssd_selector, hdd, ignore, ignore,
     false, true},
    {"required affinity does not match, Honor", ssd_affinity, hdd, honor,
     ignore, false, false},
    {"required affinity matches", ssd_affinity, ssd, honor, ignore, true, true},
    {"NoSchedule taint, Honor", plain, no_schedule, honor, honor, true, false},
    {"NoExecute taint, Honor", plain, no_execute, honor, honor, true, false},
    {"PreferNoSchedule taint does not count", plain, prefer, honor, honor, true,
     true},
    {"taint tolerated", tolerant, no_schedule, honor, honor, true, true},
    {"taint, Ignore", plain, no_schedule, honor, ignore, true, true},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    const bool affinity = matches_required_node_affinity(*tc.pod, *tc.node);
    EXPECT_EQ(affinity, tc.want_affinity);
    spread_constraint c;
    c.node_affinity_policy = tc.affinity_policy;
    c.node_taints_policy = tc.taints_policy;
    EXPECT_EQ(passes_inclusion_policies(c, *tc.pod, *tc.node, affinity),
              tc.want_included);
  }
}

TEST(pod_topology_spread_constraint, keys_and_counts) {
  using namespace pod_topology_spread_detail;
  spread_constraint zone_c;
  zone_c.topology_key = model::symbol{zone_key};
  spread_constraint host_c;
  host_c.topology_key = model::symbol{host_key};
  auto both = test::make_node("n").zone("z").build();
  auto host_only = test::make_node("n").build();
  EXPECT_TRUE(has_all_keys(both->labels, {zone_c, host_c}));
  EXPECT_FALSE(has_all_keys(host_only->labels, {zone_c, host_c}));
  EXPECT_TRUE(has_all_keys(host_only->labels, {host_c}));
  EXPECT_TRUE(has_all_keys(host_only->labels, {}));

  std::vector<model::pod_ptr> pods = {
    test::make_pod("a").label("app", "web").build(),
    test::make_pod("b").label("app", "web").build(),
    test::make_pod("c").label("app", "db").build(),
    test::make_pod("d").ns("other").label("app", "web").build(),
    test::make_pod("e").label("app", "web").deleting().build(),
  };
  const model::symbol ns{"default"};
  EXPECT_EQ(count_matching(pods, test::match_labels({{"app", "web"}}), ns), 2);
  EXPECT_EQ(count_matching(pods, test::match_labels({{"app", "db"}}), ns), 1);
  EXPECT_EQ(count_matching(pods, test::match_labels({{"app", "web"}}),
                           model::symbol{"other"}),
            1);
  // Upstream counts nothing for an empty selector.
  EXPECT_EQ(count_matching(pods, model::label_selector::everything(), ns), 0);
  EXPECT_EQ(count_matching(pods, model::label_selector::nothing(), ns), 0);

  // The node_info form reads the pod digests and counts the same pods, also
  // after a removal has moved the last pod into the gap.
  auto info = test::make_node_info(test::make_node("n").build(), pods);
  const model::symbol other{"other"};
  const auto web = test::match_labels({{"app", "web"}});
  const auto db = test::match_labels({{"app", "db"}});
  EXPECT_EQ(count_matching(info, web, ns), 2);
  EXPECT_EQ(count_matching(info, db, ns), 1);
  EXPECT_EQ(count_matching(info, web, other), 1);
  EXPECT_EQ(count_matching(info, model::label_selector::everything(), ns), 0);
  EXPECT_EQ(count_matching(info, model::label_selector::nothing(), ns), 0);
  ASSERT_TRUE(info.remove_pod(*pods[0]));
  EXPECT_EQ(count_matching(info, web, ns), 1);
  EXPECT_EQ(count_matching(info, web, other), 1);
  EXPECT_EQ(count_matching(info, db, ns), 1);
}

} // namespace tessera::plugins::pod_topology_spread_test
