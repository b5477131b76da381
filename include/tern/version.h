// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace tern {

// The library's version, "MAJOR.MINOR.PATCH", as built (not as the headers say).
std::string_view version() noexcept;

// The default User-Agent value, "tern/VERSION", as OkHttp sends "okhttp/VERSION".
std::string userAgent();

}  // namespace tern
