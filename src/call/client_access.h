// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include "call/alt_svc_store.h"
#include "connection/connection_settings.h"
#include "tern/address.h"
#include "tern/client.h"
#include "tern/http_url.h"
#include "tern/interceptor.h"

namespace tern::internal {

class RouteDatabase;
class TlsContext;

// What the call layer (and the tool, and tests) need of a Client that users do not: the parts
// of its state that are internal types. Client keeps them private and befriends this, so the
// public API shows no internal:: type (as HttpUrlAccess and AddressAccess do for theirs).
struct ClientAccess {
  // The TLS context https connections are made with (shared like the pool).
  static const std::shared_ptr<TlsContext>& sslContext(const Client& client) noexcept {
    return client.sslContext();
  }

  // The Address of `url`'s origin with the client's settings: what a call connects to.
  // Addresses of one client share their settings, so this is cheap.
  static Address address(const Client& client, const HttpUrl& url) { return client.address(url); }

  // Every interceptor a call runs, in order: the client's interceptors(), the built-in ones
  // (retries and redirects, headers, connecting), networkInterceptors(), then the one that talks
  // to the server. Made once per client, so a call allocates nothing for its chain.
  static const std::vector<std::shared_ptr<Interceptor>>& callInterceptors(
      const Client& client) noexcept {
    return client.callInterceptors();
  }

  // The routes that failed recently, tried last next time (shared like the pool).
  static RouteDatabase& routeDatabase(const Client& client) noexcept {
    return client.routeDatabase();
  }

  // The alternative services the client knows and the file they are kept in (shared like the
  // pool): where responses' Alt-Svc is recorded, and what tests and the tool look up.
  static AltSvcStore& altSvc(const Client& client) noexcept { return client.altSvcStore(); }
  // Its cache, for the connection layer, when the client may use HTTP/3; else null.
  static std::shared_ptr<AltSvcCache> altSvcCache(const Client& client) {
    return client.altSvcCache();
  }
  // Its addQuicHint() hints, for the connection layer (null: none).
  static std::shared_ptr<const std::vector<QuicHint>> quicHints(const Client& client);
};

}  // namespace tern::internal
