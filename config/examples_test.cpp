// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

// Golden tests over examples/config/: each real-world style file loads to
// exactly the expected plugins and args, and survives a write/load round
// trip.
#include "config/plugin_sets_text.hpp"
#include "config/scheduler_config.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace tessera::config {
namespace {

std::string example(const std::string& name) {
  const char* dir = std::getenv("TESSERA_SOURCE_DIR");
  return std::string{dir != nullptr ? dir : TESSERA_SOURCE_DIR_FALLBACK}
         + "/examples/config/" + name;
}

// The default args of every plugin with an args type, minus `without`, with
// `changed` applied.
std::map<std::string, plugin_args>
default_args(const std::vector<std::string>& without,
             std::map<std::string, plugin_args> changed) {
  std::map<std::string, plugin_args> out = {
    {"DefaultPreemption", default_preemption_args{}},
    {"InterPodAffinity", inter_pod_affinity_args{}},
    {"NodeAffinity", node_affinity_args{}},
    {"NodeResourcesBalancedAllocation",
     node_resources_balanced_allocation_args{}},
    {"NodeResourcesFit", node_resources_fit_args{}},
    {"PodTopologySpread", pod_topology_spread_args{}},
    {"VolumeBinding", volume_binding_args{}},
  };
  for (const auto& name : without)
    out.erase(name);
  for (auto& [name, args] : changed)
    out[name] = std::move(args);
  return out;
}

struct want_profile {
  std::string name;
  std::optional<std::int32_t> percentage;
  std::string plugins;
  std::map<std::string, plugin_args> args;
};

model::topology_spread_constraint
constraint(std::int32_t skew, std::string key,
           model::topology_spread_constraint::when_unsatisfiable action) {
  model::topology_spread_constraint c;
  c.max_skew = skew;
  c.topology_key = model::symbol{key};
  c.action = action;
  return c;
}

TEST(examples, load_to_the_expected_profiles) {
  using tsc = model::topology_spread_constraint;
  using kind = scoring_strategy::kind;
  struct test_case {
    std::string file;
    std::vector<want_profile> profiles;
    // Checks of other fields.
    std::function<void(const scheduler_config&)> check;
  };

  node_resources_fit_args packing;
  packing.strategy.type = kind::most_allocated;

  node_resources_fit_args ratio;
  ratio.strategy.type = kind::requested_to_capacity_ratio;
  ratio.strategy.resources = {{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 3}};
  ratio.strategy.shape = {{0, 0}, {70, 10}, {100, 4}};

  pod_topology_spread_args no_spreading;
  no_spreading.defaulting_type = pod_topology_spread_args::defaulting::list;

  pod_topology_spread_args zone_and_host = no_spreading;
  zone_and_host.default_constraints
    = {constraint(1, "topology.kubernetes.io/zone",
                  tsc::when_unsatisfiable::do_not_schedule),
       constraint(3, "kubernetes.io/hostname",
                  tsc::when_unsatisfiable::schedule_anyway)};

  node_affinity_args gpu_pool;
  {
    using op = model::node_selector_requirement::op;
    model::node_affinity affinity;
    model::node_selector_requirement pool;
    pool.key = model::symbol{"node.example.com/pool"};
    pool.oper = op::in;
    pool.values.push_back(model::symbol{"gpu"});
    model::node_selector_term term;
    term.match_expressions.push_back(pool);
    affinity.required = model::node_selector{{term}};
    model::node_selector_requirement generation;
    generation.key = model::symbol{"node.example.com/gpu-generation"};
    generation.oper = op::gt;
    generation.values.push_back(model::symbol{"3"});
    generation.number = 3;
    model::preferred_scheduling_term preferred;
    preferred.weight = 50;
    preferred.preference.match_expressions.push_back(generation);
    affinity.preferred.push_back(preferred);
    gpu_pool.added_affinity = affinity;
  }

  node_resources_fit_args upstream_fit;
  upstream_fit.ignored_resource_groups = {"example.com"};
  upstream_fit.strategy.type = kind::most_allocated;
  upstream_fit.strategy.resources
    = {{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 3}};
  pod_topology_spread_args upstream_spread = no_spreading;
  upstream_spread.default_constraints
    = {constraint(1, "topology.kubernetes.io/zone",
                  tsc::when_unsatisfiable::schedule_anyway)};

  const std::vector<test_case> cases = {
    {"minimal.yaml",
     {{"default-scheduler", std::nullopt, testing::default_plugin_text(),
       default_args({}, {})}},
     [](const scheduler_config& cfg) {
       EXPECT_EQ(cfg.client_connection.kubeconfig,
                 "/etc/kubernetes/scheduler.conf");
     }},
    {"defaults.yaml",
     {{"default-scheduler", std::nullopt, testing::default_plugin_text(),
       default_args({}, {})}},
     [](const scheduler_config& cfg) { EXPECT_EQ(cfg, default_config()); }},
    {"bin-packing.yaml",
     {{"default-scheduler", std::nullopt,
       testing::patched_default_text(
         "preScore: TaintToleration NodeAffinity NodeResourcesFit "
         "VolumeBinding PodTopologySpread InterPodAffinity\n"
         "score: NodeResourcesFit(5) TaintToleration(3) "
         "NodeAffinity(2) VolumeBinding(1) PodTopologySpread(2) "
         "InterPodAffinity(2) ImageLocality(1)\n"),
       default_args({"NodeResourcesBalancedAllocation"},
                    {{"NodeResourcesFit", packing}})}},
     [](const scheduler_config& cfg) { EXPECT_EQ(cfg.tessera.shards, 2); }},
    {"batch-profile.yaml",
     {{"default-scheduler", std::nullopt, testing::default_plugin_text(),
       default_args({}, {})},
      {"batch-scheduler", 20,
       testing::patched_default_text(
         "preScore: TaintToleration NodeAffinity NodeResourcesFit "
         "VolumeBinding PodTopologySpread InterPodAffinity\n"
         "score: NodeResourcesFit(3) TaintToleration(3) "
         "NodeAffinity(2) VolumeBinding(1) PodTopologySpread(2) "
         "InterPodAffinity(2)\n"),
       default_args({"NodeResourcesBalancedAllocation"},
                    {{"NodeResourcesFit", packing},
                     {"PodTopologySpread", no_spreading},
                     {"DefaultPreemption", default_preemption_args{5, 20}}})}},
     nullptr},
    {"requested-to-capacity-ratio.yaml",
     {{"default-scheduler", std::nullopt, testing::default_plugin_text(),
       default_args({}, {{"NodeResourcesFit", ratio}})}},
     nullptr},
    {"topology-spread-defaults.yaml",
     {{"default-scheduler", std::nullopt, testing::default_plugin_text(),
       default_args({}, {{"PodTopologySpread", zone_and_host}})}},
     nullptr},
    {"added-affinity.yaml",
     {{"default-scheduler", std::nullopt, testing::default_plugin_text(),
       default_args({}, {})},
      {"gpu-scheduler", std::nullopt, testing::default_plugin_text(),
       default_args({}, {{"NodeAffinity", gpu_pool}})}},
     nullptr},
    {"no-storage.yaml",
     {{"default-scheduler", std::nullopt,
       testing::patched_default_text(
         "preFilter: NodeAffinity NodePorts NodeResourcesFit "
         "PodTopologySpread InterPodAffinity DynamicResources "
         "NodeDeclaredFeatures\n"
         "filter: NodeUnschedulable NodeName TaintToleration "
         "NodeAffinity NodePorts NodeResourcesFit PodTopologySpread "
         "InterPodAffinity NodeDeclaredFeatures\n"
         "preScore: NodeAffinity NodeResourcesFit PodTopologySpread "
         "InterPodAffinity NodeResourcesBalancedAllocation\n"
         "score: NodeAffinity(2) NodeResourcesFit(1) "
         "PodTopologySpread(2) InterPodAffinity(2) "
         "NodeResourcesBalancedAllocation(1)\n"
         "reserve:\npreBind:\n"),
       default_args({"VolumeBinding"}, {})}},
     [](const scheduler_config& cfg) {
       EXPECT_FALSE(cfg.leader_election.leader_elect);
     }},
    {"upstream-style.yaml",
     {{"default-scheduler", std::nullopt,
       testing::patched_default_text(
         "score: NodeResourcesFit(5) TaintToleration(3) "
         "NodeAffinity(2) VolumeBinding(1) PodTopologySpread(2) "
         "InterPodAffinity(2) NodeResourcesBalancedAllocation(1)\n"),
       default_args({},
                    {{"NodeResourcesFit", upstream_fit},
                     {"PodTopologySpread", upstream_spread},
                     {"DefaultPreemption", default_preemption_args{20, 50}}})},
      {"no-scoring-scheduler", 50,
       testing::patched_default_text("preScore:\nscore:\n"),
       default_args({}, {})}},
     [](const scheduler_config& cfg) {
       EXPECT_EQ(cfg.parallelism, 32);
       EXPECT_EQ(cfg.pod_initial_backoff_seconds, 2);
       EXPECT_EQ(cfg.pod_max_backoff_seconds, 20);
       EXPECT_EQ(cfg.client_connection.qps, 100.0f);
       EXPECT_EQ(cfg.client_connection.burst, 200);
     }},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.file);
    auto cfg = load_config_file(example(tc.file));
    ASSERT_TRUE(cfg.has_value()) << cfg.err().message;
    ASSERT_EQ(cfg->profiles.size(), tc.profiles.size());
    for (std::size_t i = 0; i < tc.profiles.size(); ++i) {
      SCOPED_TRACE(tc.profiles[i].name);
      const auto& got = cfg->profiles[i];
      EXPECT_EQ(got.scheduler_name, tc.profiles[i].name);
      EXPECT_EQ(got.percentage_of_nodes_to_score, tc.profiles[i].percentage);
      EXPECT_EQ(testing::describe(got.plugins), tc.profiles[i].plugins);
      EXPECT_EQ(got.plugin_config, tc.profiles[i].args);
    }
    if (tc.check)
      tc.check(*cfg);
    auto again = load_config(write_config(*cfg));
    ASSERT_TRUE(again.has_value()) << again.err().message;
    EXPECT_EQ(*again, *cfg);
  }
}

} // namespace
} // namespace tessera::config
