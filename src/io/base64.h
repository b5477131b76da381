// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tern::internal {

// Base64 of `bytes` in the standard alphabet with "=" padding (RFC 4648 §4), on one line.
std::string encodeBase64(std::span<const uint8_t> bytes);

// Decodes base64 as okio's decodeBase64 does: the standard and the URL-safe alphabets (RFC 4648
// §4 and §5), ASCII whitespace anywhere is skipped, "=" padding is optional but only at the end.
// std::nullopt for any other character or a length that cannot be base64 (one leftover digit).
std::optional<std::vector<uint8_t>> decodeBase64(std::string_view text);

}  // namespace tern::internal
