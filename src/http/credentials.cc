// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/credentials.h"

#include <cstdint>
#include <span>

#include "io/base64.h"

namespace tern {

std::string Credentials::basic(std::string_view username, std::string_view password) {
  std::string pair;
  pair.reserve(username.size() + 1 + password.size());
  pair.append(username).append(":").append(password);
  return "Basic " + internal::encodeBase64(std::span<const uint8_t>(
                        reinterpret_cast<const uint8_t*>(pair.data()), pair.size()));
}

}  // namespace tern
