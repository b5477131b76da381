// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "url/utf8.h"

#include <cstdint>

namespace tern::internal {
namespace {

// The length of the well-formed sequence starting at in[pos] and its code point, or 0 with
// `subpart` set to the length of the maximal ill-formed subpart to replace (at least 1).
size_t decodeOne(std::string_view in, size_t pos, char32_t& codePoint, size_t& subpart) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(in[i]); };
  const uint8_t b0 = byte(pos);
  subpart = 1;
  if (b0 < 0x80) {
    codePoint = b0;
    return 1;
  }
  size_t length = 0;
  uint8_t lower = 0x80;  // Bounds of the second byte (Unicode Table 3-7).
  uint8_t upper = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
    codePoint = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    codePoint = b0 & 0x0F;
    if (b0 == 0xE0) {
      lower = 0xA0;
    }
    if (b0 == 0xED) {
      upper = 0x9F;  // No surrogates.
    }
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    codePoint = b0 & 0x07;
    if (b0 == 0xF0) {
      lower = 0x90;
    }
    if (b0 == 0xF4) {
      upper = 0x8F;  // Nothing above U+10FFFF.
    }
  } else {
    return 0;
  }
  for (size_t i = 1; i < length; ++i) {
    if (pos + i >= in.size()) {
      return 0;
    }
    const uint8_t b = byte(pos + i);
    const uint8_t lo = i == 1 ? lower : 0x80;
    const uint8_t hi = i == 1 ? upper : 0xBF;
    if (b < lo || b > hi) {
      return 0;
    }
    codePoint = (codePoint << 6) | (b & 0x3F);
    subpart = i + 1;
  }
  return length;
}

}  // namespace

std::string sanitizeUtf8(std::string_view in) {
  if (isValidUtf8(in)) {
    return std::string(in);
  }
  std::string out;
  out.reserve(in.size() + 8);
  size_t pos = 0;
  while (pos < in.size()) {
    char32_t codePoint = 0;
    size_t subpart = 1;
    const size_t length = decodeOne(in, pos, codePoint, subpart);
    if (length == 0) {
      out.append(kReplacementCharacter);
      pos += subpart;
    } else {
      out.append(in.substr(pos, length));
      pos += length;
    }
  }
  return out;
}

bool isValidUtf8(std::string_view in) noexcept {
  size_t pos = 0;
  while (pos < in.size()) {
    if (static_cast<uint8_t>(in[pos]) < 0x80) {
      ++pos;
      continue;
    }
    char32_t codePoint = 0;
    size_t subpart = 1;
    const size_t length = decodeOne(in, pos, codePoint, subpart);
    if (length == 0) {
      return false;
    }
    pos += length;
  }
  return true;
}

bool decodeUtf8(std::string_view in, std::u32string& out) {
  out.clear();
  out.reserve(in.size());
  size_t pos = 0;
  while (pos < in.size()) {
    char32_t codePoint = 0;
    size_t subpart = 1;
    const size_t length = decodeOne(in, pos, codePoint, subpart);
    if (length == 0) {
      return false;
    }
    out.push_back(codePoint);
    pos += length;
  }
  return true;
}

void appendUtf8(std::string& out, char32_t codePoint) {
  if (codePoint < 0x80) {
    out.push_back(static_cast<char>(codePoint));
  } else if (codePoint < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (codePoint >> 6)));
    out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
  } else if (codePoint < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (codePoint >> 12)));
    out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (codePoint >> 18)));
    out.push_back(static_cast<char>(0x80 | ((codePoint >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (codePoint & 0x3F)));
  }
}

bool isAscii(std::string_view in) noexcept {
  for (const char c : in) {
    if (static_cast<uint8_t>(c) >= 0x80) {
      return false;
    }
  }
  return true;
}

}  // namespace tern::internal
