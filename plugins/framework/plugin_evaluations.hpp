// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `plugin_evaluations`: scheduler_plugin_evaluation_total{plugin,
/// extension_point, profile}, counted as kube-scheduler counts it: every
/// PreFilter and PreScore call that did not return Skip, every Filter and
/// Score call per node. The counts are read from what each phase already
/// reports, not taken in the calls, so the per-node loops gain nothing:
///
///   PreFilter  the plugins not skipped, up to the one that rejected
///   PreScore   the plugins not skipped, once PreFilter passed
///   Filter     per node, each active plugin up to the first that failed
///   Score      each active plugin once per node it scored
///
/// Departures: PreScore runs with PreFilter here, so it is counted also for
/// pods that find a single feasible node (upstream skips PreScore then); a
/// node with nominated pods counts its filters once, though both passes of
/// the nominated-pods rule run them; PostFilter's dry runs and the cache's
/// assume re-check are not counted.
///
/// One instance per thread of use (a shard, the coordinator): no locking.
#pragma once

#include "metrics/fwd.hpp"
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/profile.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>

namespace tessera::plugins {

class plugin_evaluations {
public:
  /// `m`: where to count (not owned; null = counting off).
  explicit plugin_evaluations(metrics::scheduler_metrics* m) : metrics_(m) {
  }

  /// PreFilter and PreScore of a cycle begun with `start`.
  void count_pre_phase(const profile& prof, const cycle_start& start);
  /// One shard's Filter (and, when it scored, its local Score) pass.
  void count_filter_pass(const profile& prof, const cycle_state& state,
                         const shard_result& result, bool scored);
  /// Deferred Score plugins `plugins` (indexes into prof.score()) run on
  /// `nodes` nodes.
  void count_scores(const profile& prof, std::span<const std::size_t> plugins,
                    std::size_t nodes);

private:
  enum class point : std::uint8_t { pre_filter, filter, pre_score, score };
  void add(const profile& prof, const plugin& pl, point at,
           std::uint64_t calls);

  metrics::scheduler_metrics* metrics_;
  /// Series by (profile, plugin slot, point), resolved when first used.
  std::unordered_map<const profile*,
                     std::unordered_map<std::size_t, metrics::counter*>>
    series_;
};

} // namespace tessera::plugins
