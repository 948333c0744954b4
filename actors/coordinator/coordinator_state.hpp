// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `coordinator_state`: runs scheduling cycles, up to `max_inflight_cycles`
/// at once, without CAF. It reaches the shards, the cache, the binder and the
/// queue only through `coordinator_ports` (callbacks), so the whole cycle
/// logic runs the same under the actor (ports = CAF requests) and in tests
/// (ports wired straight to shard and cache states).
///
/// One cycle; each [bracket] is a `cycle_step`, a request in flight whose
/// replies the one dispatcher (`resume`) hands to the step after it:
///
///   begin ─PreFilter rejects────────────────────────────────┐
///     │ PreFilter, PreScore                                 │
///     ├─scans wanted─> [scanning] ─merge─┐                  │
///     v                                  v                  │
///   nominated node? ─> [probing] ──fits──────> [assuming]   │
///     │ no                │ no                  ^ ^  │      │
///   batch? (batcher) ─hint────────────────────────┘  │      │
///     │ no; or park in [waiting_for_batch]       │    │      │
///     v                   v                     │    │      v
///   [filtering], quota k ──1 node───────────────┤    │   FitError
///     │ 0 nodes ─────────────────────────────────────┼─> PostFilter
///     │ ≥2 nodes                                │    │  (preemption.hpp):
///     ├─deferred scores─> [scoring] ─┐          │    │  [checking_nominated]
///     v                              v          │    │  [dry_running]
///   NormalizeScore, weights, seeded pick ───────┘    │      │
///                                                    v      v
///        assumed -> binder; conflict -> retried    unschedulable / nominated
///
/// Which pod may begin, and when a pod runs alone, is `admission`'s
/// decision; what a preemption's dry runs mean is `judge_dry_runs`'.
#pragma once

#include "actors/coordinator/admission.hpp"
#include "actors/coordinator/batcher.hpp"
#include "actors/coordinator/coordinator_metrics.hpp"
#include "actors/coordinator/node_claims.hpp"
#include "actors/coordinator/nominator.hpp"
#include "actors/coordinator/scheduling_cycle.hpp"
#include "actors/messages.hpp"
#include "actors/sink.hpp"
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/plugin_evaluations.hpp"
#include "plugins/framework/plugin_metrics.hpp"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera::actors {

struct coordinator_config {
  std::size_t shards = 1;
  std::size_t max_inflight_cycles = 1;
  std::uint64_t seed = 0;
  std::int32_t max_conflicts = 3;
  /// Report each cycle's per-node details to the sink (simulate --explain).
  bool explain = false;
  /// Opportunistic batching (see batcher.hpp), and how long a batch lasts.
  bool batching = false;
  std::chrono::nanoseconds batch_max_age = std::chrono::milliseconds(500);
  /// Where the coordinator's series and the plugin calls of its sampled
  /// cycles record (not owned; it must outlive every timed profile the
  /// coordinator hands out); null = recording off.
  metrics::scheduler_metrics* metrics = nullptr;
};

/// How the coordinator reaches the rest of the pipeline. A reply callback
/// gets nullptr when the request failed (actor gone, timeout).
class coordinator_ports {
public:
  template <class T>
  using reply = std::function<void(std::shared_ptr<const T>)>;

  virtual ~coordinator_ports() = default;
  virtual void scan(std::uint32_t shard, scan_request_ptr req,
                    reply<scan_reply> done)
    = 0;
  virtual void filter(std::uint32_t shard, filter_request_ptr req,
                      reply<filter_reply> done)
    = 0;
  virtual void score(std::uint32_t shard, score_request_ptr req,
                     reply<score_reply> done)
    = 0;
  virtual void preempt(std::uint32_t shard, preempt_request_ptr req,
                       reply<preempt_reply> done)
    = 0;
  virtual void assume(assume_request_ptr req, reply<assume_reply> done) = 0;
  virtual void bind(bind_request_ptr req) = 0;
  /// Hands a preemption's API writes to the binder.
  virtual void evict(eviction_ptr e) = 0;
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
  /// Pending-pod changes that may start or end a nomination; pods that
  /// left also end their retry history.
  void on_nominees(const std::vector<queue_input>& changes);

  std::size_t inflight() const noexcept {
    return cycles_.size();
  }
  std::uint64_t conflicts() const noexcept {
    return conflicts_;
  }

private:
  using cycle = scheduling_cycle;

  // Starting.
  void admit(queued_pod_info item);
  void begin(admission::start s);

  // The steps, in cycle order. Each `after_*` runs once every reply of
  // the step before it is in.
  void scan(cycle& c);
  void after_scans(cycle& c);
  /// Filters `node` alone (the nominated node, or a batch hint); assumes it
  /// when it fits, filters every shard when not.
  void probe(cycle& c, model::symbol node);
  void after_probe(cycle& c);
  // Opportunistic batching (cycle_batching.cpp).
  void batch_or_filter(cycle& c);
  /// Tries the batch's hint (none: a full cycle).
  void use_hint(cycle& c, const std::optional<model::symbol>& hint);
  /// Cycles parked behind the batch's head go on, in order.
  void resume_parked();
  void filter_all(cycle& c);
  void after_filter(cycle& c);
  void after_scores(cycle& c);
  void select(cycle& c);
  void assume(cycle& c, model::symbol node);
  void after_assume(cycle& c);
  void post_filter(cycle& c);
  void after_nominated_check(cycle& c);
  void dry_run(cycle& c);
  void after_dry_run(cycle& c);

  // Endings.
  void preempt(cycle& c, const plugins::post_filter_outcome& chosen);
  /// `preempting`: victim deletions were handed to the binder.
  void unschedulable(cycle& c, model::symbol nominated,
                     std::vector<std::string> victims, bool preempting = false);
  void fail_with_error(cycle& c, std::string message);
  /// The decision was stale: the queue tries the pod again at once.
  void retry(cycle& c, retry_reason why);
  void finish(cycle& c, std::shared_ptr<cycle_outcome> out);

  /// The one reply dispatcher: a reply callback for shard `shard` of the
  /// request `c` is about to send. It files the reply, and once every
  /// reply of the step is in, resumes the cycle at its next step.
  template <class Reply>
  coordinator_ports::reply<Reply> reply_to(cycle& c, std::uint32_t shard);
  void resume(cycle& c);

  cycle* find(std::uint64_t id);
  std::size_t total_nodes() const;
  std::uint32_t shard_of(model::symbol node) const;
  void note_generation(std::uint32_t shard, std::uint64_t generation);
  /// Drops the node claims no cycle in flight can have missed.
  void forget_old_claims();
  /// Whether another cycle ran during `c` (began before or since it).
  bool overlapped(const cycle& c) const;
  /// Whether an overlapped cycle must be redone alone before it may
  /// preempt: its filters read other nodes, which other cycles may have
  /// changed anywhere.
  bool must_settle_to_preempt(const cycle& c) const;

  coordinator_config cfg_;
  std::vector<plugins::profile_ptr> profiles_;
  coordinator_ports& ports_;
  cluster_view_ptr view_;
  admission admission_;
  /// Pods received before the first cluster view.
  std::deque<queued_pod_info> before_view_;
  nominator nominator_;
  node_claims claims_;
  std::mt19937_64 rng_;
  std::uint64_t next_id_ = 0;
  std::uint64_t conflicts_ = 0;
  /// Cycles begun so far (a cycle compares it with its own number).
  std::uint64_t started_ = 0;
  std::unordered_map<std::uint64_t, std::unique_ptr<cycle>> cycles_;
  /// Per shard: the generation a shard must have reached before it serves
  /// the next cycle (the latest assume on one of its nodes).
  std::vector<std::uint64_t> required_generation_;
  /// Per shard: the newest generation it reported in a reply.
  std::vector<std::uint64_t> reported_generation_;
  /// Which cycles time their plugins (its own generator, so that metrics
  /// never change placements).
  plugins::plugin_metrics_sampler plugin_sampler_{cfg_.seed, cfg_.metrics};
  plugins::plugin_evaluations evaluations_{cfg_.metrics};
  coordinator_metrics metrics_;
  batcher batcher_;
};

template <class Reply>
coordinator_ports::reply<Reply> coordinator_state::reply_to(cycle& c,
                                                            std::uint32_t s) {
  return [this, id = c.id, s](std::shared_ptr<const Reply> r) {
    cycle* c = find(id);
    if (c == nullptr)
      return;
    if (!r)
      c->request_failed = true;
    c->template reply_slot<Reply>(s) = std::move(r);
    if (--c->pending == 0)
      resume(*c);
  };
}

} // namespace tessera::actors
