// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <functional>
#include <memory>

#include "tern/call.h"
#include "tern/certificate_pinner.h"
#include "tern/connection.h"
#include "tern/export.h"
#include "tern/proxy.h"
#include "tern/request.h"
#include "tern/response.h"
#include "tern/retry_policy.h"

namespace tern {

class Authenticator;
class Cache;
class Client;
class ConnectionPool;
class CookieJar;
class Dns;
class Hsts;
class HostnameVerifier;
class ProxySelector;
namespace tls {
class HandshakeCertificates;
}

// Observes, modifies and may short-circuit the requests a call makes and the responses that come
// back, as OkHttp's Interceptor. Interceptors form a chain; each calls chain.proceed(request) to
// hand the request to the next one (and finally to the network) and returns a response.
//
// Two kinds, registered on Client::Builder:
//  - application interceptors (addInterceptor) run once per call, before retries, redirects and
//    the connection: they see the caller's request and the final response, may call proceed()
//    any number of times (zero to short-circuit with a made-up response, several to retry), and
//    chain.connection() is null;
//  - network interceptors (addNetworkInterceptor) run once per network exchange, on an open
//    connection: they see the request as sent (with Host, Cookie, Accept-Encoding...), must call
//    proceed() exactly once, must keep the URL's host and port, and chain.connection() is set.
//
// intercept() runs on the thread that runs the call (the caller's for Call::execute(), a
// dispatcher thread for Call::enqueue()), so implementations shared by concurrent calls must be
// thread-safe. Throwing IOException fails the call with it; throwing anything else fails it
// too (an enqueued call reports IOException("canceled due to ...")).
class TERN_API Interceptor {
 public:
  class Chain;

  virtual ~Interceptor() = default;

  // Returns the response to chain.request(), usually by calling chain.proceed().
  virtual Response intercept(Chain& chain) = 0;

  // An interceptor that calls `intercept`:
  //   Interceptor::of([](Interceptor::Chain& chain) { return chain.proceed(chain.request()); })
  static std::shared_ptr<Interceptor> of(std::function<Response(Chain& chain)> intercept);
};

// An interceptor's view of the call in progress, as OkHttp's Interceptor.Chain. Valid only during
// the intercept() it was given to (or while a chain derived from it with a with*Timeout() method
// runs); not thread-safe.
class TERN_API Interceptor::Chain {
 public:
  virtual ~Chain() = default;

  // The request as this interceptor received it.
  virtual const Request& request() const = 0;

  // Passes `request` to the next interceptor and returns its response. Throws IOException on a
  // network failure, and std::logic_error when a network interceptor breaks its contract
  // ("network interceptor ... must call proceed() exactly once", "... must retain the same host
  // and port").
  virtual Response proceed(const Request& request) = 0;

  // The connection the request will be sent on: null in application interceptors, the open
  // connection in network interceptors. Valid during intercept().
  virtual Connection* connection() const = 0;

  // The call this chain belongs to.
  virtual Call& call() const = 0;

  // The timeouts the rest of the chain uses, in milliseconds (0: none). They start as the
  // client's and change only through the with*Timeout() methods.
  virtual int connectTimeoutMillis() const = 0;
  virtual int readTimeoutMillis() const = 0;
  virtual int writeTimeoutMillis() const = 0;

  // A copy of this chain whose later links use another timeout; proceed() on it instead of on
  // this chain. Application interceptors only: a network interceptor's connection is already
  // made, so these throw std::logic_error("Timeouts can't be adjusted in a network
  // interceptor"). Throw std::invalid_argument for a negative timeout or one under 1 ms.
  //   return chain.withReadTimeout(std::chrono::seconds(1))->proceed(chain.request());
  virtual std::unique_ptr<Chain> withConnectTimeout(std::chrono::nanoseconds timeout) = 0;
  virtual std::unique_ptr<Chain> withReadTimeout(std::chrono::nanoseconds timeout) = 0;
  virtual std::unique_ptr<Chain> withWriteTimeout(std::chrono::nanoseconds timeout) = 0;

  // The client whose settings the rest of this chain uses: the call's, with the with*()
  // overrides below made so far (OkHttp 5's chain.dns, chain.cookieJar, ...).
  virtual const Client& client() const = 0;

  // Per-call overrides, as OkHttp 5.4's: a copy of this chain whose later links use another
  // setting, for this call only — its retries, redirects and follow-ups, the cookies it sends and
  // keeps, and the connections it makes. proceed() on the copy instead of on this chain:
  //   return chain.withDns(testDns)->withCookieJar(sessionJar)->proceed(chain.request());
  // A call whose overrides change how it connects (DNS, TLS trust, pins, hostname verification,
  // proxies, the proxy authenticator) never shares a connection with calls made otherwise;
  // clients' connections are told apart as different clients' are. Application interceptors
  // only: in a network interceptor the connection is made and the request on its way, so these
  // throw std::logic_error("... can't be overridden in a network interceptor"). Each throws
  // std::invalid_argument for a null pointer, as Client::Builder's setter does.
  std::unique_ptr<Chain> withDns(std::shared_ptr<Dns> dns);
  std::unique_ptr<Chain> withCookieJar(std::shared_ptr<CookieJar> cookieJar);
  std::unique_ptr<Chain> withAuthenticator(std::shared_ptr<Authenticator> authenticator);
  std::unique_ptr<Chain> withProxyAuthenticator(std::shared_ptr<Authenticator> authenticator);
  std::unique_ptr<Chain> withCertificatePinner(CertificatePinner certificatePinner);
  std::unique_ptr<Chain> withHostnameVerifier(std::shared_ptr<HostnameVerifier> hostnameVerifier);
  // Whom https connections trust and the client certificate they show (as
  // Client::Builder::handshakeCertificates(): a TLS context of the call's own).
  std::unique_ptr<Chain> withHandshakeCertificates(const tls::HandshakeCertificates& certificates);
  std::unique_ptr<Chain> withRetryOnConnectionFailure(bool retryOnConnectionFailure);
  // The pool the call takes its connections from and returns them to.
  std::unique_ptr<Chain> withConnectionPool(std::shared_ptr<ConnectionPool> connectionPool);
  std::unique_ptr<Chain> withRetryPolicy(RetryPolicy retryPolicy);
  std::unique_ptr<Chain> withProxy(Proxy proxy);
  std::unique_ptr<Chain> withProxySelector(std::shared_ptr<ProxySelector> proxySelector);
  // Null: no cache for this call.
  std::unique_ptr<Chain> withCache(std::shared_ptr<Cache> cache);
  std::unique_ptr<Chain> withHsts(std::shared_ptr<Hsts> hsts);

 protected:
  // The override behind each with*() above: a copy of this chain whose later links use the
  // client `derive` makes of this chain's client(). `what` names the setting for the network
  // interceptor's std::logic_error.
  virtual std::unique_ptr<Chain> withClient(const std::function<Client(const Client&)>& derive,
                                            const char* what) = 0;
};

}  // namespace tern
