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

}  // namespace tern::internal
