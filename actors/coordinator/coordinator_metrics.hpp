// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `coordinator_metrics`: the series the coordinator records, under
/// kube-scheduler's names (scheduler_framework_extension_point_duration_
/// seconds, scheduler_schedule_attempts_total, scheduler_scheduling_attempt_
/// duration_seconds, the algorithm and preemption series) and tessera's own
/// (in-flight cycles, assume conflicts). Labelled series are resolved once
/// per (profile, labels), so recording costs one atomic add; with no
/// metrics instance (`coordinator_config::metrics` null) every call returns
/// at once.
#pragma once

#include "actors/coordinator/batcher.hpp"
#include "actors/messages.hpp"
#include "metrics/scheduler_metrics.hpp"
#include "plugins/framework/profile.hpp"

#include <chrono>
#include <cstddef>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace tessera::actors {

class coordinator_metrics {
public:
  using time_point = std::chrono::steady_clock::time_point;

  /// `profiles`: the coordinator's, in order (their index keys the series);
  /// `m`: where to record (not owned; null = recording off).
  coordinator_metrics(std::vector<plugins::profile_ptr> profiles,
                      metrics::scheduler_metrics* m);

  /// One of the extension points the coordinator runs ("PreFilter",
  /// "Filter", "PostFilter") ended with `code`.
  void extension_point(std::string_view point, plugins::code code,
                       const plugins::profile& prof, time_point began);
  /// A cycle ended with `outcome` (scheduled attempts are counted by the
  /// queue when binding ends; a conflict is tessera's own retry).
  void attempt(cycle_outcome::kind outcome, const plugins::profile& prof,
               time_point began);
  /// The scheduling algorithm chose a node.
  void algorithm(time_point began);
  void inflight(std::size_t cycles);
  void preemption_attempt();
  void victims(std::size_t count);
  /// Opportunistic batching, by the index of the pod's profile.
  void batch_attempt(std::size_t profile, batcher::attempt result);
  void batch_flushed(std::size_t profile, batcher::flush_reason why);
  void batch_rescored(std::size_t profile);
  /// How long deciding whether a pod takes a hint took (upstream's
  /// GetNodeHint), and whether it got one.
  void node_hint(std::size_t profile, bool hinted, time_point began);
  /// How long the head's leaving or extending the batch took (upstream's
  /// StoreScheduleResults).
  void stored_results(std::size_t profile, time_point began);
  /// How long the cache's scoring of a batched node again took.
  void rescore_duration(std::size_t profile, std::chrono::nanoseconds took);

private:
  /// The series of `family` with `labels`, resolved once per `key` of
  /// `cache`; null when recording is off.
  template <class Series>
  Series* series(metrics::series_cache<Series>& cache, std::size_t key,
                 metrics::family<Series> metrics::scheduler_metrics::*family,
                 std::initializer_list<std::string_view> labels);
  /// Index of `prof` (or of the profile it is a timed copy of).
  std::size_t profile_index(const plugins::profile& prof) const;

  std::vector<plugins::profile_ptr> profiles_;
  metrics::scheduler_metrics* metrics_;
  metrics::series_cache<metrics::histogram> extension_point_series_;
  metrics::series_cache<metrics::histogram> attempt_duration_series_;
  metrics::series_cache<metrics::counter> attempt_series_;
  metrics::series_cache<metrics::counter> batch_attempt_series_;
  metrics::series_cache<metrics::counter> batch_flush_series_;
  metrics::series_cache<metrics::counter> batch_rescore_series_;
  metrics::series_cache<metrics::histogram> node_hint_series_;
  metrics::series_cache<metrics::histogram> stored_results_series_;
  metrics::series_cache<metrics::histogram> rescore_duration_series_;
};

} // namespace tessera::actors
