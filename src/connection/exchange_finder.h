// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "concurrent/mutex.h"
#include "connection/connection_settings.h"
#include "connection/route_selector.h"
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
// ExchangeFinder. In order of preference: the connection the call already holds (a redirect to
// the same host), an idle pooled connection, once the host is resolved an HTTP/2 connection to
// another host that may be coalesced for it, a new connection over the next route. Every route
// the Dns offered is tried in order, each failure recorded, so the retry logic knows whether
// another attempt has anywhere left to go. Used by one call, on its thread (trackFailure() may
// come from the thread that reads the response body).
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
  void trackFailure(const IOException& e, const std::shared_ptr<RealConnection>& connection);

  // True if a failed attempt has somewhere left to go: another route, a first route after a
  // pooled connection turned out stale, or another connection after an HTTP/2 stream was
  // refused or its connection shut down (once each, as OkHttp's retryRoute()).
  bool retryAfterFailure();

  // True if `url` goes to this finder's host and port (what a network interceptor must keep).
  bool sameHostAndPort(const HttpUrl& url) const;

  const Address& address() const noexcept { return address_; }
  RouteDatabase& routeDatabase() const noexcept { return routeDatabase_; }

 private:
  std::shared_ptr<RealConnection> findHealthyConnection(std::chrono::milliseconds connectTimeout,
                                                        bool doExtensiveHealthChecks);
  std::shared_ptr<RealConnection> findConnection(std::chrono::milliseconds connectTimeout);
  // A pooled connection for this call (not one of `excluded`; see
  // RealConnectionPool::callAcquirePooledConnection() for `routes`), reported as acquired; or
  // null.
  std::shared_ptr<RealConnection> acquirePooled(
      const std::vector<std::shared_ptr<RealConnection>>& excluded,
      const std::vector<Route>* routes = nullptr, bool requireMultiplexed = false);
  void releaseCallConnection();
  struct Attempt;
  std::shared_ptr<RealConnection> connectRoutes(Route first,
                                                std::chrono::milliseconds connectTimeout);

  RealConnectionPool& pool_;
  const Address address_;
  const ConnectionSettings settings_;
  RouteDatabase& routeDatabase_;
  ConnectionUser& user_;
  std::optional<RouteSelector> routeSelector_;
  std::optional<RouteSelector::Selection> routeSelection_;
  // trackFailure() may come from a body reader.
  std::atomic<int> refusedStreamCount_{0};
  std::atomic<int> connectionShutdownCount_{0};
  std::atomic<int> otherFailureCount_{0};
  Mutex excludedMutex_;
  std::vector<std::shared_ptr<RealConnection>> excluded_ TERN_GUARDED_BY(excludedMutex_);
  // The route of a connection that refused a stream or shut down: the retry connects over it
  // again (OkHttp's nextRouteToTry). Guarded by excludedMutex_.
  std::optional<Route> nextRouteToTry_;
};

}  // namespace tern::internal
