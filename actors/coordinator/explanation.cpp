// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "actors/coordinator/explanation.hpp"

#include <algorithm>
#include <numeric>

namespace tessera::actors {

cycle_explanation explain_cycle(const scheduling_cycle& c) {
  cycle_explanation e;
  for (const auto& f : c.diag.node_statuses) {
    cycle_explanation::rejected_node r;
    r.node = f.node;
    r.plugin = std::string{f.result.plugin()};
    for (auto reason : f.result.reasons())
      r.reasons.emplace_back(reason.view());
    e.rejected.push_back(std::move(r));
  }
  const auto& t = c.table;
  if (t.totals.empty())
    return e;
  const std::size_t n = t.nodes.size();
  std::vector<std::size_t> order(t.plugins.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return t.plugins[a] < t.plugins[b];
  });
  for (std::size_t i = 0; i < n; ++i) {
    cycle_explanation::scored_node s;
    s.node = t.nodes[i];
    for (auto k : order)
      s.plugins.emplace_back(
        std::string{c.prof->score()[t.plugins[k]].plugin->name()},
        t.scores[k * n + i]);
    s.total = t.totals[i];
    e.scored.push_back(std::move(s));
  }
  return e;
}

} // namespace tessera::actors
