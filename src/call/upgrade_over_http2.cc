// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/upgrade_over_http2.h"

#include "connection/connection_pool_access.h"

namespace tern::internal {

bool upgradesOverHttp2(const Client& client, const HttpUrl& url) {
  return ConnectionPoolAccess::delegate(*client.connectionPool())
      .hasExtendedConnect(client.address(url));
}

}  // namespace tern::internal
