// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "logging/probably_utf8.h"

#include <algorithm>
#include <cstdint>

namespace tern::internal {
namespace {

// Java's Character.isISOControl and not Character.isWhitespace: C0 controls other than
// \t \n \v \f \r and the separators 0x1C..0x1F, DEL and the C1 controls.
bool isControlNotWhitespace(uint32_t codePoint) {
  if (codePoint <= 0x1F) return codePoint < 0x09 || (codePoint > 0x0D && codePoint < 0x1C);
  return codePoint >= 0x7F && codePoint <= 0x9F;
}

}  // namespace

bool isProbablyUtf8(const Buffer& buffer) {
  constexpr int64_t kPrefix = 64;
  constexpr int kCodePoints = 16;
  int64_t size = std::min(buffer.size(), kPrefix);
  int64_t i = 0;
  for (int n = 0; n < kCodePoints && i < size; ++n) {
    auto b0 = static_cast<uint8_t>(buffer.getByte(i));
    int length = b0 < 0x80             ? 1
                 : (b0 & 0xE0) == 0xC0 ? 2
                 : (b0 & 0xF0) == 0xE0 ? 3
                 : (b0 & 0xF8) == 0xF0 ? 4
                                       : 0;
    if (length == 0) {  // A stray continuation or invalid lead byte: U+FFFD, not a control.
      ++i;
      continue;
    }
    if (i + length > size) return false;  // The prefix ends inside this code point.
    uint32_t codePoint = length == 1 ? b0 : b0 & (0x7F >> length);
    bool valid = true;
    for (int k = 1; k < length; ++k) {
      auto b = static_cast<uint8_t>(buffer.getByte(i + k));
      if ((b & 0xC0) != 0x80) {
        valid = false;
        break;
      }
      codePoint = (codePoint << 6) | (b & 0x3F);
    }
    if (!valid) {  // Malformed: U+FFFD for the lead byte; go on from the next byte.
      ++i;
      continue;
    }
    if (isControlNotWhitespace(codePoint)) return false;
    i += length;
  }
  return true;
}

}  // namespace tern::internal
