// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/real_route_planner.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "connection/connection_spec_selector.h"
#include "connection/connection_user.h"
#include "connection/real_connection.h"
#include "connection/real_connection_pool.h"
#include "connection/route_database.h"
#include "http/connection_shutdown_exception.h"
#include "http2/error_code.h"

namespace tern::internal {

// What one connect attempt holds until it ends: a place under the pool's limits (which the
// connection that wins takes), and for HTTP/2 the pool's note that this call is connecting.
struct RealRoutePlanner::Attempt {
  Attempt(RealConnectionPool& pool, const Address& address) : pool(pool), address(address) {}
  Attempt(const Attempt&) = delete;
  Attempt& operator=(const Attempt&) = delete;

  RealConnectionPool& pool;
  const Address& address;
  bool connecting = false;  // beginConnect() registered this attempt: endConnect() after.
  bool reserved = false;    // A place under the limits, not yet taken by a connection.
  std::optional<std::vector<Route>> routes;  // Set when this attempt resolved the host.

  ~Attempt() {
    if (reserved) pool.releaseReservation(address);
    if (connecting) pool.endConnect(address);
  }
};

bool RealRoutePlanner::ReusePlan::isReady() const { return true; }
void RealRoutePlanner::ReusePlan::launched() {
  throw std::logic_error("ReusePlan: nothing to connect");
}
std::exception_ptr RealRoutePlanner::ReusePlan::connectTcp() {
  throw std::logic_error("ReusePlan: nothing to connect");
}
RoutePlanner::ConnectResult RealRoutePlanner::ReusePlan::connectTlsEtc() {
  throw std::logic_error("ReusePlan: nothing to connect");
}
std::shared_ptr<RealConnection> RealRoutePlanner::ReusePlan::handleSuccess() {
  return std::exchange(connection_, nullptr);
}
void RealRoutePlanner::ReusePlan::failed(std::exception_ptr) {}
void RealRoutePlanner::ReusePlan::cancel() {}

// A new connection over one route, with the connection spec its selector picks; through an HTTP
// proxy that closed after a 407, with the authenticated CONNECT to send. Or, over QUIC, an HTTP/3
// connection to the origin's alternative service, whose connectTcp() is the whole QUIC handshake.
class RealRoutePlanner::ConnectPlan final : public Plan {
 public:
  ConnectPlan(RealRoutePlanner& planner, std::shared_ptr<Attempt> attempt, Route route,
              ConnectionSpecSelector specSelector, std::optional<TunnelRetry> tunnel = std::nullopt)
      : planner_(planner),
        attempt_(std::move(attempt)),
        specSelector_(std::move(specSelector)),
        connection_(std::make_shared<RealConnection>(planner.pool_, std::move(route))),
        tunnel_(std::move(tunnel)) {}

  ConnectPlan(RealRoutePlanner& planner, std::shared_ptr<Attempt> attempt, Route route,
              RealConnection::OverQuic quic)
      : planner_(planner),
        attempt_(std::move(attempt)),
        specSelector_(std::vector<ConnectionSpec>{}),
        connection_(std::make_shared<RealConnection>(planner.pool_, std::move(route), quic)) {}

  bool isReady() const override { return false; }
  bool isQuic() const override { return connection_->isQuic(); }

  void launched() override {
    if (tunnel_) connection_->setTunnelRequest(std::move(tunnel_->request), tunnel_->attempt);
    planner_.user_.addConnectionToCancel(connection_);
    planner_.user_.connectStart(connection_->route().socketAddress());
  }

  std::exception_ptr connectTcp() override {
    try {
      connection_->connectSocket(planner_.connectTimeout_);
      return nullptr;
    } catch (const IOException&) {
      return std::current_exception();
    }
  }

  ConnectResult connectTlsEtc() override {
    ConnectionUser& user = planner_.user_;
    try {
      connection_->connectTlsEtc(planner_.connectTimeout_, specSelector_, planner_.settings_, user);
      return {};
    } catch (TunnelRetry& tunnel) {
      // The proxy closed the connection after a 407 that the proxy authenticator answered: this
      // plan ends (as OkHttp's, with connectEnd and no protocol), and a new connection over the
      // same route sends the authenticated CONNECT.
      user.removeConnectionToCancel(connection_);
      connection_->closeSocket();
      planner_.abandonLookup();  // dnsEnd before connectEnd.
      user.connectEnd(connection_->route().socketAddress(), std::nullopt);
      return {nullptr, std::make_unique<ConnectPlan>(planner_, attempt_, connection_->route(),
                                                     specSelector_, std::move(tunnel))};
    } catch (const IOException& e) {
      // A TLS failure another connection spec may fix: the same route again with the next one.
      const bool retrySpec = planner_.settings_.retryOnConnectionFailure &&
                             specSelector_.connectionFailed(e) && !user.isCanceled();
      PlanPtr next;
      if (retrySpec) {
        next =
            std::make_unique<ConnectPlan>(planner_, attempt_, connection_->route(), specSelector_);
      }
      return {std::current_exception(), std::move(next)};
    }
  }

  std::shared_ptr<RealConnection> handleSuccess() override {
    ConnectionUser& user = planner_.user_;
    RealConnectionPool& pool = planner_.pool_;
    user.removeConnectionToCancel(connection_);
    planner_.abandonLookup();  // dnsEnd before connectEnd.
    user.connectEnd(connection_->route().socketAddress(), connection_->protocol());
    if (connection_->isQuic()) {
      planner_.routeDatabase_.quicConnected(planner_.originKey());
    } else {
      planner_.routeDatabase_.connected(connection_->route());
    }

    // Another call may have connected meanwhile to this host, or to one this connection's host
    // could be coalesced with (OkHttp's third look in the pool): share its HTTP/2 connection and
    // drop ours, so that calls converge on one connection.
    const std::vector<Route>* routes = attempt_->routes ? &*attempt_->routes : nullptr;
    const auto wanted = connection_->isQuic() ? RealConnectionPool::Wanted::QUIC
                                              : RealConnectionPool::Wanted::MULTIPLEXED;
    if (auto pooled = pool.callAcquirePooledConnection(planner_.address_, user, routes, wanted,
                                                       planner_.excluded())) {
      if (!connection_->isQuic()) {
        MutexLock lock(planner_.excludedMutex_);
        planner_.nextRouteToTry_ = connection_->route();  // A TCP route not used: keep it.
      }
      connection_->closeSocket();
      user.connectionAcquired(*pooled);
      return pooled;
    }
    attempt_->reserved = false;  // The connection takes the place.
    pool.put(connection_, user, true);
    user.connectionAcquired(*connection_);
    return connection_;
  }

  void failed(std::exception_ptr e) override {
    ConnectionUser& user = planner_.user_;
    user.removeConnectionToCancel(connection_);
    connection_->closeSocket();
    try {
      std::rethrow_exception(e);
    } catch (const IOException& ioe) {
      const Route& route = connection_->route();
      user.connectFailed(route.socketAddress(), std::nullopt, ioe);
      // HTTP/3 that failed, or lost the race to TCP (a network that drops UDP only ever loses),
      // is left alone for a while: TCP serves the origin meanwhile. Not for the call's cancel.
      if (connection_->isQuic() && !user.isCanceled()) {
        planner_.routeDatabase_.quicFailed(planner_.originKey(), planner_.pool_.nanoTime());
      }
      // The selector hears of a proxy that failed (not of a race's loser it did not fail).
      if (!route.proxy().isDirect() && !dynamic_cast<const InterruptedIOException*>(&ioe)) {
        planner_.address_.proxySelector()->connectFailed(planner_.address_.url(), route.proxy(),
                                                         ioe);
      }
    }
  }

  void cancel() override { connection_->cancel(); }

 private:
  RealRoutePlanner& planner_;
  std::shared_ptr<Attempt> attempt_;
  ConnectionSpecSelector specSelector_;
  std::shared_ptr<RealConnection> connection_;
  std::optional<TunnelRetry> tunnel_;
};

RealRoutePlanner::RealRoutePlanner(RealConnectionPool& pool, Address address,
                                   ConnectionSettings settings, RouteDatabase& routeDatabase,
                                   ConnectionUser& user)
    : pool_(pool),
      address_(std::move(address)),
      settings_(settings),
      routeDatabase_(routeDatabase),
      user_(user) {}

RealRoutePlanner::~RealRoutePlanner() = default;

bool RealRoutePlanner::isCanceled() const { return user_.isCanceled(); }

std::vector<std::shared_ptr<RealConnection>> RealRoutePlanner::excluded() {
  MutexLock lock(excludedMutex_);
  return excluded_;
}

void RealRoutePlanner::releaseCallConnection() {
  if (std::shared_ptr<RealConnection> released = user_.releaseConnectionNoEvents()) {
    user_.connectionReleased(*released);
  }
}

std::shared_ptr<RealConnection> RealRoutePlanner::acquirePooled(
    const std::vector<std::shared_ptr<RealConnection>>& excluded,
    const std::vector<Route>* routes) {
  const auto wanted = quic_ ? RealConnectionPool::Wanted::QUIC : RealConnectionPool::Wanted::ANY;
  std::shared_ptr<RealConnection> pooled =
      pool_.callAcquirePooledConnection(address_, user_, routes, wanted, excluded);
  if (pooled) {
    user_.connectionAcquired(*pooled);
  }
  return pooled;
}

RoutePlanner::PlanPtr RealRoutePlanner::reusePlan(std::shared_ptr<RealConnection> connection) {
  reusePlan_.connection_ = std::move(connection);
  return PlanPtr(&reusePlan_, PlanDeleter(false));
}

std::string RealRoutePlanner::originKey() const {
  return address_.url().host() + ":" + std::to_string(address_.url().port());
}

bool RealRoutePlanner::http3Only() const {
  const std::vector<Protocol>& protocols = address_.protocols();
  return protocols.size() == 1 && protocols[0] == Protocol::HTTP_3;
}

std::optional<AltService> RealRoutePlanner::quicAlternative() const {
  const HttpUrl& url = address_.url();
  // (An HTTP/3-only call that cannot go over QUIC at all, http or through a proxy, failed in
  // RealCall before planning.)
  if (!settings_.altSvc || !address_.sslContext() || address_.unixSocket()) return std::nullopt;
  // HTTP/3 goes straight to the server: never through a proxy (curl's rule too).
  if (address_.proxy() && !address_.proxy()->isDirect()) return std::nullopt;
  const std::vector<Protocol>& protocols = address_.protocols();
  if (std::find(protocols.begin(), protocols.end(), Protocol::HTTP_3) == protocols.end()) {
    return std::nullopt;
  }
  if (!http3Only() && routeDatabase_.isQuicBroken(originKey(), pool_.nanoTime())) {
    return std::nullopt;
  }
  std::vector<AltSvcCache::Entry> entries =
      settings_.altSvc->lookup(AltSvcOrigin::of(url), std::chrono::system_clock::now(), "h3");
  if (!entries.empty()) return entries.front().service;  // The server's first choice (§3).
  AltService same{"h3", url.host(), url.port()};
  if (settings_.quicHints) {
    for (const QuicHint& hint : *settings_.quicHints) {
      if ((hint.host == "*" || hint.host == url.host()) &&
          (hint.port == 0 || hint.port == url.port())) {
        if (hint.alternatePort != 0) same.port = hint.alternatePort;
        return same;
      }
    }
  }
  if (http3Only()) return same;  // The URL's own host and port.
  return std::nullopt;
}

RoutePlanner::PlanPtr RealRoutePlanner::quicPlan(const AltService& alternative,
                                                 const Route& route) {
  // HTTP/3 goes straight to the server: never through a proxy (curl's rule too).
  if (!route.proxy().isDirect()) return nullptr;
  InetAddress ip = route.socketAddress().address();
  if (alternative.host != address_.url().host()) {
    // Another host serves the origin (its certificate must still name the origin): resolved
    // with the client's Dns. One it cannot resolve leaves the call to TCP.
    try {
      std::optional<InetAddress> literal = InetAddress::parse(alternative.host);
      std::vector<InetAddress> found =
          literal ? std::vector<InetAddress>{*literal} : address_.dns()->lookup(alternative.host);
      if (found.empty()) return nullptr;
      ip = found.front();
    } catch (const IOException&) {
      return nullptr;
    }
  }
  Route quicRoute(address_, InetSocketAddress(ip, alternative.port));
  return std::make_unique<ConnectPlan>(*this, attempt_, std::move(quicRoute),
                                       RealConnection::OverQuic{});
}

RoutePlanner::PlanPtr RealRoutePlanner::connectPlan(Route route) {
  return std::make_unique<ConnectPlan>(*this, attempt_, std::move(route),
                                       ConnectionSpecSelector(address_.connectionSpecs()));
}

void RealRoutePlanner::endAttempt() {
  attempt_.reset();
  abandonLookup();
}

void RealRoutePlanner::abandonLookup() {
  if (routeSelector_) routeSelector_->abandonLookup();
}

RoutePlanner::PlanPtr RealRoutePlanner::plan() {
  endAttempt();
  if (user_.isCanceled()) throw InterruptedIOException("Canceled");
  const std::vector<std::shared_ptr<RealConnection>> excluded = this->excluded();
  // HTTP/3 first when the origin advertised it (Alt-Svc) and it has not failed lately.
  quic_ = quicAlternative();

  // The connection the call already holds, if it still suits (a follow-up to the same host).
  {
    std::shared_ptr<RealConnection> callConnection;
    bool reusable = false;
    {
      MutexLock lock(pool_.mutex());
      user_.assertPoolLockHeld(pool_);
      callConnection = user_.connectionLocked();
      if (callConnection) {
        callConnection->assertPoolLockHeld(pool_);
        reusable = !callConnection->noNewExchangesLocked() &&
                   sameHostAndPort(callConnection->route().address().url()) &&
                   std::find(excluded.begin(), excluded.end(), callConnection) == excluded.end();
      }
    }
    if (reusable) return reusePlan(std::move(callConnection));
    if (callConnection) releaseCallConnection();
  }

  // A pooled connection: idle, or HTTP/2 with room for another stream.
  if (auto pooled = acquirePooled(excluded)) return reusePlan(std::move(pooled));

  // HTTP/2 with prior knowledge, or https offering h2: calls that start together wait for one
  // connection and share it, rather than each making its own (a burst of 100 calls would
  // otherwise make 100 TLS handshakes for one multiplexed connection). If ALPN chose HTTP/1.1
  // after all, the waiting calls then connect on their own.
  auto attempt = std::make_shared<Attempt>(pool_, address_);
  const std::vector<Protocol>& protocols = address_.protocols();
  bool multiplexed = (protocols.size() == 1 && protocols[0] == Protocol::H2_PRIOR_KNOWLEDGE) ||
                     (address_.sslContext() && std::find(protocols.begin(), protocols.end(),
                                                         Protocol::HTTP_2) != protocols.end()) ||
                     quic_;
  if (multiplexed) {
    attempt->connecting =
        pool_.beginConnect(address_, connectTimeout_, [this] { return user_.isCanceled(); });
    if (!attempt->connecting) {
      // Another call connected meanwhile. If its connection has no room (or it failed), connect
      // on our own rather than wait again, so failing connects are not queued one after another.
      if (user_.isCanceled()) throw InterruptedIOException("Canceled");
      quic_ = quicAlternative();  // Its QUIC connect may have failed meanwhile.
      if (auto pooled = acquirePooled(excluded)) return reusePlan(std::move(pooled));
    }
  }

  // A new connection, over the route a refused stream came back from, or the next route.
  std::optional<Route> route;
  {
    MutexLock lock(excludedMutex_);
    route = std::exchange(nextRouteToTry_, std::nullopt);
  }
  if (route) {
    // Retrying a refused stream on a new connection over the same route.
  } else if (quicDisplacedRoute_) {
    route = std::exchange(quicDisplacedRoute_, std::nullopt);  // TCP's turn, not taken last time.
  } else if (routeSelection_ && routeSelection_->hasNext()) {
    route = routeSelection_->next();
  } else if (quic_ && quicRoute_ && routeSelector_ && !routeSelector_->hasNext()) {
    route = *quicRoute_;  // A retry (a refused stream): QUIC again, every route being taken.
  } else {
    if (!routeSelector_) {
      routeSelector_.emplace(address_, routeDatabase_, &user_, settings_.fastFallback);
    }
    if (!routeSelector_->hasNext()) {
      throw IOException("exhausted all routes to " + address_.url().toString());
    }
    routeSelection_ = routeSelector_->next();  // Blocks on DNS the first time.
    if (user_.isCanceled()) throw InterruptedIOException("Canceled");
    if (!routeSelection_->hasNext()) {
      throw IOException("exhausted all routes to " + address_.url().toString());
    }
    // Now that the host's IP addresses are known, an HTTP/2 connection to another host at one
    // of them may be coalesced for this one.
    attempt->routes = routeSelection_->routes();
    if (auto pooled = acquirePooled(excluded, &*attempt->routes)) {
      return reusePlan(std::move(pooled));
    }
    route = routeSelection_->next();
  }

  // The pool's limits: a place for the new connection, waiting while the pool or the host is
  // full; a connection released meanwhile is reused instead.
  const std::vector<Route>* routes = attempt->routes ? &*attempt->routes : nullptr;
  while (!pool_.reserveNewConnection(address_, user_)) {
    if (user_.isCanceled()) throw InterruptedIOException("Canceled");
    if (auto pooled = acquirePooled(excluded, routes)) {
      MutexLock lock(excludedMutex_);
      if (!nextRouteToTry_) nextRouteToTry_ = *route;  // Not tried: keep it for a retry.
      return reusePlan(std::move(pooled));
    }
  }
  attempt->reserved = true;
  attempt_ = std::move(attempt);
  if (quic_) {
    if (PlanPtr plan = quicPlan(*quic_, *route)) {
      quicRoute_ = *route;
      // QUIC goes first; TCP over this route is the race's next plan, after the delay. HTTP/3
      // only: the route's address is QUIC's alone.
      if (!http3Only()) quicDisplacedRoute_ = std::move(*route);
      return plan;
    }
    if (http3Only()) {
      throw UnknownServiceException("HTTP/3 cannot reach " + address_.url().toString() +
                                    ": its route goes through a proxy, or its alternative " +
                                    quic_->host + " does not resolve");
    }
    // No way to the alternative (a proxy, a host that does not resolve): counted as a failure,
    // so calls take pooled TCP connections again rather than wait for QUIC.
    routeDatabase_.quicFailed(originKey(), pool_.nanoTime());
  }
  return connectPlan(std::move(*route));
}

bool RealRoutePlanner::hasNextRacePlan() {
  if (!attempt_) return false;
  if (quicDisplacedRoute_) return true;
  // HTTP/3 only, to an alternative on another host: its one address is all there is.
  if (http3Only() && quic_ && quic_->host != address_.url().host()) return false;
  // A client without fast fallback races HTTP/3 against one TCP connection, no more.
  if (!settings_.fastFallback || !routeSelection_) return false;
  if (routeSelector_) routeSelector_->pollLookup(*routeSelection_);
  return routeSelection_->hasNext();
}

bool RealRoutePlanner::awaitingRacePlans() const {
  return attempt_ && routeSelector_ && routeSelector_->lookupPending();
}

void RealRoutePlanner::setRacePlansListener(std::function<void()> listener) {
  if (routeSelector_) routeSelector_->setLookupListener(std::move(listener));
}

RoutePlanner::PlanPtr RealRoutePlanner::nextRacePlan() {
  if (!hasNextRacePlan()) return nullptr;
  if (quicDisplacedRoute_) return connectPlan(*std::exchange(quicDisplacedRoute_, std::nullopt));
  if (http3Only() && quic_) {
    // HTTP/3 only: QUIC to the origin's next address (an alternative on another host resolved
    // to one address: nothing more to race).
    PlanPtr plan = quicPlan(*quic_, routeSelection_->next());
    if (!plan) throw UnknownServiceException("HTTP/3 cannot go through a proxy");
    return plan;
  }
  return connectPlan(routeSelection_->next());
}

bool RealRoutePlanner::hasMoreRoutes() const {
  if (quicDisplacedRoute_) return true;
  if (routeSelection_ && routeSelection_->hasNext()) return true;
  return !routeSelector_ || routeSelector_->hasNext();
}

void RealRoutePlanner::trackFailure(const IOException& e,
                                    const std::shared_ptr<RealConnection>& connection) {
  const auto* reset = dynamic_cast<const StreamResetException*>(&e);
  if (reset && isRefusedStream(*reset)) {
    ++refusedStreamCount_;
  } else if (dynamic_cast<const ConnectionShutdownException*>(&e)) {
    ++connectionShutdownCount_;
  } else {
    ++otherFailureCount_;
    return;
  }
  if (connection) {
    MutexLock lock(excludedMutex_);
    excluded_.push_back(connection);
    // Over TCP, a new connection over the same route; over QUIC the next plan() decides again.
    if (!connection->isQuic()) nextRouteToTry_ = connection->route();
  }
}

bool RealRoutePlanner::retryAfterFailure() {
  if (refusedStreamCount_ == 0 && connectionShutdownCount_ == 0 && otherFailureCount_ == 0) {
    return false;  // Nothing to recover from.
  }
  // The server did not process a refused stream (RFC 9113 §8.7), and a shut down connection
  // never got the request: another connection over the same route may take it, once each.
  if (otherFailureCount_ == 0 && refusedStreamCount_ <= 1 && connectionShutdownCount_ <= 1) {
    return true;
  }
  if (routeSelection_ && routeSelection_->hasNext()) return true;
  // A pooled connection failed before this planner planned any route: plan them now.
  if (!routeSelector_) return true;
  return routeSelector_->hasNext();
}

bool RealRoutePlanner::sameHostAndPort(const HttpUrl& url) const {
  const HttpUrl& routeUrl = address_.url();
  return url.port() == routeUrl.port() && url.host() == routeUrl.host();
}

}  // namespace tern::internal
