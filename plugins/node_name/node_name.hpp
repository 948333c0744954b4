// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_name`: kube-scheduler's NodeName filter. A pod that names a node in
/// `spec.nodeName` fits only that node; every other node rejects it with
/// UnschedulableAndUnresolvable `node(s) didn't match the requested node
/// name`. A pod without `spec.nodeName` fits every node.
///
/// The only registered event is Node/Add, without a hint (always queue), as
/// upstream does with QueueingHint on.
#pragma once

#include "model/symbol.hpp"
#include "plugins/framework/plugin.hpp"
#include "plugins/framework/signature.hpp"

#include <memory>
#include <string_view>
#include <vector>

namespace tessera::plugins {

class node_name final : public filter_plugin, public signs_by<same_node_name> {
public:
  /// Upstream's registry and configuration name.
  static constexpr std::string_view plugin_name = "NodeName";

  /// Interns the reason texts.
  node_name();

  /// The upstream plugin name (`plugin_name`).
  std::string_view name() const noexcept override {
    return plugin_name;
  }
  /// "node(s) didn't match the requested node name".
  model::symbol reason_mismatch() const noexcept {
    return reason_mismatch_;
  }

  /// The cluster events that may make a rejected pod schedulable, with
  /// their queueing hints (see the file comment).
  std::vector<cluster_event_with_hint> events_to_register() const override;

  /// Success when the pod names no node or names this one.
  status filter(const cycle_state& state, const model::pod& p,
                model::node_view node) const override;

private:
  model::symbol reason_mismatch_;
};

/// Builds NodeName (it takes no args).
std::shared_ptr<plugin> make_node_name();

} // namespace tessera::plugins
