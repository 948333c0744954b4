// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `inter_pod_affinity`: kube-scheduler's InterPodAffinity plugin (PreFilter
/// with AddPod / RemovePod, Filter, PreScore, Score, NormalizeScore).
///
/// Filter state, per cycle, as three maps from (topology key, value) to a
/// count of existing pods:
/// - existing anti-affinity: pods with required anti-affinity whose terms
///   match the pod being scheduled, counted at their node's value of each
///   matching term's key;
/// - affinity: pods matching *all* the pod's required affinity terms, once
///   per term;
/// - anti-affinity: pods matching each of the pod's required anti-affinity
///   terms.
/// Filter then checks, in this order, affinity (UR `node(s) didn't match pod
/// affinity rules`, with the first-pod-of-a-group rule), anti-affinity (U
/// `node(s) didn't match pod anti-affinity rules`) and existing pods'
/// anti-affinity (U `node(s) didn't satisfy existing pods anti-affinity
/// rules`).
///
/// Score state: a map from (topology key, value) to a weight sum over
/// existing pods: the pod's preferred (anti-)affinity terms matching them,
/// their required affinity terms matching the pod (hardPodAffinityWeight)
/// and their preferred (anti-)affinity terms matching the pod. A node scores
/// the sum over the map's keys of its value's entry; NormalizeScore maps
/// [min, max] onto [0, 100].
///
/// Sharding: PreFilter and PreScore only resolve the pod's terms (their
/// namespaceSelectors against the cluster's namespaces); the maps come from
/// the node scan (`filter_score_scanner`), which every shard runs over its
/// nodes and the coordinator sums. The merge marks the Filter skipped when
/// the pod has no required terms and no existing pod's anti-affinity matches
/// it, and the Score skipped when nothing was accumulated, as upstream's
/// PreFilter and PreScore do.
/// The cluster counters of pods with (anti-)affinity let PreFilter and
/// PreScore skip without a scan when no existing pod can matter.
#pragma once

#include "config/plugin_args.hpp"
#include "model/labels.hpp"
#include "model/symbol.hpp"
#include "plugins/framework/filter_score_scanner.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"
#include "plugins/framework/topology_pair_counts.hpp"
#include "plugins/inter_pod_affinity/affinity_terms.hpp"

#include <boost/container/small_vector.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace tessera::plugins {

class inter_pod_affinity final
  : public counting_pre_filter_plugin,
    public filter_plugin,
    public filter_score_scanner<inter_pod_affinity>,
    public pre_score_plugin,
    public score_plugin,
    public signs_by<same_namespace_and_labels> {
public:
  static constexpr std::string_view plugin_name = "InterPodAffinity";
  static constexpr std::string_view affinity_rules_not_match
    = "node(s) didn't match pod affinity rules";
  static constexpr std::string_view anti_affinity_rules_not_match
    = "node(s) didn't match pod anti-affinity rules";
  static constexpr std::string_view existing_anti_affinity_rules_not_match
    = "node(s) didn't satisfy existing pods anti-affinity rules";

  using resolved_term = inter_pod_affinity_detail::resolved_term;
  /// Distinct topology keys, in the order the scan met them.
  using key_list = boost::container::small_vector<model::symbol, 4>;

  /// What PreFilter prepares: the pod's required terms, resolved.
  struct filter_input {
    std::vector<resolved_term> required_affinity;
    std::vector<resolved_term> required_anti_affinity;
    /// Labels of the pod's namespace (empty when unknown), for existing
    /// pods' namespaceSelectors.
    model::label_set namespace_labels;
    /// The pod matches all its own required affinity terms.
    bool matches_own_affinity = false;
  };
  /// The filter maps (after the scan, changed by AddPod / RemovePod).
  struct filter_counts {
    topology_pair_counts existing_anti_affinity;
    topology_pair_counts affinity;
    topology_pair_counts anti_affinity;
    /// Topology keys present in `existing_anti_affinity`.
    key_list existing_keys;
  };
  /// What PreScore prepares: the pod's preferred terms, resolved.
  struct score_input {
    std::vector<resolved_term> preferred_affinity;
    std::vector<resolved_term> preferred_anti_affinity;
    model::label_set namespace_labels;
    /// The pod has preferred terms: every existing pod is looked at, not
    /// only those with affinity terms.
    bool all_pods = false;
  };
  /// The score map (after the scan).
  struct score_map {
    topology_pair_counts::map_type weights;
    /// Distinct topology keys of `weights`.
    key_list keys;
  };
  /// One shard's scan, every map keyed by (topology key, value); the
  /// coordinator adds the shards' up.
  struct scan_sums : scan_partial {
    topology_pair_counts::map_type existing_anti_affinity;
    topology_pair_counts::map_type affinity;
    topology_pair_counts::map_type anti_affinity;
    key_list existing_keys;
    topology_pair_counts::map_type scores;
    key_list score_keys;
    /// Some term added to the score map (even if the sums cancel out).
    bool scored = false;

    /// Adds `other`'s counts and keys in.
    void add(const scan_sums& other);
  };
  /// This plugin's cycle-state slot; every part is immutable and shared.
  struct cycle_data : plugin_state {
    std::shared_ptr<const filter_input> filter;
    std::shared_ptr<const filter_counts> counts;
    std::shared_ptr<const score_input> scoring;
    std::shared_ptr<const score_map> scores;
  };

  /// A plugin with validated args (hardPodAffinityWeight,
  /// ignorePreferredTermsOfExistingPods).
  explicit inter_pod_affinity(const config::inter_pod_affinity_args& args);

  /// "InterPodAffinity".
  std::string_view name() const noexcept override {
    return plugin_name;
  }
  /// Batching: a pod with affinity or anti-affinity terms is scored
  /// against other pods' placement, so it has no signature.
  bool signable(const model::pod& p,
                const cluster_context& cluster) const override {
    (void)cluster;
    return !p.has_pod_affinity_terms;
  }
  /// Assigned pods added, relabelled or deleted; nodes added or relabelled.
  std::vector<cluster_event_with_hint> events_to_register() const override;

  /// Resolves the required terms. Skip when the pod has none and no pod in
  /// the cluster has required anti-affinity.
  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override;

  /// The three checks in upstream's order; Error for a node_info without a
  /// node or a cycle without the scan's counts.
  status filter(const cycle_state& state, const model::pod& p,
                model::node_view node) const override;
  /// Cross-node: the cache re-checks it only when an assumed pod interacts.
  bool node_local() const noexcept override {
    return false;
  }
  bool skip_depends_on_other_pods() const noexcept override {
    return true;
  }

  /// Resolves the preferred terms. Skip with ignorePreferredTermsOfExistingPods
  /// and no preferred terms, or when nothing in the cluster can score.
  status pre_score(cycle_state& state, const model::pod& p,
                   const cluster_context& cluster) const override;
  /// The sum of the score map's entries for the node's topology values.
  std::int64_t score(const cycle_state& state, const model::pod& p,
                     const model::node_info& node) const override;
  /// NormalizeScore runs (the min/max rule below).
  bool has_normalize() const noexcept override {
    return true;
  }
  /// 100 × (s − min) / (max − min), truncated; all 0 when max = min.
  status normalize_scores(const cycle_state& state, const model::pod& p,
                          std::span<node_score> scores) const override;

  /// "node(s) didn't match pod affinity rules".
  model::symbol reason_affinity() const noexcept {
    return reason_affinity_;
  }
  /// "node(s) didn't match pod anti-affinity rules".
  model::symbol reason_anti_affinity() const noexcept {
    return reason_anti_affinity_;
  }
  /// "node(s) didn't satisfy existing pods anti-affinity rules".
  model::symbol reason_existing_anti_affinity() const noexcept {
    return reason_existing_anti_affinity_;
  }

private:
  friend class filter_score_scanner<inter_pod_affinity>;

  /// Every PreScore that did not skip needs the scan.
  static bool score_needs_scan(const score_input& in) noexcept {
    (void)in;
    return true;
  }
  /// The node's pods with required anti-affinity matching the pod, and the
  /// node's pods matching the pod's required terms.
  void scan_filter_node(const filter_input& in, const model::pod& p,
                        const model::node_info& ni, const model::node& n,
                        scan_sums& out) const;
  /// What the node's pods add to the score map.
  void scan_score_node(const score_input& in, const model::pod& p,
                       const model::node_info& ni, const model::node& n,
                       scan_sums& out) const;
  /// The filter maps; Filter skipped when the pod has no required terms and
  /// no existing pod's anti-affinity matches it.
  void finish_filter(cycle_state& state, cycle_data& next,
                     scan_sums& total) const;
  /// The score map; Score skipped when nothing was accumulated.
  void finish_score(cycle_state& state, cycle_data& next,
                    scan_sums& total) const;
  /// AddPod / RemovePod keep the filter maps in step with nominated pods,
  /// preemption victims and pods assumed since the cycle's snapshot.
  status update_with_pod(cycle_state& state, const model::pod& to_schedule,
                         const model::pod_core& changed, model::node_view node,
                         std::int64_t multiplier) const override;

  config::inter_pod_affinity_args args_;
  model::symbol reason_affinity_;
  model::symbol reason_anti_affinity_;
  model::symbol reason_existing_anti_affinity_;
};

/// Builds InterPodAffinity from its args.
std::shared_ptr<plugin>
make_inter_pod_affinity(const config::inter_pod_affinity_args& args);

} // namespace tessera::plugins
