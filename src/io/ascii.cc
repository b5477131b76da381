// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/ascii.h"

namespace tern::internal {

std::string toLowerAscii(std::string_view s) {
  std::string result(s);
  for (char& c : result) c = toLowerAscii(c);
  return result;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() && startsWithIgnoreCase(a, b);
}

bool startsWithIgnoreCase(std::string_view s, std::string_view prefix) noexcept {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (toLowerAscii(s[i]) != toLowerAscii(prefix[i])) return false;
  }
  return true;
}

std::string escapeForMessage(std::string_view s) {
  std::string result;
  result.reserve(s.size());
  for (char c : s) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      static constexpr char kDigits[] = "0123456789abcdef";
      result += "\\x";
      result += kDigits[byte >> 4];
      result += kDigits[byte & 0xf];
    } else {
      result += c;
    }
  }
  return result;
}

}  // namespace tern::internal
