// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/client.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "call/real_call.h"
#include "call/real_interceptor_chain.h"
#include "connection/route_database.h"

namespace tern {

// What a Client shares with its copies: an immutable snapshot of a Builder.
struct Client::State {
  Builder settings;
};

namespace {

template <typename T>
std::shared_ptr<T> checkNotNull(std::shared_ptr<T> value, const char* name) {
  if (!value) throw std::invalid_argument(std::string("Client.Builder: ") + name + " == null");
  return value;
}

// The default factory: gives every call EventListener::none(), shared, so a call without a
// listener allocates nothing for events.
const std::shared_ptr<EventListener::Factory>& noEventListenerFactory() {
  static const std::shared_ptr<EventListener::Factory> kFactory =
      EventListener::Factory::of(EventListener::none());
  return kFactory;
}

}  // namespace

Client::Client() : Client(Builder().build()) {}

std::shared_ptr<Call> Client::newCall(Request request) const {
  return std::make_shared<internal::RealCall>(*this, std::move(request));
}

Client::Builder Client::newBuilder() const { return state_->settings; }

std::chrono::milliseconds Client::connectTimeout() const noexcept {
  return state_->settings.connectTimeout_;
}
std::chrono::milliseconds Client::readTimeout() const noexcept {
  return state_->settings.readTimeout_;
}
std::chrono::milliseconds Client::writeTimeout() const noexcept {
  return state_->settings.writeTimeout_;
}
std::chrono::milliseconds Client::callTimeout() const noexcept {
  return state_->settings.callTimeout_;
}
bool Client::followRedirects() const noexcept { return state_->settings.followRedirects_; }
bool Client::followSslRedirects() const noexcept { return state_->settings.followSslRedirects_; }
bool Client::retryOnConnectionFailure() const noexcept {
  return state_->settings.retryOnConnectionFailure_;
}
const std::vector<std::shared_ptr<Interceptor>>& Client::interceptors() const noexcept {
  return state_->settings.interceptors_;
}
const std::vector<std::shared_ptr<Interceptor>>& Client::networkInterceptors() const noexcept {
  return state_->settings.networkInterceptors_;
}
const std::shared_ptr<Dispatcher>& Client::dispatcher() const noexcept {
  return state_->settings.dispatcher_;
}
const std::shared_ptr<ConnectionPool>& Client::connectionPool() const noexcept {
  return state_->settings.connectionPool_;
}
const std::shared_ptr<Dns>& Client::dns() const noexcept { return state_->settings.dns_; }
const std::shared_ptr<Authenticator>& Client::authenticator() const noexcept {
  return state_->settings.authenticator_;
}
const std::shared_ptr<Authenticator>& Client::proxyAuthenticator() const noexcept {
  return state_->settings.proxyAuthenticator_;
}
const std::shared_ptr<CookieJar>& Client::cookieJar() const noexcept {
  return state_->settings.cookieJar_;
}
const std::vector<Protocol>& Client::protocols() const noexcept {
  return state_->settings.protocols_;
}
const std::shared_ptr<EventListener::Factory>& Client::eventListenerFactory() const noexcept {
  return state_->settings.eventListenerFactory_;
}
internal::RouteDatabase& Client::routeDatabase() const noexcept {
  return *state_->settings.routeDatabase_;
}

Client::Builder::Builder()
    : dispatcher_(std::make_shared<Dispatcher>()),
      connectionPool_(std::make_shared<ConnectionPool>()),
      dns_(Dns::system()),
      authenticator_(Authenticator::none()),
      proxyAuthenticator_(Authenticator::none()),
      cookieJar_(CookieJar::noCookies()),
      protocols_{Protocol::HTTP_2, Protocol::HTTP_1_1},
      eventListenerFactory_(noEventListenerFactory()),
      routeDatabase_(std::make_shared<internal::RouteDatabase>()) {}

Client::Builder& Client::Builder::connectTimeout(std::chrono::nanoseconds timeout) {
  connectTimeout_ = internal::checkDuration("connectTimeout", timeout);
  return *this;
}

Client::Builder& Client::Builder::readTimeout(std::chrono::nanoseconds timeout) {
  readTimeout_ = internal::checkDuration("readTimeout", timeout);
  return *this;
}

Client::Builder& Client::Builder::writeTimeout(std::chrono::nanoseconds timeout) {
  writeTimeout_ = internal::checkDuration("writeTimeout", timeout);
  return *this;
}

Client::Builder& Client::Builder::callTimeout(std::chrono::nanoseconds timeout) {
  callTimeout_ = internal::checkDuration("callTimeout", timeout);
  return *this;
}

Client::Builder& Client::Builder::followRedirects(bool followRedirects) {
  followRedirects_ = followRedirects;
  return *this;
}

Client::Builder& Client::Builder::followSslRedirects(bool followSslRedirects) {
  followSslRedirects_ = followSslRedirects;
  return *this;
}

Client::Builder& Client::Builder::retryOnConnectionFailure(bool retryOnConnectionFailure) {
  retryOnConnectionFailure_ = retryOnConnectionFailure;
  return *this;
}

Client::Builder& Client::Builder::addInterceptor(std::shared_ptr<Interceptor> interceptor) {
  interceptors_.push_back(checkNotNull(std::move(interceptor), "interceptor"));
  return *this;
}

Client::Builder& Client::Builder::addInterceptor(
    std::function<Response(Interceptor::Chain& chain)> intercept) {
  if (!intercept) throw std::invalid_argument("Client.Builder: interceptor == null");
  return addInterceptor(Interceptor::of(std::move(intercept)));
}

Client::Builder& Client::Builder::addNetworkInterceptor(std::shared_ptr<Interceptor> interceptor) {
  networkInterceptors_.push_back(checkNotNull(std::move(interceptor), "networkInterceptor"));
  return *this;
}

Client::Builder& Client::Builder::addNetworkInterceptor(
    std::function<Response(Interceptor::Chain& chain)> intercept) {
  if (!intercept) throw std::invalid_argument("Client.Builder: networkInterceptor == null");
  return addNetworkInterceptor(Interceptor::of(std::move(intercept)));
}

Client::Builder& Client::Builder::dispatcher(std::shared_ptr<Dispatcher> dispatcher) {
  dispatcher_ = checkNotNull(std::move(dispatcher), "dispatcher");
  return *this;
}

Client::Builder& Client::Builder::connectionPool(std::shared_ptr<ConnectionPool> connectionPool) {
  connectionPool_ = checkNotNull(std::move(connectionPool), "connectionPool");
  return *this;
}

Client::Builder& Client::Builder::dns(std::shared_ptr<Dns> dns) {
  dns_ = checkNotNull(std::move(dns), "dns");
  return *this;
}

Client::Builder& Client::Builder::authenticator(std::shared_ptr<Authenticator> authenticator) {
  authenticator_ = checkNotNull(std::move(authenticator), "authenticator");
  return *this;
}

Client::Builder& Client::Builder::proxyAuthenticator(
    std::shared_ptr<Authenticator> proxyAuthenticator) {
  proxyAuthenticator_ = checkNotNull(std::move(proxyAuthenticator), "proxyAuthenticator");
  return *this;
}

Client::Builder& Client::Builder::cookieJar(std::shared_ptr<CookieJar> cookieJar) {
  cookieJar_ = checkNotNull(std::move(cookieJar), "cookieJar");
  return *this;
}

Client::Builder& Client::Builder::eventListener(std::shared_ptr<EventListener> eventListener) {
  eventListenerFactory_ =
      EventListener::Factory::of(checkNotNull(std::move(eventListener), "eventListener"));
  return *this;
}

Client::Builder& Client::Builder::eventListenerFactory(
    std::shared_ptr<EventListener::Factory> eventListenerFactory) {
  eventListenerFactory_ = checkNotNull(std::move(eventListenerFactory), "eventListenerFactory");
  return *this;
}

Client::Builder& Client::Builder::eventListenerFactory(
    std::function<std::shared_ptr<EventListener>(Call& call)> create) {
  if (!create) throw std::invalid_argument("Client.Builder: eventListenerFactory == null");
  return eventListenerFactory(EventListener::Factory::of(std::move(create)));
}

Client::Builder& Client::Builder::protocols(std::vector<Protocol> protocols) {
  std::vector<Protocol> unique;
  for (Protocol protocol : protocols) {
    if (std::find(unique.begin(), unique.end(), protocol) == unique.end()) {
      unique.push_back(protocol);
    }
  }
  auto has = [&](Protocol p) { return std::find(unique.begin(), unique.end(), p) != unique.end(); };
  if (has(Protocol::H2_PRIOR_KNOWLEDGE)) {
    if (unique.size() > 1) {
      throw std::invalid_argument(
          "protocols containing h2_prior_knowledge cannot use other protocols");
    }
    throw std::invalid_argument("protocols: h2_prior_knowledge needs HTTP/2, not supported yet");
  }
  if (!has(Protocol::HTTP_1_1)) {
    throw std::invalid_argument("protocols must contain h2_prior_knowledge or http/1.1");
  }
  if (has(Protocol::HTTP_1_0)) throw std::invalid_argument("protocols must not contain http/1.0");
  protocols_ = std::move(unique);
  return *this;
}

Client Client::Builder::build() const {
  return Client(std::make_shared<const State>(State{*this}));
}

}  // namespace tern
