// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// InterPodAffinity: PreFilter skip rules, Filter outcomes and reasons, and
// AddPod / RemovePod.
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"
#include "plugins/inter_pod_affinity/test_cycle.hpp"
#include "test/support/builders.hpp"
#include "test/support/plugin_cases.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace tessera::plugins::inter_pod_affinity_test {

// n1 and n2 in zone z1, n3 in z2, n4 without a zone label; `pods` land on
// the node named by their spec.nodeName.
std::vector<model::node_info_ptr>
four_nodes(const std::vector<model::pod_ptr>& pods) {
  return zoned_nodes({{"n1", "z1"}, {"n2", "z1"}, {"n3", "z2"}, {"n4", ""}},
                     pods);
}

TEST(inter_pod_affinity_filter, outcomes) {
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    std::vector<model::pod_ptr> existing;
    std::vector<model::namespace_ptr> namespaces;
    bool want_pre_filter_skip;
    bool want_filter_skip;
    std::vector<std::string> want;
  };
  auto db_on = [](const char* node, const char* ns = "default") {
    return bound("db", node, {{"app", "db"}}, ns);
  };
  auto needs_db_zone = test::make_pod("p").required_affinity("app", "db", zone);
  auto avoids_web_host
    = test::make_pod("p").required_anti_affinity("app", "web", hostname);
  auto avoids_web_zone
    = test::make_pod("p").required_anti_affinity("app", "web", zone);
  auto web_hater
    = [](const char* node, const char* key, const char* ns = "default") {
        return test::make_pod("hater")
          .ns(ns)
          .node(node)
          .required_anti_affinity("app", "web", key)
          .build();
      };
  auto team_a = test::make_namespace("team-a", {{"team", "a"}});
  auto team_b = test::make_namespace("team-b", {{"team", "b"}});
  const std::vector<test_case> cases = {
    {"no terms and no pod with required anti-affinity: PreFilter skips",
     test::make_pod("p").label("app", "web").build(),
     {db_on("n1")},
     {},
     true,
     true,
     {ok, ok, ok, ok}},
    {"no terms, existing anti-affinity that does not match: merge skips",
     test::make_pod("p").label("app", "api").build(),
     {web_hater("n1", zone)},
     {},
     false,
     true,
     {ok, ok, ok, ok}},
    {"affinity satisfied in the matching pod's zone only",
     needs_db_zone.build(),
     {db_on("n1")},
     {},
     false,
     false,
     {ok, ok, affinity_fail, affinity_fail}},
    {"affinity with no matching pod and no self-match fails everywhere",
     needs_db_zone.build(),
     {bound("cache", "n1", {{"app", "cache"}})},
     {},
     false,
     false,
     {affinity_fail, affinity_fail, affinity_fail, affinity_fail}},
    {"first pod of a group: no pod matches, the pod matches itself",
     test::make_pod("p")
       .label("app", "db")
       .required_affinity("app", "db", zone)
       .build(),
     {},
     {},
     false,
     false,
     {ok, ok, ok, affinity_fail}},
    {"first-pod rule does not apply once a matching pod exists elsewhere",
     test::make_pod("p")
       .label("app", "db")
       .required_affinity("app", "db", zone)
       .build(),
     {db_on("n3")},
     {},
     false,
     false,
     {affinity_fail, affinity_fail, ok, affinity_fail}},
    {"all affinity terms must be met by one pod, in each term's domain",
     test::make_pod("p")
       .required_affinity("app", "db", zone)
       .required_affinity("tier", "hot", hostname)
       .build(),
     {bound("both", "n1", {{"app", "db"}, {"tier", "hot"}}),
      bound("db-only", "n3", {{"app", "db"}}),
      bound("hot-only", "n2", {{"tier", "hot"}})},
     {},
     false,
     false,
     {ok, affinity_fail, affinity_fail, affinity_fail}},
    {"a term without namespaces looks in the pod's own namespace",
     needs_db_zone.build(),
     {db_on("n1", "other")},
     {},
     false,
     false,
     {affinity_fail, affinity_fail, affinity_fail, affinity_fail}},
    {"explicit namespaces",
     test::make_pod("p")
       .required_affinity_term(term({{"app", "db"}}, zone, {"other"}))
       .build(),
     {db_on("n3", "other")},
     {},
     false,
     false,
     {affinity_fail, affinity_fail, ok, affinity_fail}},
    {"namespaceSelector resolved against the namespaces' labels",
     test::make_pod("p")
       .required_affinity_term(
         term({{"app", "db"}}, zone, {}, test::match_labels({{"team", "a"}})))
       .build(),
     {db_on("n1", "team-b"), db_on("n3", "team-a")},
     {team_a, team_b},
     false,
     false,
     {affinity_fail, affinity_fail, ok, affinity_fail}},
    {"a selector matching no namespace finds no pod",
     test::make_pod("p")
       .required_affinity_term(
         term({{"app", "db"}}, zone, {}, test::match_labels({{"team", "c"}})))
       .build(),
     {db_on("n1", "team-a")},
     {team_a, team_b},
     false,
     false,
     {affinity_fail, affinity_fail, affinity_fail, affinity_fail}},
    {"an empty namespaceSelector matches every namespace",
     test::make_pod("p")
       .required_affinity_term(
         term({{"app", "db"}}, zone, {}, model::label_selector::everything()))
       .build(),
     {db_on("n3", "anywhere")},
     {},
     false,
     false,
     {affinity_fail, affinity_fail, ok, affinity_fail}},
    {"anti-affinity per hostname",
     avoids_web_host.build(),
     {bound("web", "n1", {{"app", "web"}})},
     {},
     false,
     false,
     {anti_fail, ok, ok, ok}},
    {"anti-affinity per zone; a node without the key passes",
     avoids_web_zone.build(),
     {bound("web", "n2", {{"app", "web"}})},
     {},
     false,
     false,
     {anti_fail, anti_fail, ok, ok}},
    {"anti-affinity ignores pods of other namespaces",
     avoids_web_zone.build(),
     {bound("web", "n2", {{"app", "web"}}, "other")},
     {},
     false,
     false,
     {ok, ok, ok, ok}},
    {"existing pod's anti-affinity matching the pod blocks its zone",
     test::make_pod("p").label("app", "web").build(),
     {web_hater("n1", zone)},
     {},
     false,
     false,
     {existing_fail, existing_fail, ok, ok}},
    {"existing pod's anti-affinity per hostname",
     test::make_pod("p").label("app", "web").build(),
     {web_hater("n3", hostname)},
     {},
     false,
     false,
     {ok, ok, existing_fail, ok}},
    {"existing pod's term applies to its own namespace",
     test::make_pod("p").label("app", "web").build(),
     {web_hater("n1", zone, "other")},
     {},
     false,
     true,
     {ok, ok, ok, ok}},
    {"existing pod's namespaceSelector reads the incoming pod's namespace",
     test::make_pod("p").ns("team-a").label("app", "web").build(),
     {test::make_pod("hater")
        .ns("team-b")
        .node("n3")
        .required_anti_affinity_term(
          term({{"app", "web"}}, zone, {}, test::match_labels({{"team", "a"}})))
        .build()},
     {team_a, team_b},
     false,
     false,
     {ok, ok, existing_fail, ok}},
    {"existing namespaceSelector against an unknown namespace (no labels)",
     test::make_pod("p").ns("ghost").label("app", "web").build(),
     {test::make_pod("hater")
        .node("n3")
        .required_anti_affinity_term(
          term({{"app", "web"}}, zone, {}, test::match_labels({{"team", "a"}})))
        .build()},
     {team_a},
     false,
     true,
     {ok, ok, ok, ok}},
    {"affinity is checked before anti-affinity",
     test::make_pod("p")
       .required_affinity("app", "db", hostname)
       .required_anti_affinity("app", "web", zone)
       .build(),
     {db_on("n2"), bound("web", "n1", {{"app", "web"}})},
     {},
     false,
     false,
     {affinity_fail, anti_fail, affinity_fail, affinity_fail}},
    {"anti-affinity is checked before existing pods' anti-affinity",
     test::make_pod("p")
       .label("app", "web")
       .required_anti_affinity("app", "hater", hostname)
       .build(),
     {test::make_pod("hater")
        .label("app", "hater")
        .node("n1")
        .required_anti_affinity("app", "web", zone)
        .build()},
     {},
     false,
     false,
     {anti_fail, existing_fail, ok, ok}},
    {"a pod matching its own anti-affinity is blocked only by others",
     test::make_pod("p")
       .label("app", "web")
       .required_anti_affinity("app", "web", hostname)
       .build(),
     {bound("web", "n4", {{"app", "web"}})},
     {},
     false,
     false,
     {ok, ok, ok, anti_fail}},
  };
  inter_pod_affinity plugin{config::inter_pod_affinity_args{}};
  plugin.bind_context({0});
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto nodes = four_nodes(tc.existing);
    auto ctx = make_context(nodes, tc.namespaces);
    for (std::size_t shards : {1u, 2u, 3u}) {
      SCOPED_TRACE("shards " + std::to_string(shards));
      auto run = prepare(plugin, *tc.pod, nodes, ctx, shards);
      EXPECT_EQ(run.pre_filter_skipped, tc.want_pre_filter_skip);
      EXPECT_EQ(run.state.skip_filter.test(0), tc.want_filter_skip);
      EXPECT_EQ(filter_all(plugin, run.state, *tc.pod, nodes), tc.want);
    }
  }
}

TEST(inter_pod_affinity_filter, node_without_node_object_is_an_error) {
  inter_pod_affinity plugin{config::inter_pod_affinity_args{}};
  plugin.bind_context({0});
  auto pod = test::make_pod("p").required_anti_affinity("a", "b", zone).build();
  auto nodes = four_nodes({});
  auto run = prepare(plugin, *pod, nodes, make_context(nodes));
  test::expect_missing_node_error(plugin, run.state, *pod);
}

TEST(inter_pod_affinity_filter, reasons_and_node_locality) {
  inter_pod_affinity plugin{config::inter_pod_affinity_args{}};
  EXPECT_EQ(plugin.name(), "InterPodAffinity");
  EXPECT_FALSE(plugin.node_local());
  EXPECT_TRUE(plugin.has_extensions());
  EXPECT_EQ(plugin.reason_affinity().view(),
            "node(s) didn't match pod affinity rules");
  EXPECT_EQ(plugin.reason_anti_affinity().view(),
            "node(s) didn't match pod anti-affinity rules");
  EXPECT_EQ(plugin.reason_existing_anti_affinity().view(),
            "node(s) didn't satisfy existing pods anti-affinity rules");
}

// AddPod / RemovePod change a copy of the state the way the pod's arrival or
// departure would change the scan, and leave the original untouched.
TEST(inter_pod_affinity_filter, add_and_remove_pod) {
  const std::vector<test::extension_case> cases = {
    {"an added pod satisfies affinity in its zone",
     test::make_pod("p").required_affinity("app", "db", zone).build(),
     {},
     {bound("db", "n3", {{"app", "db"}})},
     {},
     {affinity_fail, affinity_fail, affinity_fail, affinity_fail},
     {affinity_fail, affinity_fail, ok, affinity_fail}},
    {"removing the only matching pod brings back the first-pod rule",
     test::make_pod("p")
       .label("app", "db")
       .required_affinity("app", "db", zone)
       .build(),
     {bound("db", "n3", {{"app", "db"}})},
     {},
     {bound("db", "n3", {{"app", "db"}})},
     {affinity_fail, affinity_fail, ok, affinity_fail},
     {ok, ok, ok, affinity_fail}},
    {"an added pod blocks its host for anti-affinity",
     test::make_pod("p").required_anti_affinity("app", "web", hostname).build(),
     {},
     {bound("web", "n2", {{"app", "web"}})},
     {},
     {ok, ok, ok, ok},
     {ok, anti_fail, ok, ok}},
    {"removing a matching pod frees its zone",
     test::make_pod("p").required_anti_affinity("app", "web", zone).build(),
     {bound("web", "n1", {{"app", "web"}})},
     {},
     {bound("web", "n1", {{"app", "web"}})},
     {anti_fail, anti_fail, ok, ok},
     {ok, ok, ok, ok}},
    {"an added pod's anti-affinity matching the pod blocks its zone",
     test::make_pod("p")
       .label("app", "web")
       .required_anti_affinity("app", "x", hostname)
       .build(),
     {},
     {test::make_pod("hater")
        .node("n3")
        .required_anti_affinity("app", "web", zone)
        .build()},
     {},
     {ok, ok, ok, ok},
     {ok, ok, existing_fail, ok}},
    {"removing an existing pod with anti-affinity lifts its block",
     test::make_pod("p").label("app", "web").build(),
     {test::make_pod("hater")
        .node("n1")
        .required_anti_affinity("app", "web", hostname)
        .build()},
     {},
     {test::make_pod("hater")
        .node("n1")
        .required_anti_affinity("app", "web", hostname)
        .build()},
     {existing_fail, ok, ok, ok},
     {ok, ok, ok, ok}},
    {"adding then removing the same pod restores the counts",
     test::make_pod("p").required_anti_affinity("app", "web", zone).build(),
     {},
     {bound("web", "n3", {{"app", "web"}})},
     {bound("web", "n3", {{"app", "web"}})},
     {ok, ok, ok, ok},
     {ok, ok, ok, ok}},
  };
  inter_pod_affinity plugin{config::inter_pod_affinity_args{}};
  plugin.bind_context({0});
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto nodes = four_nodes(tc.existing);
    auto run = prepare(plugin, *tc.pod, nodes, make_context(nodes));
    ASSERT_FALSE(run.state.skip_filter.test(0));
    test::expect_extensions(plugin, run.state, tc, nodes);
  }
}

TEST(inter_pod_affinity_filter, add_pod_without_prefilter_state_is_an_error) {
  inter_pod_affinity plugin{config::inter_pod_affinity_args{}};
  plugin.bind_context({0});
  cycle_state state{1};
  auto pod = test::make_pod("p").build();
  auto nodes = four_nodes({});
  status s = plugin.add_pod(state, *pod, *pod, *nodes.front());
  EXPECT_EQ(s.get_code(), code::error);
}

} // namespace tessera::plugins::inter_pod_affinity_test
