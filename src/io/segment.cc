// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/segment.h"

#include <new>

namespace tern::internal {
namespace {

// Under AddressSanitizer every segment goes back to the allocator, so a use after free is still
// caught.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kPooling = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kPooling = false;
#else
constexpr bool kPooling = true;
#endif
#else
constexpr bool kPooling = true;
#endif

// Free segments of this thread, returned to the allocator when the thread ends.
struct SegmentPool {
  ~SegmentPool();
  void* free[Segment::kPoolSize];
  size_t count = 0;
};

thread_local SegmentPool pool;
// Set once the pool is gone at thread exit: segments freed later (by other thread-local
// objects' destructors) go straight back to the allocator. Trivial, so it outlives the pool.
thread_local bool poolDestroyed = false;

SegmentPool::~SegmentPool() {
  poolDestroyed = true;
  while (count > 0) ::operator delete(free[--count]);
}

}  // namespace

void* Segment::operator new(size_t size) {
  if (kPooling && !poolDestroyed && pool.count > 0) {
    return pool.free[--pool.count];
  }
  return ::operator new(size);
}

void Segment::operator delete(void* pointer) noexcept {
  if (pointer == nullptr) return;
  if (kPooling && !poolDestroyed && pool.count < kPoolSize) {
    pool.free[pool.count++] = pointer;
    return;
  }
  ::operator delete(pointer);
}

}  // namespace tern::internal
