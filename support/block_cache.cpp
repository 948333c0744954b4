// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/block_cache.hpp"

#include <cstdlib>
#include <malloc.h>

namespace tessera::support {

namespace {

// A block of usable size u sits in bin (u - 8) / 16, so every block in bin i
// has at least 16 i + 8 usable bytes.
constexpr std::size_t bin_holding(std::size_t usable) {
  return usable < 8 ? 0 : (usable - 8) / 16;
}

// The first bin whose blocks all have room for n bytes (malloc never gives
// fewer than 24 usable bytes, so bin 0 stays empty).
constexpr std::size_t bin_serving(std::size_t n) {
  return n <= 24 ? 1 : (n - 8 + 15) / 16;
}

} // namespace

block_cache::block_cache(std::size_t per_bin, std::size_t max_bytes) noexcept
  : per_bin_(per_bin), max_bytes_(max_bytes) {
}

block_cache::~block_cache() {
  release();
}

void* block_cache::allocate(std::size_t n) noexcept {
  if (n == 0)
    n = 1;
  if (n <= max_block) {
    bin& b = bins_[bin_serving(n)];
    if (free_block* head = b.head) {
      b.head = head->next;
      --b.count;
      bytes_ -= ::malloc_usable_size(head);
      return head;
    }
  }
  return std::malloc(n);
}

void block_cache::deallocate(void* p) noexcept {
  if (p == nullptr)
    return;
  std::size_t usable = ::malloc_usable_size(p);
  if (usable < sizeof(free_block) || usable > max_block
      || bytes_ + usable > max_bytes_) {
    std::free(p);
    return;
  }
  bin& b = bins_[bin_holding(usable)];
  if (b.count >= per_bin_) {
    std::free(p);
    return;
  }
  auto* block = static_cast<free_block*>(p);
  block->next = b.head;
  b.head = block;
  ++b.count;
  bytes_ += usable;
}

std::size_t block_cache::cached_blocks() const noexcept {
  std::size_t n = 0;
  for (const bin& b : bins_)
    n += b.count;
  return n;
}

void block_cache::release() noexcept {
  for (bin& b : bins_) {
    while (free_block* head = b.head) {
      b.head = head->next;
      std::free(head);
    }
    b.count = 0;
  }
  bytes_ = 0;
}

} // namespace tessera::support
