// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

// Which symbols a shared libtern exports. A shared build (BUILD_SHARED_LIBS=ON) compiles the
// library with -fvisibility=hidden and defines TERN_SHARED for the library and its users (CMake
// and pkg-config pass it on), so libtern.so exports exactly what these macros mark:
//  - TERN_API: the public API, every class and free function declared in include/tern/. A class
//    carries it whole (its members, vtable and type_info: a user's `catch (const
//    tern::ConnectException&)` matches an exception thrown inside the library only because the
//    type_info is one shared symbol).
//  - TERN_INTERNAL_API: the few internal symbols libtern_mockwebserver (a library of its own)
//    needs from src/. Not part of the API: they change without notice.
// A static build leaves both empty, so it behaves as a build without these macros.
#if defined(TERN_SHARED) && (defined(__GNUC__) || defined(__clang__))
#define TERN_API __attribute__((visibility("default")))
#else
#define TERN_API
#endif
#define TERN_INTERNAL_API TERN_API
