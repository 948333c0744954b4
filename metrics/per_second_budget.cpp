// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "metrics/per_second_budget.hpp"

#include <algorithm>

namespace tessera::metrics {

namespace {

constexpr std::uint64_t second_ns = 1'000'000'000;

std::uint64_t next_budget_id() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// What the calling thread holds of one budget's window.
struct held_chunk {
  std::uint64_t budget = 0;
  std::uint64_t window = 0;
  std::int64_t left = 0;
};
thread_local held_chunk held;

} // namespace

per_second_budget::per_second_budget(std::uint32_t limit)
  : id_(next_budget_id()), limit_(limit), remaining_(limit) {
}

void per_second_budget::set_limit(std::uint32_t limit) noexcept {
  limit_.store(limit, std::memory_order_relaxed);
  remaining_.store(limit, std::memory_order_relaxed);
  window_.fetch_add(1, std::memory_order_relaxed);
}

bool per_second_budget::renew(std::uint64_t now_ns) noexcept {
  std::uint32_t limit = limit_.load(std::memory_order_relaxed);
  if (limit == 0)
    return true;
  std::uint64_t began = window_began_ns_.load(std::memory_order_relaxed);
  bool due = began == never || now_ns >= began + second_ns;
  // One caller wins the new window; the others see it begun.
  if (due
      && window_began_ns_.compare_exchange_strong(began, now_ns,
                                                  std::memory_order_relaxed)) {
    remaining_.store(limit, std::memory_order_relaxed);
    window_.fetch_add(1, std::memory_order_relaxed);
  }
  return remaining_.load(std::memory_order_relaxed) > 0;
}

bool per_second_budget::take() noexcept {
  if (limit_.load(std::memory_order_relaxed) == 0)
    return true;
  std::uint64_t window = window_.load(std::memory_order_relaxed);
  if (held.budget == id_ && held.window == window && held.left > 0) {
    --held.left;
    return true;
  }
  // A spent window is only read: the line stays shared between cores.
  if (remaining_.load(std::memory_order_relaxed) <= 0)
    return false;
  std::int64_t before = remaining_.fetch_sub(chunk, std::memory_order_relaxed);
  if (before <= 0)
    return false;
  held = {id_, window, std::min(before, chunk) - 1};
  return true;
}

} // namespace tessera::metrics
