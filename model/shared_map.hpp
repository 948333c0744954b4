// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `shared_map`: a hash map whose copies share their contents. It is split
/// into a fixed number of buckets, each an immutable map behind a
/// shared_ptr: copying the map copies the bucket pointers, and a change
/// copies only the bucket it touches. The cache publishes a new storage
/// view after every change of a volume or claim; with this, that costs a
/// bucket's worth of entries instead of every volume in the cluster.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <unordered_map>
#include <utility>

namespace tessera::model {

template <class Key, class Value, class Hash = std::hash<Key>>
class shared_map {
public:
  using bucket = std::unordered_map<Key, Value, Hash>;

  /// The value of `key`, or nullptr.
  const Value* find(const Key& key) const {
    const auto& b = buckets_[index(key)];
    if (!b)
      return nullptr;
    auto it = b->find(key);
    return it == b->end() ? nullptr : &it->second;
  }
  bool contains(const Key& key) const {
    return find(key) != nullptr;
  }
  /// Inserts or replaces.
  void set(const Key& key, Value value) {
    auto& b = buckets_[index(key)];
    auto copy = b ? std::make_shared<bucket>(*b) : std::make_shared<bucket>();
    auto [it, fresh] = copy->insert_or_assign(key, std::move(value));
    (void)it;
    if (fresh)
      ++size_;
    b = std::move(copy);
  }
  /// Removes `key`; false when it was not there.
  bool erase(const Key& key) {
    auto& b = buckets_[index(key)];
    if (!b || b->find(key) == b->end())
      return false;
    auto copy = std::make_shared<bucket>(*b);
    copy->erase(key);
    --size_;
    b = std::move(copy);
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
    for (const auto& b : buckets_)
      if (b)
        for (const auto& [k, v] : *b)
          f(k, v);
  }
  void clear() {
    buckets_ = {};
    size_ = 0;
  }

private:
  static constexpr std::size_t bucket_count = 64;
  std::size_t index(const Key& key) const {
    return Hash{}(key) % bucket_count;
  }
  std::array<std::shared_ptr<const bucket>, bucket_count> buckets_{};
  std::size_t size_ = 0;
};

} // namespace tessera::model
