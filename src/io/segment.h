// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <memory>

#include "tern/buffer.h"

namespace tern::internal {

// One fixed-size block of a Buffer: bytes [pos, limit) of data are readable, [limit, kSize) are
// free for writing. A segment belongs to exactly one buffer at a time; moving it between buffers
// is how Buffer moves bytes without copying them.
//
// Segments are recycled through a small per-thread pool (as Okio's SegmentPool): glibc's
// per-thread caches stop at 1 KiB, so an 8 KiB block costs a trip through its bins, and a
// keep-alive call or an 8 KiB read would otherwise allocate and free one each time. The pool
// holds at most kPoolSize segments per thread; a segment freed on another thread than the one
// that made it simply lands in that thread's pool.
struct Segment {
  static constexpr size_t kSize = Buffer::kSegmentSize;
  static constexpr size_t kPoolSize = 16;  // 128 KiB per thread at most.

  static void* operator new(size_t size);
  static void operator delete(void* pointer) noexcept;

  // A new empty segment. The data is left uninitialised: nothing reads it before it is written.
  static std::unique_ptr<Segment> make() { return std::make_unique_for_overwrite<Segment>(); }

  size_t readable() const noexcept { return limit - pos; }
  size_t writable() const noexcept { return kSize - limit; }

  size_t pos = 0;
  size_t limit = 0;
  std::byte data[kSize];
};

}  // namespace tern::internal
