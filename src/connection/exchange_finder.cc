// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/exchange_finder.h"

#include <algorithm>
#include <utility>

#include "connection/connection_spec_selector.h"
#include "connection/connection_user.h"
#include "connection/real_connection.h"
#include "connection/real_connection_pool.h"
#include "connection/route_database.h"
#include "connection/route_exception.h"
#include "http2/connection_shutdown_exception.h"
#include "http2/error_code.h"

namespace tern::internal {

ExchangeFinder::ExchangeFinder(RealConnectionPool& pool, Address address,
                               ConnectionSettings settings, RouteDatabase& routeDatabase,
                               ConnectionUser& user)
    : pool_(pool),
      address_(std::move(address)),
      settings_(settings),
      routeDatabase_(routeDatabase),
      user_(user) {}

std::unique_ptr<ExchangeCodec> ExchangeFinder::find(std::chrono::milliseconds connectTimeout,
                                                    std::chrono::milliseconds readTimeout,
                                                    std::chrono::milliseconds writeTimeout,
                                                    bool doExtensiveHealthChecks) {
  try {
    std::shared_ptr<RealConnection> connection =
        findHealthyConnection(connectTimeout, doExtensiveHealthChecks);
    return connection->newCodec(readTimeout, writeTimeout);
  } catch (const RouteException&) {
    throw;
  } catch (const IOException& e) {
    trackFailure(e, nullptr);
    throw RouteException(std::current_exception());
  }
}

std::shared_ptr<RealConnection> ExchangeFinder::findHealthyConnection(
    std::chrono::milliseconds connectTimeout, bool doExtensiveHealthChecks) {
  while (true) {
    std::shared_ptr<RealConnection> candidate = findConnection(connectTimeout);
    if (candidate->isHealthy(doExtensiveHealthChecks)) return candidate;

    // Unhealthy (the server closed it while it idled): take it out of use and look again.
    candidate->noNewExchanges();
    if (routeSelection_ && routeSelection_->hasNext()) continue;
    if (!routeSelector_ || routeSelector_->hasNext()) continue;
    // Out of routes: the last connection's own failure says more than "closed", if it has one.
    if (std::exception_ptr failure = candidate->failure()) std::rethrow_exception(failure);
    throw IOException("exhausted all routes to " + address_.url().toString() +
                      ": the server closed the connection before it could be used");
  }
}

void ExchangeFinder::releaseCallConnection() {
  if (std::shared_ptr<RealConnection> released = user_.releaseConnectionNoEvents()) {
    user_.connectionReleased(*released);
  }
}

std::shared_ptr<RealConnection> ExchangeFinder::acquirePooled(
    const std::vector<std::shared_ptr<RealConnection>>& excluded, const std::vector<Route>* routes,
    bool requireMultiplexed) {
  std::shared_ptr<RealConnection> pooled =
      pool_.callAcquirePooledConnection(address_, user_, routes, requireMultiplexed, excluded);
  if (pooled) {
    user_.connectionAcquired(*pooled);
  }
  return pooled;
}

std::shared_ptr<RealConnection> ExchangeFinder::findConnection(
    std::chrono::milliseconds connectTimeout) {
  if (user_.isCanceled()) throw InterruptedIOException("Canceled");
  std::vector<std::shared_ptr<RealConnection>> excluded;  // Connections that failed this call.
  {
    MutexLock lock(excludedMutex_);
    excluded = excluded_;
  }

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
    if (reusable) return callConnection;
    if (callConnection) releaseCallConnection();
  }

  // A pooled connection: idle, or HTTP/2 with room for another stream.
  if (auto pooled = acquirePooled(excluded)) return pooled;

  // HTTP/2 with prior knowledge, or https offering h2: calls that start together wait for one
  // connection and share it, rather than each making its own (a burst of 100 calls would
  // otherwise make 100 TLS handshakes for one multiplexed connection). If ALPN chose HTTP/1.1
  // after all, the waiting calls then connect on their own.
  const std::vector<Protocol>& protocols = address_.protocols();
  bool multiplexed = (protocols.size() == 1 && protocols[0] == Protocol::H2_PRIOR_KNOWLEDGE) ||
                     (address_.sslContext() && std::find(protocols.begin(), protocols.end(),
                                                         Protocol::HTTP_2) != protocols.end());
  bool registered = false;
  if (multiplexed) {
    registered =
        pool_.beginConnect(address_, connectTimeout, [this] { return user_.isCanceled(); });
    if (!registered) {
      // Another call connected meanwhile. If its connection has no room (or it failed), connect
      // on our own rather than wait again, so failing connects are not queued one after another.
      if (user_.isCanceled()) throw InterruptedIOException("Canceled");
      if (auto pooled = acquirePooled(excluded)) return pooled;
    }
  }
  struct EndConnect {
    RealConnectionPool* pool;
    const Address* address;
    ~EndConnect() {
      if (pool) pool->endConnect(*address);
    }
  } endConnect{registered ? &pool_ : nullptr, &address_};

  // A new connection, over the route a refused stream came back from, or the next route.
  std::optional<Route> route;
  std::optional<std::vector<Route>> routes;  // Set when this attempt resolved the host.
  {
    MutexLock lock(excludedMutex_);
    route = std::exchange(nextRouteToTry_, std::nullopt);
  }
  if (route) {
    // Retrying a refused stream on a new connection over the same route.
  } else if (routeSelection_ && routeSelection_->hasNext()) {
    route = routeSelection_->next();
  } else {
    if (!routeSelector_) {
      routeSelector_.emplace(address_, routeDatabase_, &user_);
    }
    routeSelection_ = routeSelector_->next();  // Blocks on DNS the first time.
    if (user_.isCanceled()) throw InterruptedIOException("Canceled");
    if (!routeSelection_->hasNext()) {
      throw IOException("exhausted all routes to " + address_.url().toString());
    }
    // Now that the host's IP addresses are known, an HTTP/2 connection to another host at one
    // of them may be coalesced for this one.
    routes = routeSelection_->routes();
    if (auto pooled = acquirePooled(excluded, &*routes)) return pooled;
    route = routeSelection_->next();
  }

  // A TLS handshake that fails for a reason another connection spec may fix is tried again on a
  // new connection with the next spec (OkHttp's TLS fallback). Each attempt is a connect of its
  // own for the event listener.
  ConnectionSpecSelector specSelector(address_.connectionSpecs());
  const InetSocketAddress& socketAddress = route->socketAddress();
  std::shared_ptr<RealConnection> newConnection;
  while (true) {
    newConnection = std::make_shared<RealConnection>(pool_, *route);
    user_.setConnectionToCancel(newConnection);
    user_.connectStart(socketAddress);
    try {
      newConnection->connect(connectTimeout, specSelector, settings_, user_);
      break;
    } catch (const IOException& e) {
      user_.setConnectionToCancel(nullptr);
      newConnection->closeSocket();
      user_.connectFailed(socketAddress, std::nullopt, e);
      if (!settings_.retryOnConnectionFailure || !specSelector.connectionFailed(e) ||
          user_.isCanceled()) {
        throw;
      }
    } catch (...) {
      user_.setConnectionToCancel(nullptr);
      throw;
    }
  }
  user_.setConnectionToCancel(nullptr);
  user_.connectEnd(socketAddress, newConnection->protocol());
  routeDatabase_.connected(newConnection->route());

  // Another call may have connected meanwhile to this host, or to one this connection's host
  // could be coalesced with (OkHttp's third look in the pool): share its HTTP/2 connection and
  // drop ours, so that calls converge on one connection.
  if (auto pooled = pool_.callAcquirePooledConnection(address_, user_, routes ? &*routes : nullptr,
                                                      true, excluded)) {
    {
      MutexLock lock(excludedMutex_);
      nextRouteToTry_ = newConnection->route();
    }
    newConnection->closeSocket();
    user_.connectionAcquired(*pooled);
    return pooled;
  }
  pool_.put(newConnection, user_);
  user_.connectionAcquired(*newConnection);
  return newConnection;
}

void ExchangeFinder::trackFailure(const IOException& e,
                                  const std::shared_ptr<RealConnection>& connection) {
  const auto* reset = dynamic_cast<const StreamResetException*>(&e);
  if (reset && reset->errorCode() == static_cast<uint32_t>(ErrorCode::REFUSED_STREAM)) {
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
    nextRouteToTry_ = connection->route();
  }
}

bool ExchangeFinder::retryAfterFailure() {
  if (refusedStreamCount_ == 0 && connectionShutdownCount_ == 0 && otherFailureCount_ == 0) {
    return false;  // Nothing to recover from.
  }
  // The server did not process a refused stream (RFC 9113 §8.7), and a shut down connection
  // never got the request: another connection over the same route may take it, once each.
  if (otherFailureCount_ == 0 && refusedStreamCount_ <= 1 && connectionShutdownCount_ <= 1) {
    return true;
  }
  if (routeSelection_ && routeSelection_->hasNext()) return true;
  // A pooled connection failed before this finder planned any route: plan them now.
  if (!routeSelector_) return true;
  return routeSelector_->hasNext();
}

bool ExchangeFinder::sameHostAndPort(const HttpUrl& url) const {
  const HttpUrl& routeUrl = address_.url();
  return url.port() == routeUrl.port() && url.host() == routeUrl.host();
}

}  // namespace tern::internal
