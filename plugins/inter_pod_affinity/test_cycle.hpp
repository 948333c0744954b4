// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Test helpers for InterPodAffinity: a cluster_context built from node
/// infos, and one scheduling cycle of the plugin alone (PreFilter, PreScore,
/// the node scan split over a number of shards, the merge), so tests can
/// check that any shard split gives the single-shard result.
#pragma once

#include "model/node_info.hpp"
#include "model/pod.hpp"
#include "plugins/framework/cluster_context.hpp"
#include "plugins/framework/cycle_state.hpp"
#include "plugins/inter_pod_affinity/inter_pod_affinity.hpp"
#include "test/support/builders.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tessera::plugins::inter_pod_affinity_test {

inline constexpr const char* zone = "topology.kubernetes.io/zone";
inline constexpr const char* hostname = "kubernetes.io/hostname";

/// Filter outcomes as `describe` prints them.
inline const std::string ok = "Success";
inline const std::string affinity_fail
  = "UnschedulableAndUnresolvable: node(s) didn't match pod affinity rules";
inline const std::string anti_fail
  = "Unschedulable: node(s) didn't match pod anti-affinity rules";
inline const std::string existing_fail
  = "Unschedulable: node(s) didn't satisfy existing pods anti-affinity rules";

/// A node name and its zone ("" = no zone label).
struct node_spec {
  std::string name;
  std::string zone;
};

/// Nodes from `specs`, in order; each pod lands on the node its
/// spec.nodeName names.
inline std::vector<model::node_info_ptr>
nodes_with_zones(const std::vector<node_spec>& specs,
                 const std::vector<model::pod_ptr>& pods) {
  std::vector<model::node_info_ptr> out;
  for (const auto& s : specs) {
    auto b = test::make_node(s.name);
    if (!s.zone.empty())
      b.zone(s.zone);
    std::vector<model::pod_ptr> here;
    for (const auto& p : pods)
      if (p->node_name == s.name)
        here.push_back(p);
    out.push_back(test::make_node_info_ptr(b.build(), here));
  }
  return out;
}

/// A term on pods labelled `labels`, with optional namespaces and
/// namespaceSelector.
inline model::pod_affinity_term
term(const test::label_pairs& labels, const char* key,
     const std::vector<std::string>& namespaces = {},
     std::optional<model::label_selector> namespace_selector = std::nullopt) {
  auto t = test::affinity_term(labels, key, namespaces);
  t.namespace_selector = std::move(namespace_selector);
  return t;
}

/// A pod bound to `node` with `labels`.
inline model::pod_ptr bound(const std::string& name, const char* node,
                            const test::label_pairs& labels,
                            const char* ns = "default") {
  auto b = test::make_pod(name).ns(ns).node(node);
  for (const auto& [k, v] : labels)
    b.label(k, v);
  return b.build();
}

/// The cluster facts for `nodes` and `namespaces`, counters included.
inline cluster_context
make_context(const std::vector<model::node_info_ptr>& nodes,
             const std::vector<model::namespace_ptr>& namespaces = {}) {
  cluster_context ctx;
  for (const auto& ni : nodes) {
    if (ni->get_node() != nullptr)
      ++ctx.node_count;
    ctx.pods_with_affinity
      += static_cast<std::int64_t>(ni->pods_with_affinity().size());
    ctx.pods_with_required_anti_affinity += static_cast<std::int64_t>(
      ni->pods_with_required_anti_affinity().size());
  }
  for (const auto& ns : namespaces)
    ctx.namespaces[ns->name] = ns;
  return ctx;
}

/// The outcome of PreFilter and PreScore, and the state after the scan.
struct prepared_cycle {
  cycle_state state{1};
  bool pre_filter_skipped = false;
  bool pre_score_skipped = false;
  bool scanned = false;
};

/// Runs PreFilter, PreScore and the node scan with the nodes dealt to
/// `shards` shards round-robin, then merges the partials.
inline prepared_cycle prepare(const inter_pod_affinity& plugin,
                              const model::pod& p,
                              const std::vector<model::node_info_ptr>& nodes,
                              const cluster_context& ctx,
                              std::size_t shards = 1) {
  prepared_cycle out;
  auto pf = plugin.pre_filter(out.state, p, ctx);
  if (pf.result.is_skip()) {
    out.pre_filter_skipped = true;
    out.state.skip_filter.set(plugin.slot());
  }
  status ps = plugin.pre_score(out.state, p, ctx);
  if (ps.is_skip()) {
    out.pre_score_skipped = true;
    out.state.skip_score.set(plugin.slot());
  }
  if (!plugin.wants_scan(out.state, p))
    return out;
  out.scanned = true;
  std::vector<std::vector<model::node_info_ptr>> split(shards);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    split[i % shards].push_back(nodes[i]);
  std::vector<scan_partial_ptr> partials;
  for (const auto& part : split)
    partials.push_back(plugin.scan(out.state, p, part));
  plugin.merge(out.state, p, std::move(partials));
  return out;
}

/// "Success", or "<Code>: <message>" for a rejection or an error.
inline std::string describe(const status& s) {
  if (s.ok())
    return "Success";
  return std::string{to_string(s.get_code())} + ": " + s.message();
}

/// Filter outcomes of every node (Success when the Filter is skipped).
inline std::vector<std::string>
filter_all(const inter_pod_affinity& plugin, const cycle_state& state,
           const model::pod& p,
           const std::vector<model::node_info_ptr>& nodes) {
  std::vector<std::string> out;
  for (const auto& ni : nodes)
    out.push_back(state.skip_filter.test(plugin.slot())
                    ? "Success"
                    : describe(plugin.filter(state, p, *ni)));
  return out;
}

/// Raw and normalized scores of every node (empty when Score is skipped).
struct scores {
  std::vector<std::int64_t> raw;
  std::vector<std::int64_t> normalized;
};
inline scores score_all(const inter_pod_affinity& plugin,
                        const cycle_state& state, const model::pod& p,
                        const std::vector<model::node_info_ptr>& nodes) {
  scores out;
  if (state.skip_score.test(plugin.slot()))
    return out;
  std::vector<node_score> list;
  for (const auto& ni : nodes) {
    out.raw.push_back(plugin.score(state, p, *ni));
    list.push_back({ni->name(), out.raw.back()});
  }
  plugin.normalize_scores(state, p, list);
  for (const auto& s : list)
    out.normalized.push_back(s.score);
  return out;
}

} // namespace tessera::plugins::inter_pod_affinity_test
