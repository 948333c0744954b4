// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Test helpers for DefaultPreemption: a profile of real in-tree plugins
/// with DefaultPreemption at PostFilter, PodDisruptionBudgets, and one
/// prepared scheduling cycle (PreFilter, PreScore, node scans over one
/// shard) whose state the dry run starts from.
#pragma once

#include "model/cluster_objects.hpp"
#include "model/node_info.hpp"
#include "model/pod.hpp"
#include "plugins/default_preemption/default_preemption.hpp"
#include "plugins/framework/cluster_context.hpp"
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/plugin_test_cycle.hpp"
#include "plugins/framework/profile.hpp"
#include "plugins/framework/registry.hpp"
#include "test/support/builders.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera::plugins::default_preemption_test {

inline constexpr const char* hostname = "kubernetes.io/hostname";

/// A profile of real in-tree plugins: the filters preemption has to
/// reason about, and DefaultPreemption at PostFilter with `args`.
inline profile_ptr preemption_profile(config::default_preemption_args args
                                      = {}) {
  static const registry reg = make_in_tree_registry();
  config::profile_config cfg;
  auto ref = [](const char* name) { return config::plugin_ref{name, 0}; };
  cfg.plugins.pre_filter
    = {ref("NodePorts"), ref("NodeResourcesFit"), ref("InterPodAffinity")};
  cfg.plugins.filter = {ref("TaintToleration"), ref("NodePorts"),
                        ref("NodeResourcesFit"), ref("InterPodAffinity")};
  cfg.plugins.post_filter = {ref("DefaultPreemption")};
  cfg.plugin_config["DefaultPreemption"] = args;
  auto built = profile::build(cfg, reg, 0);
  if (!built)
    test::builder_failure(built.err().message);
  return *built;
}

inline const default_preemption& plugin_of(const profile& prof) {
  return dynamic_cast<const default_preemption&>(*prof.post_filter().front());
}

/// A PodDisruptionBudget in `ns` selecting `labels`; nullopt status =
/// read without status.
inline model::disruption_budget_ptr
budget(std::optional<std::int32_t> allowed, const test::label_pairs& labels,
       const char* ns = "default", std::vector<std::string> disrupted = {}) {
  model::disruption_budget b;
  b.ns = model::symbol{ns};
  b.name = "pdb";
  b.selector = test::match_labels(labels);
  b.disruptions_allowed = allowed;
  b.disrupted_pods = std::move(disrupted);
  return std::make_shared<const model::disruption_budget>(std::move(b));
}

/// One prepared scheduling cycle over `nodes`: PreFilter, PreScore and the
/// node scans (one shard). Heap-held so the cycle state's pointer to the
/// cluster stays valid.
struct prepared_cycle {
  profile_ptr prof;
  std::unique_ptr<cluster_context> cluster;
  cycle_state state;
};

inline std::unique_ptr<prepared_cycle>
prepare(const profile_ptr& prof, const model::pod& p,
        const std::vector<model::node_info_ptr>& nodes,
        std::vector<model::disruption_budget_ptr> budgets = {}) {
  auto out = std::make_unique<prepared_cycle>();
  out->prof = prof;
  out->cluster = std::make_unique<cluster_context>();
  for (const auto& ni : nodes) {
    if (ni->get_node() != nullptr)
      ++out->cluster->node_count;
    out->cluster->pods_with_affinity
      += static_cast<std::int64_t>(ni->pods_with_affinity().size());
    out->cluster->pods_with_required_anti_affinity += static_cast<std::int64_t>(
      ni->pods_with_required_anti_affinity().size());
  }
  out->cluster->disruption_budgets = std::move(budgets);
  auto start = begin_cycle(*prof, p, *out->cluster);
  if (!start.pre_filter_status.ok())
    test::builder_failure("PreFilter failed: "
                          + start.pre_filter_status.message());
  auto partials = run_scans(*prof, start.state, p, start.scans, nodes);
  std::vector<std::vector<scan_partial_ptr>> per_shard{std::move(partials)};
  if (!merge_scans(*prof, start.state, p, start.scans, std::move(per_shard))
         .ok())
    test::builder_failure("merge_scans failed");
  out->state = std::move(start.state);
  return out;
}

using plugin_testing::describe;

template <class PodPtr>
inline std::vector<std::string> names(const std::vector<PodPtr>& pods) {
  std::vector<std::string> out;
  for (const auto& p : pods)
    out.push_back(p->name);
  return out;
}

/// Pods nominated to each node, by node name.
using nominations
  = std::unordered_map<std::string, std::vector<model::pod_ptr>>;

inline std::vector<dry_run_node>
dry_run_nodes(const std::vector<model::node_info_ptr>& nodes,
              const nominations& nominated) {
  std::vector<dry_run_node> out;
  for (const auto& ni : nodes) {
    dry_run_node n;
    n.node = ni.get();
    if (auto it = nominated.find(ni->name().str()); it != nominated.end())
      n.nominated = it->second;
    out.push_back(n);
  }
  return out;
}

} // namespace tessera::plugins::default_preemption_test
