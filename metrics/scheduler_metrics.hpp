// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `scheduler_metrics`: every metric family a tessera scheduler exposes on
/// `/metrics`. The `scheduler_*` and `rest_client_*` families carry
/// kube-scheduler's names, types, labels and buckets (dashboards and alerts
/// written for kube-scheduler keep working); the `tessera_*` families are
/// tessera's own. Series with fixed labels are resolved once here (`pending_
/// active`, `cache_nodes`, ...) so recording sites pay one atomic add.
///
/// The verb that records creates the instance and hands it down: the
/// pipeline gives it to each role through `<role>_config::metrics`, and io
/// and the adapters receive it in their configs (null = recording off, one
/// branch per site). Nothing finds an instance any other way, so two
/// schedulers in one process (tests, benches) record apart.
#pragma once

#include "metrics/family.hpp"
#include "metrics/per_second_budget.hpp"
#include "metrics/series.hpp"

#include <prometheus/metric_family.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::metrics {

/// Functions that refresh pulled values (reflector counters, cache sizes
/// read from another thread...) just before a scrape renders.
class scrape_hooks {
public:
  void add(std::function<void()> hook);
  void run() const;
  void clear();

private:
  mutable std::mutex mutex_;
  std::vector<std::function<void()>> hooks_;
};

/// Upstream's label value for the `attempts` of the SLI histogram: "1" ..
/// "14", then "15+".
std::string attempts_label(std::int32_t attempts);

/// Upstream's pluginMetricsSamplePercent: the share of scheduling cycles
/// whose plugin calls are timed into scheduler_plugin_execution_duration_
/// seconds. A constant upstream, not a configuration field.
inline constexpr std::uint32_t default_plugin_sample_percent = 10;

/// Upstream's asynchronous metrics recorder buffers 1,000 plugin durations
/// and drains them once a second, dropping what does not fit: at most that
/// many are recorded per second, whatever the sampled cycles call.
inline constexpr std::uint32_t default_plugin_durations_per_second = 1000;

class scheduler_metrics {
public:
  scheduler_metrics();
  scheduler_metrics(const scheduler_metrics&) = delete;
  scheduler_metrics& operator=(const scheduler_metrics&) = delete;

  // ---- kube-scheduler's families (pkg/scheduler/metrics) ----------------
  family<counter> schedule_attempts;         ///< {result, profile}
  family<histogram> attempt_duration;        ///< {result, profile}
  family<histogram> algorithm_duration;      ///< no labels
  family<gauge> pending_pods;                ///< {queue}
  family<histogram> pod_sli_duration;        ///< {attempts}
  family<histogram> pod_scheduling_attempts; ///< no labels
  /// Pods bound after the leftover timeout moved them out of the
  /// unschedulable pool: many suggest an event no queueing hint heard.
  family<counter> pod_scheduled_after_flush; ///< no labels
  family<histogram>
    extension_point_duration; ///< {extension_point, status, profile}
  family<histogram>
    plugin_execution_duration;          ///< {plugin, extension_point, status}
  family<counter> queue_incoming_pods;  ///< {queue, event}
  family<counter> preemption_attempts;  ///< no labels
  family<histogram> preemption_victims; ///< no labels
  /// Asynchronous preemption: one observation per preemption's API writes
  /// (upstream's "goroutines"), by result (success, error).
  family<histogram> preemption_goroutines_duration; ///< {result}
  family<counter> preemption_goroutines_execution;  ///< {result}
  family<gauge> unschedulable_pods;                 ///< {plugin, profile}
  family<histogram> event_handling_duration;        ///< {event}
  family<histogram> queueing_hint_duration;         ///< {plugin, event, hint}
  family<counter> plugin_evaluations; ///< {plugin, extension_point, profile}
  /// Work in progress by operation: `binding` (binding cycles begun and not
  /// ended), `Filter` (shards filtering and scoring now), upstream's
  /// goroutines.
  family<gauge> goroutines;      ///< {operation}
  family<gauge> inflight_events; ///< {event}
  family<gauge> cache_size;      ///< {type}
  /// Opportunistic batching.
  family<counter> batch_attempts;         ///< {profile, result}
  family<counter> batch_cache_flushed;    ///< {profile, reason}
  family<counter> batch_rescore_attempts; ///< {profile}
  /// The batch's decisions, timed: whether a pod takes a hint, the head's
  /// leaving or extending the batch, and the cache's scoring of a batched
  /// node again for the next replica.
  family<histogram> get_node_hint_duration;          ///< {hinted, profile}
  family<histogram> store_schedule_results_duration; ///< {profile}
  family<histogram> batch_rescore_duration;          ///< {profile}
  // ---- client-go's REST client families ---------------------------------
  family<counter> rest_requests;           ///< {code, method, host}
  family<histogram> rest_request_duration; ///< {verb, host}
  // ---- tessera's own ----------------------------------------------------
  family<counter> assume_conflicts;              ///< no labels
  family<gauge> inflight_cycles;                 ///< no labels
  family<histogram> shard_filter_score_duration; ///< {shard}
  family<gauge> actor_mailbox_size;              ///< {actor}
  family<counter> watch_events;                  ///< {resource, type}
  family<counter> relists;                       ///< {resource}
  // ---- client-go's leader election ----------------------------------------
  /// 1 while this instance holds the lease `name`, else 0; no series
  /// without leader election.
  family<gauge> leader_election_master_status; ///< {name}

  // ---- series with fixed labels, resolved once --------------------------
  gauge& pending_active;
  gauge& pending_backoff;
  gauge& pending_unschedulable;
  gauge& pending_gated;
  gauge& cache_nodes;
  gauge& cache_pods;
  gauge& cache_assumed_pods;
  counter& conflicts_total;
  gauge& inflight;
  counter& preemptions;
  histogram& victims;
  histogram& algorithm;
  histogram& pod_attempts;
  counter& scheduled_after_flush;

  /// Run before every render.
  scrape_hooks hooks;

  /// Percent of scheduling cycles that time every plugin call (0..100);
  /// tests set 100 to make every cycle sampled.
  std::atomic<std::uint32_t> plugin_sample_percent{
    default_plugin_sample_percent};
  /// Plugin durations recorded per second at most (0: all); tests that
  /// count every call lift it.
  per_second_budget plugin_duration_budget{default_plugin_durations_per_second};

  /// Distinct for every instance ever made in this process, so that a
  /// cache keyed by an instance's address can tell a new instance that
  /// reuses the address of a destroyed one.
  const std::uint64_t instance_id;

  /// Every family (and the process families), for the serializer and for
  /// tests.
  std::vector<prometheus::MetricFamily> collect() const;
  /// The text exposition format (version 0.0.4) of `collect()`, after
  /// running the hooks.
  std::string render() const;
};

/// Records one REST request in rest_client_requests_total and
/// rest_client_request_duration_seconds (client-go's labels); `code` 0 =
/// no HTTP answer ("<error>", as client-go).
void record_rest_request(scheduler_metrics& m, std::string_view method,
                         std::string_view host, int code, double seconds);

/// Samples an actor's mailbox length into tessera_actor_mailbox_size{actor}
/// on the first call and then every `every`-th call (reading a CAF mailbox
/// costs a little; the gauge needs no more). One per actor, used only from
/// that actor.
class mailbox_sampler {
public:
  explicit mailbox_sampler(std::string actor, unsigned every = 64)
    : actor_(std::move(actor)), every_(every) {
  }
  /// Records into `m` (null: nothing); `read()` returns the mailbox length
  /// and is called only when sampling.
  template <class Read> void sample(scheduler_metrics* m, Read&& read) {
    if (calls_++ % every_ != 0)
      return;
    if (m == nullptr)
      return;
    if (m != owner_) {
      owner_ = m;
      gauge_ = &m->actor_mailbox_size.with({actor_});
    }
    gauge_->set(static_cast<double>(read()));
  }

private:
  std::string actor_;
  unsigned every_;
  unsigned calls_ = 0;
  scheduler_metrics* owner_ = nullptr;
  gauge* gauge_ = nullptr;
};

/// Series of one family resolved once per small integer key (say,
/// extension point x status code x profile) and per instance recorded into,
/// so a recording site pays an array index and an atomic add instead of a
/// family lookup (a lock and a map). One per actor, used only from it.
template <class Series> class series_cache {
public:
  /// The series for `key` in `m`; `resolve(m)` finds it the first time.
  template <class Resolve>
  Series& get(scheduler_metrics& m, std::size_t key, Resolve&& resolve) {
    if (m.instance_id != owner_id_) {
      owner_id_ = m.instance_id;
      series_.assign(series_.size(), nullptr);
    }
    if (key >= series_.size())
      series_.resize(key + 1, nullptr);
    Series*& s = series_[key];
    if (s == nullptr)
      s = &resolve(m);
    return *s;
  }

private:
  std::uint64_t owner_id_ = 0; // instance ids start at 1
  std::vector<Series*> series_;
};

/// Seconds since `start` on the steady clock, for durations.
template <class TimePoint> double seconds_since(TimePoint start) {
  return std::chrono::duration<double>(TimePoint::clock::now() - start).count();
}

} // namespace tessera::metrics
