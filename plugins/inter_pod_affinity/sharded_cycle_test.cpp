// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// InterPodAffinity and PodTopologySpread together in a profile, driven
// through the framework's cycle phases (begin_cycle, run_scans per shard,
// merge_scans, filter_and_score per shard, merge_summaries, deferred
// scores, select_host): every shard split must give the one-shard failures,
// normalized scores, totals and choice.
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/profile.hpp"
#include "plugins/framework/registry.hpp"
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"
#include "plugins/inter_pod_affinity/test_cycle.hpp"
#include "plugins/pod_topology_spread/pod_topology_spread.hpp"
#include "test/support/builders.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace tessera::plugins::inter_pod_affinity_test {

// A profile with both plugins at PreFilter, Filter, PreScore and Score
// (weight 2 each, as in kube-scheduler's default profile).
profile_ptr cross_node_profile() {
  registry reg;
  EXPECT_FALSE(reg.add("InterPodAffinity",
                       args_factory<config::inter_pod_affinity_args>(
                         "InterPodAffinity", make_inter_pod_affinity)));
  EXPECT_FALSE(reg.add("PodTopologySpread",
                       args_factory<config::pod_topology_spread_args>(
                         "PodTopologySpread", make_pod_topology_spread)));
  config::profile_config cfg;
  const std::vector<config::plugin_ref> both
    = {{"InterPodAffinity", 0}, {"PodTopologySpread", 0}};
  cfg.plugins.pre_filter = both;
  cfg.plugins.filter = both;
  cfg.plugins.pre_score = both;
  cfg.plugins.score = {{"InterPodAffinity", 2}, {"PodTopologySpread", 2}};
  auto prof = profile::build(cfg, reg, 0);
  EXPECT_TRUE(prof.has_value());
  return prof ? *prof : nullptr;
}

// 12 nodes over 3 zones; pods of two apps, some with required or preferred
// anti-affinity of their own.
std::vector<model::node_info_ptr> cycle_cluster() {
  std::vector<zoned_node> specs;
  std::vector<model::pod_ptr> pods;
  for (int i = 0; i < 12; ++i) {
    std::string name = "c-" + std::to_string(i);
    specs.push_back({name, "z" + std::to_string(i % 3)});
    for (int k = 0; k < i % 4; ++k) {
      auto b = test::make_pod(name + "-" + std::to_string(k))
                 .label("app", (i + k) % 2 == 0 ? "web" : "db")
                 .node(name);
      if (i == 5 && k == 0)
        b.required_anti_affinity("app", "cache", hostname);
      if (i == 7 && k == 1)
        b.preferred_anti_affinity(5, "app", "web", zone);
      pods.push_back(b.build());
    }
  }
  return zoned_nodes(specs, pods);
}

// What one cycle decided, in a shard-independent form.
struct cycle_outcome {
  std::map<std::string, std::string> failures;
  std::vector<std::string> feasible;
  std::vector<std::int64_t> normalized;
  std::vector<std::int64_t> totals;
  std::string chosen;
  friend bool operator==(const cycle_outcome&, const cycle_outcome&) = default;
};

cycle_outcome run_sharded_cycle(const profile& prof, const model::pod& p,
                                const std::vector<model::node_info_ptr>& nodes,
                                const cluster_context& ctx,
                                std::size_t shards) {
  cycle_outcome out;
  cycle_start start = begin_cycle(prof, p, ctx);
  EXPECT_TRUE(start.pre_filter_status.ok());
  std::vector<std::vector<model::node_info_ptr>> split(shards);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    split[i % shards].push_back(nodes[i]);
  std::vector<std::vector<scan_partial_ptr>> partials;
  for (const auto& part : split)
    partials.push_back(run_scans(prof, start.state, p, start.scans, part));
  EXPECT_TRUE(
    merge_scans(prof, start.state, p, start.scans, std::move(partials)).ok());
  cycle_state& state = start.state;

  active_scores plan = score_plan(prof, state);
  std::vector<shard_result> results;
  std::vector<std::vector<feasible_summary_ptr>> summaries;
  for (const auto& part : split) {
    results.push_back(filter_and_score(prof, state, p, part, 0, {}));
    summaries.push_back(std::move(results.back().summaries));
  }
  EXPECT_TRUE(merge_summaries(prof, state, p, plan, std::move(summaries)).ok());

  // Raw scores per node name, by profile score index.
  std::map<std::string, std::map<std::size_t, std::int64_t>> raw;
  for (std::size_t s = 0; s < split.size(); ++s) {
    const shard_result& r = results[s];
    for (const auto& f : r.failures)
      out.failures[f.node.str()] = f.result.message();
    std::vector<const model::node_info*> feasible;
    for (std::size_t i = 0; i < r.feasible.size(); ++i) {
      for (const auto& ni : split[s])
        if (ni->name() == r.feasible[i])
          feasible.push_back(ni.get());
      for (std::size_t k = 0; k < plan.local.size(); ++k)
        raw[r.feasible[i].str()][plan.local[k]]
          = r.scores[k * r.feasible.size() + i];
    }
    auto deferred = score_nodes(prof, state, p, plan.deferred, feasible);
    for (std::size_t k = 0; k < plan.deferred.size(); ++k)
      for (std::size_t i = 0; i < feasible.size(); ++i)
        raw[feasible[i]->name().str()][plan.deferred[k]]
          = deferred[k * feasible.size() + i];
  }
  if (raw.empty())
    return out;
  score_table table;
  for (const auto& [name, _] : raw) {
    out.feasible.push_back(name);
    table.nodes.push_back(model::symbol{name});
  }
  table.plugins = plan.local;
  table.plugins.insert(table.plugins.end(), plan.deferred.begin(),
                       plan.deferred.end());
  std::sort(table.plugins.begin(), table.plugins.end());
  for (std::size_t k : table.plugins)
    for (const auto& [name, by_plugin] : raw)
      table.scores.push_back(by_plugin.at(k));
  std::mt19937_64 rng{42};
  auto chosen = select_host(prof, state, p, table, rng);
  EXPECT_TRUE(chosen.has_value());
  if (chosen) {
    out.chosen = table.nodes[*chosen].str();
    out.normalized = table.scores;
    out.totals = table.totals;
  }
  return out;
}

TEST(cross_node_plugins_sharding, framework_cycle_any_split) {
  auto prof = cross_node_profile();
  ASSERT_NE(prof, nullptr);
  ASSERT_EQ(prof->scanners().size(), 2u);
  auto nodes = cycle_cluster();
  auto ctx = make_context(nodes);
  struct test_case {
    std::string name;
    model::pod_ptr pod;
    std::size_t want_failures;
  };
  const std::vector<test_case> cases = {
    {"required anti-affinity and hard zone spread",
     test::make_pod("p")
       .label("app", "web")
       .required_anti_affinity("app", "web", hostname)
       .spread(zone, 1, "DoNotSchedule", {{"app", "web"}})
       .build(),
     6},
    {"preferred affinity and soft spread",
     test::make_pod("p")
       .label("app", "db")
       .preferred_affinity(10, "app", "web", zone)
       .spread(hostname, 1, "ScheduleAnyway", {{"app", "db"}})
       .spread(zone, 2, "ScheduleAnyway", {{"app", "db"}})
       .build(),
     0},
    {"matching an existing pod's anti-affinity",
     test::make_pod("p")
       .label("app", "cache")
       .spread(zone, 1, "ScheduleAnyway", {{"app", "cache"}})
       .build(),
     1},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto one = run_sharded_cycle(*prof, *tc.pod, nodes, ctx, 1);
    EXPECT_FALSE(one.feasible.empty());
    EXPECT_EQ(one.failures.size(), tc.want_failures);
    for (std::size_t shards : {2u, 3u, 5u}) {
      SCOPED_TRACE("shards " + std::to_string(shards));
      EXPECT_EQ(run_sharded_cycle(*prof, *tc.pod, nodes, ctx, shards), one);
    }
  }
}

} // namespace tessera::plugins::inter_pod_affinity_test
