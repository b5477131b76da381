// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include "tern/interceptor.h"

namespace tern::internal {

// Opens an exchange on a connection to the request's server (a pooled one, or a new one) and
// hands the request on with it, as OkHttp's ConnectInterceptor. Network interceptors after it
// see the connection.
class ConnectInterceptor final : public Interceptor {
 public:
  Response intercept(Chain& chain) override;
};

}  // namespace tern::internal
