// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `cache_state`: the authoritative cluster state and all its logic, without
/// CAF. It owns nodes (as node_infos), bound and assumed pods, namespaces,
/// PodDisruptionBudgets, workloads and storage objects (`storage_book`, with
/// the volume bindings assumed pods took); keeps a generation counter (one step
/// per change); and produces what the other actors need: per-shard deltas,
/// cluster views for the coordinator, inputs for the queue.
///
/// A pod's life in the cache:
///
///   (pending, in the queue)
///          | assume (validated)
///          v
///      [assumed] --forget (bind failed)--> (gone; "assigned pod deleted")
///          | finish_binding   | informer: pod bound
///          v                  v
///      [assumed, binding finished] --informer: bound--> [bound]
///          | TTL passed (0 = never)              | informer: deleted,
///          v                                     v           or terminal
///        (gone)                                (gone)
///
/// Assume validation (docs/architecture.md, "Optimistic assume"): the
/// cycle's shard views may miss pods assumed since. Node-local filters are
/// re-run on the chosen node's authoritative node_info; cross-node filters are
/// re-run after replaying, through the plugins' AddPod/RemovePod, every pod
/// change the cycle's views had not seen (from a bounded change log). A pod
/// with claims must also get them on the node by the newest storage state
/// (`storage_book::assume`). Any failure is a conflict: nothing changes and
/// the pod is retried.
#pragma once

#include "actors/cache/node_tree.hpp"
#include "actors/cache/storage_book.hpp"
#include "actors/messages.hpp"
#include "actors/source.hpp"
#include "metrics/fwd.hpp"
#include "support/clock.hpp"

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera::actors {

struct cache_config {
  std::size_t shards = 1;
  /// schedulerNames handled by this instance; pending pods of other
  /// schedulers never reach the queue.
  std::vector<std::string> scheduler_names{"default-scheduler"};
  /// Pod and node changes remembered for assume validation.
  std::size_t change_log_capacity = 16384;
  /// Lifetime of an assumed pod after its binding finished, if the informer
  /// never confirms it; zero = never expire (upstream's default).
  duration assumed_ttl{0};
  /// Where to record (not owned); null = recording off.
  metrics::scheduler_metrics* metrics = nullptr;
};

/// What handling inputs produced; the behavior sends it.
struct cache_outputs {
  /// Index = shard; null when the shard has nothing new.
  std::vector<shard_delta_ptr> deltas;
  /// Set when the cluster view changed.
  cluster_view_ptr view;
  std::vector<queue_input> queue;
  /// For the coordinator's nominator: pending pods whose API status names a
  /// node or stops naming one, and pending pods that left.
  std::vector<queue_input> nominees;
};

class cache_state {
public:
  static inline const char* name = "cache";

  cache_state(cache_config cfg, const clock& c);

  /// Applies one object change from the source.
  void apply(const object_event& ev);
  /// Validates and records a placement.
  assume_reply assume(const assume_request& req);
  /// The pod's binding finished (success); starts its TTL.
  void finish_binding(const model::pod& p);
  /// Drops an assumed pod (binding failed).
  void forget(const model::pod_core& p);
  /// Drops assumed pods whose binding finished longer than the TTL ago.
  void expire(time_point now);
  /// Takes everything produced since the last call.
  cache_outputs take_outputs();

  cache_stats stats() const;
  std::uint64_t generation() const noexcept {
    return generation_;
  }
  /// The current node_info of `node` (tests, diagnostics).
  model::node_info_ptr node(model::symbol name) const;
  /// The shard that owns `node`.
  std::uint32_t shard_of(model::symbol node) const;

private:
  enum class pod_phase_in_cache : std::uint8_t { assumed, bound };
  /// Bound and assumed pods are kept as cores: nothing reads the rest of a
  /// pod that is not being scheduled, and at a million pods the rest is
  /// most of the scheduler's memory.
  struct pod_entry {
    model::pod_core_ptr pod;
    pod_phase_in_cache phase = pod_phase_in_cache::bound;
    bool binding_finished = false;
    std::optional<time_point> deadline;
  };
  struct node_entry {
    model::node_info_ptr published;
    /// Changes since the last take_outputs(), not yet published.
    std::shared_ptr<model::node_info> draft;
    std::uint32_t shard = 0;
  };
  struct change {
    enum class kind : std::uint8_t { pod_added, pod_removed, node_changed };
    std::uint64_t generation = 0;
    kind type = kind::pod_added;
    model::pod_core_ptr pod;
    model::symbol node;
    std::uint32_t shard = 0;
  };

  void apply_pod(object_event::kind type, const model::pod_ptr& p);
  /// A pending pod left (deleted, or bound by someone else): tells the
  /// queue and the nominator.
  void left_pending(const model::pod_ptr& last);
  void apply_node(object_event::kind type, const model::node_ptr& n);
  void apply_namespace(object_event::kind type, const model::namespace_ptr& ns);
  void apply_budget(object_event::kind type,
                    const model::disruption_budget_ptr& b);
  void apply_workload(object_event::kind type, const model::workload_ptr& w);
  void apply_storage(object_event::kind type, const model::object& o);

  void add_pod_to_node(const model::pod_core_ptr& p);
  void remove_pod_from_node(const model::pod_core_ptr& p);
  /// The index of the profile whose schedulerName the pod names, if any.
  std::optional<std::uint32_t> profile_of(const model::pod& p) const;
  const model::node_info* current(model::symbol node) const;
  model::node_info& draft(model::symbol node);
  void log_change(change::kind type, const model::pod_core_ptr& p,
                  model::symbol node);
  void count_affinity(const model::pod_core& p, int sign);
  void count_images(const model::node* n, int sign);
  void emit_event(plugins::event_resource r, plugins::action a,
                  model::object old_obj, model::object new_obj, bool has_old,
                  bool has_new);
  std::string conflict_check(const assume_request& req,
                             const model::node_info& target) const;
  /// Fills the batching fields of a successful assume's reply.
  void rescore(const assume_request& req, assume_reply& reply) const;

  cache_config cfg_;
  const clock& clock_;
  std::uint64_t generation_ = 0;
  std::uint64_t conflicts_ = 0;

  std::unordered_map<model::symbol, node_entry> nodes_;
  std::unordered_map<std::string, pod_entry> pods_;
  /// Pending pods this instance schedules, by key (old objects for updates).
  std::unordered_map<std::string, model::pod_ptr> pending_;
  std::unordered_set<model::symbol> dirty_nodes_;
  std::vector<std::vector<model::symbol>> removed_;
  node_tree tree_;
  bool order_dirty_ = false;

  std::unordered_map<model::symbol, model::namespace_ptr> namespaces_;
  std::unordered_map<std::string, model::disruption_budget_ptr> budgets_;
  /// Budgets without status: the view recomputes them when pods change.
  std::size_t statusless_budgets_ = 0;
  /// Workloads by kind, namespace and name; the index the view publishes
  /// is rebuilt only when a selector changed.
  std::unordered_map<std::string, model::workload_ptr> workloads_;
  std::shared_ptr<const plugins::workload_index> workload_index_;
  bool workloads_dirty_ = false;
  /// Storage objects and assumed volume bindings.
  storage_book storage_;
  std::unordered_map<model::symbol, std::int32_t> image_counts_;
  std::int64_t pods_with_affinity_ = 0;
  std::int64_t pods_with_required_anti_affinity_ = 0;
  std::size_t assumed_count_ = 0;
  bool view_dirty_ = true;
  bool routes_dirty_ = true;
  std::vector<std::size_t> shard_nodes_;
  std::shared_ptr<const std::unordered_map<model::symbol, std::uint32_t>>
    routes_;
  std::uint64_t context_generation_ = 0;

  std::deque<change> log_;
  /// Generation of the last pod with required anti-affinity that was new to
  /// the cache (assumed, or bound without being assumed here).
  std::uint64_t last_new_anti_affinity_generation_ = 0;
  /// Per shard: every change to the shard's nodes with a generation above
  /// this is in log_.
  std::vector<std::uint64_t> log_floor_;

  std::vector<queue_input> queue_out_;
  std::vector<queue_input> nominees_out_;
};

} // namespace tessera::actors
