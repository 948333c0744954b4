// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The payloads actors exchange. Each is an immutable value shared by
/// `shared_ptr<const T>` (one allocation, never copied, never mutated after
/// sending), named as a fact (`shard_delta`) or as a request and its result
/// (`filter_request`, `shard_result`).
#pragma once

#include "model/node_info.hpp"
#include "model/object.hpp"
#include "model/pod.hpp"
#include "model/shared_map.hpp"
#include "plugins/framework/cluster_context.hpp"
#include "plugins/framework/cluster_event.hpp"
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/profile.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera::actors {

/// Cache -> shard: the nodes of one shard that changed, up to `generation`.
struct shard_delta {
  std::uint64_t generation = 0;
  std::vector<model::node_info_ptr> upserted;
  std::vector<model::symbol> removed;
  /// The shard's complete node order (node-tree order) when membership or
  /// order changed; null when unchanged.
  std::shared_ptr<const std::vector<model::symbol>> order;
};
using shard_delta_ptr = std::shared_ptr<const shard_delta>;

/// Cache -> coordinator: the cluster-wide view after a change.
struct cluster_view {
  std::uint64_t generation = 0;
  plugins::cluster_context_ptr context;
  /// Nodes per shard (only nodes with a node object).
  std::vector<std::size_t> shard_nodes;
  /// node name -> shard, for routing single-node requests.
  std::shared_ptr<const std::unordered_map<model::symbol, std::uint32_t>>
    node_shard;
};
using cluster_view_ptr = std::shared_ptr<const cluster_view>;

/// Pods nominated to each node (the coordinator's `nominator`), shared with
/// shards. Copies share their buckets: the nominator publishes a new
/// snapshot after every change, which costs one bucket, not every
/// nomination in the cluster.
class nominations {
public:
  /// The pods nominated to `node` (empty when none).
  std::span<const model::pod_ptr> on(model::symbol node) const {
    const auto* pods = by_node_.find(node);
    if (pods == nullptr)
      return {};
    return *pods;
  }
  void add(model::symbol node, const model::pod_ptr& pod) {
    const auto* old = by_node_.find(node);
    std::vector<model::pod_ptr> pods
      = old ? *old : std::vector<model::pod_ptr>{};
    pods.push_back(pod);
    by_node_.set(node, std::move(pods));
  }
  /// Removes `pod` (the same object) from `node`'s list.
  void remove(model::symbol node, const model::pod_ptr& pod) {
    const auto* old = by_node_.find(node);
    if (old == nullptr)
      return;
    std::vector<model::pod_ptr> pods;
    pods.reserve(old->size());
    for (const auto& p : *old)
      if (p != pod)
        pods.push_back(p);
    if (pods.empty())
      by_node_.erase(node);
    else
      by_node_.set(node, std::move(pods));
  }
  /// Calls `f(node, pods)` for every node with nominated pods.
  template <class F> void for_each(F&& f) const {
    by_node_.for_each(f);
  }
  /// Nodes with at least one nominated pod.
  std::size_t nodes() const noexcept {
    return by_node_.size();
  }
  bool empty() const noexcept {
    return by_node_.empty();
  }

private:
  model::shared_map<model::symbol, std::vector<model::pod_ptr>> by_node_;
};
using nominations_ptr = std::shared_ptr<const nominations>;

/// Cache -> queue: what happened, for pending pods and for requeueing.
struct queue_input {
  enum class kind : std::uint8_t {
    /// A pending pod appeared / changed / disappeared (now: null on delete).
    pod_added,
    pod_updated,
    pod_deleted,
    /// A cluster change that may help unschedulable pods.
    cluster_event,
  };
  kind type = kind::cluster_event;
  model::pod_ptr old_pod;
  model::pod_ptr new_pod;
  plugins::cluster_event event;
  /// For cluster events: the object before / after (absent for add/delete).
  std::shared_ptr<const model::object> old_object;
  std::shared_ptr<const model::object> new_object;
  /// For pod inputs: the index of the pod's profile among the pipeline's
  /// profiles. The cache resolves each pod's schedulerName once; the queue
  /// and the coordinator use the index.
  std::uint32_t profile = 0;
};
using queue_inputs_ptr = std::shared_ptr<const std::vector<queue_input>>;

/// Queue -> coordinator: one pod to schedule.
struct queued_pod_info {
  model::pod_ptr pod;
  /// Scheduling attempts including this one.
  std::int32_t attempts = 0;
  /// The queue's scheduling-cycle number when popped.
  std::uint64_t cycle = 0;
  /// Monotonic ns of the first time the pod entered the queue (SLI).
  std::int64_t initial_ns = 0;
  /// The pod's profile (queue_input::profile).
  std::uint32_t profile = 0;
  /// The leftover timeout once moved it out of the unschedulable pool
  /// (scheduler_pod_scheduled_after_flush_total counts it when bound).
  bool flushed = false;
};
struct work_batch {
  std::vector<queued_pod_info> pods;
};
using work_batch_ptr = std::shared_ptr<const work_batch>;

/// Why a cycle's decision was stale, so that its pod is tried again at once
/// (not a scheduling attempt: no backoff, no event). The coordinator
/// decides every such retry; the queue acts on it (see actors/README.md).
enum class retry_reason : std::uint8_t {
  none,
  /// The cache refused the assume: a change the cycle's view missed
  /// breaks a filter on the chosen node.
  assume_conflict,
  /// A preemption dry run found the pod fits a node with nothing removed:
  /// that shard's view moved on since the cycle's Filter.
  stale_preemption_view,
  /// Victims were chosen on a view other cycles may have changed, for a
  /// pod whose filters read other nodes: the pod runs again alone, on a
  /// settled view, before anyone is deleted.
  overlapped_preemption,
  /// A cycle that ended during this one assumed a pod on the node this one
  /// chose, or nominated a pod of equal or higher priority to it: a serial
  /// scheduler would have seen that claim.
  node_claimed,
};

/// Coordinator -> binder: a preemption's API writes, made off the
/// scheduling path while the preemptor waits in the queue.
struct eviction {
  model::pod_ptr preemptor;
  model::symbol node;
  /// The victims to delete (those not being deleted already).
  std::vector<model::pod_ptr> victims;
  /// Lower-priority pods nominated to `node`, whose nominations end.
  std::vector<model::pod_ptr> cleared;
};
using eviction_ptr = std::shared_ptr<const eviction>;

/// Coordinator -> queue: how a popped pod's cycle ended, and how many more
/// pods the coordinator can take now (the slot the cycle freed, unless
/// pods are already waiting to start there).
struct cycle_outcome {
  enum class kind : std::uint8_t {
    /// Assumed; binding in progress (the binder reports the end).
    assumed,
    /// No node fits (FitError); goes to unschedulable (or requeued).
    unschedulable,
    /// Internal error; goes to backoff.
    error,
    /// The decision was stale (`retry` says why); retried at once.
    retry,
    /// Not scheduled and not requeued (deleted meanwhile, no profile).
    dropped,
  };
  kind type = kind::error;
  model::pod_ptr pod;
  std::uint64_t cycle = 0;
  std::vector<std::string> unschedulable_plugins;
  std::vector<std::string> pending_plugins;
  /// PostFilter's nomination (empty: none / cleared).
  model::symbol nominated_node;
  /// Victims whose deletion the preemptor waits for (simulate's settling
  /// queue).
  std::vector<std::string> victims;
  /// The cycle handed victim deletions to the binder: the pod is held
  /// back (DefaultPreemption's PreEnqueue) until the binder reports them
  /// ended.
  bool preempting = false;
  /// Set for kind::retry.
  retry_reason retry = retry_reason::none;
  /// Pods the coordinator can take now.
  std::int32_t credit = 0;
};
using cycle_outcome_ptr = std::shared_ptr<const cycle_outcome>;

/// Binder -> queue: the binding cycle ended.
struct bind_outcome {
  model::pod_ptr pod;
  bool bound = false;
  /// Why binding failed (for the log and the FailedScheduling text).
  std::string message;
};
using bind_outcome_ptr = std::shared_ptr<const bind_outcome>;

/// Coordinator -> shards.
struct scan_request {
  std::uint64_t cycle_id = 0;
  model::pod_ptr pod;
  plugins::profile_ptr profile;
  plugins::cycle_state_ptr state;
  std::vector<std::size_t> scans;
  /// The shard must have applied deltas up to this generation first.
  std::uint64_t min_generation = 0;
};
using scan_request_ptr = std::shared_ptr<const scan_request>;

struct scan_reply {
  std::uint32_t shard = 0;
  std::uint64_t generation = 0;
  std::vector<plugins::scan_partial_ptr> partials;
};
using scan_reply_ptr = std::shared_ptr<const scan_reply>;

struct filter_request {
  std::uint64_t cycle_id = 0;
  model::pod_ptr pod;
  plugins::profile_ptr profile;
  plugins::cycle_state_ptr state;
  /// Feasible nodes to find on this shard.
  std::size_t quota = 0;
  /// PreFilterResult's node set (null: all nodes).
  std::shared_ptr<const std::unordered_set<model::symbol>> allowed;
  nominations_ptr nominated;
  std::uint64_t min_generation = 0;
  /// Advance the shard's start index (false for the nominated-node probe).
  bool rotate = true;
  /// Run local scores and summaries.
  bool score = true;
};
using filter_request_ptr = std::shared_ptr<const filter_request>;

struct filter_reply {
  std::uint32_t shard = 0;
  std::uint64_t generation = 0;
  plugins::shard_result result;
};
using filter_reply_ptr = std::shared_ptr<const filter_reply>;

struct score_request {
  std::uint64_t cycle_id = 0;
  model::pod_ptr pod;
  plugins::profile_ptr profile;
  plugins::cycle_state_ptr state;
  std::vector<std::size_t> plugins;
  std::vector<model::symbol> nodes;
};
using score_request_ptr = std::shared_ptr<const score_request>;

struct score_reply {
  std::uint32_t shard = 0;
  /// Plugin-major, aligned with the request's nodes.
  std::vector<std::int64_t> scores;
};
using score_reply_ptr = std::shared_ptr<const score_reply>;

struct preempt_request {
  std::uint64_t cycle_id = 0;
  model::pod_ptr pod;
  plugins::profile_ptr profile;
  plugins::cycle_state_ptr state;
  plugins::cluster_context_ptr cluster;
  /// Nodes whose filter status this cycle was UnschedulableAndUnresolvable:
  /// preemption cannot help there. Every other node of the shard is a
  /// potential node, visited in node order starting at `offset`.
  std::shared_ptr<const std::unordered_set<model::symbol>> unresolvable;
  std::size_t offset = 0;
  std::size_t wanted = 0;
  nominations_ptr nominated;
  /// The pod's nominated node if this shard owns it, with its filter status.
  model::symbol nominated_node;
  plugins::status nominated_status;
};
using preempt_request_ptr = std::shared_ptr<const preempt_request>;

struct preempt_reply {
  std::uint32_t shard = 0;
  plugins::dry_run_result result;
  /// Non-success when the nominated-node eligibility check failed.
  plugins::status eligibility;
};
using preempt_reply_ptr = std::shared_ptr<const preempt_reply>;

/// Coordinator -> cache.
struct assume_request {
  model::pod_ptr pod;
  model::symbol node;
  plugins::profile_ptr profile;
  plugins::cycle_state_ptr state;
  /// Per shard: the generation of the view the cycle's state came from.
  std::vector<std::uint64_t> shard_generations;
  /// Generation of the cluster_context the cycle started from (PreFilter
  /// skip decisions, e.g. InterPodAffinity's, depend on its counters).
  std::uint64_t context_generation = 0;
  /// Opportunistic batching: after the assume, filter the node again for a
  /// pod like this one (node-local filters) and score it with the cycle's
  /// local score plugins, so the batch can rank it among its other nodes.
  bool rescore = false;
  /// The node is a batch's hint, not a filtered choice: a refusal is the
  /// hint not fitting (the pod runs a full cycle), not a conflict.
  bool hinted = false;
};
using assume_request_ptr = std::shared_ptr<const assume_request>;

struct assume_reply {
  bool ok = false;
  /// The pod is already assumed or bound (a duplicate cycle): drop it.
  bool duplicate = false;
  /// The assumed pod (spec.nodeName set) when ok.
  model::pod_ptr assumed;
  /// Cache generation after the assume (shards see it at this generation).
  std::uint64_t generation = 0;
  /// The volume writes PreBind must make (null: none).
  model::volume_binding_plan_ptr volumes;
  /// Why not, when !ok.
  std::string reason;
  /// With `rescore`: whether another pod like this one still fits the node,
  /// and if so its raw local scores there (score_plan().local order).
  bool fits_again = false;
  std::vector<std::int64_t> scores;
  /// How long that filtering and scoring took.
  std::chrono::nanoseconds rescore_time{0};
};
using assume_reply_ptr = std::shared_ptr<const assume_reply>;

/// Coordinator -> binder.
struct bind_request {
  model::pod_ptr pod;
  model::symbol node;
  plugins::profile_ptr profile;
  plugins::cycle_state_ptr state;
  /// Nodes evaluated / feasible, for the V(2) log line.
  std::size_t evaluated_nodes = 0;
  std::size_t feasible_nodes = 0;
  /// The pod's scheduling attempts, first-enqueue time and leftover-flush
  /// mark (queued_pod_info), for the metrics recorded when binding ends.
  std::int32_t attempts = 0;
  std::int64_t initial_ns = 0;
  bool flushed = false;
  /// The volume writes PreBind must make (from the assume; null: none).
  model::volume_binding_plan_ptr volumes;
};
using bind_request_ptr = std::shared_ptr<const bind_request>;

/// Counters a queue reports (also the scheduler_pending_pods gauges).
struct queue_stats {
  std::size_t active = 0;
  std::size_t backoff = 0;
  std::size_t unschedulable = 0;
  std::size_t gated = 0;
  /// Popped and not yet finished (scheduling or binding).
  std::size_t in_flight = 0;
  /// Preemptors waiting for their victims to go (simulate's settling queue).
  std::size_t waiting_for_victims = 0;
  std::uint64_t barrier = 0;
  bool idle() const noexcept {
    return active == 0 && backoff == 0 && in_flight == 0
           && waiting_for_victims == 0;
  }
};

/// Counters the cache reports (scheduler_cache_size).
struct cache_stats {
  std::size_t nodes = 0;
  std::size_t pods = 0;
  std::size_t assumed_pods = 0;
  std::uint64_t generation = 0;
  std::uint64_t conflicts = 0;
  bool synced = false;
};

} // namespace tessera::actors
