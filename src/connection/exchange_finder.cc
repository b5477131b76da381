// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/exchange_finder.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include "concurrent/task_queue.h"
#include "concurrent/task_runner.h"
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
      routeSelector_.emplace(address_, routeDatabase_, &user_, settings_.fastFallback);
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

  // The pool's limits: a place for the new connection, waiting while the pool or the host is
  // full; a connection released meanwhile is reused instead.
  while (!pool_.reserveNewConnection(address_, [this] { return user_.isCanceled(); })) {
    if (user_.isCanceled()) throw InterruptedIOException("Canceled");
    if (auto pooled = acquirePooled(excluded, routes ? &*routes : nullptr)) {
      MutexLock lock(excludedMutex_);
      if (!nextRouteToTry_) nextRouteToTry_ = *route;  // Not tried: keep it for a retry.
      return pooled;
    }
  }
  struct Reservation {
    RealConnectionPool* pool;
    const Address* address;
    ~Reservation() {
      if (pool) pool->releaseReservation(*address);
    }
  } reservation{&pool_, &address_};

  std::shared_ptr<RealConnection> newConnection = connectRoutes(std::move(*route), connectTimeout);
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
  reservation.pool = nullptr;  // The connection takes the place.
  pool_.put(newConnection, user_, true);
  user_.connectionAcquired(*newConnection);
  return newConnection;
}

// One connect attempt over a route: a connection of its own, and for a race the queue its TCP
// connect runs on. A TLS handshake that fails for a reason another connection spec may fix is
// tried again as a new attempt over the same route with the next spec (OkHttp's TLS fallback).
struct ExchangeFinder::Attempt {
  Attempt(RealConnectionPool& pool, Route route, ConnectionSpecSelector specSelector)
      : specSelector(std::move(specSelector)),
        connection(std::make_shared<RealConnection>(pool, std::move(route))) {}
  ~Attempt() { queue.reset(); }  // Waits for a TCP connect still running (canceled first).

  ConnectionSpecSelector specSelector;
  std::shared_ptr<RealConnection> connection;
  std::unique_ptr<TaskQueue> queue;  // Null: connected on the call's thread.
  std::exception_ptr tcpFailure;     // Set by the connect, before the attempt is finished.
};

// Connects over `first` and, with fast fallback, races it against the selection's other routes
// (RFC 8305): each new attempt starts fastFallbackDelay after the last while none has connected,
// or at once when every attempt in flight failed. TCP connects of a race run on the pool's
// TaskRunner; everything else (events, TLS, HTTP/2) on the call's thread, so events come in a
// fixed order: connectStart as each attempt starts, connectFailed for each one that fails or
// loses (canceled), connectEnd for the winner. Without fast fallback only `first` is tried,
// on the call's thread (the retry logic moves on to the next route). Returns the connection,
// connected and not pooled; throws the first attempt's failure if all fail (the canceled
// call's if it is canceled).
std::shared_ptr<RealConnection> ExchangeFinder::connectRoutes(
    Route first, std::chrono::milliseconds connectTimeout) {
  using Clock = std::chrono::steady_clock;
  struct Race {
    Mutex mutex;
    std::condition_variable finishedChanged;
    std::deque<Attempt*> finished TERN_GUARDED_BY(mutex);
  } race;
  // After `race`, so the attempts (whose tasks report into it) are destroyed first.
  std::vector<std::unique_ptr<Attempt>> inFlight;
  std::exception_ptr firstFailure;
  std::optional<Route> pending = std::move(first);
  const bool racing = settings_.fastFallback;
  Clock::time_point nextStart = Clock::now();

  auto nextRoute = [&]() -> std::optional<Route> {
    if (pending) return std::exchange(pending, std::nullopt);
    if (racing && routeSelection_ && routeSelection_->hasNext()) return routeSelection_->next();
    return std::nullopt;
  };
  auto finish = [&](Attempt* attempt) {
    MutexLock lock(race.mutex);
    race.finished.push_back(attempt);
    race.finishedChanged.notify_all();
  };
  auto start = [&](Route route, ConnectionSpecSelector specSelector,
                   std::optional<TunnelRetry> tunnel = std::nullopt) {
    auto attempt = std::make_unique<Attempt>(pool_, std::move(route), std::move(specSelector));
    Attempt* raw = attempt.get();
    if (tunnel) raw->connection->setTunnelRequest(std::move(tunnel->request), tunnel->attempt);
    user_.addConnectionToCancel(raw->connection);
    user_.connectStart(raw->connection->route().socketAddress());
    inFlight.push_back(std::move(attempt));
    nextStart = Clock::now() + settings_.fastFallbackDelay;
    auto connect = [raw, connectTimeout] {
      try {
        raw->connection->connectSocket(connectTimeout);
      } catch (const IOException&) {
        raw->tcpFailure = std::current_exception();
      }
    };
    if (racing) {
      try {
        raw->queue = pool_.taskRunner().newQueue(
            "tern connect " + raw->connection->route().socketAddress().describe());
        raw->queue->execute("connect", std::chrono::nanoseconds(0), false, [raw, connect, &finish] {
          connect();
          finish(raw);
        });
        return;
      } catch (const std::logic_error&) {
        raw->queue.reset();  // The TaskRunner is shut down: connect here instead.
      }
    }
    connect();
    finish(raw);
  };
  auto remove = [&](Attempt* attempt) {
    std::unique_ptr<Attempt> removed;
    for (auto it = inFlight.begin(); it != inFlight.end(); ++it) {
      if (it->get() == attempt) {
        removed = std::move(*it);
        inFlight.erase(it);
        break;
      }
    }
    removed->queue.reset();
    user_.removeConnectionToCancel(removed->connection);
    return removed;
  };
  auto fail = [&](std::unique_ptr<Attempt> attempt, std::exception_ptr e) {
    attempt->connection->closeSocket();
    try {
      std::rethrow_exception(e);
    } catch (const IOException& ioe) {
      const Route& route = attempt->connection->route();
      user_.connectFailed(route.socketAddress(), std::nullopt, ioe);
      // The selector hears of a proxy that failed (not of a race's loser it did not fail).
      if (!route.proxy().isDirect() && !dynamic_cast<const InterruptedIOException*>(&ioe)) {
        address_.proxySelector()->connectFailed(address_.url(), route.proxy(), ioe);
      }
    }
    if (!firstFailure) firstFailure = e;
  };
  // Cancels every attempt still in flight but `keep`, waits for each, and reports it failed.
  auto cancelOthers = [&](Attempt* keep) {
    for (const auto& attempt : inFlight) {
      if (attempt.get() != keep) attempt->connection->cancel();
    }
    while (inFlight.size() > (keep ? 1u : 0u)) {
      Attempt* loser = nullptr;
      for (const auto& attempt : inFlight) {
        if (attempt.get() != keep) loser = attempt.get();
      }
      std::unique_ptr<Attempt> removed = remove(loser);  // Waits for its connect to end.
      {
        MutexLock lock(race.mutex);
        std::erase(race.finished, loser);
      }
      std::exception_ptr e = removed->tcpFailure
                                 ? removed->tcpFailure
                                 : std::make_exception_ptr(InterruptedIOException("Canceled"));
      fail(std::move(removed), e);
    }
  };
  struct CancelOnExit {
    std::function<void()> cancel;
    ~CancelOnExit() { cancel(); }
  } cancelOnExit{[&] { cancelOthers(nullptr); }};

  start(*nextRoute(), ConnectionSpecSelector(address_.connectionSpecs()));
  while (true) {
    Attempt* done = nullptr;
    {
      MutexLock lock(race.mutex);
      // Another attempt may start when this one has had its time (a race only: otherwise
      // nextRoute() has nothing more).
      const bool mayStartAnother =
          racing && (pending || (routeSelection_ && routeSelection_->hasNext()));
      while (race.finished.empty()) {
        if (mayStartAnother && Clock::now() >= nextStart) break;
        if (mayStartAnother) {
          race.finishedChanged.wait_until(lock.native(), nextStart);
        } else {
          race.finishedChanged.wait(lock.native());
        }
      }
      if (!race.finished.empty()) {
        done = race.finished.front();
        race.finished.pop_front();
      }
    }
    if (!done) {
      if (user_.isCanceled()) throw InterruptedIOException("Canceled");
      start(*nextRoute(), ConnectionSpecSelector(address_.connectionSpecs()));
      continue;
    }

    if (!done->tcpFailure) {
      // The first TCP connection: the others lose. TLS and HTTP/2 on this thread.
      cancelOthers(done);
      try {
        done->connection->connectTlsEtc(connectTimeout, done->specSelector, settings_, user_);
        std::unique_ptr<Attempt> winner = remove(done);
        user_.connectEnd(winner->connection->route().socketAddress(),
                         winner->connection->protocol());
        return winner->connection;
      } catch (TunnelRetry& tunnel) {
        // The proxy closed the connection after a 407 that the proxy authenticator answered:
        // this attempt ends (as OkHttp's, with connectEnd and no protocol), and a new connection
        // over the same route sends the authenticated CONNECT.
        std::unique_ptr<Attempt> ended = remove(done);
        ended->connection->closeSocket();
        user_.connectEnd(ended->connection->route().socketAddress(), std::nullopt);
        if (user_.isCanceled()) throw InterruptedIOException("Canceled");
        start(ended->connection->route(), ended->specSelector, std::move(tunnel));
        continue;
      } catch (const IOException& e) {
        std::unique_ptr<Attempt> failed = remove(done);
        bool retrySpec = settings_.retryOnConnectionFailure &&
                         failed->specSelector.connectionFailed(e) && !user_.isCanceled();
        Route route = failed->connection->route();
        ConnectionSpecSelector specSelector = failed->specSelector;
        fail(std::move(failed), std::current_exception());
        if (retrySpec) {
          start(std::move(route), std::move(specSelector));
          continue;
        }
      }
    } else {
      std::exception_ptr e = done->tcpFailure;
      fail(remove(done), e);
    }

    // A failure: go on with the attempts in flight, or start the next one at once.
    if (user_.isCanceled()) throw InterruptedIOException("Canceled");
    if (inFlight.empty()) {
      std::optional<Route> route = nextRoute();
      if (!route) std::rethrow_exception(firstFailure);
      start(std::move(*route), ConnectionSpecSelector(address_.connectionSpecs()));
    }
  }
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
