// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tern/address.h"
#include "tern/authenticator.h"
#include "tern/cache.h"
#include "tern/call.h"
#include "tern/certificate_pinner.h"
#include "tern/connection_pool.h"
#include "tern/connection_spec.h"
#include "tern/cookie_jar.h"
#include "tern/dispatcher.h"
#include "tern/dns.h"
#include "tern/event_listener.h"
#include "tern/export.h"
#include "tern/hostname_verifier.h"
#include "tern/hsts.h"
#include "tern/inet_address.h"
#include "tern/interceptor.h"
#include "tern/protocol.h"
#include "tern/proxy.h"
#include "tern/proxy_selector.h"
#include "tern/request.h"
#include "tern/retry_policy.h"
#include "tern/tls/handshake_certificates.h"

namespace tern::internal {
class AltSvcCache;
class AltSvcStore;
struct QuicHint;
class RouteDatabase;
class TlsContext;
struct ClientAccess;
}  // namespace tern::internal

namespace tern {

// Declared in tern/web_socket.h, which is built on calls (include it to use newWebSocket()).
class WebSocket;
class WebSocketListener;

// An HTTP client, as OkHttp's OkHttpClient: the factory for calls and the owner of what they
// share (a connection pool, a dispatcher for asynchronous calls, settings and interceptors).
//
//   tern::Client client;
//   auto response = client.newCall(Request::Builder().url("http://example.com/").build())
//                       ->execute();
//   std::string text = response.body()->string();
//
// A cheap handle: copies share everything, and newBuilder() makes a client with changed settings
// that still shares the connection pool and dispatcher (so keep one client, and derive the
// variations). Immutable and thread-safe.
class TERN_API Client {
 public:
  class Builder;

  // A client with the defaults (see Builder), its own connection pool and dispatcher.
  Client();

  // A new call for `request`, ready to execute() or enqueue().
  std::shared_ptr<Call> newCall(Request request) const;

  // Opens a WebSocket to `request`'s URL (ws://, wss://, http:// or https://) and returns it at
  // once: the handshake runs on the dispatcher, and `listener` hears how it went (onOpen or
  // onFailure). The request is sent as a GET with the handshake's headers added (Upgrade,
  // Connection, Sec-WebSocket-Key, Sec-WebSocket-Version, and Sec-WebSocket-Extensions offering
  // permessage-deflate unless webSocketCompression(false)); offer subprotocols with the request's
  // own Sec-WebSocket-Protocol header. It goes over HTTP/1.1, or as an extended CONNECT stream
  // (RFC 8441) on a pooled HTTP/2 connection whose server allows it. See docs/websockets.md.
  // Throws std::invalid_argument if `listener` is null or the request already has a
  // Sec-WebSocket-Extensions, Sec-WebSocket-Key or Sec-WebSocket-Version header.
  std::shared_ptr<WebSocket> newWebSocket(Request request,
                                          std::shared_ptr<WebSocketListener> listener) const;

  // A builder holding this client's settings, sharing its pool, dispatcher, DNS, cookie jar and
  // interceptors.
  Builder newBuilder() const;

  // Ends the client in an orderly way, for every client that shares its dispatcher and pool (its
  // copies and newBuilder() clients): Dispatcher::shutdown() (new calls fail with
  // InterruptedIOException("client is shut down"); every queued and running call is canceled
  // and its callback runs exactly once; then the dispatcher's threads are joined), then
  // ConnectionPool::evictAll(), then it saves the Alt-Svc file if it changed (see
  // Builder::altSvcFile(); a failure is dropped). Once it returns, no callback of the client's
  // calls runs again, and no dispatcher thread is left. Idempotent and thread-safe. Called from
  // inside a call (a callback, an interceptor, an event listener) it cannot wait for that call:
  // it cancels, refuses new calls, evicts, and returns at once.
  //
  // Without it, dropping the last Client neither cancels nor waits: each queued or running call
  // keeps what it needs alive, runs to its end and gets its callback, as in OkHttp.
  void shutdown() const;

  std::chrono::milliseconds connectTimeout() const noexcept;
  std::chrono::milliseconds readTimeout() const noexcept;
  std::chrono::milliseconds writeTimeout() const noexcept;
  std::chrono::milliseconds callTimeout() const noexcept;
  std::chrono::milliseconds pingInterval() const noexcept;
  int connectTimeoutMillis() const noexcept { return static_cast<int>(connectTimeout().count()); }
  int readTimeoutMillis() const noexcept { return static_cast<int>(readTimeout().count()); }
  int writeTimeoutMillis() const noexcept { return static_cast<int>(writeTimeout().count()); }
  int callTimeoutMillis() const noexcept { return static_cast<int>(callTimeout().count()); }
  int pingIntervalMillis() const noexcept { return static_cast<int>(pingInterval().count()); }
  int64_t minWebSocketMessageToCompress() const noexcept;
  std::chrono::milliseconds webSocketCloseTimeout() const noexcept;
  int64_t maxWebSocketMessageSize() const noexcept;
  bool webSocketCompression() const noexcept;
  double maxDecompressionRatio() const noexcept;
  bool followRedirects() const noexcept;
  bool followSslRedirects() const noexcept;
  bool retryOnConnectionFailure() const noexcept;
  const RetryPolicy& retryPolicy() const noexcept;
  bool fastFallback() const noexcept;
  const std::vector<std::shared_ptr<Interceptor>>& interceptors() const noexcept;
  const std::vector<std::shared_ptr<Interceptor>>& networkInterceptors() const noexcept;
  const std::shared_ptr<Dispatcher>& dispatcher() const noexcept;
  const std::shared_ptr<ConnectionPool>& connectionPool() const noexcept;
  const std::shared_ptr<Dns>& dns() const noexcept;
  const std::shared_ptr<Authenticator>& authenticator() const noexcept;
  const std::shared_ptr<Authenticator>& proxyAuthenticator() const noexcept;
  const std::optional<Proxy>& proxy() const noexcept;
  const std::shared_ptr<ProxySelector>& proxySelector() const noexcept;
  const std::optional<InetSocketAddress>& unixSocket() const noexcept;
  const std::vector<ConnectTo>& connectTo() const noexcept;
  const std::shared_ptr<CookieJar>& cookieJar() const noexcept;
  const std::shared_ptr<Hsts>& hsts() const noexcept;
  const std::shared_ptr<Cache>& cache() const noexcept;
  const std::vector<Protocol>& protocols() const noexcept;
  const std::vector<ConnectionSpec>& connectionSpecs() const noexcept;
  const std::shared_ptr<HostnameVerifier>& hostnameVerifier() const noexcept;
  const CertificatePinner& certificatePinner() const noexcept;
  const std::shared_ptr<EventListener::Factory>& eventListenerFactory() const noexcept;

  // The Address this client's calls to `url`'s origin (scheme, host, port) connect to: what
  // ConnectionPool::setPolicy() takes, so a pool keeps connections warm for this client's calls
  // (and for any client whose address is equal: one made with newBuilder() keeps it unless it
  // changes the DNS, TLS, proxy or protocol settings).
  Address address(const HttpUrl& url) const;

 private:
  // The call layer reaches these through internal::ClientAccess (src/call/client_access.h).
  friend struct internal::ClientAccess;
  const std::shared_ptr<internal::TlsContext>& sslContext() const noexcept;
  const std::vector<std::shared_ptr<Interceptor>>& callInterceptors() const noexcept;
  internal::RouteDatabase& routeDatabase() const noexcept;
  internal::AltSvcStore& altSvcStore() const noexcept;
  // The store's cache when the client may use HTTP/3, else null (for the connection layer).
  std::shared_ptr<internal::AltSvcCache> altSvcCache() const;

  struct State;
  explicit Client(std::shared_ptr<const State> state) : state_(std::move(state)) {}
  std::shared_ptr<const State> state_;  // Never null.
};

// Configures a Client. Defaults: 10 s connect, read and write timeouts; no call timeout;
// redirects followed (also between http and https); retries on connection failure; no
// interceptors; the system DNS; no authenticators; no cookies; no event listener; HTTP/2 and
// HTTP/1.1 (HTTP/2 is used where TLS and ALPN offer it, so cleartext http URLs speak HTTP/1.1);
// no pings; connection specs [MODERN_TLS, CLEARTEXT]; for https the system's trusted roots
// (/etc/ssl/certs), no client certificate, OkHostnameVerifier and no pins; a new dispatcher,
// connection pool and TLS context (made by Builder(), so every client it builds shares them, and
// newBuilder() clients share pooled connections and TLS sessions). Setters return *this for
// chaining.
class TERN_API Client::Builder {
 public:
  Builder();

  // Each timeout is a duration of at least 1 ms, or zero for none. Throw std::invalid_argument
  // ("connectTimeout < 0", "connectTimeout too small") otherwise.
  //
  // How long to wait for a TCP connection to each address (10 s).
  Builder& connectTimeout(std::chrono::nanoseconds timeout);
  // How long each read of the response may wait for data (10 s).
  Builder& readTimeout(std::chrono::nanoseconds timeout);
  // How long each write of the request may wait for the peer to take data (10 s).
  Builder& writeTimeout(std::chrono::nanoseconds timeout);
  // How long a whole call may take, from start until its response body is read, across
  // redirects and retries (zero: no limit, the default).
  Builder& callTimeout(std::chrono::nanoseconds timeout);
  // How often each HTTP/2 connection pings its server (zero: never, the default). A connection
  // whose pong has not come back when the next ping is due has failed: its calls fail with
  // StreamResetException("stream was reset: PROTOCOL_ERROR"), as in OkHttp. (Independently, a
  // read timeout on an HTTP/2 stream sends a ping, and a connection whose pong does not come
  // within 1 s is not handed out again.)
  // It also sets how often each WebSocket pings its server: one whose pong has not come back
  // when the next ping is due fails with SocketTimeoutException.
  Builder& pingInterval(std::chrono::nanoseconds interval);

  // WebSockets. Messages shorter than `bytes` are sent uncompressed even when permessage-deflate
  // was agreed (1024 by default; 0 compresses every message). Throws std::invalid_argument if
  // negative.
  Builder& minWebSocketMessageToCompress(int64_t bytes);
  // How long a WebSocket waits for the server's close frame after sending its own before it
  // drops the connection (60 s). Throws like the timeouts above.
  Builder& webSocketCloseTimeout(std::chrono::nanoseconds timeout);
  // The largest message a WebSocket accepts, after decompression (16 MiB by default): a bigger
  // one closes the socket with 1009 and fails it. Throws std::invalid_argument if not positive.
  Builder& maxWebSocketMessageSize(int64_t bytes);
  // Whether WebSockets offer permessage-deflate (RFC 7692). True by default.
  Builder& webSocketCompression(bool enabled);

  // Response bodies the client decodes by itself (it sends "Accept-Encoding: br, zstd, gzip" when
  // the request has no Accept-Encoding or Range, and decodes whichever the server chose) stop
  // with a ContentDecodingException, an IOException, once the decoded bytes are at least 1 MiB
  // and more than `ratio` times the encoded bytes read so far: "decompressed body over 1000× its
  // compressed size (16 MiB from 16 KiB): refusing a possible decompression bomb". 1000 by
  // default (DEFLATE cannot exceed about 1032:1, so an honest gzip body never trips it; Brotli
  // and zstd can reach millions to one). 0: no limit. Bodies the caller asked an encoding for
  // itself are not decoded, so not limited. Throws std::invalid_argument if negative or NaN.
  Builder& maxDecompressionRatio(double ratio);

  // Whether to follow redirects (3xx with a Location). True by default.
  Builder& followRedirects(bool followRedirects);
  // Whether to follow redirects from http to https and back. True by default.
  Builder& followSslRedirects(bool followSslRedirects);
  // Whether to retry a request silently after a connection problem: a pooled connection that the
  // server had closed, an unreachable IP address when the host has others, a 408 or a 503 with
  // "Retry-After: 0". True by default. A request whose one-shot body was already sent is never
  // retried.
  Builder& retryOnConnectionFailure(bool retryOnConnectionFailure);
  // When a 429 or 503 is sent again after a wait (Retry-After, or backoff with jitter): see
  // RetryPolicy. Off by default.
  Builder& retryPolicy(RetryPolicy policy);
  // Whether to race connects to a host's IP addresses (RFC 8305 "Happy Eyeballs", as OkHttp's
  // fastFallback): the addresses alternate between IPv6 and IPv4 (starting with the family the
  // resolver put first), a new attempt starts every 250 ms while none has connected, and the
  // first TCP connection wins; the others are canceled and closed. Each attempt reports
  // connectStart and then connectEnd or connectFailed. True by default. With false, a call
  // connects to one address at a time, trying the next only after one fails.
  Builder& fastFallback(bool fastFallback);

  // Adds an application interceptor (see Interceptor). Throws std::invalid_argument if null.
  Builder& addInterceptor(std::shared_ptr<Interceptor> interceptor);
  Builder& addInterceptor(std::function<Response(Interceptor::Chain& chain)> intercept);
  // Adds a network interceptor (see Interceptor). Throws std::invalid_argument if null.
  Builder& addNetworkInterceptor(std::shared_ptr<Interceptor> interceptor);
  Builder& addNetworkInterceptor(std::function<Response(Interceptor::Chain& chain)> intercept);
  // The interceptors added so far, to inspect or edit.
  std::vector<std::shared_ptr<Interceptor>>& interceptors() noexcept { return interceptors_; }
  std::vector<std::shared_ptr<Interceptor>>& networkInterceptors() noexcept {
    return networkInterceptors_;
  }

  // Each of these throws std::invalid_argument if given null.
  Builder& dispatcher(std::shared_ptr<Dispatcher> dispatcher);
  Builder& connectionPool(std::shared_ptr<ConnectionPool> connectionPool);
  Builder& dns(std::shared_ptr<Dns> dns);
  // Answers 401 challenges from origin servers (Authenticator::none() by default).
  Builder& authenticator(std::shared_ptr<Authenticator> authenticator);
  // Answers 407 challenges from proxies (Authenticator::none() by default): to CONNECT, and to
  // requests sent through an HTTP proxy. Before each CONNECT it is also asked with a made-up 407
  // whose challenge is "OkHttp-Preemptive", so it can send credentials before being asked.
  Builder& proxyAuthenticator(std::shared_ptr<Authenticator> proxyAuthenticator);
  // The one proxy every call uses (Proxy::direct(): none), instead of the proxy selector's
  // choice, as OkHttp's proxy(). Unset by default. See docs/connections.md.
  Builder& proxy(Proxy proxy);
  // Chooses the proxies for each URL when no proxy() is set. By default
  // ProxySelector::fromEnvironment(), read when the Builder is made: http_proxy, https_proxy,
  // all_proxy and no_proxy, as curl reads them.
  Builder& proxySelector(std::shared_ptr<ProxySelector> proxySelector);
  // Every connection goes to the Unix domain socket at `path` (curl's --unix-socket), with no
  // proxy and no DNS; the URL still gives the request's Host, its scheme (https runs TLS over
  // the socket, checking the certificate for the URL's host) and what connections are pooled
  // for. Connect events carry InetSocketAddress::unixDomain(path). A connection that cannot be
  // made is a ConnectException ("Failed to connect to /run/app.sock: No such file or
  // directory"). "" (the default): TCP. Clients with different sockets never share a
  // connection. Throws std::invalid_argument if the path does not fit a sockaddr_un.
  Builder& unixSocket(std::string path);
  // The same for a Linux abstract socket name (curl's --abstract-unix-socket).
  Builder& abstractUnixSocket(std::string name);
  // Where direct connections go (curl's --connect-to, a rule list in its order; see ConnectTo):
  // a connection for the URL's host and port goes to the first matching rule's host and port,
  // looked up through dns(); the request's Host header, TLS's SNI and the certificate's check
  // stay the URL's, and the pool keeps such connections apart from other clients'. Through an
  // HTTP(S) proxy the connection is a CONNECT tunnel to the rule's target (for http:// URLs too),
  // through SOCKS5 the proxy is asked for it, as curl does. Not used with unixSocket(). Replaces
  // the rules
  // set before; none by default. Throws std::invalid_argument for a port outside 0..65535.
  Builder& connectTo(std::vector<ConnectTo> rules);
  // Stores cookies between calls (CookieJar::noCookies() by default).
  Builder& cookieJar(std::shared_ptr<CookieJar> cookieJar);
  // Keeps the hosts that asked for HTTPS only (Strict-Transport-Security, RFC 6797) and sends
  // http requests to them over https (see Hsts and docs/hsts.md). Null (the default): no HSTS.
  Builder& hsts(std::shared_ptr<Hsts> hsts);
  // Serves and stores responses with `cache` (see Cache and docs/cache.md); null (the default):
  // no cache. Clients may share one cache; newBuilder() clients keep it. A client that may use
  // HTTP/3 (protocols()) and has no altSvcFile() keeps its Alt-Svc cache in the file "alt-svc"
  // in the cache's directory (deleteCache() deletes it too).
  Builder& cache(std::shared_ptr<Cache> cache);
  // Keeps the alternative services that servers advertise (Alt-Svc, RFC 7838) in `file`, in
  // curl's --alt-svc format, so tern and curl can share one (see docs/http3.md). Recorded only
  // when protocols() include HTTP_3: from every response that came from the network over https
  // from a server whose certificate was verified (not an insecure host, RFC 7838 §2.1).
  // The file is loaded when the client is built (build() throws IOException naming it if it
  // exists and cannot be read; a missing file is an empty cache); it is saved, atomically, when
  // an alternative is learned or lost, on shutdown(), and when the last client using it is
  // destroyed. "" keeps them in memory only. Makes a new Alt-Svc cache, which the clients
  // built from this builder and their newBuilder() clients share; by default each Builder()
  // has one in memory.
  Builder& altSvcFile(std::filesystem::path file);
  // Tells the client, before any Alt-Svc, that the https origin at `host`:`port` also serves
  // HTTP/3 over QUIC at UDP `alternatePort` of the same host (Cronet's addQuicHint; curl's
  // --http3 is addQuicHint("*", 0, 0)). "*" matches every host, port 0 every port, and an
  // alternatePort of 0 is the origin's own port. When protocols() include HTTP_3, calls to a
  // hinted origin race QUIC against TCP from the first call, as for an alternative learned from
  // Alt-Svc (which takes precedence); a hint that fails is left alone for a while like one (see
  // docs/http3.md). Hints are not saved in the Alt-Svc file. Throws std::invalid_argument for an
  // empty host or a port outside 0–65535.
  Builder& addQuicHint(std::string host, int port, int alternatePort);

  // Hears every call's events (see EventListener): `eventListener` is shared by every call, so
  // it must be thread-safe; a factory makes one listener per call. Each replaces the other.
  // Throw std::invalid_argument if given null or an empty function.
  Builder& eventListener(std::shared_ptr<EventListener> eventListener);
  Builder& eventListenerFactory(std::shared_ptr<EventListener::Factory> eventListenerFactory);
  Builder& eventListenerFactory(std::function<std::shared_ptr<EventListener>(Call& call)> create);

  // The protocols to offer, in order of preference: {HTTP_2, HTTP_1_1} by default. Must include
  // HTTP_1_1 (the fallback when TLS does not negotiate h2), or be exactly {H2_PRIOR_KNOWLEDGE}
  // (cleartext HTTP/2 with no fallback, RFC 9113 §3.3); must not include HTTP_1_0; duplicates
  // are dropped. Throws std::invalid_argument naming the problem and the list.
  // HTTP_3 beside them means "may use HTTP/3 when an origin advertises it": the client records
  // the Alt-Svc fields (RFC 7838) of https responses from verified servers (see altSvcFile()),
  // and calls an origin with a fresh "h3" alternative (or a QUIC hint, addQuicHint()) over
  // QUIC, raced against TCP (docs/http3.md). It is never offered in TCP's ALPN, and a client
  // that adds it shares its TCP connections with one that does not. Exactly {HTTP_3} is HTTP/3
  // only (curl's --http3-only): every call goes over QUIC, to the origin's known alternative or
  // else the URL's own host and port, never over TCP; http URLs fail with
  // UnknownServiceException.
  Builder& protocols(std::vector<Protocol> protocols);

  // The connection specs to choose from, in order (see ConnectionSpec): https connections use
  // the first TLS spec OpenSSL can honour and fall back to the next one when a handshake fails
  // for a reason another offer may fix; http URLs need ConnectionSpec::CLEARTEXT in the list, or
  // calls to them fail with UnknownServiceException("CLEARTEXT communication not enabled for
  // client"). Default: {MODERN_TLS, CLEARTEXT}. Duplicates are dropped.
  Builder& connectionSpecs(std::vector<ConnectionSpec> connectionSpecs);

  // Decides whether a server's certificate is valid for the host asked for, after the chain was
  // verified. Default: OkHostnameVerifier::instance(). Throws std::invalid_argument if null.
  Builder& hostnameVerifier(std::shared_ptr<HostnameVerifier> hostnameVerifier);

  // Pins public keys for hosts (see CertificatePinner). Default: no pins.
  Builder& certificatePinner(CertificatePinner certificatePinner);

  // Whom https connections trust, and the client certificate they present for mutual TLS
  // (OkHttp's sslSocketFactory(factory, trustManager), built from okhttp-tls's
  // HandshakeCertificates). Replaces the system's trusted roots unless `certificates` adds them
  // (addPlatformTrustedCertificates()). Makes a new TLS context, so clients built after this do
  // not share connections or TLS sessions with ones built before. Throws std::invalid_argument if
  // the held certificate's key does not match it.
  Builder& handshakeCertificates(const tls::HandshakeCertificates& certificates);
  // Whom HTTPS proxies (Proxy::https()) are trusted through, and the client certificate shown to
  // them: curl's --proxy-cacert, --proxy-insecure (addInsecureHost) and --proxy-cert. By default
  // what https connections trust (handshakeCertificates(), or the system's roots).
  Builder& proxyHandshakeCertificates(const tls::HandshakeCertificates& certificates);

  // A client with these settings. The builder can be reused. Throws IOException if
  // altSvcFile() names a file that exists and cannot be read.
  Client build() const;

 private:
  friend class Client;
  friend struct internal::ClientAccess;

  std::chrono::milliseconds connectTimeout_{10'000};
  std::chrono::milliseconds readTimeout_{10'000};
  std::chrono::milliseconds writeTimeout_{10'000};
  std::chrono::milliseconds callTimeout_{0};
  std::chrono::milliseconds pingInterval_{0};
  int64_t minWebSocketMessageToCompress_ = 1024;
  std::chrono::milliseconds webSocketCloseTimeout_{60'000};
  int64_t maxWebSocketMessageSize_ = 16 * 1024 * 1024;
  bool webSocketCompression_ = true;
  double maxDecompressionRatio_ = 1000;
  bool followRedirects_ = true;
  bool followSslRedirects_ = true;
  bool retryOnConnectionFailure_ = true;
  RetryPolicy retryPolicy_;
  bool fastFallback_ = true;
  std::vector<std::shared_ptr<Interceptor>> interceptors_;
  std::vector<std::shared_ptr<Interceptor>> networkInterceptors_;
  std::shared_ptr<Dispatcher> dispatcher_;  // A new one per Builder(), shared by its clients.
  std::shared_ptr<ConnectionPool> connectionPool_;  // Likewise.
  std::shared_ptr<Dns> dns_;
  std::shared_ptr<Authenticator> authenticator_;
  std::shared_ptr<Authenticator> proxyAuthenticator_;
  std::optional<Proxy> proxy_;
  std::shared_ptr<ProxySelector> proxySelector_;
  std::optional<InetSocketAddress> unixSocket_;
  std::vector<ConnectTo> connectTo_;
  std::shared_ptr<CookieJar> cookieJar_;
  std::shared_ptr<Hsts> hsts_;  // Null: no HSTS.
  std::shared_ptr<Cache> cache_;
  std::vector<Protocol> protocols_;
  std::vector<ConnectionSpec> connectionSpecs_;
  std::shared_ptr<HostnameVerifier> hostnameVerifier_;
  CertificatePinner certificatePinner_;
  std::shared_ptr<internal::TlsContext> sslContext_;  // A new one per Builder(), like the pool.
  std::shared_ptr<internal::TlsContext> proxySslContext_;         // Null: sslContext_.
  std::shared_ptr<EventListener::Factory> eventListenerFactory_;  // none() as a factory.
  std::shared_ptr<internal::RouteDatabase> routeDatabase_;        // Shared by newBuilder() clients.
  std::shared_ptr<internal::AltSvcStore> altSvc_;                 // Likewise; never null.
  std::shared_ptr<const std::vector<internal::QuicHint>> quicHints_;  // Null: none.
};

}  // namespace tern
