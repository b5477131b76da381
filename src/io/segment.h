// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <memory>

#include "tern/buffer.h"

namespace tern::internal {

// One fixed-size block of a Buffer: bytes [pos, limit) of data are readable, [limit, kSize) are
// free for writing. A segment belongs to exactly one buffer at a time; moving it between buffers
// is how Buffer moves bytes without copying them. Segments come straight from the allocator:
// there is no pool, since glibc serves 8 KiB blocks from its per-thread caches quickly; add one
// only if a profile asks for it.
struct Segment {
  static constexpr size_t kSize = Buffer::kSegmentSize;

  // A new empty segment. The data is left uninitialised: nothing reads it before it is written.
  static std::unique_ptr<Segment> make() { return std::make_unique_for_overwrite<Segment>(); }

  size_t readable() const noexcept { return limit - pos; }
  size_t writable() const noexcept { return kSize - limit; }

  size_t pos = 0;
  size_t limit = 0;
  std::byte data[kSize];
};

}  // namespace tern::internal
