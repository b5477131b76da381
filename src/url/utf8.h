// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace tern::internal {

// U+FFFD REPLACEMENT CHARACTER, encoded.
inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

// Returns `in` with every ill-formed UTF-8 sequence replaced by U+FFFD, one per maximal subpart
// (Unicode §3.9 "U+FFFD Substitution of Maximal Subparts", which the WHATWG Encoding Standard's
// UTF-8 decoder follows). Surrogates and code points above U+10FFFF are ill-formed. Linear time.
std::string sanitizeUtf8(std::string_view in);

// True if `in` is well-formed UTF-8.
bool isValidUtf8(std::string_view in) noexcept;

// Decodes well-formed UTF-8 to code points; returns false (leaving `out` unspecified) if `in` is
// ill-formed.
bool decodeUtf8(std::string_view in, std::u32string& out);

// Appends the UTF-8 encoding of `codePoint` (which must be a Unicode scalar value).
void appendUtf8(std::string& out, char32_t codePoint);

// True if every byte is below 0x80.
bool isAscii(std::string_view in) noexcept;

}  // namespace tern::internal
