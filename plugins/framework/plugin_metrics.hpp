// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `plugin_metrics_sampler`: scheduler_plugin_execution_duration_seconds
/// {plugin, extension_point, status}, recorded as kube-scheduler does — for
/// a sampled share of scheduling cycles (pluginMetricsSamplePercent, 10),
/// every plugin call at every extension point of those cycles, up to
/// upstream's cap of 1,000 recorded durations a second
/// (`scheduler_metrics::plugin_duration_budget`; upstream's recorder drops
/// what its buffer cannot hold). A call past the cap is not timed, and a
/// cycle begun once the second's durations are recorded runs untimed.
///
/// An unsampled cycle runs the profile as it is: its hot loops gain no
/// branch. A sampled cycle runs with a *timed profile*, a copy of the
/// profile whose plugins are timing proxies (`profile::with_wrapped_plugins`)
/// that forward every call, time it on the steady clock and observe the
/// duration under the call's status code. The timed profile travels in the
/// cycle's requests like any profile, so the shards' Filter and Score, the
/// cache's assume re-check, PostFilter's dry runs and the binder's Reserve
/// to PostBind calls of that cycle are all timed.
///
/// Not timed: node scans and feasible summaries (tessera's split of
/// PreFilter/PreScore/Score state across shards; no upstream extension
/// point), QueueSort and PreEnqueue (not part of a cycle).
#pragma once

#include "metrics/fwd.hpp"
#include "plugins/framework/profile.hpp"

#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

namespace tessera::plugins {

/// Upstream's extension_point label values of plugin durations.
enum class metric_extension_point : std::uint8_t {
  pre_filter,
  pre_filter_add_pod,
  pre_filter_remove_pod,
  filter,
  post_filter,
  pre_score,
  score,
  normalize_score,
  reserve,
  unreserve,
  permit,
  pre_bind,
  bind,
  post_bind,
};
inline constexpr std::size_t metric_extension_point_count = 14;

/// "PreFilter", "PreFilterExtensionAddPod", ..., "ScoreExtensionNormalize",
/// ... as upstream's metrics package spells them.
std::string_view to_string(metric_extension_point p) noexcept;

/// The clock the timing proxies read. A Filter or Score call takes about
/// 10 ns, and reading steady_clock (a vDSO call) costs more than that, so
/// where the kernel itself keeps time with the CPU's time-stamp counter the
/// proxies read the counter (calibrated against steady_clock once); else
/// steady_clock.
class call_clock {
public:
  /// Decides and calibrates; make_timed_profile calls it before any proxy
  /// exists. Later calls do nothing.
  static void setup();
  /// A reading, in ticks.
  static std::uint64_t now() noexcept;
  /// Ticks between two readings, in seconds.
  static double seconds(std::uint64_t ticks) noexcept;
  /// True when readings come from the time-stamp counter.
  static bool uses_tsc() noexcept;
};

/// A copy of `prof` whose plugins time every call into `m`'s
/// scheduler_plugin_execution_duration_seconds, and into no other instance.
/// The copy keeps a reference to `m`: whoever hands it out must keep `m`
/// alive until no thread can call its plugins any more.
profile_ptr make_timed_profile(const profile& prof,
                               metrics::scheduler_metrics& m);

/// Decides, per scheduling cycle, whether the cycle is sampled, and hands
/// out the profile to run it with. Deterministic for a seed; the share
/// comes from its instance's `plugin_sample_percent`. One per coordinator,
/// used only from it.
class plugin_metrics_sampler {
public:
  /// `m`: where sampled cycles record (not owned; null = recording off, no
  /// cycle is timed).
  plugin_metrics_sampler(std::uint64_t seed, metrics::scheduler_metrics* m)
    : rng_(seed), metrics_(m) {
  }

  /// `prof` itself (recording off, or the cycle is not sampled) or its
  /// timed copy for the sampler's instance (built once, reused).
  profile_ptr for_cycle(profile_ptr prof);

private:
  struct timed_copy {
    profile_ptr original;
    profile_ptr timed;
  };

  std::mt19937_64 rng_;
  metrics::scheduler_metrics* metrics_;
  std::vector<timed_copy> copies_;
};

} // namespace tessera::plugins
