// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_unschedulable`: kube-scheduler's NodeUnschedulable filter. A node
/// with `spec.unschedulable: true` (cordoned) rejects the pod with
/// UnschedulableAndUnresolvable `node(s) were unschedulable`, unless the pod
/// tolerates the taint `node.kubernetes.io/unschedulable:NoSchedule` (empty
/// value), which the node lifecycle controller puts on cordoned nodes.
///
/// Queueing hints (upstream newest, QueueingHint on): a Node add or taint
/// update queues the pod when the node is added schedulable or turns from
/// unschedulable to schedulable; an update of the waiting pod's tolerations
/// queues it when it now tolerates the unschedulable taint.
#pragma once

#include "model/symbol.hpp"
#include "model/taint.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"

#include <memory>
#include <string_view>
#include <vector>

namespace tessera::plugins {

class node_unschedulable final : public filter_plugin,
                                 public signs_by<same_tolerations> {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "NodeUnschedulable";
  /// The taint a pod must tolerate to land on a cordoned node.
  static constexpr std::string_view unschedulable_taint_key
    = "node.kubernetes.io/unschedulable";

  /// Interns the reason texts.
  node_unschedulable();

  /// The upstream plugin name (`plugin_name`).
  std::string_view name() const noexcept override {
    return plugin_name;
  }
  /// "node(s) were unschedulable".
  model::symbol reason_unschedulable() const noexcept {
    return reason_unschedulable_;
  }

  /// The cluster events that may make a rejected pod schedulable, with
  /// their queueing hints (see the file comment).
  std::vector<cluster_event_with_hint> events_to_register() const override;

  /// UR `node(s) were unschedulable` on a cordoned node the pod does not
  /// tolerate; Success otherwise (also for a node_info without a node).
  status filter(const cycle_state& state, const model::pod& p,
                model::node_view node) const override;

private:
  model::symbol reason_unschedulable_;
  model::taint unschedulable_taint_;
};

/// Builds NodeUnschedulable (it takes no args).
std::shared_ptr<plugin> make_node_unschedulable();

} // namespace tessera::plugins
