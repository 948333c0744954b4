// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
#include "support/block_cache.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <thread>
#include <vector>

namespace tessera::support {
namespace {

// Sizes of the form 16 k + 8 are usable sizes of glibc's chunks, and (under
// AddressSanitizer, which reports the requested size) of its blocks too.

TEST(block_cache, reuses_a_freed_block_for_a_request_it_fits) {
  block_cache c;
  void* p = c.allocate(104);
  ASSERT_NE(p, nullptr);
  std::memset(p, 0xab, 104);
  c.deallocate(p);
  EXPECT_EQ(c.cached_blocks(), 1u);
  EXPECT_EQ(c.cached_bytes(), ::malloc_usable_size(p));
  void* q = c.allocate(100);
  EXPECT_EQ(q, p);
  EXPECT_EQ(c.cached_blocks(), 0u);
  EXPECT_EQ(c.cached_bytes(), 0u);
  c.deallocate(q);
}

TEST(block_cache, never_hands_out_a_block_too_small) {
  block_cache c;
  void* small = c.allocate(40);
  std::size_t usable = ::malloc_usable_size(small);
  c.deallocate(small);
  void* big = c.allocate(usable + 1);
  EXPECT_NE(big, small);
  EXPECT_GE(::malloc_usable_size(big), usable + 1);
  EXPECT_EQ(c.cached_blocks(), 1u) << "the small block waits for its size";
  c.deallocate(big);
  // Every request size up to the limit gets a block with room for it.
  std::vector<void*> held;
  for (std::size_t n = 1; n <= block_cache::max_block; n += 7) {
    void* p = c.allocate(n);
    ASSERT_GE(::malloc_usable_size(p), n) << n;
    std::memset(p, 0x5a, n);
    held.push_back(p);
    if (held.size() % 3 == 0) {
      c.deallocate(held.front());
      held.erase(held.begin());
    }
  }
  for (void* p : held)
    c.deallocate(p);
}

TEST(block_cache, keeps_at_most_per_bin_blocks_of_a_size) {
  block_cache c(4);
  std::vector<void*> blocks;
  for (int i = 0; i < 6; ++i)
    blocks.push_back(std::malloc(64));
  for (void* p : blocks)
    c.deallocate(p);
  EXPECT_EQ(c.cached_blocks(), 4u);
  c.release();
  EXPECT_EQ(c.cached_blocks(), 0u);
  EXPECT_EQ(c.cached_bytes(), 0u);
}

TEST(block_cache, keeps_within_its_byte_budget) {
  block_cache c(1000, 1000);
  std::size_t usable = 0;
  for (int i = 0; i < 10; ++i) {
    void* p = std::malloc(200);
    usable = ::malloc_usable_size(p);
    c.deallocate(p);
  }
  EXPECT_EQ(c.cached_blocks(), 1000 / usable);
  EXPECT_LE(c.cached_bytes(), 1000u);
}

TEST(block_cache, large_blocks_go_straight_back_to_malloc) {
  block_cache c;
  c.deallocate(std::malloc(block_cache::max_block + 100));
  c.deallocate(std::malloc(1 << 20));
  EXPECT_EQ(c.cached_blocks(), 0u);
  void* p = c.allocate(1 << 20);
  ASSERT_NE(p, nullptr);
  EXPECT_GE(::malloc_usable_size(p), std::size_t{1} << 20);
  c.deallocate(p);
}

TEST(block_cache, a_block_freed_on_another_thread_is_reused_there) {
  // As a message allocated by one scheduler thread and freed by another.
  void* sent = std::malloc(88);
  void* reused = nullptr;
  std::thread receiver([&] {
    block_cache c;
    c.deallocate(sent);
    reused = c.allocate(88);
    c.deallocate(reused);
  });
  receiver.join();
  EXPECT_EQ(reused, sent);
}

TEST(block_cache, null_and_zero_sizes) {
  block_cache c;
  c.deallocate(nullptr);
  EXPECT_EQ(c.cached_blocks(), 0u);
  void* p = c.allocate(0);
  ASSERT_NE(p, nullptr);
  c.deallocate(p);
}

} // namespace
} // namespace tessera::support
