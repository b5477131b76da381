// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/hex.h"

namespace tern::internal {

namespace {
constexpr char kDigits[] = "0123456789abcdef";
}  // namespace

std::string hexByte(std::byte b) {
  auto v = std::to_integer<unsigned>(b);
  return {kDigits[v >> 4], kDigits[v & 0xf]};
}

std::string hex(const Buffer& buffer) {
  std::string result;
  result.reserve(static_cast<size_t>(buffer.size()) * 2);
  for (size_t i = 0; i < buffer.segmentCount(); ++i) {
    for (std::byte b : buffer.readableSegment(i)) {
      result += hexByte(b);
    }
  }
  return result;
}

int hexDigitValue(std::byte b) {
  auto c = std::to_integer<int>(b);
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

}  // namespace tern::internal
