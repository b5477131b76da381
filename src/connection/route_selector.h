// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "connection/route_database.h"
#include "tern/address.h"
#include "tern/route.h"

namespace tern::internal {

class ConnectionUser;

// Plans the routes to an address, as OkHttp's RouteSelector: first the proxies (the address's
// own proxy, or what its ProxySelector chooses; none means direct), then for each proxy in turn
// the host to connect to (the origin's for DIRECT, as the address's connect-to rules may change
// it with its port, else the proxy's) resolved through the
// address's Dns (IP literals skip it), one route per IP address, in the order Dns returned them
// (or, for fast fallback, alternating IPv6 and IPv4 from the family Dns put first: RFC 8305 §4),
// except that routes which failed recently (RouteDatabase) come last, after every proxy's. Each
// next() gives one proxy's routes. An address with a Unix socket has one route, to it, with no
// proxy selection and no DNS. Reports proxySelectStart/End and dnsStart/End to its user.
// Not thread-safe: one call uses it.
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
  bool hasNext() const noexcept {
    return !proxiesSelected_ || nextProxy_ < proxies_.size() || !postponedRoutes_.empty();
  }

  // The next batch of routes: the next proxy's, looking its host up (blocking), or at the end
  // the postponed ones. A proxy whose host cannot be resolved is skipped when another proxy
  // follows; otherwise UnknownHostException (the first such failure). Throws IOException if the
  // ProxySelector does, std::logic_error if !hasNext().
  Selection next();

 private:
  void selectProxies();
  // The host and port a route through `proxy` connects to.
  std::pair<std::string, int> connectTarget(const Proxy& proxy) const;
  // The addresses of `host`, the one connectTarget() gave for `proxy`.
  std::vector<InetAddress> resolve(const Proxy& proxy, const std::string& host);

  Address address_;
  RouteDatabase& routeDatabase_;
  ConnectionUser* user_;
  bool interleaveFamilies_;
  bool proxiesSelected_ = false;
  std::vector<Proxy> proxies_;
  size_t nextProxy_ = 0;
  std::vector<Route> postponedRoutes_;
};

}  // namespace tern::internal
