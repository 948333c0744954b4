// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "config/plugin_args.hpp"
#include "config/scheduler_config.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace tessera::config {
namespace {

// A config with one profile whose pluginConfig has `plugin` with `args`
// (YAML, indented by the caller's two spaces).
std::string config_with_args(const std::string& plugin,
                             const std::string& args) {
  std::string indented;
  std::istringstream lines(args);
  for (std::string line; std::getline(lines, line);)
    indented += "      " + line + "\n";
  return "apiVersion: kubescheduler.config.k8s.io/v1\n"
         "kind: KubeSchedulerConfiguration\n"
         "profiles:\n"
         "- schedulerName: default-scheduler\n"
         "  pluginConfig:\n"
         "  - name: "
         + plugin + "\n    args:\n" + indented;
}

model::node_selector_requirement
requirement(std::string key, model::node_selector_requirement::op oper,
            std::vector<std::string> values) {
  model::node_selector_requirement req;
  req.key = model::symbol{key};
  req.oper = oper;
  for (const auto& v : values)
    req.values.push_back(model::symbol{v});
  return req;
}

TEST(plugin_args, decode_and_default) {
  using op = model::node_selector_requirement::op;
  using tsc = model::topology_spread_constraint;
  struct test_case {
    std::string name;
    std::string plugin;
    std::string args;
    plugin_args want;
  };

  node_resources_fit_args most_allocated;
  most_allocated.ignored_resource_groups = {"example.com"};
  most_allocated.ignored_resources = {"example.org/foo"};
  most_allocated.strategy.type = scoring_strategy::kind::most_allocated;
  most_allocated.strategy.resources
    = {{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 3}};

  node_resources_fit_args ratio;
  ratio.strategy.type = scoring_strategy::kind::requested_to_capacity_ratio;
  ratio.strategy.resources = {{"cpu", 1}, {"memory", 1}};
  ratio.strategy.shape = {{0, 10}, {100, 0}};

  node_resources_fit_args only_type;
  only_type.strategy.type = scoring_strategy::kind::most_allocated;

  node_resources_balanced_allocation_args balanced;
  balanced.resources = {{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 1}};

  pod_topology_spread_args spread;
  spread.defaulting_type = pod_topology_spread_args::defaulting::list;
  tsc zone;
  zone.max_skew = 1;
  zone.topology_key = model::symbol{"topology.kubernetes.io/zone"};
  zone.action = tsc::when_unsatisfiable::schedule_anyway;
  tsc host;
  host.max_skew = 2;
  host.topology_key = model::symbol{"kubernetes.io/hostname"};
  host.action = tsc::when_unsatisfiable::do_not_schedule;
  host.min_domains = 3;
  host.min_domains_set = true;
  host.node_taints_policy = tsc::inclusion_policy::honor;
  spread.default_constraints = {zone, host};

  node_affinity_args added;
  model::node_affinity affinity;
  model::node_selector required;
  model::node_selector_term term;
  term.match_expressions.push_back(
    requirement("node.example.com/pool", op::in, {"batch", "spot"}));
  required.terms.push_back(term);
  affinity.required = required;
  model::preferred_scheduling_term preferred;
  preferred.weight = 20;
  preferred.preference.match_expressions.push_back(
    requirement("node.example.com/generation", op::gt, {"3"}));
  preferred.preference.match_expressions.back().number = 3;
  affinity.preferred.push_back(preferred);
  added.added_affinity = affinity;

  const std::vector<test_case> cases = {
    {"DefaultPreemption", "DefaultPreemption",
     "minCandidateNodesPercentage: 20\nminCandidateNodesAbsolute: 0\n",
     default_preemption_args{20, 0}},
    {"DefaultPreemption partial", "DefaultPreemption",
     "minCandidateNodesAbsolute: 5\n", default_preemption_args{10, 5}},
    {"InterPodAffinity", "InterPodAffinity",
     "hardPodAffinityWeight: 0\nignorePreferredTermsOfExistingPods: true\n",
     inter_pod_affinity_args{0, true}},
    {"NodeResourcesFit MostAllocated", "NodeResourcesFit",
     "apiVersion: kubescheduler.config.k8s.io/v1\n"
     "kind: NodeResourcesFitArgs\n"
     "ignoredResources: [example.org/foo]\n"
     "ignoredResourceGroups: [example.com]\n"
     "scoringStrategy:\n"
     "  type: MostAllocated\n"
     "  resources:\n"
     "  - {name: cpu, weight: 1}\n"
     "  - {name: memory}\n"
     "  - {name: nvidia.com/gpu, weight: 3}\n",
     most_allocated},
    {"NodeResourcesFit RequestedToCapacityRatio", "NodeResourcesFit",
     "scoringStrategy:\n"
     "  type: RequestedToCapacityRatio\n"
     "  requestedToCapacityRatio:\n"
     "    shape:\n"
     "    - {utilization: 0, score: 10}\n"
     "    - {utilization: 100, score: 0}\n",
     ratio},
    {"NodeResourcesFit type only gets the default resources",
     "NodeResourcesFit", "scoringStrategy: {type: MostAllocated}\n", only_type},
    {"NodeResourcesFit empty args", "NodeResourcesFit", "{}\n",
     node_resources_fit_args{}},
    {"NodeResourcesBalancedAllocation", "NodeResourcesBalancedAllocation",
     "resources: [{name: cpu}, {name: memory, weight: 1}, "
     "{name: nvidia.com/gpu}]\n",
     balanced},
    {"PodTopologySpread List", "PodTopologySpread",
     "defaultingType: List\n"
     "defaultConstraints:\n"
     "- maxSkew: 1\n"
     "  topologyKey: topology.kubernetes.io/zone\n"
     "  whenUnsatisfiable: ScheduleAnyway\n"
     "- maxSkew: 2\n"
     "  topologyKey: kubernetes.io/hostname\n"
     "  whenUnsatisfiable: DoNotSchedule\n"
     "  minDomains: 3\n"
     "  nodeTaintsPolicy: Honor\n",
     spread},
    {"PodTopologySpread empty defaultingType is System", "PodTopologySpread",
     "defaultingType: \"\"\n", pod_topology_spread_args{}},
    {"VolumeBinding", "VolumeBinding", "bindTimeoutSeconds: 0\n",
     volume_binding_args{0, {}}},
    {"NodeAffinity", "NodeAffinity",
     "addedAffinity:\n"
     "  requiredDuringSchedulingIgnoredDuringExecution:\n"
     "    nodeSelectorTerms:\n"
     "    - matchExpressions:\n"
     "      - key: node.example.com/pool\n"
     "        operator: In\n"
     "        values: [batch, spot]\n"
     "  preferredDuringSchedulingIgnoredDuringExecution:\n"
     "  - weight: 20\n"
     "    preference:\n"
     "      matchExpressions:\n"
     "      - {key: node.example.com/generation, operator: Gt, "
     "values: [\"3\"]}\n",
     added},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto cfg = load_config(config_with_args(tc.plugin, tc.args));
    ASSERT_TRUE(cfg.has_value()) << cfg.err().message;
    const auto& pc = cfg->profiles[0].plugin_config;
    ASSERT_TRUE(pc.contains(tc.plugin));
    EXPECT_EQ(pc.at(tc.plugin), tc.want);
    // Every other plugin with an args type still gets its defaults.
    EXPECT_EQ(pc.size(), 7u);
    auto again = load_config(write_config(*cfg));
    ASSERT_TRUE(again.has_value()) << again.err().message;
    EXPECT_EQ(*again, *cfg);
  }
}

TEST(plugin_args, args_of_plugins_without_an_args_type_are_ignored) {
  struct test_case {
    std::string name;
    std::string plugin;
  };
  const std::vector<test_case> cases = {
    {"in-tree plugin without args", "TaintToleration"},
    {"out-of-tree plugin", "Coscheduling"},
    {"DynamicResources", "DynamicResources"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto cfg = load_config(config_with_args(
      tc.plugin, "anything: [goes, here]\nfilterTimeout: 5s\n"));
    ASSERT_TRUE(cfg.has_value()) << cfg.err().message;
    EXPECT_FALSE(cfg->profiles[0].plugin_config.contains(tc.plugin));
    EXPECT_EQ(*cfg, default_config());
  }
}

TEST(plugin_args, invalid_args) {
  struct test_case {
    std::string name;
    std::string plugin;
    std::string args;
    std::vector<std::string> want;
  };
  const std::string at = "profiles[0].pluginConfig[0].args";
  const std::string qualified
    = "name part must consist of alphanumeric characters, '-', '_' or '.', "
      "and must start and end with an alphanumeric character (e.g. 'MyName',  "
      "or 'my.name',  or '123-abc', regex used for validation is "
      "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  const std::vector<test_case> cases = {
    {"DefaultPreemption ranges",
     "DefaultPreemption",
     "minCandidateNodesPercentage: 101\nminCandidateNodesAbsolute: -1\n",
     {at
        + ".minCandidateNodesPercentage: Invalid value: 101: not in valid "
          "range [0, 100]",
      at
        + ".minCandidateNodesAbsolute: Invalid value: -1: not in valid "
          "range [0, inf)"}},
    {"DefaultPreemption both zero",
     "DefaultPreemption",
     "minCandidateNodesPercentage: 0\nminCandidateNodesAbsolute: 0\n",
     {at
        + ".minCandidateNodesPercentage: Invalid value: 0: cannot be zero "
          "at the same time as minCandidateNodesAbsolute",
      at
        + ".minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at "
          "the same time as minCandidateNodesPercentage"}},
    {"InterPodAffinity weight",
     "InterPodAffinity",
     "hardPodAffinityWeight: -1\nignorePreferredTermsOfExistingPods: maybe\n",
     {at
        + ".ignorePreferredTermsOfExistingPods: Invalid value: \"maybe\": "
          "must be a boolean",
      at
        + ".hardPodAffinityWeight: Invalid value: -1: not in valid range "
          "[0, 100]"}},
    {"NodeResourcesFit everything wrong",
     "NodeResourcesFit",
     "ignoredResources: [\"-bad\"]\n"
     "ignoredResourceGroups: [example.com/gpu]\n"
     "scoringStrategy:\n"
     "  type: MostAllocated\n"
     "  resources: [{name: cpu, weight: 101}, {name: memory, weight: -1}]\n"
     "  requestedToCapacityRatio: {shape: []}\n",
     {at + ".ignoredResources[0]: Invalid value: \"-bad\": " + qualified,
      at
        + ".ignoredResourceGroups[0]: Invalid value: \"example.com/gpu\": "
          "resource group name can't contain '/'",
      at
        + ".scoringStrategy.resources[0].weight: Invalid value: 101: "
          "resource weight of cpu not in valid range (0, 100]",
      at
        + ".scoringStrategy.resources[1].weight: Invalid value: -1: "
          "resource weight of memory not in valid range (0, 100]",
      at
        + ".scoringStrategy.requestedToCapacityRatio: Forbidden: must be "
          "nil when type is not RequestedToCapacityRatio"}},
    {"NodeResourcesFit unknown strategy",
     "NodeResourcesFit",
     "scoringStrategy: {type: Balanced}\n",
     {at
      + ".scoringStrategy.type: Unsupported value: \"Balanced\": "
        "supported values: \"LeastAllocated\", \"MostAllocated\", "
        "\"RequestedToCapacityRatio\""}},
    {"NodeResourcesFit strategy without type",
     "NodeResourcesFit",
     "scoringStrategy: {resources: [{name: cpu}]}\n",
     {at
      + ".scoringStrategy.type: Unsupported value: \"\": supported "
        "values: \"LeastAllocated\", \"MostAllocated\", "
        "\"RequestedToCapacityRatio\""}},
    {"RequestedToCapacityRatio without a shape",
     "NodeResourcesFit",
     "scoringStrategy: {type: RequestedToCapacityRatio}\n",
     {at
      + ".scoringStrategy.requestedToCapacityRatio: Required value: must "
        "be specified when type is RequestedToCapacityRatio"}},
    {"RequestedToCapacityRatio empty shape",
     "NodeResourcesFit",
     "scoringStrategy:\n  type: RequestedToCapacityRatio\n"
     "  requestedToCapacityRatio: {}\n",
     {at
      + ".scoringStrategy.requestedToCapacityRatio.shape: Required value: "
        "at least one point must be specified"}},
    {"RequestedToCapacityRatio bad shape",
     "NodeResourcesFit",
     "scoringStrategy:\n  type: RequestedToCapacityRatio\n"
     "  requestedToCapacityRatio:\n    shape:\n"
     "    - {utilization: 50, score: 11}\n"
     "    - {utilization: 20, score: -1}\n"
     "    - {utilization: 120, score: 5}\n",
     {at
        + ".scoringStrategy.requestedToCapacityRatio.shape[1].utilization: "
          "Invalid value: 20: values must be sorted in increasing order",
      at
        + ".scoringStrategy.requestedToCapacityRatio.shape[0].score: "
          "Invalid value: 11: not in valid range [0, 10]",
      at
        + ".scoringStrategy.requestedToCapacityRatio.shape[1].score: "
          "Invalid value: -1: not in valid range [0, 10]",
      at
        + ".scoringStrategy.requestedToCapacityRatio.shape[2].utilization: "
          "Invalid value: 120: not in valid range [0, 100]"}},
    {"NodeResourcesFit unknown nested field",
     "NodeResourcesFit",
     "scoringStrategy: {type: MostAllocated, resource: []}\n",
     {"strict decoding error: unknown field \"" + at
      + ".scoringStrategy.resource\""}},
    {"NodeResourcesBalancedAllocation",
     "NodeResourcesBalancedAllocation",
     "resources: [{name: cpu, weight: 2}, {name: cpu}]\n",
     {at + ".resources[0].weight: Invalid value: 2: must be 1",
      at + ".resources[1].name: Duplicate value: \"cpu\""}},
    {"PodTopologySpread System with constraints",
     "PodTopologySpread",
     "defaultConstraints:\n"
     "- {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}\n",
     {at
      + ".defaultingType: Invalid value: \"System\": when "
        ".defaultConstraints are not empty"}},
    {"PodTopologySpread bad constraints",
     "PodTopologySpread",
     "defaultingType: List\n"
     "defaultConstraints:\n"
     "- maxSkew: 0\n"
     "  topologyKey: \"\"\n"
     "  whenUnsatisfiable: Never\n"
     "  labelSelector: {matchLabels: {app: web}}\n"
     "- {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}\n"
     "- {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}\n"
     "- {maxSkew: 1, topologyKey: zone}\n",
     {at
        + ".defaultConstraints[0].maxSkew: Invalid value: 0: not in valid "
          "range (0, inf)",
      at
        + ".defaultConstraints[0].topologyKey: Required value: can not be "
          "empty",
      at
        + ".defaultConstraints[0].whenUnsatisfiable: Unsupported value: "
          "\"Never\": supported values: \"DoNotSchedule\", "
          "\"ScheduleAnyway\"",
      at
        + ".defaultConstraints[0].labelSelector: Forbidden: constraint must "
          "not define a selector, as they deduced for each pod",
      at
        + ".defaultConstraints[2]: Duplicate value: \"{zone, "
          "ScheduleAnyway}\"",
      at
        + ".defaultConstraints[3].whenUnsatisfiable: Required value: can "
          "not be empty"}},
    {"PodTopologySpread unknown defaulting",
     "PodTopologySpread",
     "defaultingType: Auto\n",
     {at
      + ".defaultingType: Unsupported value: \"Auto\": supported values: "
        "\"System\", \"List\""}},
    {"PodTopologySpread unknown constraint field",
     "PodTopologySpread",
     "defaultingType: List\n"
     "defaultConstraints:\n"
     "- {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, "
     "maxskew: 2}\n",
     {"strict decoding error: unknown field \"" + at
      + ".defaultConstraints[0].maxskew\""}},
    {"VolumeBinding",
     "VolumeBinding",
     "bindTimeoutSeconds: -5\nshape: [{utilization: 0, score: 10}]\n",
     {at
        + ".bindTimeoutSeconds: Invalid value: -5: invalid "
          "BindTimeoutSeconds, should not be a negative value",
      at
        + ".shape: Invalid value: [{\"utilization\":0,\"score\":10}]: "
          "unexpected field `shape`, remove it or turn on the feature gate "
          "StorageCapacityScoring"}},
    {"NodeAffinity unknown field",
     "NodeAffinity",
     "addedAffinity:\n"
     "  requiredDuringSchedulingIgnoredDuringExecution:\n"
     "    nodeSelectorTerms:\n"
     "    - matchExpression: []\n",
     {"strict decoding error: unknown field \"" + at
      + ".addedAffinity.requiredDuringSchedulingIgnoredDuringExecution."
        "nodeSelectorTerms[0].matchExpression\""}},
    {"NodeAffinity value the selector parser refuses",
     "NodeAffinity",
     "addedAffinity:\n"
     "  requiredDuringSchedulingIgnoredDuringExecution:\n"
     "    nodeSelectorTerms:\n"
     "    - matchExpressions: [{key: zone, operator: In, values: [a]}]\n"
     "    - matchExpressions:\n"
     "      - {key: zone, operator: In, values: [a]}\n"
     "      - {key: zone, operator: NotIn, values: [b, 'bad value!']}\n",
     {at
      + ".addedAffinity.requiredDuringSchedulingIgnoredDuringExecution."
        "nodeSelectorTerms[1].matchExpressions[1].values[1]: Invalid value: "
        "\"bad value!\": must be empty or consist of alphanumeric "
        "characters, '-', '_' or '.', and must start and end with an "
        "alphanumeric character"}},
    {"NodeAffinity key the selector parser refuses",
     "NodeAffinity",
     "addedAffinity:\n"
     "  preferredDuringSchedulingIgnoredDuringExecution:\n"
     "  - weight: 1\n"
     "    preference:\n"
     "      matchExpressions: [{key: 'a/b/c', operator: Exists}]\n",
     {at
      + ".addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]."
        "preference.matchExpressions[0].key: Invalid value: \"a/b/c\": a "
        "label key has at most one '/'"}},
    {"args must be a mapping",
     "InterPodAffinity",
     "[1, 2]\n",
     {at + ": Invalid value: [1,2]: must be an object"}},
    {"args of another group",
     "InterPodAffinity",
     "apiVersion: example.com/v1\nkind: InterPodAffinityArgs\n",
     {at
      + ": args for plugin InterPodAffinity were not of type "
        "InterPodAffinityArgs.kubescheduler.config.k8s.io, got "
        "InterPodAffinityArgs.example.com"}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto cfg = load_config(config_with_args(tc.plugin, tc.args));
    ASSERT_FALSE(cfg.has_value());
    std::string want;
    for (const auto& line : tc.want)
      want += (want.empty() ? "" : "\n") + line;
    EXPECT_EQ(cfg.err().message, want);
  }
}

TEST(plugin_args, model_decoding_problems_carry_the_args_path) {
  auto cfg = load_config(config_with_args("NodeAffinity",
                                          "addedAffinity:\n"
                                          "  preferredDuringSchedulingIgnored"
                                          "DuringExecution:\n"
                                          "  - weight: 10\n"
                                          "    preference:\n"
                                          "      matchExpressions:\n"
                                          "      - {key: a, operator: Gt, "
                                          "values: [x]}\n"));
  ASSERT_FALSE(cfg.has_value());
  EXPECT_TRUE(cfg.err().message.starts_with(
    "profiles[0].pluginConfig[0].args.addedAffinity."
    "preferredDuringSchedulingIgnoredDuringExecution[0].preference."
    "matchExpressions[0].values[0]"))
    << cfg.err().message;
}

} // namespace
} // namespace tessera::config
