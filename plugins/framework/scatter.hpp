// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// The arithmetic of a cycle's scatter over node shards: how a node quota is
/// divided among shards, and how the shards' score rows are stitched into
/// one `score_table`. Pure functions beside the other cycle phases, so the
/// coordinator, the serial reference and the tests share one definition.
#pragma once

#include "plugins/framework/cycle.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace tessera::plugins {

/// Splits `total` over buckets in proportion to `sizes`, never giving a
/// bucket more than its size; remainders go to the first buckets with room.
/// Shards that hold more nodes get a larger share of the feasible-node quota
/// (or of the preemption candidates), and the sum never exceeds the nodes.
std::vector<std::size_t> split_quota(std::size_t total,
                                     std::span<const std::size_t> sizes);

/// One shard's raw scores, plugin-major over its own feasible nodes:
/// `scores[k * nodes + i]` for plugin k and the shard's node i.
struct shard_rows {
  std::size_t nodes = 0;
  std::span<const std::int64_t> scores;
};

/// Appends the rows of `plugins` (profile.score() indexes) to `table`.
/// `table.nodes` holds the shards' feasible nodes concatenated in shard
/// order, and `rows[s]` is shard s's part of them (a shard with no feasible
/// node has `nodes == 0`).
void stitch_scores(score_table& table, std::span<const std::size_t> plugins,
                   std::span<const shard_rows> rows);

} // namespace tessera::plugins
