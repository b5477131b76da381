// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

#include "tern/export.h"

namespace tern::internal {

// ASCII-only case folding for protocol text (schemes, header names, charsets): no locale, so
// "I" never becomes a dotless i, and bytes >= 0x80 are left alone.
constexpr char toLowerAscii(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string toLowerAscii(std::string_view s);

TERN_INTERNAL_API bool equalsIgnoreCase(std::string_view a, std::string_view b) noexcept;

bool startsWithIgnoreCase(std::string_view s, std::string_view prefix) noexcept;

// `s` for an exception message: control bytes (< 0x20, 0x7f) become "\xNN" so a message can
// neither be cut short by a NUL nor forge a log line with CR LF. Other bytes are kept.
std::string escapeForMessage(std::string_view s);

}  // namespace tern::internal
