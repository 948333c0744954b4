// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/disruption_budget_status.hpp"

#include "model/cluster_objects.hpp"
#include "model/pod.hpp"

#include <algorithm>
#include <cstdint>

namespace tessera::model {

namespace {

bool has_controller(const pod& p) {
  return std::any_of(p.owners.begin(), p.owners.end(),
                     [](const owner_reference& o) { return o.controller; });
}

// A core keeps only the flag complete() derived from the owners.
bool has_controller(const pod_core& p) {
  return p.has_controller;
}

// intstr's scaled value with rounding up: a percentage of `total`.
std::int64_t scaled_up(const int_or_percent& v, std::int64_t total) {
  if (!v.percent)
    return v.value;
  std::int64_t product = static_cast<std::int64_t>(v.value) * total;
  return product <= 0 ? product / 100 : (product + 99) / 100;
}

} // namespace

bool pdb_lists_as_disrupted(const disruption_budget& budget,
                            const pod_core& p) noexcept {
  return std::find(budget.disrupted_pods.begin(), budget.disrupted_pods.end(),
                   p.name)
         != budget.disrupted_pods.end();
}

namespace {

std::int32_t clamp32(std::int64_t v) {
  return static_cast<std::int32_t>(
    std::clamp<std::int64_t>(v, INT32_MIN, INT32_MAX));
}

template <class PodPtr>
pdb_status_counts counts_for(const disruption_budget& budget,
                             std::span<const PodPtr> pods,
                             std::optional<std::int64_t> controllers_scale) {
  std::int64_t matching = 0;
  std::int64_t controlled = 0;
  std::int64_t healthy = 0;
  for (const auto& p : pods) {
    if (!p || p->ns != budget.ns || !budget.selector.matches(p->labels))
      continue;
    ++matching;
    if (has_controller(*p))
      ++controlled;
    if (p->phase == pod_phase::running && !p->deleting
        && !pdb_lists_as_disrupted(budget, *p))
      ++healthy;
  }
  std::int64_t expected = 0;
  std::int64_t desired = 0;
  if (controllers_scale)
    controlled = *controllers_scale;
  if (budget.max_unavailable) {
    expected = controlled;
    desired = std::max<std::int64_t>(
      expected - scaled_up(*budget.max_unavailable, expected), 0);
  } else if (budget.min_available) {
    if (budget.min_available->percent) {
      expected = controlled;
      desired = scaled_up(*budget.min_available, expected);
    } else {
      expected = matching;
      desired = budget.min_available->value;
    }
  }
  std::int64_t allowed = healthy - desired;
  pdb_status_counts out;
  out.expected_pods = clamp32(expected);
  out.desired_healthy = clamp32(desired);
  out.current_healthy = clamp32(healthy);
  out.disruptions_allowed
    = expected <= 0 || allowed <= 0 ? 0 : clamp32(allowed);
  return out;
}

} // namespace

pdb_status_counts pdb_status(const disruption_budget& budget,
                             std::span<const pod_ptr> pods,
                             std::optional<std::int64_t> controllers_scale) {
  return counts_for(budget, pods, controllers_scale);
}

pdb_status_counts pdb_status(const disruption_budget& budget,
                             std::span<const pod_core_ptr> pods,
                             std::optional<std::int64_t> controllers_scale) {
  return counts_for(budget, pods, controllers_scale);
}

std::int32_t pdb_disruptions_allowed(const disruption_budget& budget,
                                     std::span<const pod_ptr> pods) {
  return pdb_status(budget, pods).disruptions_allowed;
}

std::int32_t pdb_disruptions_allowed(const disruption_budget& budget,
                                     std::span<const pod_core_ptr> pods) {
  return pdb_status(budget, pods).disruptions_allowed;
}

} // namespace tessera::model
