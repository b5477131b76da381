// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/client.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

#include "cache/cache_impl.h"
#include "call/alt_svc_store.h"
#include "call/bridge_interceptor.h"
#include "call/cache_interceptor_adapter.h"
#include "call/call_server_interceptor.h"
#include "call/client_access.h"
#include "call/connect_interceptor.h"
#include "call/real_call.h"
#include "call/real_interceptor_chain.h"
#include "call/retry_and_follow_up_interceptor.h"
#include "connection/address_access.h"
#include "connection/address_connect_settings.h"
#include "connection/route_database.h"
#include "http/protocol_list.h"
#include "net/tls_context.h"
#include "tern/ok_hostname_verifier.h"

namespace tern {

// What a Client shares with its copies: an immutable snapshot of a Builder, and the interceptor
// list its calls run, made once here rather than per call.
struct Client::State {
  explicit State(const Builder& builder) : settings(builder) {
    settings.altSvc_->open(altSvcFallback(settings));
    const auto& network = settings.networkInterceptors_;
    chain.reserve(settings.interceptors_.size() + network.size() + 5);
    chain = settings.interceptors_;
    chain.push_back(std::make_shared<internal::RetryAndFollowUpInterceptor>());
    chain.push_back(std::make_shared<internal::BridgeInterceptor>(
        settings.cookieJar_, internal::BridgeInterceptor::kAcceptEncoding,
        settings.maxDecompressionRatio_));
    if (settings.cache_) {
      chain.push_back(std::make_shared<internal::CacheInterceptorAdapter>(
          internal::CacheAccess::impl(*settings.cache_)));
    }
    chain.push_back(std::make_shared<internal::ConnectInterceptor>());
    chain.insert(chain.end(), network.begin(), network.end());
    chain.push_back(std::make_shared<internal::CallServerInterceptor>());
  }

  // The address settings every call shares, per scheme (made on first use: an https one
  // needs the TLS context, which a cleartext-only client never touches).
  const Address& prototype(bool https) const {
    std::call_once(prototypesMade, [&] {
      const std::shared_ptr<internal::TlsContext>& proxyTls =
          settings.proxySslContext_ ? settings.proxySslContext_ : settings.sslContext_;
      // How a pool's address policy connects to this client's addresses with no call.
      auto connect = std::make_shared<internal::AddressConnectSettings>();
      connect->settings.http2WriteTimeout = settings.writeTimeout_;
      connect->settings.pingInterval = settings.pingInterval_;
      connect->settings.retryOnConnectionFailure = settings.retryOnConnectionFailure_;
      connect->settings.fastFallback = settings.fastFallback_;
      connect->settings.altSvc = altSvcCache(settings);
      connect->settings.quicHints = settings.quicHints_;
      connect->connectTimeout = settings.connectTimeout_;
      connect->readTimeout = settings.readTimeout_;
      connect->writeTimeout = settings.writeTimeout_;
      connect->routeDatabase = settings.routeDatabase_;
      auto finish = [&](Address address) {
        return internal::AddressAccess::withConnectSettings(
            internal::AddressAccess::withConnectTargets(
                internal::AddressAccess::withProxySslContext(address, proxyTls),
                settings.unixSocket_, settings.connectTo_),
            connect);
      };
      httpPrototype.emplace(
          finish(Address("localhost", 80, settings.dns_, nullptr, nullptr, std::nullopt,
                         settings.proxyAuthenticator_, settings.protocols_,
                         settings.connectionSpecs_, settings.proxy_, settings.proxySelector_)));
      httpsPrototype.emplace(finish(
          Address("localhost", 443, settings.dns_, settings.sslContext_, settings.hostnameVerifier_,
                  settings.certificatePinner_, settings.proxyAuthenticator_, settings.protocols_,
                  settings.connectionSpecs_, settings.proxy_, settings.proxySelector_)));
    });
    return https ? *httpsPrototype : *httpPrototype;
  }

  // The address for `url`: the last one made for its scheme when the origin is the same (calls
  // usually go to the server the previous one went to), else a new one from the prototype.
  Address address(const HttpUrl& url) const {
    const bool https = url.isHttps();
    {
      std::lock_guard lock(lastAddressMutex);
      const std::optional<Address>& last = lastAddress[https ? 1 : 0];
      if (last && last->url().port() == url.port() && last->url().host() == url.host()) {
        return *last;
      }
    }
    Address made = internal::AddressAccess::withOrigin(prototype(https), url);
    std::lock_guard lock(lastAddressMutex);
    lastAddress[https ? 1 : 0] = made;
    return made;
  }

  // The Alt-Svc cache the connection layer looks up for HTTP/3 alternatives, when the client may
  // use HTTP/3 (its protocols include HTTP_3), else null.
  static std::shared_ptr<internal::AltSvcCache> altSvcCache(const Builder& settings) {
    const std::vector<Protocol>& protocols = settings.protocols_;
    if (std::find(protocols.begin(), protocols.end(), Protocol::HTTP_3) == protocols.end()) {
      return nullptr;
    }
    return {settings.altSvc_, &settings.altSvc_->cache()};  // Shares the store's lifetime.
  }

  // Where a client that may use HTTP/3 keeps Alt-Svc when it names no file: beside its HTTP
  // cache (issue 20), so what one run learned serves the next.
  static std::optional<std::filesystem::path> altSvcFallback(const Builder& settings) {
    const std::vector<Protocol>& protocols = settings.protocols_;
    if (!settings.cache_ ||
        std::find(protocols.begin(), protocols.end(), Protocol::HTTP_3) == protocols.end()) {
      return std::nullopt;
    }
    return settings.cache_->directory() / "alt-svc";
  }

  Builder settings;
  std::vector<std::shared_ptr<Interceptor>> chain;
  mutable std::once_flag prototypesMade;
  mutable std::optional<Address> httpPrototype;
  mutable std::optional<Address> httpsPrototype;
  mutable std::mutex lastAddressMutex;
  mutable std::optional<Address> lastAddress[2];  // http, https. Guarded by lastAddressMutex.
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

void Client::shutdown() const {
  // The dispatcher first: the calls it cancels release their connections, so the eviction
  // after it finds them idle (or closed) rather than busy.
  dispatcher()->shutdown();
  connectionPool()->evictAll();
  try {
    altSvcStore().save();
  } catch (const IOException&) {
    // shutdown() ends the client whatever the disk says; the file keeps what it last held.
  }
}

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

int64_t Client::minWebSocketMessageToCompress() const noexcept {
  return state_->settings.minWebSocketMessageToCompress_;
}
std::chrono::milliseconds Client::webSocketCloseTimeout() const noexcept {
  return state_->settings.webSocketCloseTimeout_;
}
int64_t Client::maxWebSocketMessageSize() const noexcept {
  return state_->settings.maxWebSocketMessageSize_;
}
bool Client::webSocketCompression() const noexcept {
  return state_->settings.webSocketCompression_;
}
double Client::maxDecompressionRatio() const noexcept {
  return state_->settings.maxDecompressionRatio_;
}

std::chrono::milliseconds Client::pingInterval() const noexcept {
  return state_->settings.pingInterval_;
}
bool Client::followRedirects() const noexcept { return state_->settings.followRedirects_; }
bool Client::followSslRedirects() const noexcept { return state_->settings.followSslRedirects_; }
const RetryPolicy& Client::retryPolicy() const noexcept { return state_->settings.retryPolicy_; }

bool Client::retryOnConnectionFailure() const noexcept {
  return state_->settings.retryOnConnectionFailure_;
}

bool Client::fastFallback() const noexcept { return state_->settings.fastFallback_; }
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
const std::optional<Proxy>& Client::proxy() const noexcept { return state_->settings.proxy_; }
const std::shared_ptr<ProxySelector>& Client::proxySelector() const noexcept {
  return state_->settings.proxySelector_;
}
const std::optional<InetSocketAddress>& Client::unixSocket() const noexcept {
  return state_->settings.unixSocket_;
}
const std::vector<ConnectTo>& Client::connectTo() const noexcept {
  return state_->settings.connectTo_;
}
const std::shared_ptr<CookieJar>& Client::cookieJar() const noexcept {
  return state_->settings.cookieJar_;
}

const std::shared_ptr<Hsts>& Client::hsts() const noexcept { return state_->settings.hsts_; }
const std::shared_ptr<Cache>& Client::cache() const noexcept { return state_->settings.cache_; }
const std::vector<Protocol>& Client::protocols() const noexcept {
  return state_->settings.protocols_;
}
Address Client::address(const HttpUrl& url) const { return state_->address(url); }

const std::vector<std::shared_ptr<Interceptor>>& Client::callInterceptors() const noexcept {
  return state_->chain;
}
const std::vector<ConnectionSpec>& Client::connectionSpecs() const noexcept {
  return state_->settings.connectionSpecs_;
}
const std::shared_ptr<HostnameVerifier>& Client::hostnameVerifier() const noexcept {
  return state_->settings.hostnameVerifier_;
}
const CertificatePinner& Client::certificatePinner() const noexcept {
  return state_->settings.certificatePinner_;
}
const std::shared_ptr<internal::TlsContext>& Client::sslContext() const noexcept {
  return state_->settings.sslContext_;
}
const std::shared_ptr<EventListener::Factory>& Client::eventListenerFactory() const noexcept {
  return state_->settings.eventListenerFactory_;
}
internal::RouteDatabase& Client::routeDatabase() const noexcept {
  return *state_->settings.routeDatabase_;
}
internal::AltSvcStore& Client::altSvcStore() const noexcept { return *state_->settings.altSvc_; }
std::shared_ptr<internal::AltSvcCache> Client::altSvcCache() const {
  return State::altSvcCache(state_->settings);
}

Client::Builder::Builder()
    : dispatcher_(std::make_shared<Dispatcher>()),
      connectionPool_(std::make_shared<ConnectionPool>()),
      dns_(Dns::system()),
      authenticator_(Authenticator::none()),
      proxyAuthenticator_(Authenticator::none()),
      proxySelector_(ProxySelector::fromEnvironment()),
      cookieJar_(CookieJar::noCookies()),
      protocols_{Protocol::HTTP_2, Protocol::HTTP_1_1},
      connectionSpecs_{ConnectionSpec::MODERN_TLS, ConnectionSpec::CLEARTEXT},
      hostnameVerifier_(OkHostnameVerifier::instance()),
      sslContext_(std::make_shared<internal::TlsContext>()),
      eventListenerFactory_(noEventListenerFactory()),
      routeDatabase_(std::make_shared<internal::RouteDatabase>()),
      altSvc_(std::make_shared<internal::AltSvcStore>()) {}

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

Client::Builder& Client::Builder::minWebSocketMessageToCompress(int64_t bytes) {
  if (bytes < 0) {
    throw std::invalid_argument("minWebSocketMessageToCompress must be positive: " +
                                std::to_string(bytes));
  }
  minWebSocketMessageToCompress_ = bytes;
  return *this;
}

Client::Builder& Client::Builder::webSocketCloseTimeout(std::chrono::nanoseconds timeout) {
  webSocketCloseTimeout_ = internal::checkDuration("webSocketCloseTimeout", timeout);
  return *this;
}

Client::Builder& Client::Builder::maxWebSocketMessageSize(int64_t bytes) {
  if (bytes <= 0) {
    throw std::invalid_argument("maxWebSocketMessageSize must be positive: " +
                                std::to_string(bytes));
  }
  maxWebSocketMessageSize_ = bytes;
  return *this;
}

Client::Builder& Client::Builder::webSocketCompression(bool enabled) {
  webSocketCompression_ = enabled;
  return *this;
}

Client::Builder& Client::Builder::maxDecompressionRatio(double ratio) {
  if (!(ratio >= 0)) {
    throw std::invalid_argument("maxDecompressionRatio < 0: " + std::to_string(ratio));
  }
  maxDecompressionRatio_ = ratio;
  return *this;
}

Client::Builder& Client::Builder::pingInterval(std::chrono::nanoseconds interval) {
  pingInterval_ = internal::checkDuration("pingInterval", interval);
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

Client::Builder& Client::Builder::retryPolicy(RetryPolicy policy) {
  retryPolicy_ = std::move(policy);
  return *this;
}

Client::Builder& Client::Builder::retryOnConnectionFailure(bool retryOnConnectionFailure) {
  retryOnConnectionFailure_ = retryOnConnectionFailure;
  return *this;
}

Client::Builder& Client::Builder::fastFallback(bool fastFallback) {
  fastFallback_ = fastFallback;
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

Client::Builder& Client::Builder::proxy(Proxy proxy) {
  proxy_ = std::move(proxy);
  return *this;
}

Client::Builder& Client::Builder::proxySelector(std::shared_ptr<ProxySelector> proxySelector) {
  proxySelector_ = checkNotNull(std::move(proxySelector), "proxySelector");
  return *this;
}

Client::Builder& Client::Builder::unixSocket(std::string path) {
  if (path.empty()) {
    unixSocket_.reset();
  } else {
    unixSocket_ = InetSocketAddress::unixDomain(std::move(path));
  }
  return *this;
}

Client::Builder& Client::Builder::abstractUnixSocket(std::string name) {
  if (name.empty()) {
    unixSocket_.reset();
  } else {
    unixSocket_ = InetSocketAddress::unixDomain(std::move(name), true);
  }
  return *this;
}

Client::Builder& Client::Builder::connectTo(std::vector<ConnectTo> rules) {
  for (const ConnectTo& rule : rules) {
    if (rule.port < 0 || rule.port > 65535 || rule.toPort < 0 || rule.toPort > 65535) {
      throw std::invalid_argument("connectTo: port out of range in " + rule.host + ":" +
                                  std::to_string(rule.port) + ":" + rule.toHost + ":" +
                                  std::to_string(rule.toPort));
    }
  }
  connectTo_ = std::move(rules);
  return *this;
}

Client::Builder& Client::Builder::cookieJar(std::shared_ptr<CookieJar> cookieJar) {
  cookieJar_ = checkNotNull(std::move(cookieJar), "cookieJar");
  return *this;
}

Client::Builder& Client::Builder::hsts(std::shared_ptr<Hsts> hsts) {
  hsts_ = std::move(hsts);
  return *this;
}

Client::Builder& Client::Builder::cache(std::shared_ptr<Cache> cache) {
  cache_ = std::move(cache);
  return *this;
}

Client::Builder& Client::Builder::altSvcFile(std::filesystem::path file) {
  altSvc_ = std::make_shared<internal::AltSvcStore>(std::move(file));
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

namespace internal {
std::shared_ptr<const std::vector<QuicHint>> ClientAccess::quicHints(const Client& client) {
  return client.state_->settings.quicHints_;
}
}  // namespace internal

Client::Builder& Client::Builder::addQuicHint(std::string host, int port, int alternatePort) {
  if (host.empty()) throw std::invalid_argument("addQuicHint: empty host");
  if (port < 0 || port > 65535 || alternatePort < 0 || alternatePort > 65535) {
    throw std::invalid_argument("addQuicHint: port out of range: " + std::to_string(port) + ", " +
                                std::to_string(alternatePort));
  }
  if (host != "*") {
    std::optional<HttpUrl> url = HttpUrl::parse("https://" + host + "/");
    if (!url) throw std::invalid_argument("addQuicHint: not a host: " + host);
    host = url->host();  // Canonical, as HttpUrl::host() compares.
  }
  // Copied on write: copies of this builder keep their own list.
  auto hints = quicHints_ ? std::make_shared<std::vector<internal::QuicHint>>(*quicHints_)
                          : std::make_shared<std::vector<internal::QuicHint>>();
  hints->push_back({std::move(host), port, alternatePort});
  quicHints_ = std::move(hints);
  return *this;
}

Client::Builder& Client::Builder::protocols(std::vector<Protocol> protocols) {
  protocols_ = internal::checkedProtocolList(protocols);
  return *this;
}

Client::Builder& Client::Builder::connectionSpecs(std::vector<ConnectionSpec> connectionSpecs) {
  std::vector<ConnectionSpec> unique;
  for (ConnectionSpec& spec : connectionSpecs) {
    if (std::find(unique.begin(), unique.end(), spec) == unique.end()) {
      unique.push_back(std::move(spec));
    }
  }
  connectionSpecs_ = std::move(unique);
  return *this;
}

Client::Builder& Client::Builder::hostnameVerifier(
    std::shared_ptr<HostnameVerifier> hostnameVerifier) {
  hostnameVerifier_ = checkNotNull(std::move(hostnameVerifier), "hostnameVerifier");
  return *this;
}

Client::Builder& Client::Builder::certificatePinner(CertificatePinner certificatePinner) {
  certificatePinner_ = std::move(certificatePinner);
  return *this;
}

Client::Builder& Client::Builder::handshakeCertificates(
    const tls::HandshakeCertificates& certificates) {
  sslContext_ = std::make_shared<internal::TlsContext>(certificates);
  return *this;
}

Client::Builder& Client::Builder::proxyHandshakeCertificates(
    const tls::HandshakeCertificates& certificates) {
  proxySslContext_ = std::make_shared<internal::TlsContext>(certificates);
  return *this;
}

Client Client::Builder::build() const { return Client(std::make_shared<const State>(*this)); }

}  // namespace tern
