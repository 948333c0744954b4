// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `registry`: plugin factories by name. `make_in_tree_registry()`
/// (plugins/in_tree_registry.cpp) lists every in-tree plugin explicitly;
/// nothing registers itself at static-init time.
#pragma once

#include "config/plugin_args.hpp"
#include "plugins/framework/plugin.hpp"
#include "support/error.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace tessera::plugins {

/// Builds a plugin from its args (monostate for plugins without args).
using plugin_factory = std::function<expected<std::shared_ptr<plugin>>(
  const config::plugin_args& args)>;

class registry {
public:
  /// Adds a factory; a duplicate name is an error.
  [[nodiscard]] error add(std::string name, plugin_factory factory);
  const plugin_factory* find(std::string_view name) const;
  bool contains(std::string_view name) const {
    return find(name) != nullptr;
  }

private:
  std::map<std::string, plugin_factory, std::less<>> factories_;
};

/// Every in-tree plugin of kube-scheduler's default profile.
registry make_in_tree_registry();

} // namespace tessera::plugins
