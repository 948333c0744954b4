// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/volume/node_volume_limits.hpp"

namespace tessera::plugins {

pre_filter_result node_volume_limits::pre_filter(cycle_state&,
                                                 const model::pod&,
                                                 const cluster_context&) const {
  return {status::skip(), std::nullopt};
}

status node_volume_limits::filter(const cycle_state&, const model::pod&,
                                  const model::node_info&) const {
  return {};
}

std::shared_ptr<plugin> make_node_volume_limits() {
  return std::make_shared<node_volume_limits>();
}

} // namespace tessera::plugins
