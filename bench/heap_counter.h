// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

namespace tern::bench {

// What the benchmark's malloc interposer (heap_counter.cc) has seen since the process started.
// Every allocation of the process goes through it: operator new, libcurl, OpenSSL and tern alike,
// so both clients are measured the same way. Thread-safe (relaxed atomics).
struct HeapCounts {
  int64_t allocations = 0;  // malloc, calloc, realloc to a new block, aligned allocations.
  int64_t liveBytes = 0;    // Usable bytes of the blocks not yet freed.
};

HeapCounts heapCounts() noexcept;

}  // namespace tern::bench
