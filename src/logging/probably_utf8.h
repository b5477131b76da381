// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include "tern/buffer.h"

namespace tern::internal {

// True if `buffer` probably holds text, as OkHttp's isProbablyUtf8: its first 16 code points
// (within the first 64 bytes) decode as UTF-8 (an invalid byte counts as U+FFFD) and none is a
// control character other than whitespace. False if the 64-byte prefix ends inside a code point
// that the buffer does not complete. The logging interceptor logs such bodies as binary.
bool isProbablyUtf8(const Buffer& buffer);

}  // namespace tern::internal
