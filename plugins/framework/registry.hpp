// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `registry`: plugin factories by name. `make_in_tree_registry()`
/// (plugins/in_tree_registry.cpp) lists every in-tree plugin explicitly;
/// nothing registers itself at static-init time. `no_args_factory` and
/// `args_factory` wrap a plugin's `make_` function as a factory that checks
/// the args' type.
#pragma once

#include "config/plugin_args.hpp"
#include "plugins/framework/plugin.hpp"
#include "support/error.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

namespace tessera::plugins {

/// Builds a plugin from its args (monostate for plugins without args).
using plugin_factory = std::function<expected<std::shared_ptr<plugin>>(
  const config::plugin_args& args)>;

/// A factory for a plugin that takes no args; any args given are a
/// mismatch, reported with the plugin's `name`.
template <class Make>
plugin_factory no_args_factory(std::string name, Make make) {
  return
    [name, make](
      const config::plugin_args& args) -> expected<std::shared_ptr<plugin>> {
      if (!std::holds_alternative<std::monostate>(args))
        return make_error(ec::invalid_input,
                          "plugin \"" + name + "\" takes no args");
      return make();
    };
}

/// A factory for a plugin with args of type Args (default args when none);
/// args of another type are a mismatch, reported with the plugin's `name`.
template <class Args, class Make>
plugin_factory args_factory(std::string name, Make make) {
  return
    [name, make](
      const config::plugin_args& args) -> expected<std::shared_ptr<plugin>> {
      if (std::holds_alternative<std::monostate>(args))
        return make(Args{});
      if (const auto* typed = std::get_if<Args>(&args))
        return make(*typed);
      return make_error(ec::invalid_input,
                        "args for plugin \"" + name + "\" have the wrong type");
    };
}

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
