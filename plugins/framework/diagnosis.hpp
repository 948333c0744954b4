// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `diagnosis` and the FitError message: why a pod fits on no node, in the
/// exact text kube-scheduler puts into the FailedScheduling event and the
/// PodScheduled condition:
///
///   0/3 nodes are available: 1 node(s) had untolerated taint(s), 2
///   Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption
///   victims found for incoming pod.
#pragma once

#include "model/symbol.hpp"
#include "plugins/framework/status.hpp"

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tessera::plugins {

/// A node that failed Filter, with its status (plugin name set).
struct node_failure {
  model::symbol node;
  status result;
};

struct diagnosis {
  /// Nodes with an explicit status.
  std::vector<node_failure> node_statuses;
  /// The status of every node without an explicit one (set when a
  /// PreFilterResult excluded nodes).
  std::optional<status> absent_nodes_status;
  /// Plugins that rejected the pod (Unschedulable/UR) and returned Pending.
  // Transparent: a rejected node looks its plugin up without building a
  // string (a FitError over thousands of nodes names a handful).
  std::set<std::string, std::less<>> unschedulable_plugins;
  std::set<std::string, std::less<>> pending_plugins;
  /// Set when PreFilter rejected: replaces the per-node histogram.
  std::string pre_filter_message;
  /// PostFilter's message (e.g. "preemption: ..."), appended last.
  std::string post_filter_message;

  /// Records a node's failure and its plugin.
  void add(model::symbol node, status s);
  /// Adds the plugin of a rejection to unschedulable/pending plugins.
  void add_plugin_of(const status& s);
};

/// The FitError message for `num_all_nodes` nodes:
/// `0/N nodes are available: <histogram>.` (+ ` <post filter message>`).
std::string fit_error_message(std::size_t num_all_nodes, const diagnosis& d);

/// Only the histogram: "<count> <reason>" entries sorted as strings and joined
/// with ", " (empty when no node has a status).
std::string reason_histogram(std::size_t num_all_nodes, const diagnosis& d);

/// The message when the cluster has no nodes at all.
inline constexpr const char* no_nodes_message
  = "no nodes available to schedule pods";

} // namespace tessera::plugins
