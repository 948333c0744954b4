// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/image_locality/image_locality.hpp"

namespace tessera::plugins {

std::int64_t image_locality::scaled_image_score(std::int64_t size,
                                                std::int32_t with_image,
                                                std::int64_t total) noexcept {
  if (total <= 0)
    return 0;
  // Upstream divides first, then multiplies the size by the ratio.
  const double spread
    = static_cast<double>(with_image) / static_cast<double>(total);
  return static_cast<std::int64_t>(static_cast<double>(size) * spread);
}

std::int64_t image_locality::priority_of(std::int64_t sum,
                                         std::int64_t containers) noexcept {
  const std::int64_t max_threshold = max_container_threshold * containers;
  if (sum < min_threshold)
    sum = min_threshold;
  else if (sum > max_threshold)
    sum = max_threshold;
  // With no containers max_threshold is 0 and the sum was raised to the
  // minimum: the numerator is 0, the denominator negative, the score 0.
  return 100 * (sum - min_threshold) / (max_threshold - min_threshold);
}

std::int64_t image_locality::score(const cycle_state& state,
                                   const model::pod& p,
                                   const model::node_info& node) const {
  const std::int64_t containers
    = static_cast<std::int64_t>(p.containers.size() + p.init_containers.size());
  std::int64_t sum = 0;
  if (const cluster_context* cluster = state.cluster) {
    // The node's image list is short and sorted: one binary search per
    // container image; the cluster-wide count only for images it holds.
    for (auto image : p.images) {
      const std::int64_t size = node.image_size_of(image);
      if (size > 0)
        sum += scaled_image_score(size, cluster->nodes_with_image(image),
                                  cluster->node_count);
    }
  }
  return priority_of(sum, containers);
}

std::shared_ptr<plugin> make_image_locality() {
  return std::make_shared<image_locality>();
}

} // namespace tessera::plugins
