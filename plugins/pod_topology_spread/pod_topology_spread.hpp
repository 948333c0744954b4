// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `pod_topology_spread`: kube-scheduler's PodTopologySpread plugin
/// (PreFilter with AddPod / RemovePod, Filter, PreScore, Score,
/// NormalizeScore, queueing hints).
///
/// Constraints: the pod's own (whenUnsatisfiable DoNotSchedule for Filter,
/// ScheduleAnyway for Score; matchLabelKeys already merged into the selector
/// by the decoder); a pod without constraints of its own gets the default
/// constraints — with defaultingType System `kubernetes.io/hostname` maxSkew 3
/// and `topology.kubernetes.io/zone` maxSkew 5, both ScheduleAnyway; with
/// List the args' defaultConstraints — whose selector is built from the
/// Services, ReplicationControllers, ReplicaSets and StatefulSets that select
/// the pod (`default_selector.hpp`, over the cluster context's workloads); an
/// empty selector means no default constraint applies.
///
/// Filter (hard constraints): a node without a constraint's key fails UR
/// `node(s) didn't match pod topology spread constraints (missing required
/// label)`; otherwise skew = matching pods in the node's domain + (1 if the
/// pod matches the selector) − global minimum, where the global minimum is
/// the smallest count over eligible domains, or 0 with fewer eligible
/// domains than minDomains; skew > maxSkew fails U `node(s) didn't match
/// pod topology spread constraints`.
///
/// Score (soft constraints): per constraint a weight ln(domains + 2), where
/// domains is the number of distinct values among the feasible, not ignored
/// nodes (for hostname: the number of such nodes); a node's raw score is
/// round(Σ count × weight + (maxSkew − 1)) with count the matching pods in
/// its domain over all eligible nodes (hostname: the node's own pods).
/// Feasible nodes lacking a key are ignored (score 0) when the pod has its
/// own constraints or defaulting is not System. NormalizeScore: with min and
/// max over the non-ignored nodes, 100 × (max + min − s) / max, 100 for all
/// when max is 0, ignored nodes 0.
///
/// Sharding: the per-domain counts over all nodes come from the node scan
/// (`filter_score_scanner`: shards count their nodes, the coordinator sums).
/// The weights and the ignored nodes depend on the feasible set, so the plugin
/// is a feasible_summarizer: shards summarize their feasible nodes (distinct
/// values, ignored nodes), the coordinator merges, and Score runs after.
#pragma once

#include "config/plugin_args.hpp"
#include "model/labels.hpp"
#include "model/symbol.hpp"
#include "plugins/framework/filter_score_scanner.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"
#include "plugins/framework/topology_pair_counts.hpp"
#include "plugins/pod_topology_spread/spread_constraint.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace tessera::plugins {

/// Builds the selector for a pod's default constraints. The empty selector
/// means "no default constraints".
using selector_source = std::function<model::label_selector(
  const model::pod& p, const cluster_context& cluster)>;

/// The real source: `default_selector` over `cluster.workloads`.
model::label_selector workload_selector(const model::pod& p,
                                        const cluster_context& cluster);
/// A source that never applies default constraints (for tests of the
/// pod's own constraints).
model::label_selector no_default_selector(const model::pod& p,
                                          const cluster_context& cluster);

class pod_topology_spread final
  : public counting_pre_filter_plugin,
    public filter_plugin,
    public filter_score_scanner<pod_topology_spread>,
    public pre_score_plugin,
    public score_plugin,
    public feasible_summarizer,
    public signs_by<always_same> {
public:
  static constexpr std::string_view plugin_name = "PodTopologySpread";
  static constexpr std::string_view constraints_not_match
    = "node(s) didn't match pod topology spread constraints";
  static constexpr std::string_view node_label_not_match
    = "node(s) didn't match pod topology spread constraints (missing required "
      "label)";

  using spread_constraint = pod_topology_spread_detail::spread_constraint;
  using when_unsatisfiable = pod_topology_spread_detail::when_unsatisfiable;

  /// What PreFilter prepares: the hard constraints.
  struct filter_input {
    std::vector<spread_constraint> constraints;
    /// The pod matches constraint i's selector (its own +1 to the skew).
    std::vector<char> self_match;
  };
  /// Matching pods per (constraint index, domain) over eligible nodes, with
  /// an entry (possibly 0) for every eligible domain; and per constraint the
  /// number of domains holding each count, which gives the exact minimum
  /// under AddPod / RemovePod.
  struct filter_counts {
    topology_pair_counts counts;
    struct count_domains {
      std::int64_t count = 0;
      std::int64_t domains = 0;
    };
    /// Per constraint, sorted by count, no zero `domains`.
    std::vector<boost::container::small_vector<count_domains, 8>> histogram;
    /// Per constraint, the number of eligible domains.
    std::vector<std::int64_t> domains;
  };
  /// What PreScore prepares: the soft constraints.
  struct score_input {
    std::vector<spread_constraint> constraints;
    /// Feasible nodes lacking a key are ignored (own constraints, or
    /// defaulting is not System).
    bool require_all_topologies = true;
    /// Some constraint is not per hostname: the scan must count domains.
    bool needs_counts = false;
  };
  /// Matching pods per (constraint index, domain) for the soft constraints
  /// (hostname constraints are counted per node by Score).
  struct score_counts {
    topology_pair_counts::map_type counts;
  };
  /// Facts about the feasible set, merged from the shards' summaries.
  struct score_weights {
    std::vector<double> weights;
    std::unordered_set<model::symbol> ignored;
  };
  /// One shard's scan, keyed by (constraint index, domain value); the
  /// coordinator adds the shards' up.
  struct scan_sums : scan_partial {
    /// Hard constraints: an entry for every eligible domain, even at 0.
    topology_pair_counts::map_type hard;
    /// Soft constraints other than hostname: only non-zero counts.
    topology_pair_counts::map_type soft;

    /// Adds `other`'s counts in.
    void add(const scan_sums& other);
  };
  /// This plugin's cycle-state slot; every part is immutable and shared.
  struct cycle_data : plugin_state {
    std::shared_ptr<const filter_input> filter;
    std::shared_ptr<const filter_counts> counts;
    std::shared_ptr<const score_input> scoring;
    std::shared_ptr<const score_counts> soft_counts;
    std::shared_ptr<const score_weights> weights;
  };

  /// A plugin with validated args; `defaults` builds the selector of the
  /// default constraints.
  explicit pod_topology_spread(const config::pod_topology_spread_args& args,
                               selector_source defaults = workload_selector);

  /// "PodTopologySpread".
  std::string_view name() const noexcept override {
    return plugin_name;
  }
  /// Batching: a pod with spread constraints, its own or the defaults, is
  /// scored against other pods' placement, so it has no signature.
  bool signable(const model::pod& p,
                const cluster_context& cluster) const override;
  /// Assigned pods added, relabelled or deleted, the waiting pod's
  /// tolerations updated; nodes added, deleted, relabelled or retainted.
  std::vector<cluster_event_with_hint> events_to_register() const override;

  /// The pod's constraints with `action`: its own, or the default ones with
  /// the default selector (none when that selector is empty). Without a
  /// cluster (queueing hints), default constraints select every pod, so a
  /// hint errs towards requeuing.
  std::vector<spread_constraint>
  constraints_for(const model::pod& p, when_unsatisfiable action,
                  const cluster_context* cluster) const;

  /// Prepares the hard constraints; Skip when there are none.
  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override;

  /// Missing label (UR), then skew (U), constraint by constraint; Error for
  /// a node_info without a node.
  status filter(const cycle_state& state, const model::pod& p,
                model::node_view node) const override;
  /// Cross-node: the cache re-checks it only when an assumed pod interacts.
  bool node_local() const noexcept override {
    return false;
  }

  /// Prepares the soft constraints; Skip when there are none.
  status pre_score(cycle_state& state, const model::pod& p,
                   const cluster_context& cluster) const override;

  /// Score needs the feasible set whenever PreScore did not skip.
  bool wants_summary(const cycle_state& state) const override;
  /// This shard's feasible nodes: the ignored ones, distinct domain values.
  feasible_summary_ptr
  summarize(const cycle_state& state, const model::pod& p,
            std::span<const model::node_info* const> feasible) const override;
  /// Unions the summaries into the weights and the ignored nodes.
  status
  merge_summaries(cycle_state& state, const model::pod& p,
                  std::vector<feasible_summary_ptr> parts) const override;

  /// round(Σ count × weight + maxSkew − 1); 0 for an ignored node.
  std::int64_t score(const cycle_state& state, const model::pod& p,
                     const model::node_info& node) const override;
  /// NormalizeScore runs.
  bool has_normalize() const noexcept override {
    return true;
  }
  /// 100 × (max + min − s) / max over the non-ignored nodes (100 when max is
  /// 0); ignored nodes 0.
  status normalize_scores(const cycle_state& state, const model::pod& p,
                          std::span<node_score> scores) const override;

  /// "node(s) didn't match pod topology spread constraints".
  model::symbol reason_constraints() const noexcept {
    return reason_constraints_;
  }
  /// "... (missing required label)".
  model::symbol reason_missing_label() const noexcept {
    return reason_missing_label_;
  }

private:
  friend class filter_score_scanner<pod_topology_spread>;

  /// Soft constraints per hostname are counted by Score itself; any other
  /// needs the scan.
  static bool score_needs_scan(const score_input& in) noexcept {
    return in.needs_counts;
  }
  /// The node's matching pods per hard constraint, if the node is eligible.
  void scan_filter_node(const filter_input& in, const model::pod& p,
                        const model::node_info& ni, const model::node& n,
                        scan_sums& out) const;
  /// The node's matching pods per soft constraint not per hostname.
  void scan_score_node(const score_input& in, const model::pod& p,
                       const model::node_info& ni, const model::node& n,
                       scan_sums& out) const;
  /// The hard counts, with each constraint's domain count and count
  /// histogram (for the global minimum).
  void finish_filter(cycle_state& state, cycle_data& next,
                     scan_sums& total) const;
  /// The soft counts.
  void finish_score(cycle_state& state, cycle_data& next,
                    scan_sums& total) const;
  /// AddPod / RemovePod keep the domain counts in step with nominated pods,
  /// preemption victims and pods assumed since the cycle's snapshot.
  status update_with_pod(cycle_state& state, const model::pod& to_schedule,
                         const model::pod_core& changed, model::node_view node,
                         std::int64_t delta) const override;
  bool ignored(const score_input& in, const model::node& n) const noexcept;

  bool system_defaulted_;
  /// Default constraints by kind, selectors unset.
  std::vector<spread_constraint> default_hard_;
  std::vector<spread_constraint> default_soft_;
  selector_source default_selector_;
  model::symbol hostname_key_;
  model::symbol reason_constraints_;
  model::symbol reason_missing_label_;
};

/// Builds PodTopologySpread from its args.
std::shared_ptr<plugin>
make_pod_topology_spread(const config::pod_topology_spread_args& args);

} // namespace tessera::plugins
