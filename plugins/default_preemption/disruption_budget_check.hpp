// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `pdb_split`: potential preemption victims grouped by whether deleting them
/// would violate a PodDisruptionBudget, with kube-scheduler's rules:
///
/// - A budget applies to a pod when it is in the pod's namespace and its
///   selector matches the pod's labels. A nil or empty selector matches no
///   pod here (upstream skips empty selectors), and neither does any
///   selector match a pod without labels.
/// - Each budget starts from status.disruptionsAllowed; a budget without
///   status allows none. Walking the pods in the given order, every
///   applying budget is decremented once per pod, except for pods listed in
///   its status.disruptedPods (the API server already counted them); a pod
///   violates when any applying budget goes below zero.
///
/// Budgets read without a status get the disruption controller's value from
/// the cache (`model/disruption_budget_status.hpp`) before they reach here.
#pragma once

#include "model/cluster_objects.hpp"
#include "model/pod.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace tessera::plugins {

struct pdb_split {
  /// Pods whose deletion would take a budget below zero, in input order.
  std::vector<model::pod_core_ptr> violating;
  /// The others, in input order.
  std::vector<model::pod_core_ptr> non_violating;
};

/// True when `budget` applies to `p` under the preemption rules above.
bool pdb_applies_to(const model::disruption_budget& budget,
                    const model::pod_core& p) noexcept;

/// Groups `pods` (most important first) by PDB violation, keeping order.
pdb_split
split_by_pdb_violation(std::span<const model::pod_core_ptr> pods,
                       std::span<const model::disruption_budget_ptr> budgets);

} // namespace tessera::plugins
