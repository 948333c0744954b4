// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `shared_map`: a hash map whose copies share their contents. It is a
/// two-level tree of fixed fan-out over the key's hash, whose leaves are
/// small immutable vectors sorted by hash: copying the map copies the root's
/// pointers, and a change copies one branch's pointers and one leaf. The
/// cache publishes a new storage view after every change of a volume or
/// claim; with this, that costs a few entries instead of a share of every
/// volume in the cluster (4,096 leaves: a handful of entries each at
/// 10,000 volumes, a few hundred at a million).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace tessera::model {

template <class Key, class Value, class Hash = std::hash<Key>>
class shared_map {
public:
  /// The value of `key`, or nullptr.
  const Value* find(const Key& key) const {
    const std::size_t h = spread(key);
    const auto& b = root_[root_index(h)];
    if (!b)
      return nullptr;
    const auto& l = (*b)[branch_index(h)];
    if (!l)
      return nullptr;
    for (auto it = first_of(*l, h); it != l->end() && it->hash == h; ++it)
      if (it->key == key)
        return &it->value;
    return nullptr;
  }
  bool contains(const Key& key) const {
    return find(key) != nullptr;
  }
  /// Inserts or replaces.
  void set(const Key& key, Value value) {
    const std::size_t h = spread(key);
    auto [b, l] = writable_path(h);
    auto it = first_of(*l, h);
    for (; it != l->end() && it->hash == h; ++it)
      if (it->key == key) {
        it->value = std::move(value);
        return;
      }
    l->insert(it, entry{h, key, std::move(value)});
    ++size_;
  }
  /// Removes `key`; false when it was not there.
  bool erase(const Key& key) {
    if (find(key) == nullptr)
      return false;
    const std::size_t h = spread(key);
    auto [b, l] = writable_path(h);
    auto it = first_of(*l, h);
    while (it->key != key)
      ++it;
    l->erase(it);
    if (l->empty())
      (*b)[branch_index(h)] = nullptr;
    --size_;
    return true;
  }
  std::size_t size() const noexcept {
    return size_;
  }
  bool empty() const noexcept {
    return size_ == 0;
  }
  /// Calls `f(key, value)` for every entry (in no particular order).
  template <class F> void for_each(F&& f) const {
    for (const auto& b : root_)
      if (b)
        for (const auto& l : *b)
          if (l)
            for (const auto& e : *l)
              f(e.key, e.value);
  }
  void clear() {
    root_ = {};
    size_ = 0;
  }

private:
  struct entry {
    std::size_t hash;
    Key key;
    Value value;
  };
  using leaf = std::vector<entry>;
  static constexpr std::size_t fan_out = 64;
  static constexpr int index_bits = 6;
  using branch = std::array<std::shared_ptr<const leaf>, fan_out>;

  /// The tree indexes by the hash's top bits; multiplying by an odd
  /// constant moves the entropy of any hash there.
  static std::size_t spread(const Key& key) {
    return Hash{}(key)*0x9E3779B97F4A7C15ull;
  }
  static std::size_t root_index(std::size_t h) noexcept {
    return h >> (64 - index_bits);
  }
  static std::size_t branch_index(std::size_t h) noexcept {
    return (h >> (64 - 2 * index_bits)) & (fan_out - 1);
  }
  template <class Leaf> static auto first_of(Leaf& l, std::size_t h) {
    return std::lower_bound(
      l.begin(), l.end(), h,
      [](const entry& e, std::size_t x) { return e.hash < x; });
  }
  /// Makes the branch and leaf on `h`'s path private to this map and
  /// returns them: a node another map (an earlier view) still shares is
  /// copied first; one only this map holds is changed in place, so filling
  /// a map between two copies costs no copies.
  std::pair<branch*, leaf*> writable_path(std::size_t h) {
    branch* b = make_private(root_[root_index(h)]);
    leaf* l = make_private((*b)[branch_index(h)]);
    return {b, l};
  }
  template <class Node>
  static Node* make_private(std::shared_ptr<const Node>& p) {
    // Every node is created non-const below, so writing through the
    // unshared pointer is well-defined.
    if (p && p.use_count() == 1) {
      // Pairs with the release of the last other owner's decrement: its
      // reads of the node are done before this map writes.
      std::atomic_thread_fence(std::memory_order_acquire);
      return const_cast<Node*>(p.get());
    }
    auto copy = p ? std::make_shared<Node>(*p) : std::make_shared<Node>();
    Node* out = copy.get();
    p = std::move(copy);
    return out;
  }

  std::array<std::shared_ptr<const branch>, fan_out> root_{};
  std::size_t size_ = 0;
};

} // namespace tessera::model
