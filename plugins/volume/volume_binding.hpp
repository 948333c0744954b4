// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `volume_binding`: kube-scheduler's VolumeBinding, registered as a NO-OP.
/// It is not real yet: tessera does not model PersistentVolumes,
/// PersistentVolumeClaims, StorageClasses or CSI storage capacity, so there
/// is nothing to bind or provision. Upstream it checks in PreFilter/Filter
/// that every claim of the pod is bound to a PV usable from the node or can
/// be bound or provisioned there, assumes the bindings in Reserve, writes
/// them in PreBind and waits (up to `bindTimeoutSeconds`) for them.
///
/// Here every extension point upstream's plugin implements is present so
/// that the default profile builds with upstream's plugin set (multiPoint
/// enables it at PreFilter, Filter, PreScore, Score, Reserve and PreBind):
/// PreFilter and PreScore return Skip, Filter, Reserve and PreBind return
/// Success, Unreserve does nothing and Score returns 0. A pod with PVC
/// volumes is scheduled as if its volumes imposed no constraint. The args
/// are accepted and kept only for display. It registers no cluster events
/// because it never rejects a pod.
#pragma once

#include "config/plugin_args.hpp"
#include "plugins/framework/plugin.hpp"

#include <cstdint>
#include <memory>
#include <string_view>

namespace tessera::plugins {

class volume_binding final : public pre_filter_plugin,
                             public filter_plugin,
                             public pre_score_plugin,
                             public score_plugin,
                             public reserve_plugin,
                             public pre_bind_plugin {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "VolumeBinding";

  /// Keeps the args.
  explicit volume_binding(const config::volume_binding_args& args);

  /// The upstream plugin name (`plugin_name`).
  std::string_view name() const noexcept override {
    return plugin_name;
  }

  /// Always Skip (no-op, see the file comment).
  pre_filter_result pre_filter(cycle_state& state, const model::pod& p,
                               const cluster_context& cluster) const override;
  /// Always Success.
  status filter(const cycle_state& state, const model::pod& p,
                const model::node_info& node) const override;
  /// Always Skip: upstream scores only with StorageCapacityScoring.
  status pre_score(cycle_state& state, const model::pod& p,
                   const cluster_context& cluster) const override;
  /// Always 0 (never reached: PreScore skips).
  std::int64_t score(const cycle_state& state, const model::pod& p,
                     const model::node_info& node) const override;
  /// Always Success.
  status reserve(cycle_state& state, const model::pod& p,
                 model::symbol node) const override;
  /// Does nothing.
  void unreserve(cycle_state& state, const model::pod& p,
                 model::symbol node) const override;
  /// Always Success.
  status pre_bind(cycle_state& state, const model::pod& p,
                  model::symbol node) const override;

  /// The configured args (bindTimeoutSeconds is not used).
  const config::volume_binding_args& args() const noexcept {
    return args_;
  }

private:
  config::volume_binding_args args_;
};

/// Builds the VolumeBinding no-op from its (validated) args.
std::shared_ptr<plugin>
make_volume_binding(const config::volume_binding_args& args);

} // namespace tessera::plugins
