// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

#include "tern/export.h"

namespace tern {

// Values for Authorization and Proxy-Authorization headers, as OkHttp's Credentials.
class TERN_API Credentials {
 public:
  // "Basic " + base64(username ":" password) (RFC 7617), the bytes as given (UTF-8 is RFC
  // 7617's charset="UTF-8"):
  //   request.newBuilder().header("Proxy-Authorization", Credentials::basic("ann", "s3cret"))
  static std::string basic(std::string_view username, std::string_view password);
};

}  // namespace tern
