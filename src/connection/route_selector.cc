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

void RouteSelector::selectProxies() {
  proxiesSelected_ = true;
  const HttpUrl& url = address_.url();
  if (user_ != nullptr) user_->proxySelectStart(url);
  if (address_.proxy()) {
    proxies_ = {*address_.proxy()};
  } else {
    proxies_ = address_.proxySelector()->select(url);
  }
  if (proxies_.empty()) proxies_ = {Proxy::direct()};
  if (user_ != nullptr) {
    std::vector<std::string> described;
    for (const Proxy& proxy : proxies_) described.push_back(proxy.toString());
    user_->proxySelectEnd(url, described);
  }
}

std::pair<std::string, int> RouteSelector::connectTarget(const Proxy& proxy) const {
  // A direct route goes where the address's connect-to rules say (by default the URL's host and
  // port); a proxied one to the proxy.
  return proxy.isDirect() ? address_.connectTarget()
                          : std::pair<std::string, int>(proxy.host(), proxy.port());
}

std::vector<InetAddress> RouteSelector::resolve(const Proxy& proxy, const std::string& host) {
  if (std::optional<InetAddress> literal = InetAddress::parse(host)) {
    return {*literal};  // An IP literal needs no lookup.
  }
  if (user_ != nullptr) user_->dnsStart(host);
  std::vector<InetAddress> addresses;
  try {
    addresses = address_.dns()->lookup(host);
  } catch (const UnknownHostException& e) {
    if (proxy.isDirect()) throw;
    throw UnknownHostException(std::string(e.what()) + " (the proxy " + proxy.toString() + ")");
  }
  if (addresses.empty()) {
    throw UnknownHostException("Dns returned no addresses for " + host +
                               (proxy.isDirect() ? "" : " (the proxy " + proxy.toString() + ")"));
  }
  if (user_ != nullptr) user_->dnsEnd(host, addresses);
  std::vector<InetAddress> named;
  named.reserve(addresses.size());
  for (const InetAddress& address : addresses) {
    named.push_back(address.hostName().empty() ? address.withHostName(host) : address);
  }
  return named;
}

RouteSelector::Selection RouteSelector::next() {
  if (!hasNext()) throw std::logic_error("RouteSelector: no more routes");
  if (const std::optional<InetSocketAddress>& unixSocket = address_.unixSocket()) {
    // One route, to the socket: no proxy, no DNS (curl's --unix-socket).
    proxiesSelected_ = true;
    return Selection({Route(address_, Proxy::direct(), *unixSocket)});
  }
  if (!proxiesSelected_) selectProxies();
  std::exception_ptr firstFailure;
  while (nextProxy_ < proxies_.size()) {
    const Proxy proxy = proxies_[nextProxy_++];
    const auto [host, port] = connectTarget(proxy);
    std::vector<InetAddress> addresses;
    try {
      addresses = resolve(proxy, host);
    } catch (const UnknownHostException&) {
      if (!firstFailure) firstFailure = std::current_exception();
      continue;  // Another proxy may do.
    }
    if (interleaveFamilies_) addresses = interleaveFamilies(addresses);
    std::vector<Route> routes;
    for (const InetAddress& inetAddress : addresses) {
      Route route(address_, proxy, InetSocketAddress(inetAddress, port));
      if (routeDatabase_.shouldPostpone(route)) {
        postponedRoutes_.push_back(std::move(route));
      } else {
        routes.push_back(std::move(route));
      }
    }
    if (!routes.empty()) return Selection(std::move(routes));
  }
  // Only failed routes are left: try them rather than give up.
  if (postponedRoutes_.empty() && firstFailure) std::rethrow_exception(firstFailure);
  std::vector<Route> routes = std::move(postponedRoutes_);
  postponedRoutes_.clear();
  return Selection(std::move(routes));
}

}  // namespace tern::internal
