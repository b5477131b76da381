// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "ws/utf8_validator.h"

namespace tern::internal {

bool Utf8Validator::update(std::span<const std::byte> bytes) noexcept {
  if (failed_) {
    return false;
  }
  for (std::byte byte : bytes) {
    const auto b = static_cast<uint8_t>(byte);
    if (remaining_ > 0) {
      if (b < lower_ || b > upper_) {
        failed_ = true;
        return false;
      }
      --remaining_;
      lower_ = 0x80;
      upper_ = 0xbf;
      continue;
    }
    if (b < 0x80) {
      continue;
    }
    // The lead byte fixes the length and, for the edge cases of Table 3-7, narrows the second
    // byte's range: E0 and F0 exclude overlongs, ED excludes surrogates, F4 caps at U+10FFFF.
    if (b >= 0xc2 && b <= 0xdf) {
      remaining_ = 1;
    } else if (b >= 0xe0 && b <= 0xef) {
      remaining_ = 2;
      if (b == 0xe0) lower_ = 0xa0;
      if (b == 0xed) upper_ = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      remaining_ = 3;
      if (b == 0xf0) lower_ = 0x90;
      if (b == 0xf4) upper_ = 0x8f;
    } else {
      failed_ = true;  // A stray continuation byte, C0/C1 (always overlong), or F5..FF.
      return false;
    }
  }
  return true;
}

bool isStrictUtf8(std::string_view bytes) noexcept {
  Utf8Validator validator;
  return validator.update(bytes) && validator.finish();
}

}  // namespace tern::internal
