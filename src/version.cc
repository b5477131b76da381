// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/version.h"

namespace tern {

std::string_view version() noexcept { return TERN_VERSION; }

std::string userAgent() { return std::string("tern/") + TERN_VERSION; }

}  // namespace tern
