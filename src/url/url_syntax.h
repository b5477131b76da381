// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/ascii.h"

namespace tern::internal {

// The WHATWG URL Standard's single-dot path segment: "." or "%2e" in any case (§4.2).
bool isSingleDotSegment(std::string_view segment) noexcept;

// The double-dot path segment: "..", ".%2e", "%2e." or "%2e%2e" in any case (§4.2).
bool isDoubleDotSegment(std::string_view segment) noexcept;

// One "&"-separated query parameter, still encoded: the name, and the value after the first "="
// (absent if there is no "=").
using QueryParameter = std::pair<std::string_view, std::optional<std::string_view>>;

// Splits a query into its parameters as OkHttp does: "a=1&b&c=" is (a, 1), (b, none), (c, "").
// An empty query is one parameter with an empty name and no value. The views point into `query`.
std::vector<QueryParameter> splitQuery(std::string_view query);

}  // namespace tern::internal
