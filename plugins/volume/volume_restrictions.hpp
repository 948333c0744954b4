// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `volume_restrictions`: kube-scheduler's VolumeRestrictions, registered as a
/// NO-OP. It is not real yet: tessera does not model PersistentVolumes,
/// PersistentVolumeClaims, StorageClasses or CSI objects, so there is nothing
/// to check. Upstream it rejects a node where an in-line disk (GCE PD, AWS EBS,
/// RBD, iSCSI) would conflict with a pod already there, or where another pod
/// uses the same ReadWriteOncePod claim. Here PreFilter always returns Skip (so
/// Filter never runs; Filter itself returns Success), and a pod with PVC
/// volumes is scheduled as if its volumes imposed no constraint. The plugin
/// exists so that the default profile builds with upstream's plugin set; it
/// registers no cluster events because it never rejects a pod.
#pragma once

#include "plugins/framework/plugin.hpp"

#include <memory>
#include <string_view>

namespace tessera::plugins {

class volume_restrictions final : public pre_filter_plugin,
                                  public filter_plugin {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "VolumeRestrictions";

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

/// Builds the VolumeRestrictions no-op (it takes no args).
std::shared_ptr<plugin> make_volume_restrictions();

} // namespace tessera::plugins
