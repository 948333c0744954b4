// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_ports`: kube-scheduler's NodePorts (PreFilter, Filter). The host
/// ports a pod wants are those of its containers and sidecars (restartable
/// init containers) with hostPort > 0, precomputed in `model::pod::host_ports`
/// with the API defaults (empty hostIP = 0.0.0.0, empty protocol = TCP).
///
/// - PreFilter: Skip when the pod wants no host port.
/// - Filter: Unschedulable `node(s) didn't have free ports for the requested
///   pod ports` when a wanted (hostIP, protocol, hostPort) conflicts with a
///   port in use on the node: same protocol and port, and equal IPs or
///   either IP 0.0.0.0 (see `model::conflicts`).
///
/// Upstream's Filter reads the ports PreFilter stored and fails with an
/// Error when PreFilter did not run; tessera's pod already carries them, so
/// Filter reads the pod and needs no per-cycle state.
///
/// Queueing hints (upstream newest, QueueingHint on): Pod/Delete queues the
/// pod when the deleted pod was assigned or nominated and held a host port
/// the pod wants; Node/Add always queues.
#pragma once

#include "model/pod.hpp"
#include "model/symbol.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"

#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace tessera::plugins {

class node_ports final : public pre_filter_plugin,
                         public filter_plugin,
                         public signs_by<same_host_ports> {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "NodePorts";

  /// Interns the reason texts.
  node_ports();

  /// The upstream plugin name (`plugin_name`).
  std::string_view name() const noexcept override {
    return plugin_name;
  }
  /// "node(s) didn't have free ports for the requested pod ports".
  model::symbol reason_ports() const noexcept {
    return reason_ports_;
  }

  /// The cluster events that may make a rejected pod schedulable, with
  /// their queueing hints (see the file comment).
  std::vector<cluster_event_with_hint> events_to_register() const override;

  /// Skip without host ports; Success otherwise.
  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override;

  /// Unschedulable when a wanted host port is taken on the node.
  status filter(const cycle_state& state, const model::pod& p,
                model::node_view node) const override;

  /// True when none of `wanted` conflicts with any of `in_use`.
  static bool ports_fit(std::span<const model::host_port> wanted,
                        std::span<const model::host_port> in_use) noexcept;

private:
  model::symbol reason_ports_;
};

/// Builds NodePorts (it takes no args).
std::shared_ptr<plugin> make_node_ports();

} // namespace tessera::plugins
