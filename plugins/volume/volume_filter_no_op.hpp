// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// VolumeZone: kube-scheduler's volume zone filter, registered as a NO-OP.
/// It is not real yet. Upstream it rejects a node whose zone labels do not
/// match those of the pod's bound volumes. Here PreFilter always returns
/// Skip (so Filter never runs; Filter itself returns Success) and a pod
/// with PVC volumes is scheduled as if its volumes imposed no zone
/// constraint. It registers no cluster events because it never rejects a
/// pod.
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

/// The no-op VolumeZone (no args).
std::shared_ptr<plugin> make_volume_zone();

} // namespace tessera::plugins
