// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `taint_toleration`: kube-scheduler's TaintToleration (Filter, PreScore,
/// Score, NormalizeScore).
///
/// - Filter: the first node taint with effect NoSchedule or NoExecute that
///   no pod toleration tolerates rejects the node with
///   UnschedulableAndUnresolvable `node(s) had untolerated taint(s)` (the
///   newest wording; the taint is no longer named in the message).
/// - PreScore: never skips (as upstream). Upstream keeps the tolerations
///   with an empty or PreferNoSchedule effect; no other toleration can
///   tolerate a PreferNoSchedule taint, so Score reads the pod's tolerations
///   directly and the plugin needs no per-cycle state.
/// - Score: the number of the node's PreferNoSchedule taints the pod does
///   not tolerate.
/// - NormalizeScore: default normalization, reversed: the node with the most
///   intolerable taints gets 0, a node with none 100; if no feasible node has
///   any, all get 100.
///
/// Queueing hints (upstream newest, QueueingHint on): Node/Add and
/// Node/UpdateNodeTaint queue the pod when the node's hard taints were not
/// all tolerated before (or the node is new) and are all tolerated now;
/// Pod/UpdatePodToleration queues the pod when the updated pod is the
/// waiting one.
#pragma once

#include "model/symbol.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace tessera::plugins {

class taint_toleration final : public filter_plugin,
                               public pre_score_plugin,
                               public score_plugin,
                               public signs_by<same_tolerations> {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "TaintToleration";

  /// Interns the reason texts.
  taint_toleration();

  /// The upstream plugin name (`plugin_name`).
  std::string_view name() const noexcept override {
    return plugin_name;
  }
  /// "node(s) had untolerated taint(s)".
  model::symbol reason_untolerated() const noexcept {
    return reason_untolerated_;
  }

  /// The cluster events that may make a rejected pod schedulable, with
  /// their queueing hints (see the file comment).
  std::vector<cluster_event_with_hint> events_to_register() const override;

  /// UR `node(s) had untolerated taint(s)` when a NoSchedule or NoExecute
  /// taint is not tolerated.
  status filter(const cycle_state& state, const model::pod& p,
                model::node_view node) const override;

  /// Always Success; writes nothing (see the file comment).
  status pre_score(cycle_state& state, const model::pod& p,
                   const cluster_context& cluster) const override;

  /// Count of intolerable PreferNoSchedule taints.
  std::int64_t score(const cycle_state& state, const model::pod& p,
                     const model::node_info& node) const override;
  /// True: this plugin normalizes its scores.
  bool has_normalize() const noexcept override {
    return true;
  }
  /// Reversed default normalization.
  status normalize_scores(const cycle_state& state, const model::pod& p,
                          std::span<node_score> scores) const override;

private:
  model::symbol reason_untolerated_;
};

/// Builds TaintToleration (it takes no args).
std::shared_ptr<plugin> make_taint_toleration();

} // namespace tessera::plugins
