// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_declared_features`: kube-scheduler's NodeDeclaredFeatures plugin. A
/// kubelet lists in `status.declaredFeatures` the features it honours; a pod
/// whose spec relies on one of them must land on a node that declares it.
///
/// PreFilter infers what the pod needs from its spec, with the rules of
/// upstream's feature library for this version:
///   - `RestartAllContainersOnContainerExits` when a container or init
///     container has a restartPolicyRules entry with action
///     RestartAllContainers;
///   - `UserNamespacesHostNetworkSupport` when `hostNetwork: true` and
///     `hostUsers: false`.
/// A pod that needs nothing gets Skip, so its Filter never runs and the
/// plugin costs nothing per node. Otherwise Filter rejects every node whose
/// declared features are not a superset, with UnschedulableAndUnresolvable
/// `node(s) didn't match Pod's required features` (preempting pods cannot
/// change what a node declares).
///
/// Queueing hints: a Node add queues the pod; a node update queues it when
/// the node's declared features changed; an update of the waiting pod
/// itself queues it when the features it needs changed.
#pragma once

#include "model/symbol.hpp"
#include "plugins/framework/plugin.hpp"

#include <memory>
#include <string_view>
#include <vector>

namespace tessera::plugins {

class node_declared_features final : public pre_filter_plugin,
                                     public filter_plugin {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "NodeDeclaredFeatures";
  /// Needed by a pod with a RestartAllContainers restart rule.
  static constexpr std::string_view restart_all_containers
    = "RestartAllContainersOnContainerExits";
  /// Needed by a host-network pod in its own user namespace.
  static constexpr std::string_view user_namespaces_host_network
    = "UserNamespacesHostNetworkSupport";

  /// Interns the reason and the feature names.
  node_declared_features();

  /// The upstream plugin name (`plugin_name`).
  std::string_view name() const noexcept override {
    return plugin_name;
  }
  /// Batching: pods that need the same node features are alike here.
  bool signs_pods() const noexcept override {
    return true;
  }
  bool signable(const model::pod& p,
                const cluster_context& cluster) const override {
    (void)p, (void)cluster;
    return true;
  }
  bool same_signature(const model::pod& a, const model::pod& b) const override {
    return required_features(a) == required_features(b);
  }
  /// "node(s) didn't match Pod's required features".
  model::symbol reason_unsatisfied() const noexcept {
    return reason_unsatisfied_;
  }

  /// The features `p` needs, in intern order (the order nodes keep theirs
  /// in); empty for most pods.
  std::vector<model::symbol> required_features(const model::pod& p) const;

  /// The cluster events that may make a rejected pod schedulable, with
  /// their queueing hints (see the file comment).
  std::vector<cluster_event_with_hint> events_to_register() const override;

  /// Skip when the pod needs no feature; otherwise records what it needs.
  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override;

  /// UR `node(s) didn't match Pod's required features` unless the node
  /// declares every feature PreFilter recorded.
  status filter(const cycle_state& state, const model::pod& p,
                model::node_view node) const override;

private:
  model::symbol reason_unsatisfied_;
  model::symbol restart_all_containers_;
  model::symbol user_namespaces_host_network_;
};

/// Builds NodeDeclaredFeatures (it takes no args).
std::shared_ptr<plugin> make_node_declared_features();

} // namespace tessera::plugins
