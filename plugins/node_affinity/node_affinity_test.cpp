// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/framework/profile.hpp"
#include "plugins/framework/registry.hpp"
#include "plugins/node_affinity/node_affinity.hpp"
#include "test/support/builders.hpp"
#include "test/support/plugin_cases.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace tessera::plugins::node_affinity_test {

constexpr const char* pod_reason
  = "node(s) didn't match Pod's node affinity/selector";
constexpr const char* enforced_reason
  = "node(s) didn't match scheduler-enforced node affinity";

using test::name_field;
using test::node_requirement;
using test::node_term;

config::node_affinity_args no_args() {
  return {};
}

config::node_affinity_args
added(std::optional<model::node_selector> required,
      std::vector<model::preferred_scheduling_term> preferred = {}) {
  config::node_affinity_args args;
  args.added_affinity
    = model::node_affinity{std::move(required), std::move(preferred)};
  return args;
}

std::vector<std::string> sorted_names(const node_name_set& set) {
  std::vector<std::string> out;
  if (set)
    for (auto s : *set)
      out.push_back(s.str());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(node_affinity, filter_pod_constraints) {
  auto zone_a = test::make_node("n1").zone("a").label("disk", "ssd").build();
  const std::vector<test::filter_case> cases = {
    {"no constraint", test::make_pod("p").build(), zone_a, code::success, ""},
    {"nodeSelector matches",
     test::make_pod("p").node_selector("disk", "ssd").build(), zone_a,
     code::success, ""},
    {"nodeSelector value differs",
     test::make_pod("p").node_selector("disk", "hdd").build(), zone_a,
     code::unschedulable_and_unresolvable, pod_reason},
    {"nodeSelector key absent",
     test::make_pod("p").node_selector("gpu", "true").build(), zone_a,
     code::unschedulable_and_unresolvable, pod_reason},
    {"nodeSelector with an empty value needs the key",
     test::make_pod("p").node_selector("gpu", "").build(), zone_a,
     code::unschedulable_and_unresolvable, pod_reason},
    {"nodeSelector: all pairs must match",
     test::make_pod("p")
       .node_selector("disk", "ssd")
       .node_selector("topology.kubernetes.io/zone", "b")
       .build(),
     zone_a, code::unschedulable_and_unresolvable, pod_reason},
    {"required In matches",
     test::make_pod("p")
       .required_node_affinity("topology.kubernetes.io/zone", "In", {"a", "b"})
       .build(),
     zone_a, code::success, ""},
    {"required In does not match",
     test::make_pod("p")
       .required_node_affinity("topology.kubernetes.io/zone", "In", {"c"})
       .build(),
     zone_a, code::unschedulable_and_unresolvable, pod_reason},
    {"terms are ORed",
     test::make_pod("p")
       .required_node_affinity("disk", "In", {"hdd"})
       .required_node_affinity("disk", "In", {"ssd"})
       .build(),
     zone_a, code::success, ""},
    {"requirements in a term are ANDed",
     test::make_pod("p")
       .required_node_term(node_term({node_requirement("disk", "In", {"ssd"}),
                                      node_requirement("gpu", "Exists")}))
       .build(),
     zone_a, code::unschedulable_and_unresolvable, pod_reason},
    {"NotIn is true when the label is absent",
     test::make_pod("p").required_node_affinity("gpu", "NotIn", {"x"}).build(),
     zone_a, code::success, ""},
    {"DoesNotExist",
     test::make_pod("p")
       .required_node_affinity("gpu", "DoesNotExist", {})
       .build(),
     zone_a, code::success, ""},
    {"Exists on a missing label",
     test::make_pod("p").required_node_affinity("gpu", "Exists", {}).build(),
     zone_a, code::unschedulable_and_unresolvable, pod_reason},
    {"Gt compares integers",
     test::make_pod("p").required_node_affinity("cores", "Gt", {"8"}).build(),
     test::make_node("n1").label("cores", "16").build(), code::success, ""},
    {"Gt with a smaller label",
     test::make_pod("p").required_node_affinity("cores", "Gt", {"8"}).build(),
     test::make_node("n1").label("cores", "4").build(),
     code::unschedulable_and_unresolvable, pod_reason},
    {"Lt with a non-integer label never matches",
     test::make_pod("p").required_node_affinity("cores", "Lt", {"8"}).build(),
     test::make_node("n1").label("cores", "few").build(),
     code::unschedulable_and_unresolvable, pod_reason},
    {"a term without requirements matches nothing",
     test::make_pod("p").required_node_term(node_term({})).build(), zone_a,
     code::unschedulable_and_unresolvable, pod_reason},
    {"nodeSelector and affinity must both match",
     test::make_pod("p")
       .node_selector("disk", "ssd")
       .required_node_affinity("topology.kubernetes.io/zone", "In", {"b"})
       .build(),
     zone_a, code::unschedulable_and_unresolvable, pod_reason},
    {"matchFields metadata.name In",
     test::make_pod("p")
       .required_node_term(node_term({}, {name_field("In", "n1")}))
       .build(),
     zone_a, code::success, ""},
    {"matchFields metadata.name In another node",
     test::make_pod("p")
       .required_node_term(node_term({}, {name_field("In", "n2")}))
       .build(),
     zone_a, code::unschedulable_and_unresolvable, pod_reason},
    {"matchFields metadata.name NotIn",
     test::make_pod("p")
       .required_node_term(node_term({}, {name_field("NotIn", "n1")}))
       .build(),
     zone_a, code::unschedulable_and_unresolvable, pod_reason},
    {"matchFields and matchExpressions in one term",
     test::make_pod("p")
       .required_node_term(node_term({node_requirement("disk", "In", {"ssd"})},
                                     {name_field("In", "n1")}))
       .build(),
     zone_a, code::success, ""},
    // The API server accepts any value, but kube-scheduler's selector
    // parser refuses the term, which then matches no node, even where the
    // value read literally would let it match.
    {"an invalid label value makes the term unusable",
     test::make_pod("p")
       .required_node_affinity("disk", "NotIn", {"invalid value: ___@#$%^"})
       .build(),
     zone_a, code::unschedulable_and_unresolvable, pod_reason},
    {"an invalid label key makes the term unusable",
     test::make_pod("p")
       .required_node_affinity("invalid key!", "DoesNotExist", {})
       .build(),
     zone_a, code::unschedulable_and_unresolvable, pod_reason},
    {"a Gt value that is no integer makes the term unusable",
     test::make_pod("p").required_node_affinity("cores", "Gt", {"big"}).build(),
     test::make_node("n1").label("cores", "16").build(),
     code::unschedulable_and_unresolvable, pod_reason},
    {"an unusable term does not hide a matching one",
     test::make_pod("p")
       .required_node_affinity("disk", "NotIn", {"invalid value: ___@#$%^"})
       .required_node_affinity("disk", "In", {"ssd"})
       .build(),
     zone_a, code::success, ""},
  };
  node_affinity plugin{no_args()};
  cycle_state state;
  test::expect_filter(plugin, state, cases);
}

TEST(node_affinity, filter_empty_term_list_matches_nothing) {
  // Upstream builds a selector with no terms, which matches no node (the
  // API server rejects such pods; the plugin still must not let them in).
  model::pod p = test::make_pod("p").build_value();
  p.affinity.edit().node = model::node_affinity{model::node_selector{}, {}};
  node_affinity plugin{no_args()};
  cycle_state state;
  auto info = test::make_node_info(test::make_node("n1").build());
  status s = plugin.filter(state, p, info);
  EXPECT_EQ(s.get_code(), code::unschedulable_and_unresolvable);
  EXPECT_EQ(s.message(), pod_reason);
}

TEST(node_affinity, filter_added_affinity) {
  auto gpu_only
    = model::node_selector{{node_term({node_requirement("gpu", "Exists")})}};
  struct test_case {
    std::string name;
    config::node_affinity_args args;
    model::pod_ptr pod;
    model::node_ptr node;
    code want_code;
    std::string want_message;
  };
  auto gpu_node = test::make_node("g").label("gpu", "a100").build();
  auto cpu_node = test::make_node("c").label("disk", "ssd").build();
  const std::vector<test_case> cases = {
    {"added required matches", added(gpu_only), test::make_pod("p").build(),
     gpu_node, code::success, ""},
    {"added required does not match", added(gpu_only),
     test::make_pod("p").build(), cpu_node,
     code::unschedulable_and_unresolvable, enforced_reason},
    {"added affinity is checked before the pod's", added(gpu_only),
     test::make_pod("p").node_selector("x", "y").build(), cpu_node,
     code::unschedulable_and_unresolvable, enforced_reason},
    {"added ok, pod's selector fails", added(gpu_only),
     test::make_pod("p").node_selector("x", "y").build(), gpu_node,
     code::unschedulable_and_unresolvable, pod_reason},
    {"added preferred only never filters",
     added(std::nullopt, {{5, node_term({node_requirement("gpu", "Exists")})}}),
     test::make_pod("p").build(), cpu_node, code::success, ""},
    {"added required with no terms matches nothing",
     added(model::node_selector{}), test::make_pod("p").build(), gpu_node,
     code::unschedulable_and_unresolvable, enforced_reason},
  };
  cycle_state state;
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    node_affinity plugin{tc.args};
    auto info = test::make_node_info(tc.node);
    test::expect_status(plugin.filter(state, *tc.pod, info), tc.want_code,
                        tc.want_message);
  }
}

TEST(node_affinity, pre_filter) {
  struct test_case {
    std::string name;
    config::node_affinity_args args;
    model::pod_ptr pod;
    code want_code;
    std::string want_message;
    bool want_set;
    std::vector<std::string> want_nodes;
  };
  auto any_gpu
    = model::node_selector{{node_term({node_requirement("gpu", "Exists")})}};
  const std::vector<test_case> cases = {
    {"no constraint skips",
     no_args(),
     test::make_pod("p").build(),
     code::skip,
     "",
     false,
     {}},
    {"preferred only skips",
     no_args(),
     test::make_pod("p").preferred_node_affinity(3, "a", "Exists", {}).build(),
     code::skip,
     "",
     false,
     {}},
    {"added preferred only skips",
     added(std::nullopt, {{1, node_term({node_requirement("a", "Exists")})}}),
     test::make_pod("p").build(),
     code::skip,
     "",
     false,
     {}},
    {"nodeSelector runs the filter",
     no_args(),
     test::make_pod("p").node_selector("a", "b").build(),
     code::success,
     "",
     false,
     {}},
    {"added required runs the filter",
     added(any_gpu),
     test::make_pod("p").build(),
     code::success,
     "",
     false,
     {}},
    {"expressions only: all nodes",
     no_args(),
     test::make_pod("p").required_node_affinity("a", "In", {"b"}).build(),
     code::success,
     "",
     false,
     {}},
    {"one term naming nodes",
     no_args(),
     test::make_pod("p")
       .required_node_term(node_term({}, {name_field("In", "n1")}))
       .build(),
     code::success,
     "",
     true,
     {"n1"}},
    {"names of several terms are united",
     no_args(),
     test::make_pod("p")
       .required_node_term(node_term({}, {name_field("In", "n1")}))
       .required_node_term(
         node_term({node_requirement("a", "Exists")}, {name_field("In", "n2")}))
       .build(),
     code::success,
     "",
     true,
     {"n1", "n2"}},
    {"names within a term are intersected",
     no_args(),
     test::make_pod("p")
       .required_node_term(
         node_term({}, {name_field("In", "n2"), name_field("In", "n2")}))
       .required_node_term(node_term({}, {name_field("In", "n3")}))
       .build(),
     code::success,
     "",
     true,
     {"n2", "n3"}},
    {"disjoint names in the only term conflict",
     no_args(),
     test::make_pod("p")
       .required_node_term(
         node_term({}, {name_field("In", "n1"), name_field("In", "n2")}))
       .build(),
     code::unschedulable_and_unresolvable,
     "pod affinity terms conflict",
     false,
     {}},
    {"a term without names opens every node",
     no_args(),
     test::make_pod("p")
       .required_node_term(node_term({}, {name_field("In", "n1")}))
       .required_node_affinity("a", "Exists", {})
       .build(),
     code::success,
     "",
     false,
     {}},
    {"NotIn does not name nodes",
     no_args(),
     test::make_pod("p")
       .required_node_term(node_term({}, {name_field("NotIn", "n1")}))
       .build(),
     code::success,
     "",
     false,
     {}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    node_affinity plugin{tc.args};
    cycle_state state;
    auto r = plugin.pre_filter(state, *tc.pod, cluster_context{});
    test::expect_status(r.result, tc.want_code, tc.want_message);
    EXPECT_EQ(r.nodes.has_value(), tc.want_set);
    EXPECT_EQ(sorted_names(r.nodes), tc.want_nodes);
  }
}

TEST(node_affinity, pre_filter_empty_term_list_gives_no_set) {
  model::pod p = test::make_pod("p").build_value();
  p.affinity.edit().node = model::node_affinity{model::node_selector{}, {}};
  node_affinity plugin{no_args()};
  cycle_state state;
  auto r = plugin.pre_filter(state, p, cluster_context{});
  EXPECT_TRUE(r.result.ok());
  EXPECT_FALSE(r.nodes.has_value());
}

TEST(node_affinity, pre_score) {
  struct test_case {
    std::string name;
    config::node_affinity_args args;
    model::pod_ptr pod;
    code want;
  };
  const std::vector<test_case> cases = {
    {"nothing preferred skips", no_args(),
     test::make_pod("p").required_node_affinity("a", "Exists", {}).build(),
     code::skip},
    {"pod preferred terms score", no_args(),
     test::make_pod("p").preferred_node_affinity(1, "a", "Exists", {}).build(),
     code::success},
    {"added preferred terms score",
     added(std::nullopt, {{1, node_term({node_requirement("a", "Exists")})}}),
     test::make_pod("p").build(), code::success},
    {"a preferred term with an invalid value is an error", no_args(),
     test::make_pod("p")
       .preferred_node_affinity(1, "a", "Exists", {})
       .preferred_node_affinity(5, "foo", "In", {"invalid value: ___@#$%^"})
       .build(),
     code::error},
    {"a preferred term with an invalid key is an error", no_args(),
     test::make_pod("p").preferred_node_affinity(1, "/a", "Exists", {}).build(),
     code::error},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    node_affinity plugin{tc.args};
    cycle_state state;
    EXPECT_EQ(plugin.pre_score(state, *tc.pod, cluster_context{}).get_code(),
              tc.want);
  }
}

TEST(node_affinity, pre_score_error_names_the_field) {
  node_affinity plugin{no_args()};
  cycle_state state;
  auto pod = test::make_pod("p")
               .preferred_node_affinity(1, "a", "Exists", {})
               .preferred_node_affinity(5, "foo", "In",
                                        {"ok", "invalid value: ___@#$%^"})
               .build();
  status s = plugin.pre_score(state, *pod, cluster_context{});
  EXPECT_EQ(s.message(),
            "spec.affinity.nodeAffinity."
            "preferredDuringSchedulingIgnoredDuringExecution[1].preference."
            "matchExpressions[0].values[1]: Invalid value: \"invalid value: "
            "___@#$%^\": must be empty or consist of alphanumeric characters, "
            "'-', '_' or '.', and must start and end with an alphanumeric "
            "character");
}

TEST(node_affinity, score_and_normalize) {
  struct test_case {
    std::string name;
    config::node_affinity_args args;
    model::pod_ptr pod;
    std::vector<model::node_ptr> nodes;
    std::vector<std::int64_t> want_raw;
    std::vector<std::int64_t> want_normalized;
  };
  auto n_ssd = test::make_node("ssd").label("disk", "ssd").build();
  auto n_ssd_a
    = test::make_node("ssd-a").label("disk", "ssd").zone("a").build();
  auto n_a = test::make_node("a").zone("a").build();
  auto n_none = test::make_node("none").build();
  auto prefers
    = test::make_pod("p")
        .preferred_node_affinity(30, "disk", "In", {"ssd"})
        .preferred_node_affinity(70, "topology.kubernetes.io/zone", "In", {"a"})
        .build();
  const std::vector<test_case> cases = {
    {"sum of matching weights",
     no_args(),
     prefers,
     {n_ssd, n_ssd_a, n_a, n_none},
     {30, 100, 70, 0},
     {30, 100, 70, 0}},
    {"scaled by the highest sum",
     no_args(),
     prefers,
     {n_ssd, n_a, n_none},
     {30, 70, 0},
     {42, 100, 0}},
    {"nothing matches: all zero",
     no_args(),
     prefers,
     {n_none, n_none},
     {0, 0},
     {0, 0}},
    {"added preferred terms add to the pod's",
     added(std::nullopt,
           {{5, node_term({node_requirement("disk", "Exists")})}}),
     prefers,
     {n_ssd, n_a, n_none},
     {35, 70, 0},
     {50, 100, 0}},
    {"added preferred terms alone",
     added(std::nullopt,
           {{3, node_term({node_requirement("disk", "In", {"ssd"})})},
            {4, node_term({node_requirement("topology.kubernetes.io/zone", "In",
                                            {"a"})})}}),
     test::make_pod("p").build(),
     {n_ssd, n_ssd_a, n_a},
     {3, 7, 4},
     {42, 100, 57}},
    {"matchFields in a preferred term",
     no_args(),
     test::make_pod("p")
       .preferred_node_term(9, node_term({}, {name_field("In", "a")}))
       .build(),
     {n_ssd, n_a},
     {0, 9},
     {0, 100}},
    {"a weight-0 or empty term adds nothing",
     no_args(),
     test::make_pod("p")
       .preferred_node_affinity(0, "disk", "Exists", {})
       .preferred_node_term(50, node_term({}))
       .preferred_node_affinity(1, "disk", "Exists", {})
       .build(),
     {n_ssd, n_none},
     {1, 0},
     {100, 0}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    node_affinity plugin{tc.args};
    cycle_state state;
    ASSERT_TRUE(plugin.pre_score(state, *tc.pod, cluster_context{}).ok());
    auto got = test::score_nodes(plugin, state, *tc.pod, tc.nodes);
    EXPECT_EQ(got.raw, tc.want_raw);
    EXPECT_EQ(got.normalized, tc.want_normalized);
  }
}

TEST(node_affinity, node_hint) {
  struct test_case {
    std::string name;
    config::node_affinity_args args;
    model::pod_ptr pod;
    model::node_ptr before;
    model::node_ptr after;
    queueing_hint want;
  };
  auto ssd_pod = test::make_pod("p").node_selector("disk", "ssd").build();
  auto plain = test::make_pod("p").build();
  auto ssd = test::make_node("n").label("disk", "ssd").build();
  auto ssd_gpu
    = test::make_node("n").label("disk", "ssd").label("gpu", "1").build();
  auto hdd = test::make_node("n").label("disk", "hdd").build();
  auto gpu_only
    = model::node_selector{{node_term({node_requirement("gpu", "Exists")})}};
  const std::vector<test_case> cases = {
    {"added node that matches", no_args(), ssd_pod, nullptr, ssd,
     queueing_hint::queue},
    {"added node that does not match", no_args(), ssd_pod, nullptr, hdd,
     queueing_hint::skip},
    {"added node for an unconstrained pod", no_args(), plain, nullptr, hdd,
     queueing_hint::queue},
    {"label update turns a mismatch into a match", no_args(), ssd_pod, hdd, ssd,
     queueing_hint::queue},
    {"label update on a node that already matched", no_args(), ssd_pod, ssd,
     ssd_gpu, queueing_hint::skip},
    {"label update that breaks the match", no_args(), ssd_pod, ssd, hdd,
     queueing_hint::skip},
    {"added node outside the enforced affinity", added(gpu_only), plain,
     nullptr, ssd, queueing_hint::skip},
    {"added node inside the enforced affinity", added(gpu_only), ssd_pod,
     nullptr, ssd_gpu, queueing_hint::queue},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    node_affinity plugin{tc.args};
    auto events = plugin.events_to_register();
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].event.resource, event_resource::node);
    EXPECT_EQ(events[0].event.actions, action::add | action::update_node_label);
    EXPECT_EQ(
      plugin_testing::hint_for(events[0].hint, *tc.pod, tc.before, tc.after),
      tc.want);
  }
}

// The default profile's wiring (PreFilter, Filter, PreScore, Score weight 2)
// through the framework: the PreFilterResult narrows the nodes, the filter
// reasons carry the plugin name, and the normalized scores are weighted.
profile_ptr build_profile(const config::node_affinity_args& args) {
  return plugin_testing::one_plugin_profile(
    "NodeAffinity",
    args_factory<config::node_affinity_args>("NodeAffinity",
                                             make_node_affinity),
    plugin_testing::filter_and_score_points(2), args);
}

TEST(node_affinity, through_the_profile) {
  auto prof = build_profile(added(model::node_selector{
    {node_term({node_requirement("pool", "NotIn", {"batch"})})}}));
  ASSERT_NE(prof, nullptr);
  std::vector<model::node_info_ptr> nodes = {
    test::make_node_info_ptr(
      test::make_node("n1").label("pool", "batch").zone("a").build()),
    test::make_node_info_ptr(test::make_node("n2").zone("b").build()),
    test::make_node_info_ptr(test::make_node("n3").zone("a").build()),
    test::make_node_info_ptr(test::make_node("n4").zone("a").build()),
  };
  auto pod
    = test::make_pod("p")
        .required_node_term(node_term({}, {name_field("In", "n1")}))
        .required_node_term(node_term({}, {name_field("In", "n2")}))
        .required_node_term(node_term({}, {name_field("In", "n3")}))
        .preferred_node_affinity(10, "topology.kubernetes.io/zone", "In", {"a"})
        .build();
  cluster_context cluster;
  cluster.node_count = 4;
  auto start = begin_cycle(*prof, *pod, cluster);
  ASSERT_TRUE(start.pre_filter_status.ok());
  EXPECT_EQ(start.node_set_plugins, std::vector<std::string>{"NodeAffinity"});
  EXPECT_EQ(sorted_names(start.allowed_nodes),
            (std::vector<std::string>{"n1", "n2", "n3"}));
  filter_options options;
  options.allowed = &start.allowed_nodes;
  auto shard = filter_and_score(*prof, start.state, *pod, nodes, 0, options);
  ASSERT_TRUE(shard.error.ok());
  ASSERT_EQ(shard.failures.size(), 1u);
  EXPECT_EQ(shard.failures[0].node.view(), "n1");
  EXPECT_EQ(shard.failures[0].result.message(), enforced_reason);
  EXPECT_EQ(shard.failures[0].result.plugin(), "NodeAffinity");
  ASSERT_EQ(shard.feasible.size(), 2u);
  EXPECT_EQ(shard.feasible[0].view(), "n2");
  EXPECT_EQ(shard.feasible[1].view(), "n3");

  score_table table;
  table.nodes = shard.feasible;
  table.plugins = score_plan(*prof, start.state).local;
  table.scores = shard.scores;
  EXPECT_EQ(table.scores, (std::vector<std::int64_t>{0, 10}));
  std::mt19937_64 rng{7};
  auto chosen = select_host(*prof, start.state, *pod, table, rng);
  ASSERT_TRUE(chosen);
  EXPECT_EQ(table.scores, (std::vector<std::int64_t>{0, 100}));
  EXPECT_EQ(table.totals, (std::vector<std::int64_t>{0, 200}));
  EXPECT_EQ(table.nodes[*chosen].view(), "n3");
}

TEST(node_affinity, through_the_profile_conflict_and_skips) {
  auto prof = build_profile(no_args());
  ASSERT_NE(prof, nullptr);
  cluster_context cluster;
  auto conflicting = test::make_pod("p")
                       .required_node_term(node_term(
                         {}, {name_field("In", "n1"), name_field("In", "n2")}))
                       .build();
  auto start = begin_cycle(*prof, *conflicting, cluster);
  EXPECT_EQ(start.pre_filter_status.get_code(),
            code::unschedulable_and_unresolvable);
  EXPECT_EQ(start.pre_filter_status.message(), "pod affinity terms conflict");
  EXPECT_EQ(start.pre_filter_status.plugin(), "NodeAffinity");

  auto plain = test::make_pod("q").build();
  auto plain_start = begin_cycle(*prof, *plain, cluster);
  ASSERT_TRUE(plain_start.pre_filter_status.ok());
  const auto slot = prof->find("NodeAffinity")->slot();
  EXPECT_TRUE(plain_start.state.skip_filter.test(slot));
  EXPECT_TRUE(plain_start.state.skip_score.test(slot));
  EXPECT_TRUE(score_plan(*prof, plain_start.state).local.empty());
}

TEST(node_affinity, name_and_factory) {
  auto p = make_node_affinity({});
  EXPECT_EQ(p->name(), "NodeAffinity");
  EXPECT_NE(dynamic_cast<const pre_filter_plugin*>(p.get()), nullptr);
  EXPECT_NE(dynamic_cast<const filter_plugin*>(p.get()), nullptr);
  EXPECT_NE(dynamic_cast<const pre_score_plugin*>(p.get()), nullptr);
  EXPECT_NE(dynamic_cast<const score_plugin*>(p.get()), nullptr);
}

} // namespace tessera::plugins::node_affinity_test
