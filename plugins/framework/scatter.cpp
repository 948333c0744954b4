// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "plugins/framework/scatter.hpp"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace tessera::plugins {

std::vector<std::size_t> split_quota(std::size_t total,
                                     std::span<const std::size_t> sizes) {
  std::size_t sum = std::accumulate(sizes.begin(), sizes.end(), std::size_t{0});
  std::vector<std::size_t> out(sizes.size(), 0);
  if (sum == 0)
    return out;
  total = std::min(total, sum);
  std::size_t given = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    out[i] = total * sizes[i] / sum;
    given += out[i];
  }
  for (std::size_t i = 0; given < total && i < sizes.size(); ++i)
    while (given < total && out[i] < sizes[i]) {
      ++out[i];
      ++given;
    }
  return out;
}

void stitch_scores(score_table& table, std::span<const std::size_t> plugins,
                   std::span<const shard_rows> rows) {
  const std::size_t n = table.nodes.size();
  assert(table.scores.size() == table.plugins.size() * n
         && "the table's rows do not match its plugins");
  table.plugins.insert(table.plugins.end(), plugins.begin(), plugins.end());
  // Appended plugin by plugin, shard by shard: each row lands where the
  // table's layout puts it, written once (no zero fill first).
  table.scores.reserve(table.plugins.size() * n);
  for (std::size_t k = 0; k < plugins.size(); ++k) {
    std::size_t covered = 0;
    for (const shard_rows& r : rows) {
      assert(r.scores.size() >= plugins.size() * r.nodes
             && "a shard returned fewer scores than plugins x nodes");
      auto row = r.scores.begin() + static_cast<std::ptrdiff_t>(k * r.nodes);
      table.scores.insert(table.scores.end(), row,
                          row + static_cast<std::ptrdiff_t>(r.nodes));
      covered += r.nodes;
    }
    assert(covered == n && "the shards' rows do not cover the table's nodes");
    (void)covered;
  }
}

} // namespace tessera::plugins
