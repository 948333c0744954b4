// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/volume/volume_filter_no_op.hpp"

namespace tessera::plugins {

pre_filter_result
volume_filter_no_op::pre_filter(cycle_state&, const model::pod&,
                                const cluster_context&) const {
  return {status::skip(), std::nullopt};
}

status volume_filter_no_op::filter(const cycle_state&, const model::pod&,
                                   const model::node_info&) const {
  return {};
}

std::shared_ptr<plugin> make_volume_zone() {
  return std::make_shared<volume_filter_no_op>("VolumeZone");
}

} // namespace tessera::plugins
