// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "model/symbol.hpp"

#include <array>
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <unordered_map>

namespace tessera::model {

namespace {

// The table: id -> text through a two-level array that readers walk without
// locks (chunks are published once, entries written before their id escapes),
// and text -> id through a hash map under a reader/writer lock.
class intern_table {
public:
  static constexpr std::size_t chunk_bits = 12;
  static constexpr std::size_t chunk_size = std::size_t{1} << chunk_bits;
  static constexpr std::size_t max_chunks = 1 << 16;

  intern_table() {
    intern(""); // id 0 is the empty string
  }

  std::uint32_t intern(std::string_view text) {
    {
      std::shared_lock guard{mutex_};
      if (auto it = ids_.find(text); it != ids_.end())
        return it->second;
    }
    std::unique_lock guard{mutex_};
    if (auto it = ids_.find(text); it != ids_.end())
      return it->second;
    auto id = static_cast<std::uint32_t>(texts_.size());
    if ((id >> chunk_bits) >= max_chunks)
      throw std::length_error("symbol table full");
    const std::string& stored = texts_.emplace_back(text);
    auto& chunk = chunks_[id >> chunk_bits];
    auto* entries = chunk.load(std::memory_order_relaxed);
    if (entries == nullptr) {
      owned_.push_back(std::make_unique<std::string_view[]>(chunk_size));
      entries = owned_.back().get();
      chunk.store(entries, std::memory_order_release);
    }
    entries[id & (chunk_size - 1)] = stored;
    ids_.emplace(std::string_view{stored}, id);
    count_.store(texts_.size(), std::memory_order_release);
    return id;
  }

  bool lookup(std::string_view text, std::uint32_t& id) const {
    std::shared_lock guard{mutex_};
    auto it = ids_.find(text);
    if (it == ids_.end())
      return false;
    id = it->second;
    return true;
  }

  std::string_view view(std::uint32_t id) const noexcept {
    auto* entries = chunks_[id >> chunk_bits].load(std::memory_order_acquire);
    return entries[id & (chunk_size - 1)];
  }

  std::size_t count() const noexcept {
    return count_.load(std::memory_order_acquire);
  }

private:
  mutable std::shared_mutex mutex_;
  std::deque<std::string> texts_; // deque: elements never move
  std::unordered_map<std::string_view, std::uint32_t> ids_;
  std::array<std::atomic<std::string_view*>, max_chunks> chunks_{};
  std::vector<std::unique_ptr<std::string_view[]>> owned_;
  std::atomic<std::size_t> count_{0};
};

intern_table& table() {
  // Created on first use, never destroyed: symbols may be read by threads
  // still running during static destruction.
  static intern_table* t = new intern_table();
  return *t;
}

} // namespace

symbol::symbol(std::string_view text)
  : id_(text.empty() ? 0 : table().intern(text)) {
}

symbol symbol::lookup(std::string_view text, bool& found) {
  symbol s;
  std::uint32_t id = 0;
  found = text.empty() || table().lookup(text, id);
  s.id_ = id;
  return s;
}

std::string_view symbol::view() const noexcept {
  return id_ == 0 ? std::string_view{} : table().view(id_);
}

std::size_t interned_count() noexcept {
  return table().count();
}

} // namespace tessera::model
