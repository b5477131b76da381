// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/exchange_finder.h"

#include <utility>

#include "call/real_call.h"
#include "connection/real_connection.h"
#include "connection/real_connection_pool.h"
#include "connection/route_database.h"
#include "connection/route_exception.h"

namespace tern::internal {

ExchangeFinder::ExchangeFinder(RealConnectionPool& pool, Address address, RealCall& call)
    : pool_(pool), address_(std::move(address)), call_(call) {}

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
    trackFailure(e);
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
    throw IOException("exhausted all routes to " + address_.url().toString() +
                      ": the server closed the connection before it could be used");
  }
}

void ExchangeFinder::releaseCallConnection() {
  std::shared_ptr<RealConnection> connection;
  {
    std::lock_guard lock(pool_.mutex());
    connection = call_.connectionLocked();
  }
  if (!connection) return;
  if (std::shared_ptr<RealConnection> toClose = pool_.release(connection, call_)) {
    toClose->closeSocket();
  }
  call_.event([&](EventListener& listener) { listener.connectionReleased(call_, *connection); });
}

std::shared_ptr<RealConnection> ExchangeFinder::findConnection(
    std::chrono::milliseconds connectTimeout) {
  if (call_.isCanceled()) throw InterruptedIOException("Canceled");

  // The connection the call already holds, if it still suits (a follow-up to the same host).
  {
    std::shared_ptr<RealConnection> callConnection;
    bool reusable = false;
    {
      std::lock_guard lock(pool_.mutex());
      callConnection = call_.connectionLocked();
      reusable = callConnection && !callConnection->noNewExchangesLocked() &&
                 sameHostAndPort(callConnection->route().address().url());
    }
    if (reusable) return callConnection;
    if (callConnection) releaseCallConnection();
  }

  // An idle pooled connection.
  if (auto pooled = pool_.callAcquirePooledConnection(address_, call_)) {
    call_.event([&](EventListener& listener) { listener.connectionAcquired(call_, *pooled); });
    return pooled;
  }

  // A new connection, over the next route.
  std::optional<Route> route;
  if (routeSelection_ && routeSelection_->hasNext()) {
    route = routeSelection_->next();
  } else {
    if (!routeSelector_) {
      routeSelector_.emplace(address_, call_.client().routeDatabase(), &call_);
    }
    routeSelection_ = routeSelector_->next();  // Blocks on DNS the first time.
    if (call_.isCanceled()) throw InterruptedIOException("Canceled");
    if (!routeSelection_->hasNext()) {
      throw IOException("exhausted all routes to " + address_.url().toString());
    }
    route = routeSelection_->next();
  }

  auto newConnection = std::make_shared<RealConnection>(pool_, *route);
  const InetSocketAddress& socketAddress = route->socketAddress();
  call_.setConnectionToCancel(newConnection);
  call_.event([&](EventListener& listener) { listener.connectStart(call_, socketAddress); });
  try {
    newConnection->connect(connectTimeout, call_);
  } catch (const IOException& e) {
    call_.setConnectionToCancel(nullptr);
    call_.event([&](EventListener& listener) {
      listener.connectFailed(call_, socketAddress, std::nullopt, e);
    });
    throw;
  } catch (...) {
    call_.setConnectionToCancel(nullptr);
    throw;
  }
  call_.setConnectionToCancel(nullptr);
  call_.event([&](EventListener& listener) {
    listener.connectEnd(call_, socketAddress, newConnection->protocol());
  });
  call_.client().routeDatabase().connected(newConnection->route());
  pool_.put(newConnection, call_);
  call_.event([&](EventListener& listener) { listener.connectionAcquired(call_, *newConnection); });
  return newConnection;
}

void ExchangeFinder::trackFailure(const IOException&) { ++otherFailureCount_; }

bool ExchangeFinder::retryAfterFailure() {
  if (otherFailureCount_ == 0) return false;  // Nothing to recover from.
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
