// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/route_selector.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "concurrent/condition.h"
#include "connection/connection_user.h"
#include "tern/exceptions.h"
#include "tern/inet_address.h"

namespace tern::internal {

Route RouteSelector::Selection::next() {
  if (!hasNext()) throw std::logic_error("RouteSelector.Selection: no more routes");
  return routes_[nextRouteIndex_++];
}

void RouteSelector::Selection::add(std::vector<Route> routes) {
  std::vector<Route> untried(routes_.begin() + static_cast<std::ptrdiff_t>(nextRouteIndex_),
                             routes_.end());
  routes_.erase(routes_.begin() + static_cast<std::ptrdiff_t>(nextRouteIndex_), routes_.end());
  for (size_t i = 0; i < routes.size() || i < untried.size(); ++i) {
    if (i < routes.size()) routes_.push_back(std::move(routes[i]));
    if (i < untried.size()) routes_.push_back(std::move(untried[i]));
  }
}

// An asynchronous lookup's answers as they come (Dns::Callback, any thread), for the call's
// thread to take.
struct RouteSelector::PendingLookup final : Dns::Callback {
  std::mutex mutex;
  Condition changed;
  std::vector<InetAddress> arrived;  // Not taken yet.
  bool complete = false;
  std::exception_ptr failure;
  std::function<void()> listener;

  void onAddresses(std::vector<InetAddress> addresses) override {
    std::function<void()> notify;
    {
      std::lock_guard lock(mutex);
      arrived.insert(arrived.end(), addresses.begin(), addresses.end());
      changed.notify_all();
      notify = listener;
    }
    if (notify) notify();
  }

  void onComplete(std::exception_ptr e) override {
    std::function<void()> notify;
    {
      std::lock_guard lock(mutex);
      complete = true;
      failure = e;
      changed.notify_all();
      notify = listener;
    }
    if (notify) notify();
  }

  // What arrived since the last take(), and whether the lookup is over.
  std::vector<InetAddress> take(bool& isComplete) {
    std::lock_guard lock(mutex);
    isComplete = complete;
    return std::exchange(arrived, {});
  }
};

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
                             bool fastFallback)
    : address_(std::move(address)),
      routeDatabase_(routeDatabase),
      user_(user),
      fastFallback_(fastFallback) {}

RouteSelector::~RouteSelector() { setLookupListener(nullptr); }

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

namespace {

// A lookup's failure, naming the proxy whose host it was.
[[noreturn]] void rethrowLookupFailure(std::exception_ptr failure, const Proxy& proxy) {
  try {
    std::rethrow_exception(failure);
  } catch (const UnknownHostException& e) {
    if (proxy.isDirect()) throw;
    throw UnknownHostException(std::string(e.what()) + " (the proxy " + proxy.toString() + ")");
  }
}

std::vector<InetAddress> named(const std::vector<InetAddress>& addresses, const std::string& host) {
  std::vector<InetAddress> result;
  result.reserve(addresses.size());
  for (const InetAddress& address : addresses) {
    result.push_back(address.hostName().empty() ? address.withHostName(host) : address);
  }
  return result;
}

}  // namespace

std::pair<std::string, int> RouteSelector::connectTarget(const Proxy& proxy) const {
  // A direct route goes where the address's connect-to rules say (by default the URL's host and
  // port); a proxied one to the proxy.
  return proxy.isDirect() ? address_.connectTarget()
                          : std::pair<std::string, int>(proxy.host(), proxy.port());
}

std::vector<InetAddress> RouteSelector::resolve(const Proxy& proxy) {
  const std::string host = connectTarget(proxy).first;
  if (std::optional<InetAddress> literal = InetAddress::parse(host)) {
    return {*literal};  // An IP literal needs no lookup.
  }
  if (user_ != nullptr) user_->dnsStart(host);
  if (fastFallback_) return resolveAsync(proxy, host);
  std::vector<InetAddress> addresses;
  try {
    addresses = address_.dns()->lookup(host);
  } catch (const UnknownHostException&) {
    rethrowLookupFailure(std::current_exception(), proxy);
  }
  if (addresses.empty()) {
    throw UnknownHostException("Dns returned no addresses for " + host +
                               (proxy.isDirect() ? "" : " (the proxy " + proxy.toString() + ")"));
  }
  if (user_ != nullptr) user_->dnsEnd(host, addresses);
  return named(addresses, host);
}

// RFC 8305 §3's recommended value.
constexpr std::chrono::milliseconds kResolutionDelay{50};

// Waits for the lookup's first answer (or its end), checking for a cancel of the call meanwhile;
// a lookup not over yet becomes pending_.
std::vector<InetAddress> RouteSelector::resolveAsync(const Proxy& proxy, const std::string& host) {
  auto lookup = std::make_shared<PendingLookup>();
  address_.dns()->lookupAsync(host, lookup);
  {
    std::unique_lock lock(lookup->mutex);
    while (lookup->arrived.empty() && !lookup->complete) {
      if (user_ != nullptr && user_->isCanceled()) throw InterruptedIOException("Canceled");
      lookup->changed.wait_for(lock, std::chrono::milliseconds(50));
    }
    // IPv4 first: give IPv6 its Resolution Delay (RFC 8305 §3) to be tried first after all.
    auto hasIpv6 = [&] {
      return std::any_of(lookup->arrived.begin(), lookup->arrived.end(),
                         [](const InetAddress& a) { return a.isIpv6(); });
    };
    lookup->changed.wait_for(lock, kResolutionDelay, [&] { return lookup->complete || hasIpv6(); });
  }
  bool complete = false;
  const std::vector<InetAddress> answered = lookup->take(complete);  // As the Dns gave them.
  std::vector<InetAddress> addresses = named(answered, host);
  if (addresses.empty()) {
    rethrowLookupFailure(lookup->failure ? lookup->failure
                                         : std::make_exception_ptr(UnknownHostException(
                                               "Dns returned no addresses for " + host)),
                         proxy);
  }
  if (complete) {
    if (user_ != nullptr) user_->dnsEnd(host, answered);
  } else {
    pending_ = std::move(lookup);
    pendingProxy_ = proxy;
    pendingHost_ = host;
    pendingAddresses_ = answered;
  }
  return addresses;
}

std::vector<Route> RouteSelector::routesFor(const Proxy& proxy,
                                            const std::vector<InetAddress>& addresses) {
  const std::vector<InetAddress> ordered =
      fastFallback_ ? interleaveFamilies(addresses) : addresses;
  const int port = connectTarget(proxy).second;
  std::vector<Route> routes;
  for (const InetAddress& inetAddress : ordered) {
    Route route(address_, proxy, InetSocketAddress(inetAddress, port));
    if (routeDatabase_.shouldPostpone(route)) {
      postponedRoutes_.push_back(std::move(route));
    } else {
      routes.push_back(std::move(route));
    }
  }
  return routes;
}

bool RouteSelector::lookupPending() const { return pending_ != nullptr; }

bool RouteSelector::pollLookup(Selection& selection) {
  if (!pending_) return false;
  bool complete = false;
  const std::vector<InetAddress> more = pending_->take(complete);
  pendingAddresses_.insert(pendingAddresses_.end(), more.begin(), more.end());
  std::vector<Route> routes = routesFor(*pendingProxy_, named(more, pendingHost_));
  const bool added = !routes.empty();
  if (added) selection.add(std::move(routes));
  if (complete) endLookup();
  return added;
}

void RouteSelector::setLookupListener(std::function<void()> listener) {
  if (!pending_) return;
  std::lock_guard lock(pending_->mutex);
  pending_->listener = std::move(listener);
}

void RouteSelector::abandonLookup() {
  if (!pending_) return;
  setLookupListener(nullptr);
  bool complete = false;
  const std::vector<InetAddress> more = pending_->take(complete);
  pendingAddresses_.insert(pendingAddresses_.end(), more.begin(), more.end());
  endLookup();
}

void RouteSelector::endLookup() {
  if (user_ != nullptr) user_->dnsEnd(pendingHost_, pendingAddresses_);
  pending_.reset();
  pendingProxy_.reset();
  pendingHost_.clear();
  pendingAddresses_.clear();
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
    std::vector<InetAddress> addresses;
    try {
      addresses = resolve(proxy);
    } catch (const UnknownHostException&) {
      if (!firstFailure) firstFailure = std::current_exception();
      continue;  // Another proxy may do.
    }
    std::vector<Route> routes = routesFor(proxy, addresses);
    if (routes.empty() && pending_) {
      // Every route so far failed recently: wait for the rest of the lookup before moving on.
      {
        std::unique_lock lock(pending_->mutex);
        pending_->changed.wait(lock, [this] { return pending_->complete; });
      }
      Selection selection(std::move(routes));
      pollLookup(selection);
      if (selection.hasNext()) return selection;
      continue;
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
