// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tern::internal {

// The registrable domain of `domain` (the public suffix plus one label: "google.co.uk" for
// "www.google.co.uk") by the Public Suffix List, or std::nullopt if `domain` is itself a public
// suffix or has no label beneath one. `domain` must be a canonical lowercase ASCII domain. Uses
// libpsl with the newest list available: the system's (/usr/share/publicsuffix) or libpsl's
// built-in copy. Thread-safe.
std::optional<std::string> registrableDomain(std::string_view domain);

}  // namespace tern::internal
