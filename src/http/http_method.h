// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string_view>

namespace tern::internal {

// Methods whose requests must carry a body (OkHttp's HttpMethod.requiresRequestBody): POST, PUT,
// PATCH, PROPPATCH and REPORT (WebDAV).
bool requiresRequestBody(std::string_view method) noexcept;

// Methods whose requests may carry a body: all but GET and HEAD (RFC 9110 §9.3.1–2 give those no
// defined body semantics, and OkHttp refuses one).
bool permitsRequestBody(std::string_view method) noexcept;

}  // namespace tern::internal
