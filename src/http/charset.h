// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "tern/media_type.h"

namespace tern::internal {

// Decodes body bytes to UTF-8 text the way OkHttp's ResponseBody.string() picks a charset: a
// byte-order mark wins (UTF-8, UTF-16BE/LE, UTF-32BE/LE; the mark is dropped), then `charset`
// (from the Content-Type), then UTF-8. UTF-8 input is returned as it is, without validation.
// Other charsets are converted with iconv; bytes iconv cannot convert become U+FFFD, and an
// unknown charset name falls back to UTF-8 (the bytes unchanged), as OkHttp does on a bad name.
std::string decodeToUtf8(std::string_view bytes, const std::optional<std::string>& charset);

// Encodes UTF-8 `text` in `charset` for a request body, as OkHttp encodes a String with the
// Content-Type's charset: a character the charset cannot represent becomes '?' (Java's encoder
// replacement). UTF-8, or a charset iconv does not know, returns `text` unchanged.
std::string encodeFromUtf8(std::string_view text, const std::string& charset);

// Prepares UTF-8 `text` as body content the way OkHttp's String.toRequestBody/toResponseBody
// do: with no charset in `contentType`, "; charset=utf-8" is added to it; with another charset,
// `text` is encoded in it. With no content type, nothing changes.
void encodeTextContent(std::string& text, std::optional<MediaType>& contentType);

}  // namespace tern::internal
