// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <memory>

#include "connection/connection_settings.h"
#include "connection/real_route_planner.h"
#include "http/exchange_codec.h"
#include "tern/address.h"
#include "tern/exceptions.h"
#include "tern/http_url.h"

namespace tern::internal {

class ConnectionUser;
class RealConnection;
class RealConnectionPool;
class RouteDatabase;

// Finds a connection for a call's exchanges to one address and makes a codec on it, as OkHttp's
// ExchangeFinder: a RealRoutePlanner plans the ways to a connection (the call's own, a pooled
// one, a coalesced one, a new one over the next route) and a FastFallbackFinder carries them out,
// racing connects to a host's addresses. A connection found unhealthy is dropped and the next
// way tried. Used by one call, on its thread (trackFailure() may come from the thread that reads
// the response body).
class ExchangeFinder {
 public:
  // For `user`'s exchanges to `address`, with connections from `pool`; `routeDatabase` (the
  // client's) remembers the routes that failed.
  ExchangeFinder(RealConnectionPool& pool, Address address, ConnectionSettings settings,
                 RouteDatabase& routeDatabase, ConnectionUser& user);

  // A codec on a healthy connection, which the call now holds. Throws RouteException wrapping
  // the IOException if connecting failed, IOException("Canceled") if the call was canceled,
  // UnknownHostException if DNS failed.
  std::unique_ptr<ExchangeCodec> find(std::chrono::milliseconds connectTimeout,
                                      std::chrono::milliseconds readTimeout,
                                      std::chrono::milliseconds writeTimeout,
                                      bool doExtensiveHealthChecks);

  // Counts a failure of an exchange made through this finder on `connection` (null if none).
  // An HTTP/2 stream refused (REFUSED_STREAM, or above a GOAWAY's last stream id) or a
  // connection that could take no new stream is retried on another connection: this finder
  // stops offering `connection` to its call.
  void trackFailure(const IOException& e, const std::shared_ptr<RealConnection>& connection) {
    planner_.trackFailure(e, connection);
  }

  // True if a failed attempt has somewhere left to go: another route, a first route after a
  // pooled connection turned out stale, or another connection after an HTTP/2 stream was
  // refused or its connection shut down (once each, as OkHttp's retryRoute()).
  bool retryAfterFailure() { return planner_.retryAfterFailure(); }

  // True if `url` goes to this finder's host and port (what a network interceptor must keep).
  bool sameHostAndPort(const HttpUrl& url) const { return planner_.sameHostAndPort(url); }

  const Address& address() const noexcept { return planner_.address(); }
  RouteDatabase& routeDatabase() const noexcept { return planner_.routeDatabase(); }

 private:
  std::shared_ptr<RealConnection> findHealthyConnection(bool doExtensiveHealthChecks);

  RealConnectionPool& pool_;
  const ConnectionSettings settings_;
  RealRoutePlanner planner_;
};

}  // namespace tern::internal
