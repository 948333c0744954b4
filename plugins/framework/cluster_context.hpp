// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `cluster_context`: the cluster-wide facts plugins read besides the
/// per-node `node_info`s, published by the cache as one immutable value per
/// generation. It holds what upstream's plugins get from listers and the
/// snapshot's cluster-level lists: namespaces (namespaceSelector), image
/// spread (ImageLocality), PodDisruptionBudgets (preemption), the workload
/// objects that give PodTopologySpread its default selector, the storage
/// objects the volume plugins read, the node count,
/// and counters that let InterPodAffinity skip its node scan when no pod in
/// the cluster has affinity terms.
#pragma once

#include "model/cluster_objects.hpp"
#include "model/storage_view.hpp"
#include "model/symbol.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tessera::plugins {

/// Services, ReplicationControllers, ReplicaSets and StatefulSets, as
/// default spreading looks them up: every Service of a namespace, and a
/// controller by kind, namespace and name (a pod's controller reference).
struct workload_index {
  std::unordered_map<model::symbol, std::vector<model::workload_ptr>> services;
  std::unordered_map<std::string, model::workload_ptr> controllers;

  static std::string controller_key(model::workload_kind kind, model::symbol ns,
                                    std::string_view name) {
    std::string key{static_cast<char>('0' + static_cast<int>(kind))};
    key += '/';
    key += ns.view();
    key += '/';
    key += name;
    return key;
  }
  /// Adds one workload (each once: the cache builds the index anew).
  void add(const model::workload_ptr& w) {
    if (w->kind == model::workload_kind::service)
      services[w->ns].push_back(w);
    else
      controllers[controller_key(w->kind, w->ns, w->name)] = w;
  }
  const model::workload* controller(model::workload_kind kind, model::symbol ns,
                                    std::string_view name) const {
    auto it = controllers.find(controller_key(kind, ns, name));
    return it == controllers.end() ? nullptr : it->second.get();
  }
};

struct cluster_context {
  /// Cache generation this context was built at.
  std::uint64_t generation = 0;
  /// Number of nodes (with a node object) in the cluster.
  std::int64_t node_count = 0;
  /// Normalized image name -> number of nodes that have it.
  std::unordered_map<model::symbol, std::int32_t> image_node_counts;
  /// Namespaces by name.
  std::unordered_map<model::symbol, model::namespace_ptr> namespaces;
  std::vector<model::disruption_budget_ptr> disruption_budgets;
  /// Null when the cluster has none.
  std::shared_ptr<const workload_index> workloads;
  /// The storage objects with the cache's assumed bindings; null when the
  /// cluster has none.
  model::storage_view_ptr storage;
  /// Pods (bound or assumed) with any pod affinity / anti-affinity term.
  std::int64_t pods_with_affinity = 0;
  /// Pods (bound or assumed) with required pod anti-affinity.
  std::int64_t pods_with_required_anti_affinity = 0;

  /// Labels of a namespace, or nullptr when unknown.
  const model::label_set* namespace_labels(model::symbol ns) const noexcept {
    auto it = namespaces.find(ns);
    return it == namespaces.end() ? nullptr : &it->second->labels;
  }
  /// Number of nodes that have `image` (0 when none).
  std::int32_t nodes_with_image(model::symbol image) const noexcept {
    auto it = image_node_counts.find(image);
    return it == image_node_counts.end() ? 0 : it->second;
  }
};

using cluster_context_ptr = std::shared_ptr<const cluster_context>;

} // namespace tessera::plugins
