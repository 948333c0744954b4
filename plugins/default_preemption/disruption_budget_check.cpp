// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/default_preemption/disruption_budget_check.hpp"

#include "model/disruption_budget_status.hpp"

#include <cstddef>

namespace tessera::plugins {

bool pdb_applies_to(const model::disruption_budget& budget,
                    const model::pod_core& p) noexcept {
  if (p.labels.empty() || budget.ns != p.ns)
    return false;
  if (budget.selector.is_nothing() || budget.selector.is_everything())
    return false;
  return budget.selector.matches(p.labels);
}

pdb_split
split_by_pdb_violation(std::span<const model::pod_core_ptr> pods,
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
      if (!b || !pdb_applies_to(*b, *p)
          || model::pdb_lists_as_disrupted(*b, *p))
        continue;
      // Every applying budget pays for the pod, even once one is violated.
      if (--allowed[i] < 0)
        violates = true;
    }
    (violates ? out.violating : out.non_violating).push_back(p);
  }
  return out;
}

} // namespace tessera::plugins
