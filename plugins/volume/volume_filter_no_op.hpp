// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// NodeVolumeLimits and VolumeZone: kube-scheduler's volume filters,
/// registered as NO-OPS. They are not real yet: tessera does
/// not model PersistentVolumes, PersistentVolumeClaims, StorageClasses or CSI
/// objects, so there is nothing to check. Upstream they reject a node on
/// CSI attach limits (NodeVolumeLimits) and volume zone labels (VolumeZone).
/// Here PreFilter always returns Skip (so Filter never runs; Filter itself
/// returns Success) and a pod with PVC volumes is scheduled as if its volumes
/// imposed no constraint. One class serves both: they differ only in name until
/// the storage objects are modelled. They register no cluster events because
/// they never reject a pod.
#pragma once

#include "plugins/framework/plugin.hpp"

#include <memory>
#include <string_view>

namespace tessera::plugins {

class volume_filter_no_op final : public pre_filter_plugin,
                                  public filter_plugin {
public:
  /// `name` is upstream's registry and configuration name.
  explicit volume_filter_no_op(std::string_view name) : name_(name) {
  }

  std::string_view name() const noexcept override {
    return name_;
  }

  /// Always Skip (no-op, see the file comment).
  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override;

  /// Always Success (no-op, see the file comment).
  status filter(const cycle_state& state, const model::pod& p,
                const model::node_info& node) const override;

private:
  std::string_view name_;
};

/// The no-op NodeVolumeLimits and VolumeZone (no args).
std::shared_ptr<plugin> make_node_volume_limits();
std::shared_ptr<plugin> make_volume_zone();

} // namespace tessera::plugins
