// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_claims`: the nodes that ended cycles took, numbered in the order
/// they were made — an assume places a pod there (claimed when it is sent
/// and again when the cache confirms it), a preemption nominates one.
/// A serial scheduler would have seen every earlier claim; a cycle that
/// ran beside others may not have. Before it acts, such a cycle asks
/// whether the node it chose was claimed since it began:
///
///   - a preemption acts only on a node nobody claimed since (its victims
///     and room are then what it saw); otherwise it is retried;
///   - an assume is retried when a pod of equal or higher priority was
///     nominated to its node since (Filter would have counted that pod).
///
/// Claims older than every cycle in flight are forgotten.
#pragma once

#include "model/symbol.hpp"

#include <cstdint>
#include <deque>

namespace tessera::actors {

class node_claims {
public:
  /// The number of the latest claim (0 before any). A cycle keeps it when
  /// it begins.
  std::uint64_t latest() const noexcept {
    return latest_;
  }

  void assumed(model::symbol node);
  void nominated(model::symbol node, std::int32_t priority);

  /// Whether, after claim `since`, a pod was assumed on `node` or a pod
  /// of priority `priority` or higher was nominated to it (lower ones
  /// count as absent for a pod of `priority`).
  bool taken_since(model::symbol node, std::uint64_t since,
                   std::int32_t priority) const {
    return any_since(node, since, priority, true);
  }
  /// Whether a pod of priority `priority` or higher was nominated to
  /// `node` after claim `since`.
  bool nominated_since(model::symbol node, std::uint64_t since,
                       std::int32_t priority) const {
    return any_since(node, since, priority, false);
  }

  /// Drops claims numbered `oldest` or lower: no cycle in flight began
  /// before them.
  void forget_through(std::uint64_t oldest);
  std::size_t size() const noexcept {
    return claims_.size();
  }

private:
  bool any_since(model::symbol node, std::uint64_t since, std::int32_t priority,
                 bool assumes) const;

  struct claim {
    std::uint64_t number = 0;
    model::symbol node;
    bool nomination = false;
    std::int32_t priority = 0;
  };
  std::deque<claim> claims_;
  std::uint64_t latest_ = 0;
};

} // namespace tessera::actors
