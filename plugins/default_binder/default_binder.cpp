// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/default_binder/default_binder.hpp"

namespace tessera::plugins {

status default_binder::accepts(const cycle_state&, const model::pod&,
                               model::symbol) const {
  return {};
}

std::shared_ptr<plugin> make_default_binder() {
  return std::make_shared<default_binder>();
}

} // namespace tessera::plugins
