// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tern/call.h"
#include "tern/connection.h"
#include "tern/dispatcher.h"
#include "tern/exceptions.h"
#include "tern/export.h"
#include "tern/http_url.h"
#include "tern/inet_address.h"
#include "tern/protocol.h"
#include "tern/request.h"
#include "tern/response.h"

namespace tern {

// The TLS handshake a connection made (tern/handshake.h: version, cipher suite, certificates).
class Handshake;

// Hears every step of a call, as OkHttp's EventListener: to measure how long DNS, connecting,
// TLS, waiting for the first byte and downloading take, to count bytes, or to log. Override the
// callbacks you need; every one has a no-op default. Install one on Client::Builder with
// eventListener() (one listener for every call) or eventListenerFactory() (a listener per call,
// which may then keep per-call state such as start times without locks).
//
// Events nest like this (each start is followed by its end, or by the matching failure):
//
//   callStart
//     dispatcherQueueStart, dispatcherQueueEnd     an enqueued call waiting for the Dispatcher
//     proxySelectStart, proxySelectEnd             once per route plan
//     dnsStart, dnsEnd                             once per host looked up (not for IP literals)
//     connectStart                                 once per address tried
//       secureConnectStart, secureConnectEnd       https only
//     connectEnd or connectFailed
//     connectionAcquired                           a new or pooled connection
//       requestHeadersStart, requestHeadersEnd
//       requestBodyStart, requestBodyEnd           requests with a body
//       requestFailed                              writing the request failed
//       responseHeadersStart, responseHeadersEnd
//       responseBodyStart, responseBodyEnd         when the body is read or closed
//       responseFailed                             reading the response failed
//       retryDecision                              after a failure: try again or not
//       followUpDecision                           after each response: redirect or not
//     connectionReleased
//   callEnd or callFailed                          exactly one of the two, always last
//
// A pooled connection skips proxy selection, DNS and connecting; redirects and retries repeat
// the inner events. With "Expect: 100-continue" the request body events come between the
// response header events. canceled comes once, at any point between callStart and the terminal
// event, and a canceled call that fails reports it before callFailed (a cancel() before the
// call starts is reported right after callStart).
//
// Threads: events for one call never overlap: tern delivers them one at a time, even when they
// come from several threads (the call's, the thread reading the body, the one calling cancel()).
// A listener shared by several calls (eventListener()) hears their events concurrently and must
// be thread-safe. Callbacks must be fast, must not throw (an exception is reported on stderr and
// dropped), must not block on the network, and must not run calls; Call::cancel() is allowed.
//
// Cost: with the default none() listener tern does no work and allocates nothing per event.
class TERN_API EventListener {
 public:
  class Factory;

  virtual ~EventListener() = default;

  // The call started: execute() or enqueue() was called. Once per call, always first.
  virtual void callStart(Call& /*call*/) {}

  // An enqueued call waits in the Dispatcher's queue (its limits are reached), and later leaves
  // it to run. Not reported for calls that run at once, nor for execute().
  virtual void dispatcherQueueStart(Call& /*call*/, Dispatcher& /*dispatcher*/) {}
  virtual void dispatcherQueueEnd(Call& /*call*/, Dispatcher& /*dispatcher*/) {}

  // Before and after choosing the proxies for `url` (scheme, host and port): `proxies` lists
  // them in the order they will be tried, as Proxy::toString() describes them ("DIRECT",
  // "HTTP @ proxy.example:3128", "SOCKS @ 127.0.0.1:1080"). Through a proxy, dnsStart/End are
  // for the proxy's host and connectStart/End for the proxy's address.
  virtual void proxySelectStart(Call& /*call*/, const HttpUrl& /*url*/) {}
  virtual void proxySelectEnd(Call& /*call*/, const HttpUrl& /*url*/,
                              const std::vector<std::string>& /*proxies*/) {}

  // Before and after the Dns looks up `domainName`. No dnsEnd if the lookup fails (callFailed
  // follows with the UnknownHostException).
  virtual void dnsStart(Call& /*call*/, const std::string& /*domainName*/) {}
  virtual void dnsEnd(Call& /*call*/, const std::string& /*domainName*/,
                      const std::vector<InetAddress>& /*inetAddressList*/) {}

  // Before connecting a socket to `inetSocketAddress`. Followed by connectEnd with the protocol
  // the connection speaks, or by connectFailed with the failure (which is not final if another
  // address or a retry follows). Once per address tried. With Client::Builder::unixSocket(),
  // `inetSocketAddress` is the socket (InetSocketAddress::unixDomain(): isUnixDomain(), its path
  // in toString()), and no proxy selection or DNS comes before.
  virtual void connectStart(Call& /*call*/, const InetSocketAddress& /*inetSocketAddress*/) {}

  // Before and after a successful TLS handshake, between connectStart and connectEnd, for
  // https; a failed handshake is followed by connectFailed instead of secureConnectEnd.
  // `handshake` describes what was negotiated; never null from tern (a pointer, so this header
  // needs no TLS types).
  virtual void secureConnectStart(Call& /*call*/) {}
  virtual void secureConnectEnd(Call& /*call*/, const Handshake* /*handshake*/) {}

  virtual void connectEnd(Call& /*call*/, const InetSocketAddress& /*inetSocketAddress*/,
                          std::optional<Protocol> /*protocol*/) {}
  virtual void connectFailed(Call& /*call*/, const InetSocketAddress& /*inetSocketAddress*/,
                             std::optional<Protocol> /*protocol*/, const IOException& /*ioe*/) {}

  // The call took a connection (a new one after connectEnd, or a pooled one), and later gave it
  // back (to the pool, or to be closed). `connection` is valid during the callback only.
  virtual void connectionAcquired(Call& /*call*/, Connection& /*connection*/) {}
  virtual void connectionReleased(Call& /*call*/, Connection& /*connection*/) {}

  // Before and after writing the request line and headers; `request` is what was sent (with
  // Host, Accept-Encoding, cookies...). Do not read its body.
  virtual void requestHeadersStart(Call& /*call*/) {}
  virtual void requestHeadersEnd(Call& /*call*/, const Request& /*request*/) {}

  // Before and after writing a request body; `byteCount` is how many body bytes were sent.
  virtual void requestBodyStart(Call& /*call*/) {}
  virtual void requestBodyEnd(Call& /*call*/, int64_t /*byteCount*/) {}

  // Writing the request failed (after requestHeadersStart or requestBodyStart). Not final if
  // the call retries.
  virtual void requestFailed(Call& /*call*/, const IOException& /*ioe*/) {}

  // When the response's status line and headers arrived (responseHeadersStart: the time to the
  // first byte, as near as tern can tell) and once they are parsed. `response` has no body.
  // Interim 1xx responses are skipped: responseHeadersEnd reports the final one.
  virtual void responseHeadersStart(Call& /*call*/) {}
  virtual void responseHeadersEnd(Call& /*call*/, const Response& /*response*/) {}

  // When the application first gets body bytes (or closes the body before reading any), and
  // when the body is exhausted or closed. `byteCount` is the number of body bytes the application
  // got from the network (before gzip decoding): less than the whole body if it closed early.
  // Not reported for a response without a body source (a WebSocket upgrade).
  virtual void responseBodyStart(Call& /*call*/) {}
  virtual void responseBodyEnd(Call& /*call*/, int64_t /*byteCount*/) {}

  // Reading the response failed (while waiting for its headers or reading its body). Not final
  // if the call retries.
  virtual void responseFailed(Call& /*call*/, const IOException& /*ioe*/) {}

  // The call is over: it succeeded and its response body is closed (which may be long after
  // execute() returned), or it failed with `ioe` (the exception the caller got; a failure that
  // was not an IOException is described by one). Exactly one of them, once, last.
  virtual void callEnd(Call& /*call*/) {}
  virtual void callFailed(Call& /*call*/, const IOException& /*ioe*/) {}

  // Call::cancel() was called (or the call timeout fired). Once, at most.
  virtual void canceled(Call& /*call*/) {}

  // The response cache's events (Client::Builder::cache; docs/cache.md), from the call's thread,
  // never while a request or response is open:
  //  - satisfactionFailure: only-if-cached could not be met; `response` is the 504 the call gets;
  //  - cacheHit: the response comes from the cache: fresh, served stale where allowed (max-stale,
  //    stale-while-revalidate, stale-if-error), read from another call's fetch of the same GET
  //    (collapsed requests), or validated by a 304 (then after cacheConditionalHit and the
  //    network events);
  //  - cacheMiss: the cache cannot answer; the network is used (also after cacheConditionalHit
  //    when the server sent a new response instead of a 304);
  //  - cacheConditionalHit: a stored response is being validated with the server.
  // A call without a cache reports none of them.
  virtual void satisfactionFailure(Call& /*call*/, const Response& /*response*/) {}
  virtual void cacheHit(Call& /*call*/, const Response& /*response*/) {}
  virtual void cacheMiss(Call& /*call*/) {}
  virtual void cacheConditionalHit(Call& /*call*/, const Response& /*cachedResponse*/) {}

  // After an attempt failed with `exception`: whether the call tries again (another address, a
  // fresh connection). Not reported when the call was canceled before an attempt started.
  virtual void retryDecision(Call& /*call*/, const IOException& /*exception*/, bool /*retry*/) {}

  // After each network response reached the retry and redirect logic: `nextRequest` is the
  // request it leads to (a redirect, credentials for a 401, a retried 408/503), or null when
  // `networkResponse` is final. Valid during the callback only.
  virtual void followUpDecision(Call& /*call*/, const Response& /*networkResponse*/,
                                const Request* /*nextRequest*/) {}

  // The listener that does nothing (the default). Calls whose listener is this one skip event
  // delivery altogether.
  static std::shared_ptr<EventListener> none();

  // A listener that forwards every event to each of `listeners`, in order (OkHttp's
  // EventListener.plus). Null entries are skipped.
  static std::shared_ptr<EventListener> compose(
      std::vector<std::shared_ptr<EventListener>> listeners);
};

// Makes a listener for each call, as OkHttp's EventListener.Factory: Client::newCall() asks it
// once per call, so the listener may keep that call's state. Must be thread-safe: calls are
// made concurrently. create() must not run, cancel or otherwise change the call it is given.
class TERN_API EventListener::Factory {
 public:
  virtual ~Factory() = default;

  // The listener for `call`. Must not return null.
  virtual std::shared_ptr<EventListener> create(Call& call) = 0;

  // A factory that gives every call `listener` (OkHttp's asFactory()). Throws
  // std::invalid_argument if `listener` is null.
  static std::shared_ptr<Factory> of(std::shared_ptr<EventListener> listener);

  // A factory that calls `create` (which must be thread-safe), for factories in one line:
  //   EventListener::Factory::of([](Call&) { return std::make_shared<Timing>(); })
  // Throws std::invalid_argument if `create` is empty.
  static std::shared_ptr<Factory> of(std::function<std::shared_ptr<EventListener>(Call&)> create);

  // A factory whose listener for a call is the composition (EventListener::compose) of what
  // each of `factories` makes for it. Null entries are skipped.
  static std::shared_ptr<Factory> compose(std::vector<std::shared_ptr<Factory>> factories);
};

}  // namespace tern
