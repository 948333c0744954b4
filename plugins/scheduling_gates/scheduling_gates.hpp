// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `scheduling_gates`: kube-scheduler's SchedulingGates, a PreEnqueue plugin.
/// A pod whose `spec.schedulingGates` is non-empty is kept out of activeQ
/// with UnschedulableAndUnresolvable and the message
/// `waiting for scheduling gates: [<gate> <gate> ...]` (the gate names in
/// spec order, separated by one space, as Go prints a string slice). The
/// pod is retried when an update of that same pod removes its gates
/// (upstream registers the event on the target pod only, with a hint that
/// always queues; tessera's pod event covers every pod, so the hint checks
/// that the updated pod is the waiting one).
#pragma once

#include "plugins/framework/plugin.hpp"

#include <memory>
#include <string_view>
#include <vector>

namespace tessera::plugins {

class scheduling_gates final : public pre_enqueue_plugin {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "SchedulingGates";
  /// The message prefix; the gate list follows in brackets.
  static constexpr std::string_view reason_prefix
    = "waiting for scheduling gates: ";

  /// The upstream plugin name (`plugin_name`).
  std::string_view name() const noexcept override {
    return plugin_name;
  }
  /// Pod/UpdatePodSchedulingGatesEliminated: queue when the updated pod is
  /// the gated one.
  std::vector<cluster_event_with_hint> events_to_register() const override;

  /// Success without gates; otherwise UR with the gate list.
  status pre_enqueue(const model::pod& p) const override;
};

/// Builds SchedulingGates (it takes no args).
std::shared_ptr<plugin> make_scheduling_gates();

} // namespace tessera::plugins
