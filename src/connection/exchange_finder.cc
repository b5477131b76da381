// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/exchange_finder.h"

#include <utility>

#include "concurrent/task_runner.h"
#include "connection/fast_fallback_finder.h"
#include "connection/real_connection.h"
#include "connection/real_connection_pool.h"
#include "connection/route_exception.h"

namespace tern::internal {

ExchangeFinder::ExchangeFinder(RealConnectionPool& pool, Address address,
                               ConnectionSettings settings, RouteDatabase& routeDatabase,
                               ConnectionUser& user)
    : pool_(pool),
      settings_(settings),
      planner_(pool, std::move(address), settings, routeDatabase, user) {}

std::unique_ptr<ExchangeCodec> ExchangeFinder::find(std::chrono::milliseconds connectTimeout,
                                                    std::chrono::milliseconds readTimeout,
                                                    std::chrono::milliseconds writeTimeout,
                                                    bool doExtensiveHealthChecks) {
  try {
    planner_.setConnectTimeout(connectTimeout);
    std::shared_ptr<RealConnection> connection = findHealthyConnection(doExtensiveHealthChecks);
    return connection->newCodec(readTimeout, writeTimeout);
  } catch (const RouteException&) {
    throw;
  } catch (const IOException& e) {
    trackFailure(e, nullptr);
    throw RouteException(std::current_exception());
  }
}

std::shared_ptr<RealConnection> ExchangeFinder::findHealthyConnection(
    bool doExtensiveHealthChecks) {
  FastFallbackFinder finder(planner_, pool_.taskRunner(), settings_.fastFallback,
                            settings_.fastFallbackDelay);
  while (true) {
    std::shared_ptr<RealConnection> candidate;
    {
      struct EndAttempt {
        RealRoutePlanner& planner;
        ~EndAttempt() { planner.endAttempt(); }
      } endAttempt{planner_};
      candidate = finder.find();
    }
    if (candidate->isHealthy(doExtensiveHealthChecks)) return candidate;

    // Unhealthy (the server closed it while it idled): take it out of use and look again.
    candidate->noNewExchanges();
    if (planner_.hasMoreRoutes()) continue;
    // Out of routes: the last connection's own failure says more than "closed", if it has one.
    if (std::exception_ptr failure = candidate->failure()) std::rethrow_exception(failure);
    throw IOException("exhausted all routes to " + address().url().toString() +
                      ": the server closed the connection before it could be used");
  }
}

}  // namespace tern::internal
