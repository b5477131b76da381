// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

#include "tern/export.h"

namespace tern {

// The library's version, "MAJOR.MINOR.PATCH", as built (not as the headers say).
TERN_API std::string_view version() noexcept;

// The default User-Agent value, "tern/VERSION", as OkHttp sends "okhttp/VERSION".
TERN_API std::string userAgent();

}  // namespace tern
