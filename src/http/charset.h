// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tern::internal {

// Decodes body bytes to UTF-8 text the way OkHttp's ResponseBody.string() picks a charset: a
// byte-order mark wins (UTF-8, UTF-16BE/LE, UTF-32BE/LE; the mark is dropped), then `charset`
// (from the Content-Type), then UTF-8. UTF-8 input is returned as it is, without validation.
// Other charsets are converted with iconv; bytes iconv cannot convert become U+FFFD, and an
// unknown charset name falls back to UTF-8 (the bytes unchanged), as OkHttp does on a bad name.
std::string decodeToUtf8(std::string_view bytes, const std::optional<std::string>& charset);

}  // namespace tern::internal
