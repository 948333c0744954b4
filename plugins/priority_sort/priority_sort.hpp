// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `priority_sort`: kube-scheduler's PrioritySort, the default (and only)
/// QueueSort plugin. It orders activeQ: the pod with the higher
/// `spec.priority` first (a pod without one counts as 0), then the pod that
/// entered the queue earlier. Upstream stops there; tessera adds the queue's
/// insertion sequence as a last key so that the order is total and the same
/// on every run. The plugin registers no cluster events: it never rejects a
/// pod.
#pragma once

#include "plugins/framework/plugin.hpp"

#include <memory>
#include <string_view>

namespace tessera::plugins {

class priority_sort final : public queue_sort_plugin {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "PrioritySort";

  /// The upstream plugin name (`plugin_name`).
  std::string_view name() const noexcept override {
    return plugin_name;
  }

  /// Higher priority first, then the earlier queue timestamp, then the lower
  /// insertion sequence.
  bool less(const queued_pod& a, const queued_pod& b) const override;
};

/// Builds PrioritySort (it takes no args).
std::shared_ptr<plugin> make_priority_sort();

} // namespace tessera::plugins
