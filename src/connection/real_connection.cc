// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/real_connection.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>
#include <vector>

#include "connection/address_access.h"
#include "connection/connection_settings.h"
#include "connection/connection_spec_selector.h"
#include "connection/connection_user.h"
#include "connection/real_connection_pool.h"
#include "connection/route_database.h"
#include "http/connection_shutdown_exception.h"
#include "http/message_framing.h"
#include "http1/http1_exchange_codec.h"
#include "http2/error_code.h"
#include "http2/http2_exchange_codec.h"
#include "http3/http3_error_code.h"
#include "http3/http3_exchange_codec.h"
#include "net/socks5.h"
#include "net/stream_tls_transport.h"
#include "net/tls_context.h"
#include "tern/authenticator.h"
#include "tern/buffer.h"
#include "tern/credentials.h"
#include "tern/exceptions.h"
#include "tern/ok_hostname_verifier.h"
#include "tern/version.h"
#include "tls/openssl_access.h"

namespace tern::internal {
namespace {

// "host:port", IPv6 in brackets: a CONNECT request's target and Host (RFC 9112 §3.2.3): the
// address's connect target (its URL's host and port, unless a connect-to rule sends it elsewhere:
// curl tunnels to HOST2:PORT2).
std::string authority(const Address& address) {
  const auto [host, port] = address.connectTarget();
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" +
         std::to_string(port);
}

// The ALPN identifiers to offer for `protocols` (RFC 7301), in the client's order of preference:
// TCP's only. Never "h3": HTTP/3 runs over QUIC, found by Alt-Svc (RFC 9114 §3.1), and a server
// picking it here would leave the connection speaking nothing we can read.
std::vector<std::string> alpnProtocols(const std::vector<Protocol>& protocols) {
  std::vector<std::string> result;
  for (Protocol protocol : protocols) {
    if (protocol == Protocol::HTTP_1_1 || protocol == Protocol::HTTP_2) {
      result.emplace_back(toString(protocol));
    }
  }
  return result;
}

// "[a, b]", as Kotlin prints a list (OkHttp's messages do).
std::string listText(const std::vector<std::string>& items) {
  std::string result = "[";
  for (size_t i = 0; i < items.size(); ++i) result += (i > 0 ? ", " : "") + items[i];
  return result + "]";
}

// OkHttp's message for a certificate that does not match the host.
std::string hostnameMismatch(const std::string& host, const std::vector<Certificate>& peer) {
  if (peer.empty()) return "Hostname " + host + " not verified (no certificates)";
  const Certificate& leaf = peer.front();
  return "Hostname " + host + " not verified:\n    certificate: " + CertificatePinner::pin(leaf) +
         "\n    DN: " + leaf.subject() +
         "\n    subjectAltNames: " + listText(OkHostnameVerifier::allSubjectAltNames(leaf));
}

}  // namespace

// HTTP/2's and HTTP/3's codes (RFC 9113 §7, RFC 9114 §8.1) do not overlap: 0x7 and 0x8, 0x10b
// and 0x10c.
bool isRefusedStream(const StreamResetException& e) {
  return e.errorCode() == static_cast<uint32_t>(ErrorCode::REFUSED_STREAM) ||
         e.errorCode() == static_cast<uint32_t>(Http3ErrorCode::H3_REQUEST_REJECTED);
}

bool isCanceledStream(const StreamResetException& e) {
  return e.errorCode() == static_cast<uint32_t>(ErrorCode::CANCEL) ||
         e.errorCode() == static_cast<uint32_t>(Http3ErrorCode::H3_REQUEST_CANCELLED);
}

RealConnection::RealConnection(RealConnectionPool& pool, Route route)
    : pool_(pool),
      route_(std::move(route)),
      socket_(std::make_unique<Socket>()),
      idleAtNanos_(pool.nanoTime()) {}

RealConnection::RealConnection(RealConnectionPool& pool, Route route, OverQuic)
    : pool_(pool),
      route_(std::move(route)),
      socket_(std::make_unique<Socket>()),
      protocol_(Protocol::HTTP_3),
      idleAtNanos_(pool.nanoTime()) {
  const Address& address = route_.address();
  if (!address.sslContext() || !route_.proxy().isDirect()) {
    throw std::invalid_argument("RealConnection: HTTP/3 needs https with no proxy");
  }
  const HttpUrl& url = address.url();
  // The alternative must prove it is the origin: its chain is checked for the origin's host
  // (RFC 7838 §2.1), as a TLS handshake over TCP would check it.
  auto verify = [this](const std::vector<Certificate>& chain) {
    const Address& address = route_.address();
    const HttpUrl& url = address.url();
    address.sslContext()->verifyServerChain(chain, url.host(),
                                            url.host() + ":" + std::to_string(url.port()));
    quicPeerCertificates_ = authenticatePeer(address, chain);
  };
  http3Connection_ =
      std::make_unique<Http3Connection>(url.host(), route_.socketAddress(), std::move(verify),
                                        static_cast<Http3Connection::Listener&>(*this));
}

RealConnection::~RealConnection() = default;

void RealConnection::connect(std::chrono::milliseconds connectTimeout,
                             ConnectionSpecSelector& specSelector,
                             const ConnectionSettings& settings, ConnectionUser& user) {
  connectSocket(connectTimeout);
  connectTlsEtc(connectTimeout, specSelector, settings, user);
}

void RealConnection::connectSocket(std::chrono::milliseconds connectTimeout) {
  if (!http3Connection_) {
    socket_->connect(route_.socketAddress(), connectTimeout);
    return;
  }
  if (canceled_) throw InterruptedIOException("Canceled");
  try {
    http3Connection_->connect(connectTimeout);
  } catch (...) {
    // cancel() closed the connection under the handshake: what failed is the race it lost.
    if (canceled_) throw InterruptedIOException("Canceled");
    throw;
  }
  Handshake quic = http3Connection_->handshake();
  handshake_.emplace(quic.tlsVersion(), quic.cipherSuite(), quicPeerCertificates_,
                     std::vector<Certificate>{});
  MutexLock lock(pool_.mutex());
  allocationLimit_ = http3Connection_->maxConcurrentStreams();
}

void RealConnection::setTunnelRequest(Request request, int attempt) {
  tunnelRequest_ = std::move(request);
  tunnelAttempt_ = attempt;
}

void RealConnection::connectTlsEtc(std::chrono::milliseconds connectTimeout,
                                   ConnectionSpecSelector& specSelector,
                                   const ConnectionSettings& settings, ConnectionUser& user) {
  if (http3Connection_) {
    // The QUIC handshake (TLS 1.3 inside it) ran in connectSocket(), off this thread when
    // connects race; its events are reported here, after the fact, in the order TCP's come.
    user.secureConnectStart();
    user.secureConnectEnd(&*handshake_);
    return;
  }
  const Proxy& proxy = route_.proxy();
  if (proxy.type() == Proxy::Type::SOCKS) connectSocks(connectTimeout);
  if (proxy.type() == Proxy::Type::HTTPS) connectProxyTls(connectTimeout);
  if (route_.requiresTunnel()) createTunnel(rawSource(), rawSink(), connectTimeout);
  if (route_.address().sslContext()) {
    user.secureConnectStart();
    connectTls(connectTimeout, specSelector);  // Sets protocol_ to what ALPN chose.
    user.secureConnectEnd(&*handshake_);
  } else {
    const std::vector<Protocol>& protocols = route_.address().protocols();
    if (protocols.size() == 1 && protocols[0] == Protocol::H2_PRIOR_KNOWLEDGE) {
      protocol_ = Protocol::H2_PRIOR_KNOWLEDGE;
    }
  }
  Source* source = &rawSource();
  Sink* sink = &rawSink();
  if (protocol_ == Protocol::HTTP_2 || protocol_ == Protocol::H2_PRIOR_KNOWLEDGE) {
    const std::chrono::milliseconds writeTimeout = settings.http2WriteTimeout;
    const std::chrono::milliseconds pingInterval = settings.pingInterval;
    // The reader thread waits for frames without a timeout (streams time out on their own);
    // a write that the peer does not take for writeTimeout fails the connection.
    source->timeout().timeout(std::chrono::milliseconds(0));
    sink->timeout().timeout(writeTimeout);
    const HttpUrl& url = route_.address().url();
    auto http2 = std::make_unique<Http2Connection>(
        *source, *sink, [socket = socket_.get()] { socket->cancel(); },
        static_cast<Http2Connection::Listener&>(*this), pool_.taskRunner(),
        url.host() + ":" + std::to_string(url.port()), pingInterval);
    http2->start();
    http2Connection_ = std::move(http2);
    MutexLock lock(pool_.mutex());
    allocationLimit_ = http2Connection_->maxConcurrentStreams();
    return;
  }
  source_ = buffer(*source);
  sink_ = buffer(*sink);
}

void RealConnection::connectProxyTls(std::chrono::milliseconds connectTimeout) {
  const Proxy& proxy = route_.proxy();
  const std::shared_ptr<TlsContext>& context = AddressAccess::proxySslContext(route_.address());
  if (!context) throw UnknownServiceException("no TLS settings for " + proxy.toString());
  // HTTP/1.1 only: CONNECT and absolute-form requests are HTTP/1.1's (curl offers the same).
  UniqueSsl ssl = context->newSsl(proxy.host(), proxy.port(), {"http/1.1"});
  proxyTransport_ = std::make_unique<SocketTlsTransport>(*socket_);
  proxyTls_ = std::make_unique<TlsSocket>(*proxyTransport_, std::move(ssl));
  proxyTls_->handshake(connectTimeout);
  std::vector<Certificate> peer = peerCertificates(proxyTls_->ssl());
  if (!context->isInsecure(proxy.host()) &&
      !OkHostnameVerifier::instance()->verify(proxy.host(), peer)) {
    context->sessionCache().remove(TlsContext::sessionKey(proxy.host(), proxy.port()));
    throw SSLPeerUnverifiedException(hostnameMismatch(proxy.host(), peer) + " (the proxy " +
                                     proxy.toString() + ")");
  }
}

Source& RealConnection::rawSource() noexcept {
  if (tlsSocket_) return tlsSocket_->source();
  if (proxyTls_) return proxyTls_->source();
  return socket_->source();
}

Sink& RealConnection::rawSink() noexcept {
  if (tlsSocket_) return tlsSocket_->sink();
  if (proxyTls_) return proxyTls_->sink();
  return socket_->sink();
}

void RealConnection::connectSocks(std::chrono::milliseconds connectTimeout) {
  const Proxy& proxy = route_.proxy();
  // The origin, or where a connect-to rule sends it.
  auto [target, port] = route_.address().connectTarget();
  if (!proxy.remoteDns() && !InetAddress::parse(target)) {
    // socks5://: the client resolves the origin and sends the proxy its address.
    std::vector<InetAddress> addresses = route_.address().dns()->lookup(target);
    if (addresses.empty()) throw UnknownHostException("Dns returned no addresses for " + target);
    target = addresses.front().hostAddress();
  }
  socket_->source().timeout().timeout(connectTimeout);
  socket_->sink().timeout().timeout(connectTimeout);
  socks5Connect(socket_->source(), socket_->sink(), proxy, target, port);
}

Request RealConnection::makeTunnelRequest() const {
  const Address& address = route_.address();
  const Proxy& proxy = route_.proxy();
  Request::Builder builder;
  builder.url(address.url())
      .method("CONNECT", nullptr)
      .header("Host", authority(address))
      .header("Proxy-Connection", "Keep-Alive")  // For HTTP/1.0 proxies.
      .header("User-Agent", userAgent());
  if (proxy.hasCredentials()) {
    builder.header("Proxy-Authorization", Credentials::basic(proxy.username(), proxy.password()));
    return builder.build();
  }
  Request request = builder.build();
  // The proxy authenticator may add credentials before the proxy asks, as OkHttp's: it sees a
  // made-up 407 whose challenge is "OkHttp-Preemptive".
  Response fakeAuthChallenge = Response::Builder()
                                   .request(request)
                                   .protocol(Protocol::HTTP_1_1)
                                   .code(407)
                                   .message("Preemptive Authenticate")
                                   .header("Proxy-Authenticate", "OkHttp-Preemptive")
                                   .build();
  std::optional<Request> authenticated =
      address.proxyAuthenticator()->authenticate(&route_, fakeAuthChallenge);
  return authenticated ? *authenticated : request;
}

void RealConnection::createTunnel(Source& source, Sink& sink,
                                  std::chrono::milliseconds connectTimeout) {
  // At most this many CONNECTs, as OkHttp's MAX_TUNNEL_ATTEMPTS: an authenticator that keeps
  // answering must not loop forever.
  constexpr int kMaxTunnelAttempts = 21;
  const Address& address = route_.address();
  const std::string target = authority(address);
  const std::string where = " (" + route_.proxy().toString() + " to " + target + ")";
  Request request = tunnelRequest_ ? *tunnelRequest_ : makeTunnelRequest();
  source.timeout().timeout(connectTimeout);
  sink.timeout().timeout(connectTimeout);
  // Buffered for the CONNECT exchange only: a proxy says nothing after its 2xx until the
  // client speaks, so nothing of the tunnel's is read here (checked below).
  std::unique_ptr<BufferedSource> bufferedSource = buffer(source);
  std::unique_ptr<BufferedSink> bufferedSink = buffer(sink);
  // The CONNECT exchange's framing says nothing of the tunnel's future (a proxy's "HTTP/1.0 200"
  // would otherwise end reuse of the connection): a failure throws, ending the connect.
  struct TunnelCarrier final : ExchangeCodec::Carrier {
    explicit TunnelCarrier(Socket& socket) : socket(socket) {}
    void noNewExchanges() override {}
    void cancel() override { socket.cancel(); }
    Socket& socket;
  } tunnelCarrier(*socket_);
  for (int attempt = tunnelAttempt_ + 1;; ++attempt) {
    if (attempt > kMaxTunnelAttempts) {
      throw ProtocolException(
          "Too many tunnel connections attempted: " + std::to_string(kMaxTunnelAttempts) + where);
    }
    Http1ExchangeCodec codec(tunnelCarrier, *bufferedSource, *bufferedSink);
    codec.writeRequest(request.headers(), "CONNECT " + target + " HTTP/1.1", "CONNECT" + where);
    codec.flushRequest();
    std::optional<Response::Builder> head = codec.readResponseHeaders(false);
    Response response = head->request(request).build();
    codec.skipConnectBody(response);
    const int code = response.code();
    if (code >= 200 && code < 300) {
      if (bufferedSource->buffer().size() > 0) {
        throw IOException("TLS tunnel buffered too many bytes!" + where);
      }
      return;
    }
    if (code != 407) {
      throw ProxyException("Unexpected response code for CONNECT: " + std::to_string(code) + where,
                           code);
    }
    std::optional<Request> next = address.proxyAuthenticator()->authenticate(&route_, response);
    if (!next) throw ProxyException("Failed to authenticate with proxy" + where, 407);
    // The next CONNECT may share this connection only if the 407's body was framed and read
    // (skipConnectBody reads a Content-Length body) and the proxy keeps the connection open.
    const bool reusable = response.protocol() == Protocol::HTTP_1_1 &&
                          !hasToken(response.headers(), "Connection", "close") &&
                          contentLength(response.headers()) != -1;
    if (!reusable) {
      throw TunnelRetry{std::move(*next), attempt};  // A new connection, then this request.
    }
    request = std::move(*next);
  }
}

std::vector<Certificate> authenticatePeer(const Address& address,
                                          const std::vector<Certificate>& peer) {
  const TlsContext& context = *address.sslContext();
  const std::string& host = address.url().host();
  const std::string sessionKey = TlsContext::sessionKey(host, address.url().port());
  if (!address.hostnameVerifier()->verify(host, peer)) {
    context.sessionCache().remove(sessionKey);  // A resumed session must not skip this check.
    throw SSLPeerUnverifiedException(hostnameMismatch(host, peer));
  }
  const CertificatePinner& pinner = *address.certificatePinner();
  if (!pinner.findMatchingPins(host).empty()) {
    try {
      std::vector<Certificate> cleaned = context.chainCleaner().clean(peer, host);
      pinner.check(host, cleaned);
      return cleaned;
    } catch (const SSLPeerUnverifiedException&) {
      context.sessionCache().remove(sessionKey);
      throw;
    }
  }
  // For Handshake::peerCertificates(): the verified path when it can be rebuilt, else the chain
  // as sent (an insecure client's server may be anyone).
  try {
    return peer.empty() ? peer : context.chainCleaner().clean(peer, host);
  } catch (const SSLPeerUnverifiedException&) {
    return peer;
  }
}

void RealConnection::connectTls(std::chrono::milliseconds connectTimeout,
                                ConnectionSpecSelector& specSelector) {
  const Address& address = route_.address();
  const TlsContext& context = *address.sslContext();
  const std::string& host = address.url().host();
  const int port = address.url().port();

  UniqueSsl ssl = context.newSsl(host, port, alpnProtocols(address.protocols()));
  specSelector.configureSecureSocket(ssl.get());
  if (proxyTls_) {
    transport_ = std::make_unique<StreamTlsTransport>(
        proxyTls_->source(), proxyTls_->sink(), *proxyTransport_,
        authority(address) + " through " + route_.proxy().toString());
  } else {
    transport_ = std::make_unique<SocketTlsTransport>(*socket_);
  }
  tlsSocket_ = std::make_unique<TlsSocket>(*transport_, std::move(ssl));
  tlsSocket_->handshake(connectTimeout);

  // The chain verified; now whether it names this host, and whether it holds a pinned key.
  SSL* connected = tlsSocket_->ssl();
  std::vector<Certificate> cleaned = authenticatePeer(address, peerCertificates(connected));

  const char* version = SSL_get_version(connected);
  const char* cipher = SSL_CIPHER_standard_name(SSL_get_current_cipher(connected));
  handshake_.emplace(tlsVersionForJavaName(version), CipherSuite::forJavaName(cipher),
                     std::move(cleaned), localCertificates(connected));
  std::optional<std::string> alpn = tlsSocket_->selectedAlpnProtocol();
  protocol_ = alpn && *alpn == "h2" ? Protocol::HTTP_2 : Protocol::HTTP_1_1;
}

std::unique_ptr<ExchangeCodec> RealConnection::newCodec(std::chrono::milliseconds readTimeout,
                                                        std::chrono::milliseconds writeTimeout) {
  if (http3Connection_) {
    return std::make_unique<Http3ExchangeCodec>(*this, *http3Connection_, protocol_, readTimeout,
                                                writeTimeout);
  }
  if (http2Connection_) {
    return std::make_unique<Http2ExchangeCodec>(*this, *http2Connection_, protocol_, readTimeout,
                                                writeTimeout);
  }
  rawSource().timeout().timeout(readTimeout);
  rawSink().timeout().timeout(writeTimeout);
  // Through an HTTP proxy without a tunnel, requests name the whole URL, and carry the proxy's
  // credentials if it has them (curl's -x http://user:pass@host; a 407 asks the proxy
  // authenticator instead).
  const Proxy& proxy = route_.proxy();
  const bool usesHttpProxy =
      (proxy.type() == Proxy::Type::HTTP || proxy.type() == Proxy::Type::HTTPS) &&
      !route_.requiresTunnel();
  std::string proxyAuthorization;
  if (usesHttpProxy && proxy.hasCredentials()) {
    proxyAuthorization = Credentials::basic(proxy.username(), proxy.password());
  }
  return std::make_unique<Http1ExchangeCodec>(*this, *source_, *sink_, usesHttpProxy,
                                              std::move(proxyAuthorization));
}

void RealConnection::assertPoolLockHeld(const RealConnectionPool& pool) const {
  assert(&pool == &pool_);
  (void)pool;
}

bool RealConnection::isEligibleLocked(const Address& address,
                                      const std::vector<Route>* routes) const {
  if (static_cast<int>(calls_.size()) >= allocationLimit_ || noNewExchanges_) return false;
  // Everything but the host must match: the same client settings, scheme and port.
  const Address& own = route_.address();
  if (!own.equalsNonHost(address)) return false;
  if (http3Connection_) {
    // Address equality leaves HTTP/3 out (so it does not split TCP pools): an HTTP/3 connection
    // serves only calls that may use HTTP/3, to its own origin (no coalescing over QUIC yet).
    const std::vector<Protocol>& protocols = address.protocols();
    return std::find(protocols.begin(), protocols.end(), Protocol::HTTP_3) != protocols.end() &&
           address.url().host() == own.url().host();
  }
  if (address.url().host() == own.url().host()) return true;

  // Another host: only by coalescing an HTTP/2 connection (RFC 9113 §9.1.1), whose server has
  // proved with its certificate that it is authoritative for the host, at an IP address that the
  // host resolves to.
  if (!http2Connection_ || !handshake_) return false;
  if (!routes || !routeMatchesAny(*routes)) return false;
  if (address.hostnameVerifier() != OkHostnameVerifier::instance()) return false;
  if (!supportsUrlLocked(address.url())) return false;
  try {
    address.certificatePinner()->check(address.url().host(), handshake_->peerCertificates());
  } catch (const SSLPeerUnverifiedException&) {
    return false;  // Pinned to other keys: a connection of its own checks them and fails.
  }
  return true;
}

bool RealConnection::routeMatchesAny(const std::vector<Route>& routes) const {
  // Only direct routes say where the origin server is: behind a proxy nothing is coalesced.
  if (!route_.proxy().isDirect()) return false;
  return std::any_of(routes.begin(), routes.end(), [&](const Route& candidate) {
    return candidate.proxy().isDirect() && candidate.socketAddress() == route_.socketAddress();
  });
}

bool RealConnection::supportsUrlLocked(const HttpUrl& url) const {
  const HttpUrl& routeUrl = route_.address().url();
  if (url.port() != routeUrl.port()) return false;
  if (url.host() == routeUrl.host()) return true;
  if (noCoalescedConnections_ || !handshake_) return false;
  const std::vector<Certificate>& peer = handshake_->peerCertificates();
  return !peer.empty() && OkHostnameVerifier::instance()->verify(url.host(), peer.front());
}

void RealConnection::noCoalescedConnections() {
  MutexLock lock(pool_.mutex());
  noCoalescedConnections_ = true;
}

void RealConnection::onSettings(int maxConcurrentStreams) {
  MutexLock lock(pool_.mutex());
  allocationLimit_ = maxConcurrentStreams;
  pool_.allocationLimitChangedLocked(*this);  // An address policy may need another connection.
}

void RealConnection::onShutdown() {
  MutexLock lock(pool_.mutex());
  noNewExchanges_ = true;
  pool_.connectionShutDownLocked(*this);
}

bool RealConnection::isHealthy(bool doExtensiveChecks) {
  // QUIC knows its own health: shut down, failed, or closed after its idle timeout.
  if (http3Connection_) return !canceled_ && http3Connection_->isHealthy();
  if (!socket_->isHealthy(false)) return false;
  // HTTP/2 knows its own health: shut down, or a ping after a read timeout went unanswered.
  if (http2Connection_) return http2Connection_->isHealthy();
  std::chrono::nanoseconds idleAt;
  {
    MutexLock lock(pool_.mutex());
    idleAt = idleAtNanos_;
  }
  // A connection idle a while may have been closed by the server; a request that must not be
  // sent twice cannot risk finding out by failing. Both pay for one non-blocking peek (through
  // TLS, so that a close_notify waiting to be read counts as closed).
  bool idleLong = pool_.nanoTime() - idleAt >= kIdleConnectionHealthy;
  if (!doExtensiveChecks && !idleLong) return true;
  if (proxyTls_ && !proxyTls_->isPeerOpen()) return false;
  if (tlsSocket_) return tlsSocket_->isPeerOpen();
  if (proxyTls_) return true;
  return socket_->isHealthy(true);
}

std::exception_ptr RealConnection::failure() {
  if (http3Connection_) return http3Connection_->failure();
  return http2Connection_ ? http2Connection_->failure() : nullptr;
}

bool RealConnection::hasUnclaimedInput() const noexcept {
  return source_ && source_->buffer().size() > 0;
}

void RealConnection::noNewExchanges() {
  MutexLock lock(pool_.mutex());
  noNewExchanges_ = true;
}

void RealConnection::cancel() {
  if (http3Connection_) {
    canceled_ = true;
    http3Connection_->cancel();  // Breaks a handshake in progress and every stream; no waiting.
    return;
  }
  socket_->cancel();
}

void RealConnection::trackFailure(const IOException& e, bool userCanceled,
                                  RouteDatabase& routeDatabase) {
  MutexLock lock(pool_.mutex());
  if (http2Connection_ || http3Connection_) {
    // A failed stream leaves the connection to the others, as OkHttp's trackFailure: except a
    // second REFUSED_STREAM, a reset other than the caller's own cancel, or a shut down
    // connection. A stream over a lowered limit is just that call's bad luck.
    if (const auto* reset = dynamic_cast<const StreamResetException*>(&e)) {
      if (isRefusedStream(*reset)) {
        if (++refusedStreamCount_ <= 1) return;
      } else if (isCanceledStream(*reset) && userCanceled) {
        return;
      }
    } else if (const auto* shutdown = dynamic_cast<const ConnectionShutdownException*>(&e)) {
      if (shutdown->atStreamLimit()) return;
    } else {
      return;  // A timeout or a broken body: the stream's problem, not the connection's.
    }
  }
  noNewExchanges_ = true;
  // A route that never completed an exchange is suspect: try the others first next time.
  if (successCount_ == 0) {
    routeDatabase.failed(route_);
    ++routeFailureCount_;
  }
}

void RealConnection::closeSocket() noexcept {
  if (http3Connection_) {
    http3Connection_->close();  // CONNECTION_CLOSE, then its reader thread ends.
    return;
  }
  if (http2Connection_) http2Connection_->close();  // Joins its reader before the socket closes.
  // A close_notify first, so the server sees a clean end, and OpenSSL keeps the TLS session for
  // resumption (it forgets sessions of connections that end without one).
  if (tlsSocket_ && !socket_->isCanceled()) tlsSocket_->sendCloseNotify();
  if (proxyTls_ && !socket_->isCanceled()) proxyTls_->sendCloseNotify();
  socket_->close();
}

InetSocketAddress RealConnection::localAddress() const {
  if (http3Connection_) return http3Connection_->localAddress();
  return socket_->localAddress();
}

}  // namespace tern::internal
