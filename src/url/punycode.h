// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tern::internal {

// Punycode (RFC 3492), the encoding of a Unicode label as the ASCII after "xn--". Both directions
// cost time quadratic in the label's length, so callers bound the length first
// (kMaxPunycodeLength).
inline constexpr size_t kMaxPunycodeLength = 4096;

// Encodes code points; std::nullopt on overflow (RFC 3492 §6.4) or input over kMaxPunycodeLength.
std::optional<std::string> punycodeEncode(std::u32string_view input);

// Decodes the part of an A-label after "xn--". Uppercase basic letters are accepted. std::nullopt
// for bad digits, overflow, a surrogate or a code point above U+10FFFF, or input too long.
std::optional<std::u32string> punycodeDecode(std::string_view input);

}  // namespace tern::internal
