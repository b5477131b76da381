// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
//
// A malloc interposer: the executable defines malloc and friends, so the dynamic linker binds
// every library's calls (libstdc++'s operator new, libcurl, OpenSSL, nghttp2) to these, which
// count and forward to glibc's own implementations (__libc_malloc etc.). glibc only.
#include "heap_counter.h"

#include <malloc.h>

#include <atomic>
#include <cerrno>
#include <cstddef>

extern "C" {
void* __libc_malloc(size_t size);
void* __libc_calloc(size_t count, size_t size);
void* __libc_realloc(void* pointer, size_t size);
void* __libc_memalign(size_t alignment, size_t size);
void __libc_free(void* pointer);
}

namespace {

std::atomic<int64_t> allocations{0};
std::atomic<int64_t> liveBytes{0};

void* counted(void* pointer) {
  if (pointer != nullptr) {
    allocations.fetch_add(1, std::memory_order_relaxed);
    liveBytes.fetch_add(static_cast<int64_t>(malloc_usable_size(pointer)),
                        std::memory_order_relaxed);
  }
  return pointer;
}

void uncount(void* pointer) {
  if (pointer != nullptr) {
    liveBytes.fetch_sub(static_cast<int64_t>(malloc_usable_size(pointer)),
                        std::memory_order_relaxed);
  }
}

}  // namespace

namespace tern::bench {

HeapCounts heapCounts() noexcept {
  return {allocations.load(std::memory_order_relaxed), liveBytes.load(std::memory_order_relaxed)};
}

}  // namespace tern::bench

extern "C" {

void* malloc(size_t size) { return counted(__libc_malloc(size)); }

void* calloc(size_t count, size_t size) { return counted(__libc_calloc(count, size)); }

void* realloc(void* pointer, size_t size) {
  if (pointer == nullptr) return malloc(size);
  if (size == 0) {  // glibc's realloc frees the block and returns null.
    free(pointer);
    return nullptr;
  }
  size_t before = malloc_usable_size(pointer);
  void* result = __libc_realloc(pointer, size);
  if (result == nullptr) return nullptr;  // Failed: the old block stays.
  liveBytes.fetch_add(
      static_cast<int64_t>(malloc_usable_size(result)) - static_cast<int64_t>(before),
      std::memory_order_relaxed);
  if (result != pointer) allocations.fetch_add(1, std::memory_order_relaxed);
  return result;
}

void free(void* pointer) {
  uncount(pointer);
  __libc_free(pointer);
}

void* memalign(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size)); }

void* aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

int posix_memalign(void** out, size_t alignment, size_t size) {
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* pointer = memalign(alignment, size);
  if (pointer == nullptr) return ENOMEM;
  *out = pointer;
  return 0;
}

}  // extern "C"
