// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_affinity`: kube-scheduler's NodeAffinity (PreFilter, Filter,
/// PreScore, Score, NormalizeScore), including `spec.nodeSelector` and the
/// scheduler-enforced `addedAffinity` of NodeAffinityArgs.
///
/// A pod's required constraint is its nodeSelector (every key=value must be
/// a node label) AND its requiredDuringSchedulingIgnoredDuringExecution
/// (terms ORed, a term's requirements ANDed, a term without requirements or
/// an empty term list matching nothing; see model/node_selector.hpp).
///
/// - PreFilter: Skip when the pod has neither required node affinity nor a
///   nodeSelector and the args add no required affinity. When every required
///   term has at least one `metadata.name In` matchField, the result is the
///   node-name set: per term the intersection of those names, across terms
///   the union; an empty set rejects the pod with UnschedulableAndUnresolvable
///   `pod affinity terms conflict`.
/// - Filter: the added required affinity is checked first
///   (UR `node(s) didn't match scheduler-enforced node affinity`), then the
///   pod's own constraint (UR `node(s) didn't match Pod's node
///   affinity/selector`).
/// - PreScore: Skip when neither the pod nor the args have preferred terms;
///   an Error naming the field when one of the pod's preferred terms has a
///   requirement kube-scheduler's selector parser refuses (an invalid key
///   or value: upstream's PreScore fails the same way, so the attempt ends
///   in an error and the pod backs off). A required term with such a
///   requirement matches no node, so Filter rejects with the reason above.
/// - Score: the sum of the weights of the preferred terms (the args' and the
///   pod's) the node matches.
/// - NormalizeScore: default normalization (highest sum gets 100).
///
/// Everything the plugin needs lives in the pod (decoded once) and in the
/// args, so it keeps no per-cycle state: Filter and Score read the pod
/// directly, which is also upstream's fallback when PreFilter or PreScore is
/// disabled.
///
/// Queueing hint (upstream newest, QueueingHint on): Node/Add and
/// Node/UpdateNodeLabel queue the pod when the new node satisfies the added
/// and the pod's required affinity and, for an update, the old node did not
/// satisfy the pod's.
#pragma once

#include "config/plugin_args.hpp"
#include "model/affinity.hpp"
#include "model/labels.hpp"
#include "model/node_selector.hpp"
#include "model/symbol.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace tessera::plugins {

class node_affinity final : public pre_filter_plugin,
                            public filter_plugin,
                            public pre_score_plugin,
                            public score_plugin,
                            public signs_by<same_node_constraints> {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "NodeAffinity";

  /// Keeps the args and interns the reason texts.
  explicit node_affinity(const config::node_affinity_args& args);

  /// The upstream plugin name (`plugin_name`).
  std::string_view name() const noexcept override {
    return plugin_name;
  }
  /// "node(s) didn't match Pod's node affinity/selector".
  model::symbol reason_pod() const noexcept {
    return reason_pod_;
  }
  /// "node(s) didn't match scheduler-enforced node affinity".
  model::symbol reason_enforced() const noexcept {
    return reason_enforced_;
  }
  /// "pod affinity terms conflict".
  model::symbol reason_conflict() const noexcept {
    return reason_conflict_;
  }

  /// The cluster events that may make a rejected pod schedulable, with
  /// their queueing hints (see the file comment).
  std::vector<cluster_event_with_hint> events_to_register() const override;

  /// Skip, Success, Success with a node-name set, or UR
  /// `pod affinity terms conflict`.
  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override;

  /// The added required affinity, then the pod's nodeSelector and required
  /// affinity.
  status filter(const cycle_state& state, const model::pod& p,
                model::node_view node) const override;

  /// Skip when there are no preferred terms at all; an error when one of the
  /// pod's preferred terms cannot be used.
  status pre_score(cycle_state& state, const model::pod& p,
                   const cluster_context& cluster) const override;

  /// Sum of the weights of matching preferred terms.
  std::int64_t score(const cycle_state& state, const model::pod& p,
                     const model::node_info& node) const override;
  /// True: this plugin normalizes its scores.
  bool has_normalize() const noexcept override {
    return true;
  }
  /// Default (non-reversed) normalization.
  status normalize_scores(const cycle_state& state, const model::pod& p,
                          std::span<node_score> scores) const override;

  /// True when the pod's nodeSelector and required node affinity accept a
  /// node with these labels and this name (ignores the added affinity).
  static bool pod_requirement_matches(const model::pod& p,
                                      const model::label_set& labels,
                                      model::symbol node_name) noexcept;

private:
  model::symbol reason_pod_;
  model::symbol reason_enforced_;
  model::symbol reason_conflict_;
  /// The "metadata.name" field key, interned once.
  model::symbol name_field_;
  /// addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.
  std::optional<model::node_selector> added_required_;
  /// addedAffinity.preferredDuringSchedulingIgnoredDuringExecution.
  std::vector<model::preferred_scheduling_term> added_preferred_;
};

/// Builds NodeAffinity from its (validated) args.
std::shared_ptr<plugin>
make_node_affinity(const config::node_affinity_args& args);

} // namespace tessera::plugins
