// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_volume_limits`: kube-scheduler's NodeVolumeLimits, registered as a
/// NO-OP. It is not real yet: tessera does not model PersistentVolumes,
/// PersistentVolumeClaims, StorageClasses or CSI objects, so there is nothing
/// to check. Upstream it rejects a node where the pod's CSI volumes would
/// exceed the driver's attach limit from the CSINode object. Here PreFilter
/// always returns Skip (so Filter never runs; Filter itself returns Success),
/// and a pod with PVC volumes is scheduled as if its volumes imposed no
/// constraint. The plugin exists so that the default profile builds with
/// upstream's plugin set; it registers no cluster events because it never
/// rejects a pod.
#pragma once

#include "plugins/framework/plugin.hpp"

#include <memory>
#include <string_view>

namespace tessera::plugins {

class node_volume_limits final : public pre_filter_plugin,
                                 public filter_plugin {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "NodeVolumeLimits";

  /// The upstream plugin name (`plugin_name`).
  std::string_view name() const noexcept override {
    return plugin_name;
  }

  /// Always Skip (no-op, see the file comment).
  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override;

  /// Always Success (no-op, see the file comment).
  status filter(const cycle_state& state, const model::pod& p,
                const model::node_info& node) const override;
};

/// Builds the NodeVolumeLimits no-op (it takes no args).
std::shared_ptr<plugin> make_node_volume_limits();

} // namespace tessera::plugins
