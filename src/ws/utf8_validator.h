// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "tern/export.h"

namespace tern::internal {

// A strict, incremental UTF-8 check (RFC 3629 §4; Unicode's Table 3-7): no overlong forms, no
// surrogates (U+D800..U+DFFF), nothing above U+10FFFF. Incremental because a WebSocket text
// message may split a code point between fragments (RFC 6455 §5.6, §8.1) and the reader checks
// each fragment as it arrives, failing at the first bad byte. Not thread-safe.
class Utf8Validator {
 public:
  // Checks the next bytes; false once any byte so far cannot be part of well-formed UTF-8 (and
  // from then on).
  bool update(std::span<const std::byte> bytes) noexcept;
  bool update(std::string_view bytes) noexcept {
    return update(std::as_bytes(std::span<const char>(bytes.data(), bytes.size())));
  }

  // True if every byte so far was well-formed and no code point is left unfinished.
  bool finish() const noexcept { return !failed_ && remaining_ == 0; }

  // Starts over, for the next message.
  void reset() noexcept { *this = Utf8Validator(); }

 private:
  bool failed_ = false;
  int remaining_ = 0;     // Continuation bytes still expected for the current code point.
  uint8_t lower_ = 0x80;  // The range the next continuation byte must fall in.
  uint8_t upper_ = 0xbf;
};

// True if all of `bytes` is well-formed UTF-8 (see Utf8Validator).
TERN_INTERNAL_API bool isStrictUtf8(std::string_view bytes) noexcept;

}  // namespace tern::internal
