// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `dynamic_resources`: tessera's stand-in for kube-scheduler's
/// DynamicResources plugin. tessera does not allocate dynamic resources
/// (ResourceClaims, DeviceClasses, ResourceSlices), so placing a pod that
/// has `spec.resourceClaims` would put it on a node without its devices,
/// where it never starts. PreFilter therefore refuses such a pod with
/// UnschedulableAndUnresolvable `pod has resource claim "<entry>"
/// (ResourceClaim "<name>"): tessera does not allocate dynamic resources
/// yet` (every entry is named), which the framework reports like any
/// PreFilter rejection: a FailedScheduling event and PodScheduled=False,
/// reason Unschedulable. A pod without claims gets Skip: the plugin costs
/// one branch per cycle and nothing per node.
///
/// No cluster event can make a refused pod schedulable (a pod's claims are
/// immutable), so the plugin registers none; the pod waits in the
/// unschedulable pool until the periodic flush retries it.
#pragma once

#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"

#include <memory>
#include <string_view>

namespace tessera::plugins {

class dynamic_resources final : public pre_filter_plugin,
                                public signs_by<always_same> {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "DynamicResources";

  /// The upstream plugin name (`plugin_name`).
  std::string_view name() const noexcept override {
    return plugin_name;
  }
  /// Batching: a pod with resource claims has no signature (its devices
  /// are allocated per node).
  bool signable(const model::pod& p,
                const cluster_context& cluster) const override {
    (void)cluster;
    return p.resource_claims.empty();
  }

  /// Skip for a pod without resource claims; otherwise the refusal above.
  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override;
};

/// Builds DynamicResources (tessera reads no DynamicResourcesArgs).
std::shared_ptr<plugin> make_dynamic_resources();

} // namespace tessera::plugins
