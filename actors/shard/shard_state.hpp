// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `shard_state`: one node shard's view and its share of every cycle, without
/// CAF. It holds the shard's node_infos (immutable, shared with the cache) in
/// node-tree order, applies the cache's deltas in arrival order, and keeps
/// its own nextStartNodeIndex so that, with a single shard, the nodes a cycle
/// visits are exactly kube-scheduler's.
#pragma once

#include "actors/messages.hpp"
#include "metrics/fwd.hpp"
#include "plugins/framework/plugin_evaluations.hpp"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace tessera::actors {

/// What a shard actor is spawned with.
struct shard_config {
  std::uint32_t index = 0;
  /// Where to record (not owned); null = recording off.
  metrics::scheduler_metrics* metrics = nullptr;
};

class shard_state {
public:
  static inline const char* name = "shard";

  /// `metrics`: where the shard's plugin evaluations are counted (null =
  /// off).
  explicit shard_state(std::uint32_t index,
                       metrics::scheduler_metrics* metrics = nullptr)
    : index_(index), evaluations_(metrics) {
  }

  /// Applies a delta from the cache.
  void apply(const shard_delta& d);

  std::uint32_t index() const noexcept {
    return index_;
  }
  std::uint64_t generation() const noexcept {
    return generation_;
  }
  /// The shard's nodes in node-tree order.
  const std::vector<model::node_info_ptr>& nodes() {
    settle_order();
    return ordered_;
  }
  const model::node_info* find(model::symbol name) const;

  scan_reply scan(const scan_request& req);
  /// Filters (and scores); advances the start index unless told not to.
  filter_reply filter(const filter_request& req);
  score_reply score(const score_request& req);
  preempt_reply preempt(const preempt_request& req);

private:
  /// A node and where it sits in `ordered_` (checked before use: a node
  /// outside the order keeps a stale position).
  struct slot {
    model::node_info_ptr info;
    std::size_t position = 0;
  };

  /// Rebuilds `ordered_` if membership changed since the last read: while
  /// nodes arrive, many deltas cost one O(nodes) rebuild, not one each.
  void settle_order();

  std::uint32_t index_;
  std::uint64_t generation_ = 0;
  std::unordered_map<model::symbol, slot> by_name_;
  /// The cache's node order for this shard (shared, never copied).
  std::shared_ptr<const std::vector<model::symbol>> order_;
  std::vector<model::node_info_ptr> ordered_;
  bool order_stale_ = false;
  std::size_t start_ = 0;
  plugins::plugin_evaluations evaluations_;
};

} // namespace tessera::actors
