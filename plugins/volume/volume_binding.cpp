// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/volume/volume_binding.hpp"

namespace tessera::plugins {

volume_binding::volume_binding(const config::volume_binding_args& args)
  : args_(args) {
}

pre_filter_result volume_binding::pre_filter(cycle_state&, const model::pod&,
                                             const cluster_context&) const {
  return {status::skip(), std::nullopt};
}

status volume_binding::filter(const cycle_state&, const model::pod&,
                              const model::node_info&) const {
  return {};
}

status volume_binding::pre_score(cycle_state&, const model::pod&,
                                 const cluster_context&) const {
  return status::skip();
}

std::int64_t volume_binding::score(const cycle_state&, const model::pod&,
                                   const model::node_info&) const {
  return 0;
}

status volume_binding::reserve(cycle_state&, const model::pod&,
                               model::symbol) const {
  return {};
}

void volume_binding::unreserve(cycle_state&, const model::pod&,
                               model::symbol) const {
}

status volume_binding::pre_bind(cycle_state&, const model::pod&,
                                model::symbol) const {
  return {};
}

std::shared_ptr<plugin>
make_volume_binding(const config::volume_binding_args& args) {
  return std::make_shared<volume_binding>(args);
}

} // namespace tessera::plugins
