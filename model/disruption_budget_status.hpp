// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `pdb_disruptions_allowed`: what the disruption controller would write
/// into a PodDisruptionBudget's status.disruptionsAllowed, for budgets read
/// without a status (objects from files). The cache, which sees every pod,
/// calls it when it publishes the cluster context; DefaultPreemption reads
/// the result and shares `pdb_lists_as_disrupted` with it. A plain function
/// over model values, so that neither side depends on the other.
#pragma once

#include "model/fwd.hpp"

#include <cstdint>
#include <optional>
#include <span>

namespace tessera::model {

/// True when `p` is in the budget's status.disruptedPods (the API server
/// already counted its eviction).
bool pdb_lists_as_disrupted(const disruption_budget& budget,
                            const pod_core& p) noexcept;

/// The counts the disruption controller writes into a budget's status.
struct pdb_status_counts {
  std::int32_t expected_pods = 0;
  std::int32_t desired_healthy = 0;
  std::int32_t current_healthy = 0;
  std::int32_t disruptions_allowed = 0;
};

/// The disruption controller's status for `budget` given every pod of the
/// cluster (`pods`, any namespace), computed as `pdb_disruptions_allowed`
/// describes, except that `controllers_scale`, when given, is the expected
/// pod count of percentage and maxUnavailable budgets (the summed replicas
/// of the matching pods' controllers, which the controller reads).
pdb_status_counts
pdb_status(const disruption_budget& budget, std::span<const pod_ptr> pods,
           std::optional<std::int64_t> controllers_scale = std::nullopt);
/// The same over pod cores (the cache's bound and assumed pods).
pdb_status_counts
pdb_status(const disruption_budget& budget, std::span<const pod_core_ptr> pods,
           std::optional<std::int64_t> controllers_scale = std::nullopt);

/// The disruption controller's disruptionsAllowed for `budget` given every
/// pod of the cluster (`pods`, any namespace):
/// - matching pods: the budget's namespace and selector (nil matches none,
///   empty matches all, as the controller lists them);
/// - healthy: Running, not being deleted, not in disruptedPods (tessera does
///   not track readiness, so Running stands for Ready);
/// - minAvailable as a number: desired = that number, expected = matching
///   pods; minAvailable as a percentage or maxUnavailable: expected = the
///   matching pods that have a controller (the controller sums the scale of
///   their controllers, which tessera does not see), and the percentage is
///   rounded up; desired = minAvailable, or expected - maxUnavailable (>= 0);
/// - result = healthy - desired, and 0 when negative or when expected is 0
///   (also when neither minAvailable nor maxUnavailable is set).
std::int32_t pdb_disruptions_allowed(const disruption_budget& budget,
                                     std::span<const pod_ptr> pods);
/// The same over pod cores (the cache's bound and assumed pods).
std::int32_t pdb_disruptions_allowed(const disruption_budget& budget,
                                     std::span<const pod_core_ptr> pods);

} // namespace tessera::model
