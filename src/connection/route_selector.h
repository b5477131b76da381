// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <vector>

#include "connection/route_database.h"
#include "tern/address.h"
#include "tern/route.h"

namespace tern::internal {

class ConnectionUser;

// Plans the routes to an address, as OkHttp's RouteSelector: resolves the host through the
// address's Dns (IP literals skip it) and offers one route per IP address, in the order Dns
// returned them (or, for fast fallback, alternating IPv6 and IPv4 from the family Dns put
// first: RFC 8305 §4), except that routes which failed recently (RouteDatabase) come last. (Proxies
// are a later version's: every route is direct.) Reports proxySelectStart/End and dnsStart/End
// to its user. Not thread-safe: one call uses it.
// `addresses` alternating between the two families, starting with the family of the first, each
// family in its own order (RFC 8305 §4): [v6a, v6b, v4a] becomes [v6a, v4a, v6b].
std::vector<InetAddress> interleaveFamilies(const std::vector<InetAddress>& addresses);

class RouteSelector {
 public:
  // A batch of routes to try in order.
  class Selection {
   public:
    explicit Selection(std::vector<Route> routes) : routes_(std::move(routes)) {}
    bool hasNext() const noexcept { return nextRouteIndex_ < routes_.size(); }
    // Throws std::logic_error if !hasNext().
    Route next();
    const std::vector<Route>& routes() const noexcept { return routes_; }

   private:
    std::vector<Route> routes_;
    size_t nextRouteIndex_ = 0;
  };

  // `user` hears the events; null for none (unit tests). With `interleaveFamilies`, the
  // addresses alternate between the two families.
  RouteSelector(Address address, RouteDatabase& routeDatabase, ConnectionUser* user = nullptr,
                bool interleaveFamilies = false);

  // True if next() has routes to give.
  bool hasNext() const noexcept { return !resolved_ || !postponedRoutes_.empty(); }

  // The next batch of routes. The first call looks the host up (blocking), throwing
  // UnknownHostException if that fails or returns no addresses. Throws std::logic_error if
  // !hasNext().
  Selection next();

 private:
  Address address_;
  RouteDatabase& routeDatabase_;
  ConnectionUser* user_;
  bool interleaveFamilies_;
  bool resolved_ = false;
  std::vector<Route> postponedRoutes_;
};

}  // namespace tern::internal
