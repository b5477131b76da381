// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/http_method.h"

namespace tern::internal {

bool requiresRequestBody(std::string_view method) noexcept {
  return method == "POST" || method == "PUT" || method == "PATCH" || method == "PROPPATCH" ||
         method == "REPORT";
}

bool permitsRequestBody(std::string_view method) noexcept {
  return method != "GET" && method != "HEAD";
}

}  // namespace tern::internal
