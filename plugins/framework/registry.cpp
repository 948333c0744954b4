// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/registry.hpp"

namespace tessera::plugins {

error registry::add(std::string name, plugin_factory factory) {
  if (factories_.count(name) != 0)
    return make_error(ec::invalid_input,
                      "a plugin named \"" + name + "\" already exists");
  factories_.emplace(std::move(name), std::move(factory));
  return {};
}

const plugin_factory* registry::find(std::string_view name) const {
  auto it = factories_.find(name);
  return it == factories_.end() ? nullptr : &it->second;
}

} // namespace tessera::plugins
