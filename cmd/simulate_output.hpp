// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// Rendering of `tessera simulate` results: the JSON document (`-o json`,
/// the default) and a readable table (`-o text`).
#pragma once

#include "actors/memory_cluster.hpp"

#include <string>
#include <vector>

namespace tessera::cmd {

/// One pod's line of the output.
struct simulated_pod {
  std::string ns;
  std::string name;
  /// "Scheduled", "Unschedulable" or "Skipped".
  std::string status;
  std::string node;
  std::string message;
  std::string nominated_node;
  std::vector<std::string> victims;
  const actors::cycle_explanation* explanation = nullptr;
};

/// `{"pods":[...]}`, pretty-printed with two-space indentation; with
/// `explain`, each pod carries "filter" and "scores".
std::string render_simulation_json(const std::vector<simulated_pod>& pods,
                                   bool explain);

/// A table: POD, STATUS, NODE, MESSAGE (+ per-node details with `explain`).
std::string render_simulation_text(const std::vector<simulated_pod>& pods,
                                   bool explain);

} // namespace tessera::cmd
