// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0

/// `topology_pair_counts`: integer counts keyed by a pair of 32-bit ids —
/// (topology key, topology value) for InterPodAffinity, (constraint index,
/// topology value) for PodTopologySpread — packed into one 64-bit key.
///
/// The counts a node scan produces are large (one entry per hostname domain)
/// and read by every Filter call, while AddPod / RemovePod (nominated pods,
/// preemption dry runs, assume validation) change a handful of entries on a
/// private copy of the cycle state. So the value is an immutable base map,
/// shared by every copy, plus a short list of overriding entries: copying it
/// copies the overrides only, and a lookup checks the overrides, then the
/// base. Lookups never allocate.
#pragma once

#include <boost/container/small_vector.hpp>
#include <boost/unordered/unordered_flat_map.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace tessera::plugins {

/// Packs two 32-bit ids into one key (`high` in the upper half).
constexpr std::uint64_t pack_pair(std::uint32_t high,
                                  std::uint32_t low) noexcept {
  return (static_cast<std::uint64_t>(high) << 32) | low;
}

/// The upper half of a packed key.
constexpr std::uint32_t pair_high(std::uint64_t key) noexcept {
  return static_cast<std::uint32_t>(key >> 32);
}

/// The lower half of a packed key.
constexpr std::uint32_t pair_low(std::uint64_t key) noexcept {
  return static_cast<std::uint32_t>(key & 0xffffffffu);
}

class topology_pair_counts {
public:
  using key_type = std::uint64_t;
  using map_type = boost::unordered_flat_map<key_type, std::int64_t>;

  /// No entries.
  topology_pair_counts() = default;
  /// Takes `base` as the shared, immutable part.
  explicit topology_pair_counts(map_type base)
    : base_(std::make_shared<const map_type>(std::move(base))),
      size_(base_->size()) {
  }

  /// The count of `key`, or nullptr when it has no entry.
  const std::int64_t* find(key_type key) const noexcept {
    for (const auto& o : overrides_)
      if (o.key == key)
        return o.present ? &o.value : nullptr;
    if (!base_)
      return nullptr;
    auto it = base_->find(key);
    return it == base_->end() ? nullptr : &it->second;
  }
  /// The count of `key`, 0 when it has no entry.
  std::int64_t get(key_type key) const noexcept {
    const std::int64_t* v = find(key);
    return v == nullptr ? 0 : *v;
  }
  /// Number of entries (an entry may hold 0 unless zeros are erased).
  std::size_t size() const noexcept {
    return size_;
  }
  bool empty() const noexcept {
    return size_ == 0;
  }

  /// The entry's value before and after an `add`; `existed` tells whether
  /// the entry was there before.
  struct change {
    bool existed = false;
    std::int64_t before = 0;
    std::int64_t after = 0;
  };
  /// Adds `delta` to `key`, creating the entry at 0 first when absent. With
  /// `erase_zero`, an entry that ends at 0 is removed (InterPodAffinity's
  /// maps hold only non-zero counts).
  change add(key_type key, std::int64_t delta, bool erase_zero) {
    const std::int64_t* current = find(key);
    change c{current != nullptr, current == nullptr ? 0 : *current, 0};
    c.after = c.before + delta;
    const bool present = !(erase_zero && c.after == 0);
    if (c.existed && !present)
      --size_;
    else if (!c.existed && present)
      ++size_;
    for (auto& o : overrides_)
      if (o.key == key) {
        o.value = c.after;
        o.present = present;
        return c;
      }
    overrides_.push_back({key, c.after, present});
    return c;
  }

  /// Calls `f(key, count)` for every entry, in no particular order.
  template <class F> void for_each(F&& f) const {
    if (base_)
      for (const auto& [key, value] : *base_) {
        bool overridden = false;
        for (const auto& o : overrides_)
          if (o.key == key) {
            overridden = true;
            break;
          }
        if (!overridden)
          f(key, value);
      }
    for (const auto& o : overrides_)
      if (o.present)
        f(o.key, o.value);
  }

private:
  struct override_entry {
    key_type key = 0;
    std::int64_t value = 0;
    bool present = false;
  };
  std::shared_ptr<const map_type> base_;
  boost::container::small_vector<override_entry, 4> overrides_;
  std::size_t size_ = 0;
};

/// Adds every count of `from` into `into`, as the coordinator sums the
/// shards' scans.
inline void add_counts(topology_pair_counts::map_type& into,
                       const topology_pair_counts::map_type& from) {
  for (const auto& [key, value] : from)
    into[key] += value;
}

} // namespace tessera::plugins
