// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/default_preemption/disruption_budget_check.hpp"

#include <algorithm>
#include <cstddef>

namespace tessera::plugins {

namespace {

bool listed_as_disrupted(const model::disruption_budget& budget,
                         const model::pod& p) {
  return std::find(budget.disrupted_pods.begin(), budget.disrupted_pods.end(),
                   p.name)
         != budget.disrupted_pods.end();
}

bool has_controller(const model::pod& p) {
  return std::any_of(
    p.owners.begin(), p.owners.end(),
    [](const model::owner_reference& o) { return o.controller; });
}

// intstr's scaled value with rounding up: a percentage of `total`.
std::int64_t scaled_up(const model::int_or_percent& v, std::int64_t total) {
  if (!v.percent)
    return v.value;
  std::int64_t product = static_cast<std::int64_t>(v.value) * total;
  return product <= 0 ? product / 100 : (product + 99) / 100;
}

} // namespace

bool pdb_applies_to(const model::disruption_budget& budget,
                    const model::pod& p) noexcept {
  if (p.labels.empty() || budget.ns != p.ns)
    return false;
  if (budget.selector.is_nothing() || budget.selector.is_everything())
    return false;
  return budget.selector.matches(p.labels);
}

pdb_split
split_by_pdb_violation(std::span<const model::pod_ptr> pods,
                       std::span<const model::disruption_budget_ptr> budgets) {
  std::vector<std::int64_t> allowed;
  allowed.reserve(budgets.size());
  for (const auto& b : budgets)
    allowed.push_back(b ? b->disruptions_allowed.value_or(0) : 0);
  pdb_split out;
  for (const auto& p : pods) {
    bool violates = false;
    for (std::size_t i = 0; i < budgets.size(); ++i) {
      const auto& b = budgets[i];
      if (!b || !pdb_applies_to(*b, *p) || listed_as_disrupted(*b, *p))
        continue;
      // Every applying budget pays for the pod, even once one is violated.
      if (--allowed[i] < 0)
        violates = true;
    }
    (violates ? out.violating : out.non_violating).push_back(p);
  }
  return out;
}

std::int32_t pdb_disruptions_allowed(const model::disruption_budget& budget,
                                     std::span<const model::pod_ptr> pods) {
  std::int64_t matching = 0;
  std::int64_t controlled = 0;
  std::int64_t healthy = 0;
  for (const auto& p : pods) {
    if (!p || p->ns != budget.ns || !budget.selector.matches(p->labels))
      continue;
    ++matching;
    if (has_controller(*p))
      ++controlled;
    if (p->phase == model::pod_phase::running && !p->deleting
        && !listed_as_disrupted(budget, *p))
      ++healthy;
  }
  std::int64_t expected = 0;
  std::int64_t desired = 0;
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
  if (expected <= 0 || allowed <= 0)
    return 0;
  return static_cast<std::int32_t>(std::min<std::int64_t>(allowed, INT32_MAX));
}

} // namespace tessera::plugins
