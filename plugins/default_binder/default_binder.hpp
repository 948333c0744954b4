// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `default_binder`: kube-scheduler's DefaultBinder, the default Bind plugin.
/// Upstream it POSTs a Binding (the pod's namespace, name and UID; target
/// Node/<node>) to the pods/binding subresource. In tessera binding is
/// asynchronous I/O owned by the binder actor: this plugin only accepts
/// every pod (Success, so later bind plugins are not asked) and the binder
/// actor performs that same API call through its sink. It registers no
/// cluster events.
#pragma once

#include "plugins/framework/plugin.hpp"

#include <memory>
#include <string_view>

namespace tessera::plugins {

class default_binder final : public bind_plugin {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "DefaultBinder";

  /// The upstream plugin name (`plugin_name`).
  std::string_view name() const noexcept override {
    return plugin_name;
  }

  /// Always Success: the binder actor binds the pod to `node`.
  status accepts(const cycle_state& state, const model::pod& p,
                 model::symbol node) const override;
};

/// Builds DefaultBinder (it takes no args).
std::shared_ptr<plugin> make_default_binder();

} // namespace tessera::plugins
