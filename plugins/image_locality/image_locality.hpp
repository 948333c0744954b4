// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `image_locality`: kube-scheduler's ImageLocality score plugin. It favours
/// nodes that already hold the pod's container images, damped by how widely
/// each image has spread so that pods do not pile onto the few nodes with a
/// large image ("node heating").
///
/// For every regular and init container whose normalized image (":latest"
/// added to untagged names; `model::pod::images`) the node reports, the
/// contribution is `int64(double(size) * spread)` with
/// `spread = double(nodes with the image) / double(nodes in the cluster)`
/// (the same float steps as upstream). The sum is clamped to
/// [23 MiB, 1000 MiB * number of containers] and mapped linearly onto
/// 0..100 with integer arithmetic:
/// `100 * (sum - 23 MiB) / (1000 MiB * containers - 23 MiB)`.
/// A duplicated image counts once per container, as upstream.
///
/// Like upstream, it is a Score plugin only (no PreScore, no normalization):
/// the spread comes from the `cluster_context` the cycle started with
/// (`cycle_state::cluster`, set by begin_cycle); without it every node
/// scores 0. Image volumes (`volumes[].image`, counted by upstream's newest
/// master) are not modelled by tessera and do not count. The plugin rejects
/// nothing, so it registers no cluster events.
#pragma once

#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"

#include <cstdint>
#include <memory>
#include <string_view>

namespace tessera::plugins {

class image_locality final : public score_plugin, public signs_by<same_images> {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "ImageLocality";
  static constexpr std::int64_t mib = 1024 * 1024;
  /// Below this sum a node scores 0.
  static constexpr std::int64_t min_threshold = 23 * mib;
  /// Per container: at or above `containers * this` a node scores 100.
  static constexpr std::int64_t max_container_threshold = 1000 * mib;

  /// The upstream plugin name (`plugin_name`).
  std::string_view name() const noexcept override {
    return plugin_name;
  }

  /// 0..100 from the sizes and spread of the pod's images on the node.
  std::int64_t score(const cycle_state& state, const model::pod& p,
                     const model::node_info& node) const override;

  /// The scaled contribution of one image of `size` bytes present on
  /// `with_image` of `total` nodes (0 when `total` is not positive).
  static std::int64_t scaled_image_score(std::int64_t size,
                                         std::int32_t with_image,
                                         std::int64_t total) noexcept;

  /// Upstream's calculatePriority: clamp and scale a summed image score.
  static std::int64_t priority_of(std::int64_t sum,
                                  std::int64_t containers) noexcept;
};

/// Builds ImageLocality (it takes no args).
std::shared_ptr<plugin> make_image_locality();

} // namespace tessera::plugins
