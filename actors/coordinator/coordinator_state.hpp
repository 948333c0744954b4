// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `coordinator_state`: runs scheduling cycles, up to `max_inflight_cycles`
/// at once, without CAF. It reaches the shards, the cache, the binder and the
/// queue only through `coordinator_ports` (callbacks), so the whole cycle
/// logic runs the same under the actor (ports = CAF requests) and in tests
/// (ports wired straight to shard and cache states).
///
/// One cycle:
///
///   begin ─PreFilter rejects──────────────────────────────┐
///     │ PreFilter, PreScore                               │
///     ├─scans wanted─> [scan all shards] ─merge─┐          │
///     v                                         v          │
///   (nominated node? probe it) ───fits──> assume           │
///     │ no                                     ^           │
///     v                                        │           v
///   [filter+score all shards, quota k] ─1 node─┤     FitError ─> PostFilter
///     │ 0 nodes ──────────────────────────────────────>   │   (preemption:
///     │ ≥2 nodes                               │           │    dry runs in
///     ├─deferred scores─> [score shards] ──┐   │           │    the shards)
///     v                                   v    │           v
///   NormalizeScore, weights, seeded pick ──────┘     unschedulable / nominated
///
/// assume ok -> binder; conflict -> the queue retries the pod at once (after
/// `max_conflicts` in a row the pod runs alone, with no other cycle in
/// flight, so it cannot starve).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "actors/coordinator/nomination_view.hpp"
#include "actors/messages.hpp"
#include "actors/sink.hpp"
#include "metrics/scheduler_metrics.hpp"
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/plugin_metrics.hpp"

namespace tessera::actors {

struct coordinator_config {
  std::size_t shards = 1;
  std::size_t max_inflight_cycles = 1;
  std::uint64_t seed = 0;
  std::int32_t max_conflicts = 3;
  /// Report each cycle's per-node details to the sink (simulate --explain).
  bool explain = false;
};

/// How the coordinator reaches the rest of the pipeline. A reply callback
/// gets nullptr when the request failed (actor gone, timeout).
class coordinator_ports {
public:
  template <class T>
  using reply = std::function<void(std::shared_ptr<const T>)>;

  virtual ~coordinator_ports() = default;
  virtual void scan(std::uint32_t shard, scan_request_ptr req,
                    reply<scan_reply> done) = 0;
  virtual void filter(std::uint32_t shard, filter_request_ptr req,
                      reply<filter_reply> done) = 0;
  virtual void score(std::uint32_t shard, score_request_ptr req,
                     reply<score_reply> done) = 0;
  virtual void preempt(std::uint32_t shard, preempt_request_ptr req,
                       reply<preempt_reply> done) = 0;
  virtual void assume(assume_request_ptr req, reply<assume_reply> done) = 0;
  virtual void bind(bind_request_ptr req) = 0;
  virtual void outcome(cycle_outcome_ptr out) = 0;
  /// Asks the queue for `n` more pods.
  virtual void want(std::int32_t n) = 0;
  virtual cluster_sink& sink() = 0;
};

class coordinator_state {
public:
  static inline const char* name = "coordinator";

  coordinator_state(coordinator_config cfg,
                    std::vector<plugins::profile_ptr> profiles,
                    coordinator_ports& ports);
  ~coordinator_state();

  /// Asks the queue for the first pods.
  void start();
  void on_view(cluster_view_ptr view);
  void on_work(const work_batch& batch);

  std::size_t inflight() const noexcept {
    return cycles_.size();
  }
  std::uint64_t conflicts() const noexcept {
    return conflicts_;
  }

private:
  struct cycle;

  void admit(queued_pod_info item);
  /// A pod that conflicted too often, or whose preemption must be redone
  /// on a settled view, runs with no other cycle in flight.
  bool must_run_alone(const queued_pod_info& item) const;
  void begin(queued_pod_info item);
  void scan(cycle& c);
  void after_scans(cycle& c);
  void probe_nominated(cycle& c);
  void filter_all(cycle& c);
  void after_filter(cycle& c);
  void after_scores(cycle& c);
  void select(cycle& c);
  void choose(cycle& c, model::symbol node);
  void fit_error(cycle& c);
  void post_filter(cycle& c);
  void dry_run(cycle& c);
  void after_dry_run(cycle& c);
  void unschedulable(cycle& c, model::symbol nominated,
                     std::vector<std::string> victims);
  void fail_with_error(cycle& c, std::string message);
  void finish(cycle& c, std::shared_ptr<cycle_outcome> out);
  void explain(const cycle& c);
  cycle* find(std::uint64_t id);
  /// The reply callback of one shard in a scatter: stores the reply and
  /// continues with `next` once every shard answered.
  template <class Reply>
  coordinator_ports::reply<Reply>
  gather(std::uint64_t id, std::uint32_t shard,
         std::vector<std::shared_ptr<const Reply>> cycle::*replies,
         void (coordinator_state::*next)(cycle&));
  const plugins::profile* profile_for(const model::pod& p) const;
  /// Metrics: scheduler_framework_extension_point_duration_seconds.
  void observe_extension_point(std::string_view point, plugins::code code,
                               const plugins::profile& prof,
                               std::chrono::steady_clock::time_point began);
  /// Index of `prof` (or of the profile it is a timed copy of) in
  /// profiles_, for the metric series caches.
  std::size_t profile_index(const plugins::profile& prof) const;
  std::size_t total_nodes() const;
  std::uint32_t shard_of(model::symbol node) const;
  void note_generation(std::uint32_t shard, std::uint64_t generation);
  /// Whether another cycle ran during `c` (began before or since it).
  bool overlapped(const cycle& c) const;

  coordinator_config cfg_;
  std::vector<plugins::profile_ptr> profiles_;
  coordinator_ports& ports_;
  cluster_view_ptr view_;
  /// The queue's nominations with this coordinator's newer ones.
  nomination_view nominations_;
  /// Outcomes sent to the queue so far (numbers nominations_' changes).
  std::uint64_t outcomes_sent_ = 0;
  std::mt19937_64 rng_;
  std::uint64_t next_id_ = 0;
  std::uint64_t conflicts_ = 0;
  /// Successful assumes so far (a cycle compares it with its start value).
  std::uint64_t assumes_ = 0;
  std::unordered_map<std::uint64_t, std::unique_ptr<cycle>> cycles_;
  /// Pods received but not started (an exclusive cycle is pending or
  /// running).
  std::deque<queued_pod_info> held_;
  /// Pods received before the first cluster view.
  std::deque<queued_pod_info> before_view_;
  bool exclusive_ = false;
  /// Cycles begun so far (a cycle compares it with its own number).
  std::uint64_t started_ = 0;
  /// Pods (keys) whose preemption was computed on a view other cycles may
  /// have changed: their next cycle runs alone.
  std::unordered_set<std::string> preempt_alone_;
  /// Per shard: the generation a shard must have reached before it serves
  /// the next cycle (the latest assume on one of its nodes).
  std::vector<std::uint64_t> required_generation_;
  /// Per shard: the newest generation it reported in a reply.
  std::vector<std::uint64_t> reported_generation_;
  /// Which cycles time their plugins (metrics; its own generator, so that
  /// metrics never change placements).
  plugins::plugin_metrics_sampler plugin_sampler_{cfg_.seed};
  /// Labelled series resolved once per (profile, labels) and metrics
  /// instance, so that recording is one atomic add per observation.
  metrics::series_cache<metrics::histogram> extension_point_series_;
  metrics::series_cache<metrics::histogram> attempt_duration_series_;
  metrics::series_cache<metrics::counter> attempt_series_;
};

} // namespace tessera::actors
