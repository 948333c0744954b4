// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/volume/volume_restrictions.hpp"

namespace tessera::plugins {

pre_filter_result
volume_restrictions::pre_filter(cycle_state&, const model::pod&,
                                const cluster_context&) const {
  return {status::skip(), std::nullopt};
}

status volume_restrictions::filter(const cycle_state&, const model::pod&,
                                   const model::node_info&) const {
  return {};
}

std::shared_ptr<plugin> make_volume_restrictions() {
  return std::make_shared<volume_restrictions>();
}

} // namespace tessera::plugins
