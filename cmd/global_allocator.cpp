// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The tessera executable's operator new/delete: one support::block_cache per
// thread in front of malloc (see support/block_cache.hpp for why). The
// aligned variants (std::align_val_t) keep the standard library's versions.
//
// Sanitizer builds keep the standard operators, so that AddressSanitizer
// still sees every free (a cached block would hide a use after free). So do
// builds on jemalloc, whose own per-thread caches do the same work.
#include "support/block_cache.hpp"

#include <cstdlib>
#include <new>

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)            \
  && !defined(TESSERA_JEMALLOC)

namespace {

using tessera::support::block_cache;

// Set once this thread's cache is destroyed: frees from later thread-exit
// destructors go straight to free(). Trivially destructible, so it outlives
// the cache.
thread_local bool cache_gone = false;

struct thread_cache {
  block_cache cache;
  ~thread_cache() {
    cache_gone = true;
  }
};

block_cache* this_thread_cache() noexcept {
  if (cache_gone)
    return nullptr;
  // Constructed on the thread's first allocation; its constructor does not
  // allocate.
  thread_local thread_cache t;
  return &t.cache;
}

void* allocate(std::size_t n) noexcept {
  block_cache* c = this_thread_cache();
  return c != nullptr ? c->allocate(n) : std::malloc(n == 0 ? 1 : n);
}

void* allocate_or_throw(std::size_t n) {
  for (;;) {
    if (void* p = allocate(n))
      return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr)
      throw std::bad_alloc{};
    handler();
  }
}

void deallocate(void* p) noexcept {
  block_cache* c = this_thread_cache();
  if (c != nullptr)
    c->deallocate(p);
  else
    std::free(p);
}

} // namespace

void* operator new(std::size_t n) {
  return allocate_or_throw(n);
}
void* operator new[](std::size_t n) {
  return allocate_or_throw(n);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate_or_throw(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate_or_throw(n);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept {
  deallocate(p);
}
void operator delete[](void* p) noexcept {
  deallocate(p);
}
void operator delete(void* p, std::size_t) noexcept {
  deallocate(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  deallocate(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  deallocate(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  deallocate(p);
}

#endif
