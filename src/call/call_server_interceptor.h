// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include "tern/interceptor.h"

namespace tern::internal {

// The last interceptor: writes the request to the server and reads its response, as OkHttp's
// CallServerInterceptor. With "Expect: 100-continue" (RFC 9110 §10.1.1) it sends the headers
// first and the body only after "100 Continue"; a final response instead means the body is never
// sent (and the HTTP/1.1 connection is not reused). Interim 1xx responses are skipped. If the
// request body fails to go out because the server already answered, that answer is returned.
// The response body streams from the connection.
class CallServerInterceptor final : public Interceptor {
 public:
  Response intercept(Chain& chain) override;
};

}  // namespace tern::internal
