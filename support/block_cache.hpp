// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
/// A per-thread cache of small freed heap blocks, in front of malloc/free.
///
/// The actors allocate a message on one scheduler thread and free it on
/// another. glibc's own per-thread cache keeps only 7 blocks per size, so
/// such a flow soon frees into the other thread's arena under its lock and
/// allocates from its own arena again. With two shards and eight cycles in
/// flight that cost about a fifth of the CPU. This cache keeps up to
/// `per_bin` blocks per size, taken from whichever thread freed them.
///
/// The `tessera` executable, when built on the system malloc, routes
/// operator new/delete through one block_cache per thread
/// (cmd/global_allocator.cpp); the class itself is plain and testable.
#pragma once

#include <array>
#include <cstddef>

namespace tessera::support {

class block_cache {
public:
  /// Blocks whose usable size is above this go straight back to free().
  static constexpr std::size_t max_block = 1032;
  /// Defaults chosen with `tessera simulate` (docs/architecture.md,
  /// "The binary's malloc"; figures in docs/benchmarks.md).
  static constexpr std::size_t default_per_bin = 256;
  static constexpr std::size_t default_max_bytes = std::size_t{4} << 20;

  explicit block_cache(std::size_t per_bin = default_per_bin,
                       std::size_t max_bytes = default_max_bytes) noexcept;
  ~block_cache();
  block_cache(const block_cache&) = delete;
  block_cache& operator=(const block_cache&) = delete;

  /// A block of at least `n` bytes from the cache, or from malloc; nullptr
  /// only when malloc fails.
  void* allocate(std::size_t n) noexcept;
  /// Keeps `p` (from malloc, or from any block_cache) for reuse, or frees it
  /// when its bin or the byte budget is full.
  void deallocate(void* p) noexcept;
  /// Frees every cached block.
  void release() noexcept;

  std::size_t cached_blocks() const noexcept;
  std::size_t cached_bytes() const noexcept {
    return bytes_;
  }

private:
  // glibc's usable sizes are 24, 40, 56, ... (16k + 8): one bin each. A
  // block of another size (a sanitizer's malloc) lands in the bin below,
  // so it is never handed out too small, only reused less often.
  static constexpr std::size_t bin_count = (max_block - 8) / 16 + 1;

  struct free_block {
    free_block* next;
  };
  struct bin {
    free_block* head = nullptr;
    std::size_t count = 0;
  };

  std::array<bin, bin_count> bins_{};
  std::size_t per_bin_;
  std::size_t max_bytes_;
  std::size_t bytes_ = 0;
};

} // namespace tessera::support
