// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
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
// With fast fallback the host is looked up with Dns::lookupAsync(): next() returns once the first
// address family's answer is in, and pollLookup() adds the other's routes to the selection as it
// arrives (its addresses first among the untried ones), reporting dnsEnd when the lookup is over.
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
    // Adds `routes` to try, alternating with the untried ones, `routes` first.
    void add(std::vector<Route> routes);

   private:
    std::vector<Route> routes_;
    size_t nextRouteIndex_ = 0;
  };

  // `user` hears the events; null for none (unit tests). With `fastFallback`, the addresses
  // alternate between the two families, and hosts are looked up asynchronously.
  RouteSelector(Address address, RouteDatabase& routeDatabase, ConnectionUser* user = nullptr,
                bool fastFallback = false);
  ~RouteSelector();
  RouteSelector(const RouteSelector&) = delete;
  RouteSelector& operator=(const RouteSelector&) = delete;

  // True if next() has routes to give.
  bool hasNext() const noexcept {
    return !proxiesSelected_ || nextProxy_ < proxies_.size() || !postponedRoutes_.empty();
  }

  // The next batch of routes: the next proxy's, looking its host up (blocking), or at the end
  // the postponed ones. A proxy whose host cannot be resolved is skipped when another proxy
  // follows; otherwise UnknownHostException (the first such failure). Throws IOException if the
  // ProxySelector does, std::logic_error if !hasNext().
  Selection next();

  // True while the last selection's host lookup may still add routes to it.
  bool lookupPending() const;

  // Adds to `selection` (the last next()'s) the routes of the addresses that arrived since, and
  // reports dnsEnd once the lookup is over. Returns true if routes were added.
  bool pollLookup(Selection& selection);

  // Called, on the lookup's thread, when an answer arrives or the lookup ends (null: nothing).
  void setLookupListener(std::function<void()> listener);

  // Stops waiting for a lookup still pending (the call has its connection): reports dnsEnd with
  // the addresses that came; later answers are dropped.
  void abandonLookup();

 private:
  struct PendingLookup;

  void selectProxies();
  // The host and port a route through `proxy` connects to.
  std::pair<std::string, int> connectTarget(const Proxy& proxy) const;
  // The addresses of connectTarget()'s host for `proxy`.
  std::vector<InetAddress> resolve(const Proxy& proxy);
  std::vector<InetAddress> resolveAsync(const Proxy& proxy, const std::string& host);
  std::vector<Route> routesFor(const Proxy& proxy, const std::vector<InetAddress>& addresses);
  void endLookup();

  Address address_;
  RouteDatabase& routeDatabase_;
  ConnectionUser* user_;
  bool fastFallback_;
  bool proxiesSelected_ = false;
  std::vector<Proxy> proxies_;
  size_t nextProxy_ = 0;
  std::vector<Route> postponedRoutes_;
  // The lookup that may still add routes to the last selection, with its proxy and host.
  std::shared_ptr<PendingLookup> pending_;
  std::optional<Proxy> pendingProxy_;
  std::string pendingHost_;
  std::vector<InetAddress> pendingAddresses_;  // What it gave so far, for dnsEnd.
};

}  // namespace tern::internal
