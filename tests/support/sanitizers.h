// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

namespace tern::testing {

// True in an ASan or TSan build. Sanitizers own the allocator (quarantine, shadow memory), so
// memory figures mean nothing there, and LeakSanitizer checks for leaks instead: tests that
// measure memory check it only when this is false.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizedAllocator = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitizedAllocator = true;
#else
inline constexpr bool kSanitizedAllocator = false;
#endif
#else
inline constexpr bool kSanitizedAllocator = false;
#endif

// True in a TSan build. TSan tracks a bounded number of threads at once (about 8k, fibers
// included), so tests that start thousands of threads or fibers scale down there.
#if defined(__SANITIZE_THREAD__)
inline constexpr bool kThreadSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr bool kThreadSanitizer = true;
#else
inline constexpr bool kThreadSanitizer = false;
#endif
#else
inline constexpr bool kThreadSanitizer = false;
#endif

}  // namespace tern::testing
