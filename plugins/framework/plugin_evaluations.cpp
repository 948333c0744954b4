// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/plugin_evaluations.hpp"

#include "metrics/scheduler_metrics.hpp"

#include <algorithm>
#include <vector>

namespace tessera::plugins {

void plugin_evaluations::add(const profile& prof, const plugin& pl, point at,
                             std::uint64_t calls) {
  if (calls == 0)
    return;
  auto& by_key = series_[&prof];
  const std::size_t key = pl.slot() * 4 + static_cast<std::size_t>(at);
  auto it = by_key.find(key);
  if (it == by_key.end()) {
    static constexpr std::string_view names[]
      = {"PreFilter", "Filter", "PreScore", "Score"};
    auto& series = metrics_->plugin_evaluations.with(
      {std::string{pl.name()}, std::string{names[static_cast<int>(at)]},
       prof.scheduler_name()});
    it = by_key.emplace(key, &series).first;
  }
  it->second->inc(calls);
}

void plugin_evaluations::count_pre_phase(const profile& prof,
                                         const cycle_start& start) {
  if (metrics_ == nullptr)
    return;
  const status& rejected = start.pre_filter_status;
  for (const auto* pf : prof.pre_filter()) {
    if (start.state.skip_filter.test(pf->slot()))
      continue;
    add(prof, *pf, point::pre_filter, 1);
    if (!rejected.ok() && rejected.plugin() == pf->name())
      return;
  }
  if (!rejected.ok())
    return;
  for (const auto* ps : prof.pre_score())
    if (!start.state.skip_score.test(ps->slot()))
      add(prof, *ps, point::pre_score, 1);
}

void plugin_evaluations::count_filter_pass(const profile& prof,
                                           const cycle_state& state,
                                           const shard_result& result,
                                           bool scored) {
  if (metrics_ == nullptr)
    return;
  const std::vector<const filter_plugin*> active = prof.active_filters(state);
  // ran[k]: nodes on which filter k ran: every feasible node, and each
  // failed node up to its failing filter.
  std::vector<std::uint64_t> ran(active.size(), result.feasible.size());
  // How many filters ran on a node that failed: up to the failing one.
  // Failures mostly repeat one plugin, so the last answer is kept.
  const char* last_name = nullptr;
  std::size_t last_ran = 0;
  for (const auto& f : result.failures) {
    std::string_view failed = f.result.plugin();
    if (failed.data() != last_name) {
      auto it = std::find_if(
        active.begin(), active.end(),
        [&](const filter_plugin* pl) { return pl->name() == failed; });
      last_name = failed.data();
      last_ran = it == active.end()
                   ? active.size()
                   : static_cast<std::size_t>(it - active.begin()) + 1;
    }
    for (std::size_t k = 0; k < last_ran; ++k)
      ++ran[k];
  }
  for (std::size_t k = 0; k < active.size(); ++k)
    add(prof, *active[k], point::filter, ran[k]);
  if (scored && !result.feasible.empty())
    count_scores(prof, score_plan(prof, state).local, result.feasible.size());
}

void plugin_evaluations::count_scores(const profile& prof,
                                      std::span<const std::size_t> plugins,
                                      std::size_t nodes) {
  if (metrics_ == nullptr)
    return;
  for (auto i : plugins)
    add(prof, *prof.score()[i].plugin, point::score, nodes);
}

} // namespace tessera::plugins
