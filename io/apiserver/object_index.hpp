// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `object_index`: the current objects of one storage kind by key
/// (`ns/name`). Lists and namespace scans walk the keys in etcd's order, so
/// the objects sit in an ordered map; but most calls (a binding, a status
/// patch, a get, "does it exist" before a create) touch one key, and an
/// ordered lookup among a million keys sharing long prefixes costs about
/// twenty string comparisons. A hash table of views into the map's keys
/// answers those in one. Map nodes never move, so the views and iterators
/// it holds stay valid until their entry is erased.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace tessera::apiserver {

template <class Value> class object_index {
  using ordered = std::map<std::string, Value, std::less<>>;

public:
  using iterator = typename ordered::iterator;
  using const_iterator = typename ordered::const_iterator;

  object_index() = default;
  // The hash table points into this map: copies would point into the
  // source's.
  object_index(const object_index&) = delete;
  object_index& operator=(const object_index&) = delete;

  iterator begin() noexcept {
    return map_.begin();
  }
  iterator end() noexcept {
    return map_.end();
  }
  const_iterator begin() const noexcept {
    return map_.begin();
  }
  const_iterator end() const noexcept {
    return map_.end();
  }
  std::size_t size() const noexcept {
    return map_.size();
  }

  iterator find(std::string_view key) {
    auto h = by_key_.find(key);
    return h == by_key_.end() ? map_.end() : h->second;
  }
  const_iterator find(std::string_view key) const {
    auto h = by_key_.find(key);
    return h == by_key_.end() ? map_.end() : const_iterator{h->second};
  }
  bool contains(std::string_view key) const {
    return by_key_.contains(key);
  }
  /// The first key not before `key`, in key order.
  iterator lower_bound(std::string_view key) {
    return map_.lower_bound(key);
  }
  const_iterator lower_bound(std::string_view key) const {
    return map_.lower_bound(key);
  }

  void insert_or_assign(std::string_view key, Value v) {
    if (auto h = by_key_.find(key); h != by_key_.end()) {
      h->second->second = std::move(v);
      return;
    }
    auto it = map_.emplace(std::string{key}, std::move(v)).first;
    by_key_.emplace(std::string_view{it->first}, it);
  }
  void erase(std::string_view key) {
    auto h = by_key_.find(key);
    if (h == by_key_.end())
      return;
    auto it = h->second;
    by_key_.erase(h);
    map_.erase(it);
  }

private:
  ordered map_;
  std::unordered_map<std::string_view, iterator> by_key_;
};

} // namespace tessera::apiserver
