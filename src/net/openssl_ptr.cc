// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/openssl_ptr.h"

#include <openssl/err.h>

namespace tern::internal {

std::string drainOpenSslErrors() {
  std::string result;
  while (unsigned long error = ERR_get_error()) {
    char text[256];
    ERR_error_string_n(error, text, sizeof(text));
    if (!result.empty()) result += "; ";
    result += text;
  }
  return result;
}

}  // namespace tern::internal
