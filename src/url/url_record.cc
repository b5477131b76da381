// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "url/url_record.h"

namespace tern::internal {

int defaultPortForScheme(std::string_view scheme) noexcept {
  if (scheme == "http" || scheme == "ws") {
    return 80;
  }
  if (scheme == "https" || scheme == "wss") {
    return 443;
  }
  return -1;
}

bool isHttpUrlScheme(std::string_view scheme) noexcept {
  return defaultPortForScheme(scheme) != -1;
}

}  // namespace tern::internal
