// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <functional>
#include <memory>

#include "tern/call.h"
#include "tern/connection.h"
#include "tern/export.h"
#include "tern/request.h"
#include "tern/response.h"

namespace tern {

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
};

}  // namespace tern
