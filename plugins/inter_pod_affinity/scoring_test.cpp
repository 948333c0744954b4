// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// InterPodAffinity: PreScore skip rules, raw scores and NormalizeScore.
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"
#include "plugins/inter_pod_affinity/test_cycle.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::plugins::inter_pod_affinity_test {

// n1 and n2 in zone z1, n3 in z2, n4 in z3.
std::vector<model::node_info_ptr>
scoring_nodes(const std::vector<model::pod_ptr>& pods) {
  return zoned_nodes({{"n1", "z1"}, {"n2", "z1"}, {"n3", "z2"}, {"n4", "z3"}},
                     pods);
}

TEST(inter_pod_affinity_score, raw_and_normalized) {
  struct test_case {
    std::string name;
    config::inter_pod_affinity_args args;
    model::pod_ptr pod;
    std::vector<model::pod_ptr> existing;
    std::vector<model::namespace_ptr> namespaces;
    bool want_skip;
    std::vector<std::int64_t> want_raw;
    std::vector<std::int64_t> want_normalized;
  };
  const config::inter_pod_affinity_args defaults{};
  config::inter_pod_affinity_args hard7 = defaults;
  hard7.hard_pod_affinity_weight = 7;
  config::inter_pod_affinity_args hard0 = defaults;
  hard0.hard_pod_affinity_weight = 0;
  config::inter_pod_affinity_args ignore_existing = defaults;
  ignore_existing.ignore_preferred_terms_of_existing_pods = true;

  auto db = [](const char* node, const char* ns = "default") {
    static int n = 0;
    return bound("db-" + std::to_string(++n), node, {{"app", "db"}}, ns);
  };
  auto web = [](const char* node) {
    static int n = 0;
    return bound("web-" + std::to_string(++n), node, {{"app", "web"}});
  };
  auto team_a = test::make_namespace("team-a", {{"team", "a"}});
  const std::vector<test_case> cases = {
    {"no preferred terms and no pod with affinity: PreScore skips",
     defaults,
     test::make_pod("p").label("app", "web").build(),
     {db("n1")},
     {},
     true,
     {},
     {}},
    {"preferred affinity counts the matching pod's zone",
     defaults,
     test::make_pod("p").preferred_affinity(5, "app", "db", zone).build(),
     {db("n1")},
     {},
     false,
     {5, 5, 0, 0},
     {100, 100, 0, 0}},
    {"preferred anti-affinity subtracts per host",
     defaults,
     test::make_pod("p")
       .preferred_anti_affinity(3, "app", "web", hostname)
       .build(),
     {web("n1"), web("n3")},
     {},
     false,
     {-3, 0, -3, 0},
     {0, 100, 0, 100}},
    {"affinity and anti-affinity add up per node",
     defaults,
     test::make_pod("p")
       .preferred_affinity(5, "app", "db", zone)
       .preferred_anti_affinity(3, "app", "web", hostname)
       .build(),
     {db("n1"), web("n1")},
     {},
     false,
     {2, 5, 0, 0},
     {40, 100, 0, 0}},
    {"weights add up per matching pod; normalization truncates",
     defaults,
     test::make_pod("p").preferred_affinity(1, "app", "db", hostname).build(),
     {db("n1"), db("n2"), db("n2"), db("n3"), db("n3"), db("n3")},
     {},
     false,
     {1, 2, 3, 0},
     {33, 66, 100, 0}},
    {"negative scores normalize against the minimum",
     defaults,
     test::make_pod("p")
       .preferred_anti_affinity(1, "app", "web", hostname)
       .build(),
     {web("n1"), web("n2"), web("n2")},
     {},
     false,
     {-1, -2, 0, 0},
     {50, 0, 100, 100}},
    {"equal scores everywhere normalize to 0",
     defaults,
     test::make_pod("p").preferred_affinity(4, "app", "db", hostname).build(),
     {db("n1"), db("n2"), db("n3"), db("n4")},
     {},
     false,
     {4, 4, 4, 4},
     {0, 0, 0, 0}},
    {"a matching pod in another namespace does not count",
     defaults,
     test::make_pod("p").preferred_affinity(5, "app", "db", zone).build(),
     {db("n1", "other")},
     {},
     true,
     {},
     {}},
    {"preferred namespaceSelector resolved against namespace labels",
     defaults,
     test::make_pod("p")
       .preferred_affinity_term(2, term({{"app", "db"}}, zone, {},
                                        test::match_labels({{"team", "a"}})))
       .build(),
     {db("n1", "other"), db("n3", "team-a")},
     {team_a},
     false,
     {0, 0, 2, 0},
     {0, 0, 100, 0}},
    {"existing pod's required affinity matching the pod: hardPodAffinityWeight",
     hard7,
     test::make_pod("p").label("app", "web").build(),
     {test::make_pod("e")
        .node("n3")
        .required_affinity("app", "web", zone)
        .build()},
     {},
     false,
     {0, 0, 7, 0},
     {0, 0, 100, 0}},
    {"hardPodAffinityWeight 0 ignores existing required affinity",
     hard0,
     test::make_pod("p").label("app", "web").build(),
     {test::make_pod("e")
        .node("n3")
        .required_affinity("app", "web", zone)
        .build()},
     {},
     true,
     {},
     {}},
    {"existing pods' preferred affinity and anti-affinity",
     defaults,
     test::make_pod("p").label("app", "web").build(),
     {test::make_pod("likes")
        .node("n1")
        .preferred_affinity(4, "app", "web", hostname)
        .build(),
      test::make_pod("dislikes")
        .node("n3")
        .preferred_anti_affinity(2, "app", "web", zone)
        .build()},
     {},
     false,
     {4, 0, -2, 0},
     {100, 33, 0, 33}},
    {"existing pods' terms that do not match the pod: nothing accumulated",
     defaults,
     test::make_pod("p").label("app", "api").build(),
     {test::make_pod("likes")
        .node("n1")
        .preferred_affinity(4, "app", "web", hostname)
        .build()},
     {},
     true,
     {},
     {}},
    {"ignorePreferredTermsOfExistingPods without preferred terms skips",
     ignore_existing,
     test::make_pod("p").label("app", "web").build(),
     {test::make_pod("likes")
        .node("n1")
        .preferred_affinity(4, "app", "web", hostname)
        .build()},
     {},
     true,
     {},
     {}},
    {"ignorePreferredTermsOfExistingPods still counts them with own terms",
     ignore_existing,
     test::make_pod("p")
       .label("app", "web")
       .preferred_affinity(1, "app", "db", zone)
       .build(),
     {db("n3"), test::make_pod("likes")
                  .node("n1")
                  .preferred_affinity(4, "app", "web", hostname)
                  .build()},
     {},
     false,
     {4, 0, 1, 0},
     {100, 0, 25, 0}},
    {"existing pod's term with namespaceSelector reads the pod's namespace",
     defaults,
     test::make_pod("p").ns("team-a").label("app", "web").build(),
     {test::make_pod("likes")
        .ns("elsewhere")
        .node("n2")
        .preferred_affinity_term(6, term({{"app", "web"}}, hostname, {},
                                         test::match_labels({{"team", "a"}})))
        .build()},
     {team_a},
     false,
     {0, 6, 0, 0},
     {0, 100, 0, 0}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    inter_pod_affinity plugin{tc.args};
    plugin.bind_context({0});
    auto nodes = scoring_nodes(tc.existing);
    auto ctx = make_context(nodes, tc.namespaces);
    for (std::size_t shards : {1u, 2u, 3u}) {
      SCOPED_TRACE("shards " + std::to_string(shards));
      auto run = prepare(plugin, *tc.pod, nodes, ctx, shards);
      EXPECT_EQ(run.state.skip_score.test(0), tc.want_skip);
      auto got = score_all(plugin, run.state, *tc.pod, nodes);
      EXPECT_EQ(got.raw, tc.want_raw);
      EXPECT_EQ(got.normalized, tc.want_normalized);
    }
  }
}

TEST(inter_pod_affinity_score, pre_score_skips_without_scanning) {
  struct test_case {
    std::string name;
    config::inter_pod_affinity_args args;
    model::pod_ptr pod;
    std::vector<model::pod_ptr> existing;
    bool want_pre_score_skip;
  };
  config::inter_pod_affinity_args ignore_existing{};
  ignore_existing.ignore_preferred_terms_of_existing_pods = true;
  const std::vector<test_case> cases = {
    {"no preferred terms, no pod with affinity",
     {},
     test::make_pod("p").build(),
     {bound("x", "n1", {{"a", "b"}})},
     true},
    {"no preferred terms, a pod with affinity",
     {},
     test::make_pod("p").build(),
     {test::make_pod("e")
        .node("n1")
        .preferred_affinity(1, "a", "b", zone)
        .build()},
     false},
    {"ignoring existing pods' terms",
     ignore_existing,
     test::make_pod("p").build(),
     {test::make_pod("e")
        .node("n1")
        .preferred_affinity(1, "a", "b", zone)
        .build()},
     true},
    {"own preferred terms always scan",
     ignore_existing,
     test::make_pod("p").preferred_anti_affinity(1, "a", "b", zone).build(),
     {},
     false},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    inter_pod_affinity plugin{tc.args};
    plugin.bind_context({0});
    auto nodes = scoring_nodes(tc.existing);
    cycle_state state{1};
    status s = plugin.pre_score(state, *tc.pod, make_context(nodes));
    EXPECT_EQ(s.is_skip(), tc.want_pre_score_skip);
  }
}

TEST(inter_pod_affinity_score, normalize_leaves_scores_without_a_map) {
  inter_pod_affinity plugin{config::inter_pod_affinity_args{}};
  plugin.bind_context({0});
  cycle_state state{1};
  std::vector<node_score> scores
    = {{model::symbol{"a"}, 3}, {model::symbol{"b"}, 7}};
  auto pod = test::make_pod("p").build();
  EXPECT_TRUE(plugin.normalize_scores(state, *pod, scores).ok());
  EXPECT_EQ(scores[0].score, 3);
  EXPECT_EQ(scores[1].score, 7);
}

} // namespace tessera::plugins::inter_pod_affinity_test
