// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// Clang's thread-safety annotations (https://clang.llvm.org/docs/ThreadSafetyAnalysis.html), as
// Abseil's and Chromium's: built with clang and -Wthread-safety, reading a TERN_GUARDED_BY member
// or calling a TERN_REQUIRES function without its lock is a compile error. They expand to
// nothing for other compilers. Internal: never included by a public header.
//
// The capabilities are tern::internal::Mutex and AdaptiveMutex (concurrent/mutex.h); libstdc++'s
// std::mutex carries no attributes, so clang cannot check a std::lock_guard<std::mutex>.

#if defined(__clang__)
#define TERN_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define TERN_THREAD_ANNOTATION(x)
#endif

// A type that is a lock (a "capability").
#define TERN_CAPABILITY(name) TERN_THREAD_ANNOTATION(capability(name))
// An RAII type that holds a capability for its lifetime (MutexLock).
#define TERN_SCOPED_CAPABILITY TERN_THREAD_ANNOTATION(scoped_lockable)
// A member read and written only with `x` held.
#define TERN_GUARDED_BY(x) TERN_THREAD_ANNOTATION(guarded_by(x))
// A pointer member whose pointee is read and written only with `x` held.
#define TERN_PT_GUARDED_BY(x) TERN_THREAD_ANNOTATION(pt_guarded_by(x))
// A function the caller must call with these held (the `*Locked` functions).
#define TERN_REQUIRES(...) TERN_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
// A function the caller must call without these held (it takes them itself).
#define TERN_EXCLUDES(...) TERN_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
// A function that returns holding these (lock()), or one that releases them (unlock()).
#define TERN_ACQUIRE(...) TERN_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define TERN_RELEASE(...) TERN_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
// A function that returns true holding these (try_lock()).
#define TERN_TRY_ACQUIRE(...) TERN_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
// A function that checks at run time that these are held; the analysis then takes them as held.
// For a lock that belongs to another object the analysis cannot prove is the same one.
#define TERN_ASSERT_CAPABILITY(x) TERN_THREAD_ANNOTATION(assert_capability(x))
// A function that returns a reference to `x`: locking its result is locking `x`.
#define TERN_RETURN_CAPABILITY(x) TERN_THREAD_ANNOTATION(lock_returned(x))
// Turns the analysis off for one function. Each use says why next to it.
#define TERN_NO_THREAD_SAFETY_ANALYSIS TERN_THREAD_ANNOTATION(no_thread_safety_analysis)
