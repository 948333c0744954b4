// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The plugin interfaces: one abstract class per extension point, in pipeline
/// order, each with upstream's meaning. A plugin class derives from the
/// interfaces of the points it implements; the profile calls them.
///
/// Sharding (docs/architecture.md, "The scheduling cycle, split across
/// actors"):
/// - PreFilter and PreScore run once per cycle in the coordinator and must be
///   node-independent: they see the pod and the cluster_context, not nodes.
/// - State that spans nodes (topology counts, affinity maps) comes from
///   `node_scanner`: `scan` runs in every shard over that shard's nodes and
///   returns a partial; `merge` combines the partials in the coordinator and
///   writes the plugin's cycle-state slot. It runs after PreFilter and
///   PreScore, before Filter.
/// - Filter and Score are pure functions of (cycle state, pod, one
///   node_info), so any shard can run them on its nodes, in parallel with
///   other shards and other cycles.
/// - A Score that needs facts about the whole feasible set (PodTopologySpread
///   weights depend on how many domains the feasible nodes span) implements
///   `feasible_summarizer`: shards summarize their feasible nodes, the
///   coordinator merges, and such plugins score in a second pass.
/// - NormalizeScore runs in the coordinator over the union of feasible nodes.
#pragma once

#include "model/node_info.hpp"
#include "model/node_view.hpp"
#include "model/pod.hpp"
#include "model/symbol.hpp"
#include "plugins/framework/cluster_context.hpp"
#include "plugins/framework/cluster_event.hpp"
#include "plugins/framework/cycle_state.hpp"
#include "plugins/framework/status.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace tessera::plugins {

/// Where a plugin finds its own cycle-state slot and the cluster facts.
struct plugin_context {
  /// This plugin's slot in every cycle_state of the profile.
  std::size_t slot = 0;
};

class plugin {
public:
  virtual ~plugin() = default;
  /// Upstream's plugin name, e.g. "NodeResourcesFit".
  virtual std::string_view name() const noexcept = 0;
  /// Events that may make a pod this plugin rejected schedulable.
  virtual std::vector<cluster_event_with_hint> events_to_register() const {
    return {};
  }
  /// Opportunistic batching's pod signature, in three calls. A pod's
  /// signature is what every Filter and Score plugin reads of it; two pods
  /// with equal signatures get the same results on every node, so the second
  /// may reuse the first one's scored node list. `signs_pods` false (the
  /// default) turns batching off for every profile the plugin is in, as
  /// upstream does for a plugin that cannot sign.
  virtual bool signs_pods() const noexcept {
    return false;
  }
  /// False when this plugin's results for `p` depend on more than the pod
  /// and the node (other pods, cluster-wide counts): `p` is then never
  /// batched.
  virtual bool signable(const model::pod& p,
                        const cluster_context& cluster) const {
    (void)p, (void)cluster;
    return false;
  }
  /// For two signable pods: whether every field this plugin reads is equal.
  virtual bool same_signature(const model::pod& a, const model::pod& b) const {
    (void)a, (void)b;
    return false;
  }

  /// Called once by the profile with the plugin's slot.
  void bind_context(plugin_context ctx) noexcept {
    ctx_ = ctx;
  }
  std::size_t slot() const noexcept {
    return ctx_.slot;
  }

private:
  plugin_context ctx_;
};

/// A pod waiting in activeQ, as QueueSort sees it.
/// A view: the queue holds the pod, and QueueSort compares positions often
/// enough (every insertion and pop of a sorted queue) that copying a
/// shared pointer per comparison showed in profiles.
struct queued_pod {
  const model::pod* pod = nullptr;
  /// When the pod was last added to the queue (monotonic ns).
  std::int64_t timestamp_ns = 0;
  /// Insertion sequence, a final tie-break so the order is total.
  std::uint64_t sequence = 0;
};

class queue_sort_plugin : public virtual plugin {
public:
  /// True when `a` must be scheduled before `b`.
  virtual bool less(const queued_pod& a, const queued_pod& b) const = 0;
};

class pre_enqueue_plugin : public virtual plugin {
public:
  /// Success admits the pod to activeQ; a rejection keeps it gated.
  virtual status pre_enqueue(const model::pod& p) const = 0;
};

/// The node-name set a PreFilter may return (upstream's PreFilterResult);
/// nullopt means "all nodes".
using node_name_set = std::optional<std::unordered_set<model::symbol>>;

struct pre_filter_result {
  status result;
  node_name_set nodes;
};

class pre_filter_plugin : public virtual plugin {
public:
  /// Node-independent preparation. Skip disables this plugin's Filter for the
  /// cycle; a rejection fails the pod on every node.
  virtual pre_filter_result
  pre_filter(cycle_state& state, const model::pod& p,
             const cluster_context& cluster) const = 0;

  /// True when this plugin implements AddPod/RemovePod (nominated pods,
  /// preemption dry runs, assume validation).
  virtual bool has_extensions() const noexcept {
    return false;
  }
  /// Updates this plugin's slot as if `added` (on `node`) were in the cluster.
  virtual status add_pod(cycle_state& state, const model::pod& to_schedule,
                         const model::pod_core& added,
                         model::node_view node) const {
    (void)state, (void)to_schedule, (void)added, (void)node;
    return {};
  }
  /// Updates this plugin's slot as if `removed` (on `node`) were gone.
  virtual status remove_pod(cycle_state& state, const model::pod& to_schedule,
                            const model::pod_core& removed,
                            model::node_view node) const {
    (void)state, (void)to_schedule, (void)removed, (void)node;
    return {};
  }
};

/// A PreFilter plugin whose AddPod and RemovePod are the same update, run
/// with a count delta of +1 (the pod joins) or -1 (the pod leaves).
class counting_pre_filter_plugin : public pre_filter_plugin {
public:
  bool has_extensions() const noexcept final {
    return true;
  }
  status add_pod(cycle_state& state, const model::pod& to_schedule,
                 const model::pod_core& added,
                 model::node_view node) const final {
    return update_with_pod(state, to_schedule, added, node, 1);
  }
  status remove_pod(cycle_state& state, const model::pod& to_schedule,
                    const model::pod_core& removed,
                    model::node_view node) const final {
    return update_with_pod(state, to_schedule, removed, node, -1);
  }

protected:
  /// Counts `changed` on `node` into a copy of this plugin's slot, `delta`
  /// times.
  virtual status update_with_pod(cycle_state& state,
                                 const model::pod& to_schedule,
                                 const model::pod_core& changed,
                                 model::node_view node,
                                 std::int64_t delta) const = 0;
};

/// A shard's contribution to a node scan. Partials travel from shards to the
/// coordinator, so they are immutable once built.
struct scan_partial {
  virtual ~scan_partial() = default;
};
using scan_partial_ptr = std::shared_ptr<const scan_partial>;

/// Plugins whose PreFilter / PreScore state spans all nodes.
class node_scanner : public virtual plugin {
public:
  /// After PreFilter and PreScore: does this cycle need a scan?
  virtual bool wants_scan(const cycle_state& state,
                          const model::pod& p) const = 0;
  /// One shard's partial over `nodes` (a shard's whole node set).
  virtual scan_partial_ptr
  scan(const cycle_state& state, const model::pod& p,
       std::span<const model::node_info_ptr> nodes) const = 0;
  /// Combines every shard's partial into this plugin's slot; may mark the
  /// plugin's filter or score skipped. An Error aborts the cycle.
  virtual status merge(cycle_state& state, const model::pod& p,
                       std::vector<scan_partial_ptr> partials) const = 0;
};

class filter_plugin : public virtual plugin {
public:
  /// Whether the pod fits `node`; rejections carry the reason constants.
  /// `node` may carry nominated pods on top of its node_info (the first of
  /// the two passes with nominated pods), so a filter reads the node only
  /// through the view.
  virtual status filter(const cycle_state& state, const model::pod& p,
                        model::node_view node) const = 0;
  /// True when the filter only depends on the node itself and the pod
  /// (resources, ports, taints, labels): the cache re-runs these on the
  /// chosen node at assume time. False for cross-node filters.
  virtual bool node_local() const noexcept {
    return true;
  }
  /// True when PreFilter may skip this filter because no *other* pod in the
  /// cluster could matter (InterPodAffinity skips when the pod has no terms
  /// and no existing pod has required anti-affinity). The cache's assume
  /// validation then treats a newly added pod with required anti-affinity
  /// as a conflict. False when the skip depends on the pod alone.
  virtual bool skip_depends_on_other_pods() const noexcept {
    return false;
  }
};

class profile;

/// A node offered to a preemption dry run, with the pods nominated to it.
struct dry_run_node {
  const model::node_info* node = nullptr;
  std::span<const model::pod_ptr> nominated;
};

/// A node where deleting `victims` lets the pod fit.
struct preemption_candidate {
  model::symbol node;
  /// Most important first (higher priority, then earlier start).
  std::vector<model::pod_core_ptr> victims;
  std::int32_t pdb_violations = 0;
};

/// What one shard's dry run found.
struct dry_run_result {
  /// Candidates without PDB violations, then those with, each in visit order.
  std::vector<preemption_candidate> non_violating;
  std::vector<preemption_candidate> violating;
  /// Nodes that are not candidates, with why (filter failure, or UR
  /// "No preemption victims found for incoming pod").
  std::vector<std::pair<model::symbol, status>> failures;
  /// How many of `failures` are nodes where the pod fits with nothing
  /// removed. Against one snapshot that is an error; across actors it means
  /// the shard's view moved on since the cycle's Filter.
  std::size_t fits_without_victims = 0;
};

/// PostFilter's outcome: a nominated node and its victims, or a failure
/// message (already wrapped, e.g. "preemption: ...").
struct post_filter_outcome {
  status result;
  model::symbol nominated_node;
  std::vector<model::pod_core_ptr> victims;
};

/// PostFilter, shaped for sharding: eligibility and selection run in the
/// coordinator, the per-node dry runs in the shards.
class post_filter_plugin : public virtual plugin {
public:
  /// Pod-level eligibility (e.g. preemptionPolicy: Never). Success to go on;
  /// a rejection's message ends PostFilter.
  virtual status check_pod_eligible(const model::pod& p) const = 0;
  /// Eligibility on the pod's nominated node, run by the shard that owns it
  /// (`nominated_status` is that node's filter status this cycle).
  virtual status check_nominated_node(const model::pod& p,
                                      const model::node_info& nominated,
                                      const status& nominated_status) const = 0;
  /// How many candidates to look for among `potential` nodes.
  virtual std::size_t candidates_wanted(std::size_t potential) const = 0;
  /// Dry-runs preemption on `nodes` in order until `wanted` candidates are
  /// found (upstream's stopping rule).
  virtual dry_run_result dry_run(const profile& prof, const cycle_state& state,
                                 const model::pod& p,
                                 std::span<const dry_run_node> nodes,
                                 std::size_t wanted,
                                 const cluster_context& cluster) const = 0;
  /// Chooses among every shard's candidates (non-violating first).
  virtual post_filter_outcome
  select(const model::pod& p,
         std::vector<preemption_candidate> candidates) const = 0;
  /// Wraps a failure message as the plugin reports it ("preemption: ...").
  virtual std::string wrap_message(std::string_view message) const = 0;
};

class pre_score_plugin : public virtual plugin {
public:
  /// Node-independent preparation for Score; Skip disables this plugin's
  /// Score for the cycle. Runs in the coordinator before Filter; an error is
  /// reported only if scoring actually happens (two or more feasible nodes).
  virtual status pre_score(cycle_state& state, const model::pod& p,
                           const cluster_context& cluster) const = 0;
};

/// A shard's summary of its feasible nodes (immutable once built).
struct feasible_summary {
  virtual ~feasible_summary() = default;
};
using feasible_summary_ptr = std::shared_ptr<const feasible_summary>;

/// Score plugins whose Score needs facts about the whole feasible set.
class feasible_summarizer : public virtual plugin {
public:
  virtual bool wants_summary(const cycle_state& state) const = 0;
  virtual feasible_summary_ptr
  summarize(const cycle_state& state, const model::pod& p,
            std::span<const model::node_info* const> feasible) const = 0;
  virtual status
  merge_summaries(cycle_state& state, const model::pod& p,
                  std::vector<feasible_summary_ptr> parts) const = 0;
};

/// A node's score at one plugin, as Score returns it and NormalizeScore
/// rewrites it.
struct node_score {
  model::symbol node;
  std::int64_t score = 0;
};

class score_plugin : public virtual plugin {
public:
  /// The raw score of `node`; NormalizeScore (if any) maps it to 0..100.
  virtual std::int64_t score(const cycle_state& state, const model::pod& p,
                             const model::node_info& node) const = 0;
  /// True when normalize_scores must run.
  virtual bool has_normalize() const noexcept {
    return false;
  }
  /// Rewrites the raw scores of all feasible nodes in place.
  virtual status normalize_scores(const cycle_state& state, const model::pod& p,
                                  std::span<node_score> scores) const {
    (void)state, (void)p, (void)scores;
    return {};
  }
};

class reserve_plugin : public virtual plugin {
public:
  virtual status reserve(cycle_state& state, const model::pod& p,
                         model::symbol node) const = 0;
  virtual void unreserve(cycle_state& state, const model::pod& p,
                         model::symbol node) const = 0;
};

class permit_plugin : public virtual plugin {
public:
  /// Success, a rejection, or Wait with `timeout_ms` set.
  virtual status permit(cycle_state& state, const model::pod& p,
                        model::symbol node, std::int64_t& timeout_ms) const = 0;
};

class pre_bind_plugin : public virtual plugin {
public:
  virtual status pre_bind(cycle_state& state, const model::pod& p,
                          model::symbol node) const = 0;
  /// For a PreBind whose work is API writes the binder makes
  /// asynchronously (VolumeBinding: the assume's volume plan): how long the
  /// binder waits for them to take effect. nullopt for PreBinds that do all
  /// their work in `pre_bind`.
  virtual std::optional<std::chrono::milliseconds>
  api_wait_timeout() const noexcept {
    return std::nullopt;
  }
};

/// Bind is asynchronous I/O in tessera: a bind plugin decides whether it
/// handles the pod (Skip passes to the next); the binder actor performs the
/// API call through its sink.
class bind_plugin : public virtual plugin {
public:
  virtual status accepts(const cycle_state& state, const model::pod& p,
                         model::symbol node) const = 0;
};

class post_bind_plugin : public virtual plugin {
public:
  virtual void post_bind(const cycle_state& state, const model::pod& p,
                         model::symbol node) const = 0;
};

} // namespace tessera::plugins
