// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/route_selector.h"

#include <stdexcept>
#include <utility>

#include "connection/connection_user.h"
#include "tern/exceptions.h"
#include "tern/inet_address.h"

namespace tern::internal {

Route RouteSelector::Selection::next() {
  if (!hasNext()) throw std::logic_error("RouteSelector.Selection: no more routes");
  return routes_[nextRouteIndex_++];
}

std::vector<InetAddress> interleaveFamilies(const std::vector<InetAddress>& addresses) {
  if (addresses.empty()) return addresses;
  const bool firstIsIpv6 = addresses.front().isIpv6();
  std::vector<InetAddress> first;
  std::vector<InetAddress> second;
  for (const InetAddress& address : addresses) {
    (address.isIpv6() == firstIsIpv6 ? first : second).push_back(address);
  }
  std::vector<InetAddress> result;
  result.reserve(addresses.size());
  for (size_t i = 0; i < first.size() || i < second.size(); ++i) {
    if (i < first.size()) result.push_back(first[i]);
    if (i < second.size()) result.push_back(second[i]);
  }
  return result;
}

RouteSelector::RouteSelector(Address address, RouteDatabase& routeDatabase, ConnectionUser* user,
                             bool interleaveFamilies)
    : address_(std::move(address)),
      routeDatabase_(routeDatabase),
      user_(user),
      interleaveFamilies_(interleaveFamilies) {}

RouteSelector::Selection RouteSelector::next() {
  if (!hasNext()) throw std::logic_error("RouteSelector: no more routes");
  std::vector<Route> routes;
  if (!resolved_) {
    resolved_ = true;
    const HttpUrl& url = address_.url();
    const std::string& host = url.host();
    int port = url.port();
    // Every route is direct until tern has proxies: the selection is the empty proxy list.
    if (user_ != nullptr) {
      user_->proxySelectStart(url);
      user_->proxySelectEnd(url, {});
    }
    std::vector<InetAddress> addresses;
    if (std::optional<InetAddress> literal = InetAddress::parse(host)) {
      addresses.push_back(*literal);  // An IP literal needs no lookup.
    } else {
      if (user_ != nullptr) user_->dnsStart(host);
      addresses = address_.dns()->lookup(host);
      if (addresses.empty()) {
        throw UnknownHostException("Dns returned no addresses for " + host);
      }
      if (user_ != nullptr) user_->dnsEnd(host, addresses);
    }
    if (interleaveFamilies_) addresses = interleaveFamilies(addresses);
    for (const InetAddress& inetAddress : addresses) {
      const InetAddress named = inetAddress.hostName().empty() && !InetAddress::parse(host)
                                    ? inetAddress.withHostName(host)
                                    : inetAddress;
      Route route(address_, InetSocketAddress(named, port));
      if (routeDatabase_.shouldPostpone(route)) {
        postponedRoutes_.push_back(std::move(route));
      } else {
        routes.push_back(std::move(route));
      }
    }
  }
  // Only failed routes are left: try them rather than give up.
  if (routes.empty()) {
    routes = std::move(postponedRoutes_);
    postponedRoutes_.clear();
  }
  return Selection(std::move(routes));
}

}  // namespace tern::internal
