// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `queue_state`: kube-scheduler's scheduling queue, without CAF.
///
///   add ──PreEnqueue rejects──> [gated] ──update removes gates──┐
///    │                                                         v
///    └──────────────────────────────────────────────> [activeQ] ──pop──> [in
///    flight]
///                         ^            ^                                   │
///         backoff expired │            │ relevant event (hint: Queue),      │
///                  [backoffQ] <────────┤ 5 min leftover flush             │
///                         ^      [unschedulable] <──FitError, no event────┤
///                         └────────────error / bind failure───────────────┤
///                 stale decision (retry): straight back to the head <──┘
///
/// Events that happen while a pod is in flight are kept; if its cycle fails
/// and one of them could help (the hints of its rejecting plugins say
/// Queue), the pod is requeued instead of parked. `tessera simulate` runs
/// another queue, `settling_queue_state`.
#pragma once

#include "actors/messages.hpp"
#include "actors/queue/inflight_window.hpp"
#include "actors/queue/queue_entry.hpp"
#include "metrics/fwd.hpp"
#include "plugins/framework/profile.hpp"
#include "support/clock.hpp"

#include <bitset>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera::actors {

struct queue_config {
  duration initial_backoff = std::chrono::seconds(1);
  duration max_backoff = std::chrono::seconds(10);
  /// podMaxInUnschedulablePodsDuration.
  duration max_in_unschedulable = std::chrono::minutes(5);
  /// SchedulerPopFromBackoffQ: when activeQ is empty, pop the head of
  /// backoffQ (not of the error backoff) before its backoff ends, and order
  /// backoffQ by whole-second windows, then as activeQ.
  bool pop_from_backoff = true;
  /// Where to record (not owned); null = recording off.
  metrics::scheduler_metrics* metrics = nullptr;
};

class queue_state {
public:
  static inline const char* name = "queue";

  queue_state(queue_config cfg, const clock& c,
              std::vector<plugins::profile_ptr> profiles);

  // Inputs from the cache.
  /// `profile`: the index of the pod's profile (the cache resolves it).
  void add(const model::pod_ptr& p, std::uint32_t profile);
  void update(const model::pod_ptr& old_pod, const model::pod_ptr& new_pod,
              std::uint32_t profile);
  void remove(const model::pod& p);
  void on_cluster_event(const plugins::cluster_event& ev,
                        std::shared_ptr<const model::object> old_obj,
                        std::shared_ptr<const model::object> new_obj);

  /// Pops the next pod, if any.
  std::optional<queued_pod_info> pop();

  // Outcomes.
  void on_outcome(const cycle_outcome& out);
  void on_bound(const bind_outcome& out);
  /// The binder ended the victim deletions of `preemptor`'s preemption.
  /// Until then the preemptor is held in the unschedulable pool whatever
  /// happens (DefaultPreemption's PreEnqueue). Then an event that came
  /// meanwhile moves it at once; otherwise the victims' deletion events,
  /// still on their way through the cache, will (the API's answer comes
  /// before the cache has seen the deletion, and a cycle run on that view
  /// would only fail again). When one deletion `failed` (its nomination is
  /// being cleared) it is tried again at once, not left waiting for room
  /// that may never come.
  void on_preemption_ended(const model::pod& preemptor, bool failed);

  /// Moves backoff-expired pods to activeQ and leftover unschedulable pods
  /// back (call every second).
  void flush(time_point now);

  queue_stats stats() const;

private:
  enum class where : std::uint8_t {
    active,
    backoff,
    unschedulable,
    gated,
    in_flight,
    binding,
    /// At the head: retried before activeQ (stale decisions).
    retry,
  };
  using plugin_bits = std::bitset<plugins::max_plugins_per_profile>;
  struct entry : queue_entry {
    std::string key;
    where at = where::active;
    plugin_bits rejectors;
    bool error_backoff = false;
    time_point parked_at{};
    /// Its mark in events_ while in flight.
    std::uint64_t popped_event = 0;
    /// The pod changed while in flight: requeue rather than park.
    bool updated_in_flight = false;
    /// Its preemptions whose victim deletions are still running; while
    /// positive the pod stays parked. Signed: the binder's report may
    /// overtake the outcome of the cycle that preempted.
    std::int32_t preemptions = 0;
    /// While held, an event came that would have moved it.
    bool moved_while_held = false;
  };
  struct order_less {
    const queue_state* owner;
    bool operator()(const entry* a, const entry* b) const;
  };
  /// By backoff expiry; within one window, as activeQ when `as_active`.
  struct backoff_less {
    const queue_state* owner;
    bool as_active;
    bool operator()(const entry* a, const entry* b) const;
  };
  struct recorded_event {
    plugins::cluster_event event;
    std::shared_ptr<const model::object> old_obj;
    std::shared_ptr<const model::object> new_obj;
  };
  struct registered {
    std::size_t plugin = 0;
    plugins::cluster_event_with_hint event;
  };
  struct profile_index {
    const plugins::profile* prof = nullptr;
    std::vector<registered> events;
    std::unordered_map<std::string, std::size_t> plugin_bit;
    /// Plugin names by bit.
    std::vector<std::string> plugin_names;
    /// Pods in the unschedulable pool that each plugin rejected, by bit
    /// (scheduler_unschedulable_pods{plugin, profile}).
    std::vector<std::int64_t> unschedulable;
    /// Their gauges in `cfg_.metrics` (resolved when first set).
    std::vector<metrics::gauge*> gauges;
  };

  /// Enters (`delta` 1) or leaves (-1) the unschedulable pool: counts `e`
  /// under each plugin that rejected it and publishes the counts.
  void count_unschedulable(const entry& e, std::int64_t delta);
  void publish_unschedulable(profile_index& idx, std::size_t bit);
  void admit(entry& e);
  void to_active(entry& e);
  void to_backoff_or_active(entry& e);
  void detach(entry& e);
  void erase(const std::string& key);
  /// When `e`'s backoff ends: with pop_from_backoff, the start of the
  /// whole-second window it ends in (it is released once that window is
  /// over, so a window is flushed at once).
  time_point backoff_expiry(const entry& e) const;
  bool backing_off(const entry& e, time_point now) const;
  std::set<const entry*, backoff_less>& backoff_of(const entry& e);
  struct event_series;
  /// Whether `ev` may help `e`: its rejectors' hints, each timed into
  /// `timing` when metrics are on.
  bool worth_requeuing(const entry& e, const plugins::cluster_event& ev,
                       const model::object* old_obj,
                       const model::object* new_obj,
                       event_series* timing) const;
  std::int64_t now_ns() const {
    return actors::now_ns(clock_);
  }
  void count_incoming(std::string_view queue, std::string_view event);
  struct event_series {
    std::string label;
    metrics::gauge* inflight = nullptr;
    metrics::histogram* handling = nullptr;
    /// scheduler_queueing_hint_execution_duration_seconds by profile,
    /// plugin bit and verdict (`hint_key`), resolved when first used.
    std::unordered_map<std::uint64_t, metrics::histogram*> hints;
  };
  /// The event's series (metrics on only).
  event_series& series_of(const plugins::cluster_event& ev);
  void observe_hint(event_series& s, std::size_t profile, std::size_t plugin,
                    plugins::queueing_hint verdict, double seconds) const;
  void count_inflight(const plugins::cluster_event& ev, double delta);
  /// Drops the recorded events no pod in flight still needs.
  void prune_events();

  queue_config cfg_;
  const clock& clock_;
  std::vector<plugins::profile_ptr> profiles_;
  /// One per profile, in profiles_' order.
  std::vector<profile_index> indexes_;
  const plugins::queue_sort_plugin* sort_ = nullptr;

  std::unordered_map<std::string, std::unique_ptr<entry>> entries_;
  std::set<const entry*, order_less> active_;
  /// backoffQ: pods that were unschedulable, and those that failed with an
  /// error (never popped early: their backoff limits retries).
  std::set<const entry*, backoff_less> backoff_;
  std::set<const entry*, backoff_less> error_backoff_;
  std::deque<entry*> retry_now_;
  std::unordered_set<entry*> unschedulable_;
  std::size_t gated_ = 0;
  std::size_t in_flight_ = 0;
  std::size_t binding_ = 0;
  std::uint64_t sequence_ = 0;
  std::uint64_t cycle_ = 0;

  /// Cluster events while pods were in flight.
  inflight_window<recorded_event> events_;
  /// scheduler_inflight_events' and scheduler_event_handling_duration_
  /// seconds' series, by event label.
  std::unordered_map<std::string, event_series> event_series_;
};

} // namespace tessera::actors
