// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "concurrent/mutex.h"
#include "connection/connection_settings.h"
#include "connection/route_planner.h"
#include "connection/route_selector.h"
#include "http/alt_svc.h"
#include "tern/address.h"
#include "tern/exceptions.h"
#include "tern/http_url.h"

namespace tern::internal {

class ConnectionUser;
class RealConnection;
class RealConnectionPool;
class RouteDatabase;

// The RoutePlanner of a call's exchanges to one address (OkHttp 5's RealRoutePlanner). Its plans,
// in order of preference: the connection the call already holds (a redirect to the same host);
// an idle pooled connection, or HTTP/2 with room; once the host is resolved, an HTTP/2
// connection to another host that may be coalesced for it; a new connection over the next route,
// which nextRacePlan() races against the selection's other routes. Every route the Dns offered is
// tried in order, each failure recorded, so the retry logic knows whether another attempt has
// anywhere left to go.
//
// HTTP/3: when the client may use it (settings' altSvc is set, the address's protocols include
// HTTP_3) and the origin has a fresh "h3" alternative that has not failed lately (RouteDatabase),
// calls take only a pooled HTTP/3 connection (an HTTP/2 or HTTP/1.1 one made before the
// alternative was known is left to idle out), and a new connection's first plan is QUIC to that
// alternative, at the first route's IP address (or the alternative's own host, resolved) and its
// UDP port; TCP over the route is the race's next plan, launched after the fast-fallback delay
// or at once when QUIC fails. The first to connect wins (as Chromium races QUIC against TCP); the
// other is canceled. A QUIC plan that failed or lost is remembered as broken for the origin, so
// until its backoff ends calls take TCP connections as if there were no alternative.
//
// A connect attempt (one plan() with its race) holds one place under the pool's limits, and for
// HTTP/2 makes the calls that start with it wait for its connection rather than open their own;
// endAttempt() lets go of both if no plan took the place. Used by one call, on its thread
// (trackFailure() may come from the thread that reads the response body).
class RealRoutePlanner final : public RoutePlanner {
 public:
  // For `user`'s exchanges to `address`, with connections from `pool`; `routeDatabase` (the
  // client's) remembers the routes that failed.
  RealRoutePlanner(RealConnectionPool& pool, Address address, ConnectionSettings settings,
                   RouteDatabase& routeDatabase, ConnectionUser& user);
  ~RealRoutePlanner() override;

  // The connect timeout for the plans to come (an interceptor chain may change it per exchange).
  void setConnectTimeout(std::chrono::milliseconds connectTimeout) {
    connectTimeout_ = connectTimeout;
  }

  bool isCanceled() const override;
  PlanPtr plan() override;
  PlanPtr nextRacePlan() override;
  bool hasNextRacePlan() override;
  bool awaitingRacePlans() const override;
  void setRacePlansListener(std::function<void()> listener) override;

  // Ends the attempt the last plan() began: its place under the pool's limits goes back unless a
  // new connection took it, calls waiting for its HTTP/2 connection look again, and a lookup of
  // the host's other address family is no longer waited for.
  void endAttempt();

  // True if plan() has more routes to connect over.
  bool hasMoreRoutes() const;

  // See ExchangeFinder.
  void trackFailure(const IOException& e, const std::shared_ptr<RealConnection>& connection);
  bool retryAfterFailure();
  bool sameHostAndPort(const HttpUrl& url) const;

  const Address& address() const noexcept { return address_; }
  RouteDatabase& routeDatabase() const noexcept { return routeDatabase_; }

 private:
  class ConnectPlan;
  struct Attempt;

  // A connection the call may use as it is: its own, or one from the pool (already reported
  // acquired). The planner's own, given out by plan() without an allocation.
  class ReusePlan final : public Plan {
   public:
    bool isReady() const override;
    void launched() override;
    std::exception_ptr connectTcp() override;
    ConnectResult connectTlsEtc() override;
    std::shared_ptr<RealConnection> handleSuccess() override;
    void failed(std::exception_ptr e) override;
    void cancel() override;

    std::shared_ptr<RealConnection> connection_;
  };

  // A pooled connection for this call (not one of `excluded`; see
  // RealConnectionPool::callAcquirePooledConnection() for `routes`; only an HTTP/3 one while
  // plan() prefers QUIC), reported as acquired; or null.
  std::shared_ptr<RealConnection> acquirePooled(
      const std::vector<std::shared_ptr<RealConnection>>& excluded,
      const std::vector<Route>* routes = nullptr);
  void releaseCallConnection();
  // A connection is found: the host's other address family is no longer waited for.
  void abandonLookup();
  std::vector<std::shared_ptr<RealConnection>> excluded();
  PlanPtr reusePlan(std::shared_ptr<RealConnection> connection);
  PlanPtr connectPlan(Route route);
  // The origin's "h3" alternative to try now, if any (see the class comment): from the Alt-Svc
  // cache, else from a QUIC hint, else for an HTTP/3-only client the URL's own host and port.
  std::optional<AltService> quicAlternative() const;
  // True if the client's protocols are exactly {HTTP_3}: no TCP at all.
  bool http3Only() const;
  // A QUIC plan to `alternative`, at `route`'s IP address for the origin's own host; null if it
  // cannot be made (a proxy, an alternative host that does not resolve).
  PlanPtr quicPlan(const AltService& alternative, const Route& route);
  // "host:port" of the origin, for RouteDatabase's HTTP/3 failures.
  std::string originKey() const;

  RealConnectionPool& pool_;
  const Address address_;
  const ConnectionSettings settings_;
  RouteDatabase& routeDatabase_;
  ConnectionUser& user_;
  std::chrono::milliseconds connectTimeout_{0};
  std::optional<RouteSelector> routeSelector_;
  std::optional<RouteSelector::Selection> routeSelection_;
  std::shared_ptr<Attempt> attempt_;  // The attempt of the last plan(), until endAttempt().
  ReusePlan reusePlan_;
  // trackFailure() may come from a body reader.
  std::atomic<int> refusedStreamCount_{0};
  std::atomic<int> connectionShutdownCount_{0};
  std::atomic<int> otherFailureCount_{0};
  Mutex excludedMutex_;
  std::vector<std::shared_ptr<RealConnection>> excluded_ TERN_GUARDED_BY(excludedMutex_);
  // The route of a connection that refused a stream or shut down: the retry connects over it
  // again (OkHttp's nextRouteToTry).
  std::optional<Route> nextRouteToTry_ TERN_GUARDED_BY(excludedMutex_);
  // The route a QUIC plan went ahead of: TCP's plan in the race, or the next plan() if QUIC won.
  std::optional<Route> quicDisplacedRoute_;
  // The route the last QUIC plan came from: a refused stream's retry goes over QUIC again this
  // way once every other route was taken.
  std::optional<Route> quicRoute_;
  // The "h3" alternative the current plan() prefers to any TCP connection, if any.
  std::optional<AltService> quic_;
};

}  // namespace tern::internal
