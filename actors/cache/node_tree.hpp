// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_tree`: kube-scheduler's node order. Nodes are grouped by zone key
/// (region and zone labels) and listed round-robin across zones — one node of
/// each zone in turn, zones in the order they first appeared, nodes within a
/// zone in the order they were added. Which nodes a cycle examines first
/// depends on this order, so serial equivalence depends on it too.
#pragma once

#include "model/labels.hpp"
#include "model/symbol.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace tessera::actors {

/// The zone key of a node: "<region>:\0:<zone>", or empty when the node has
/// neither label.
model::symbol zone_key(const model::label_set& labels);

class node_tree {
public:
  /// Adds a node (no-op when present).
  void add(model::symbol node, model::symbol zone);
  /// Removes a node (no-op when absent).
  void remove(model::symbol node);
  /// Moves a node to another zone when its zone changed.
  void update(model::symbol node, model::symbol zone);

  /// All nodes in round-robin zone order.
  std::vector<model::symbol> list() const;
  std::size_t size() const noexcept {
    return zone_of_.size();
  }

private:
  std::vector<model::symbol> zones_;
  std::unordered_map<model::symbol, std::vector<model::symbol>> tree_;
  std::unordered_map<model::symbol, model::symbol> zone_of_;
};

} // namespace tessera::actors
