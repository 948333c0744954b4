// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `batch_list`: the scored nodes an opportunistic batch may still hand out
/// (upstream's sorted scored nodes), best first. Each node keeps its raw
/// per-plugin scores, so that the node the last pod went to, when it still
/// fits the next pod, is scored again and normalized once more among the
/// others (upstream's rescoring) instead of ending the batch.
#pragma once

#include "model/pod.hpp"
#include "model/symbol.hpp"
#include "plugins/framework/cycle.hpp"
#include "plugins/framework/profile.hpp"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace tessera::plugins {

class batch_list {
public:
  batch_list() = default;

  /// The nodes of a scored cycle but `chosen`: `table` after select_host
  /// (its totals), `raw` its scores before NormalizeScore (plugin-major, as
  /// table.scores was).
  static batch_list from_cycle(const score_table& table,
                               std::span<const std::int64_t> raw,
                               std::size_t chosen);

  bool empty() const noexcept {
    return heap_.empty();
  }
  std::size_t size() const noexcept {
    return heap_.size();
  }
  /// profile.score() indexes of the plugins the scores belong to.
  const std::vector<std::size_t>& plugins() const noexcept {
    return plugins_;
  }
  /// Removes and returns the best node: the highest total, and among equal
  /// totals the one that entered the list first. The list must not be empty.
  model::symbol pop();
  /// Enters `node` with its raw scores (aligned with plugins()). When no
  /// plugin normalizes, its total is the weighted sum and the list is ready;
  /// otherwise renormalize() must follow. An Error status (a score out of
  /// [0, 100]) leaves the list unusable.
  status add(const profile& prof, model::symbol node,
             std::span<const std::int64_t> raw);
  /// After add(), when a plugin normalizes: NormalizeScore over the whole
  /// list and every total again. A signing plugin's NormalizeScore maps
  /// each score from that score and the list's lowest and highest (all
  /// in-tree ones do), so while those stay as they were at the last full
  /// normalization, only the added node is normalized (against them) and
  /// the other totals stand. An Error status leaves the list unusable.
  status renormalize(const profile& prof, const cycle_state& state,
                     const model::pod& p);

private:
  bool worse(std::uint32_t a, std::uint32_t b) const noexcept;
  bool normalizes(const profile& prof) const;
  std::size_t width() const noexcept {
    return plugins_.size();
  }

  std::vector<std::size_t> plugins_;
  /// By entry: the node, its raw scores (entry-major) and its total. A
  /// popped entry stays behind, unused, until the list is dropped.
  std::vector<model::symbol> nodes_;
  std::vector<std::int64_t> raw_;
  std::vector<std::int64_t> totals_;
  /// Entries still in the list, as a max-heap by worse().
  std::vector<std::uint32_t> heap_;
  /// Per plugin, the lowest and highest raw score at the last full
  /// normalization (empty before the first).
  std::vector<std::pair<std::int64_t, std::int64_t>> normalized_range_;
  std::vector<node_score> scratch_;
};

} // namespace tessera::plugins
