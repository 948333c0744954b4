// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `node_prefetcher`: software prefetch for loops over a shard's nodes.
///
/// Node infos, their node objects, taints and pod digests live in separate
/// heap blocks scattered over memory, so a loop over thousands of nodes
/// (filter_and_score, node scans) otherwise waits for several dependent
/// cache misses per node. The prefetcher runs a few nodes ahead of the loop,
/// one level of pointers per stage. Prefetches are hints: results never
/// depend on them.
#pragma once

#include "model/node_info.hpp"

#include <cstddef>
#include <span>

namespace tessera::plugins {

class node_prefetcher {
public:
  /// Nodes between the stages: node infos are fetched 3 * distance nodes
  /// ahead, what they point to 2 * distance ahead, and what that points to
  /// distance ahead, so that no stage waits for the memory it reads.
  static constexpr std::size_t distance = 4;

  /// For Filter and Score: the node info's aggregates, the node's labels,
  /// taints and allocatable, the taint list. Call with the loop's visit
  /// index `i` before working on node `i`; `at(j)` returns the node info
  /// visited at index j (< `count`).
  template <class At>
  [[gnu::always_inline]] static inline void
  ahead_of_filter(std::size_t i, std::size_t count, At&& at) noexcept {
    if (i + 3 * distance < count)
      if (const model::node_info* ni = at(i + 3 * distance)) {
        fetch(ni);
        fetch(&ni->requested());
        fetch(&ni->non_zero_requested());
        fetch_two_lines(&ni->image_sizes());
      }
    if (i + 2 * distance < count)
      if (const model::node* n = node_of(at(i + 2 * distance))) {
        fetch_two_lines(&n->labels);
        fetch(&n->taints);
        fetch(&n->unschedulable);
        fetch(&n->allocatable);
      }
    if (i + distance < count)
      if (const model::node* n = node_of(at(i + distance)))
        if (!n->taints.empty())
          fetch(n->taints.data());
  }

  /// For node scans: the node info's pod lists, the node's labels, the pod
  /// digests and the pods' labels.
  template <class At>
  [[gnu::always_inline]] static inline void
  ahead_of_scan(std::size_t i, std::size_t count, At&& at) noexcept {
    if (i + 3 * distance < count)
      if (const model::node_info* ni = at(i + 3 * distance))
        fetch_two_lines(ni);
    if (i + 2 * distance < count)
      if (const model::node_info* ni = at(i + 2 * distance)) {
        if (const model::node* n = ni->get_node())
          fetch_two_lines(&n->labels);
        if (!ni->pod_digests().empty())
          fetch_three_lines(ni->pod_digests().data());
      }
    if (i + distance < count)
      if (const model::node_info* ni = at(i + distance))
        if (!ni->pod_digests().empty()) {
          const model::label_view first
            = ni->labels_of(ni->pod_digests().front());
          if (!first.empty())
            fetch_three_lines(&*first.begin());
        }
  }

  /// A node scan's loop: calls `visit(node_info, node)` for each of `nodes`
  /// in order, prefetching ahead, and skips node infos without a node object
  /// (the pods of a node the cache does not know take no part, as upstream
  /// lists only nodes with a node object).
  template <class Visit>
  [[gnu::always_inline]] static inline void
  scan(std::span<const model::node_info_ptr> nodes, Visit&& visit) {
    auto node_at = [&](std::size_t j) { return nodes[j].get(); };
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      ahead_of_scan(i, nodes.size(), node_at);
      const model::node_info* ni = nodes[i].get();
      const model::node* n = ni ? ni->get_node() : nullptr;
      if (n != nullptr)
        visit(*ni, *n);
    }
  }

private:
  // Every helper is always inlined and spells its prefetches out: GCC 12
  // drops __builtin_prefetch calls inside an out-of-line helper it finds
  // free of side effects, and all but one inside a loop.
  [[gnu::always_inline]] static inline void fetch(const void* p) noexcept {
    __builtin_prefetch(p);
  }
  [[gnu::always_inline]] static inline void
  fetch_two_lines(const void* p) noexcept {
    const char* b = static_cast<const char*>(p);
    __builtin_prefetch(b);
    __builtin_prefetch(b + 64);
  }
  [[gnu::always_inline]] static inline void
  fetch_three_lines(const void* p) noexcept {
    const char* b = static_cast<const char*>(p);
    __builtin_prefetch(b);
    __builtin_prefetch(b + 64);
    __builtin_prefetch(b + 128);
  }
  // Reads the node info: only for node infos fetched a stage earlier.
  [[gnu::always_inline]] static inline const model::node*
  node_of(const model::node_info* ni) noexcept {
    return ni != nullptr ? ni->get_node() : nullptr;
  }
};

} // namespace tessera::plugins
