// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <typeindex>
#include <vector>

#include "concurrent/condition.h"
#include "concurrent/mutex.h"
#include "concurrent/task_queue.h"
#include "concurrent/thread_annotations.h"
#include "connection/connection_user.h"
#include "connection/real_connection_pool.h"
#include "tern/call.h"
#include "tern/client.h"
#include "tern/event_listener.h"
#include "tern/timeout.h"

namespace tern::internal {

class Exchange;
class ExchangeFinder;
class RealConnection;
class RealInterceptorChain;

// The implementation of Call, as OkHttp's RealCall: the bridge between the application and the
// network layers. It runs the interceptor chain and tracks the one exchange (request and
// response) in flight on the connection it holds, so it knows when the connection can go back
// to the pool and what cancel() must break.
//
// Lifecycle: a call makes one exchange at a time. RetryAndFollowUpInterceptor brackets each
// attempt with enterNetworkInterceptorExchange() / exitNetworkInterceptorExchange();
// ConnectInterceptor opens the exchange with initExchange(); the exchange reports the end of the
// request and response bodies through messageDone(). The call ends (connection released, call
// timeout stopped) once no more exchanges are expected (noMoreExchanges()) and both bodies of
// the last one are done, which for a streamed response body is when the caller closes it.
//
// Threads: one thread runs the call (and later, maybe another reads the body); cancel() may come
// from any thread. mutex_ guards the exchange bookkeeping; connection_ is guarded by the pool's
// mutex, as it is part of the connection's bookkeeping. No lock is held while calling out,
// except eventMutex_ while an event is delivered.
//
// Events: every layer reports through event(), which delivers one event at a time to the call's
// listener (made by the client's factory when the call is made) under eventMutex_, a recursive
// mutex so that a listener may cancel() the call. Lock order: eventMutex_ before mutex_, the
// pool's mutex and the Dispatcher's; none of those is ever held while an event is delivered.
// With EventListener::none() nothing is locked, built or delivered.
class RealCall final : public Call,
                       public ConnectionUser,
                       public std::enable_shared_from_this<RealCall> {
 public:
  RealCall(Client client, Request originalRequest);
  ~RealCall() override;

  // Call
  const Request& request() const override { return originalRequest_; }
  Response execute() override;
  void enqueue(std::shared_ptr<Callback> callback) override;
  void cancel() noexcept override;
  bool isExecuted() const override;
  bool isCanceled() const override { return canceled_.load(std::memory_order_acquire); }
  Timeout& timeout() override { return timeout_; }
  std::shared_ptr<Call> clone() const override;
  void addEventListener(std::shared_ptr<EventListener> listener) override;

  const Client& client() const noexcept { return client_; }

 protected:
  std::shared_ptr<const void> tagFor(
      std::type_index type,
      const std::function<std::shared_ptr<const void>()>* compute) const override;

 public:
  // Runs the whole chain (application interceptors, the built-ins, network interceptors) and
  // returns the response. Used by execute() and by AsyncCall on a dispatcher thread.
  Response getResponseWithInterceptorChain();

  // Starts the call timeout watchdog (AsyncTimeout.enter()): if the call is not done within
  // timeout(), it is canceled and its failure becomes InterruptedIOException("timeout").
  void timeoutEnter();

  // Waits `delay` (a RetryPolicy's) unless the call is canceled first (by cancel() or its
  // timeout). Returns false if it was canceled. The call holds no exchange meanwhile.
  bool sleepUnlessCanceled(std::chrono::milliseconds delay);

  // When the call timeout cancels the call, if it has one and it started.
  std::optional<std::chrono::steady_clock::time_point> callDeadline() const;

  // Stops the call timeout for good, without ending the call: its connection was upgraded to
  // another protocol (a WebSocket), which lives as long as its user wants.
  void timeoutEarlyExit();

  // Prepares for an exchange for `request`; with `newExchangeFinder` a new route plan (after a
  // redirect), else the retry continues the last one. Throws std::logic_error if the previous
  // response is still open, UnknownServiceException for an http URL when the client's connection
  // specs lack CLEARTEXT.
  // `client` is the call's, or one the chain's with*() overrides made of it: its settings (DNS,
  // TLS, proxies) make the address.
  void enterNetworkInterceptorExchange(const Client& client, const Request& request,
                                       bool newExchangeFinder);

  // Takes connections from `client`'s pool from now on (a chain's withConnectionPool), after
  // letting go of a connection held from another pool.
  void usePoolOf(const Client& client);

  // The current exchange's response is now read by other calls too (the cache's collapsed
  // GETs): cancel() no longer breaks it, so their bodies go on; this call's own reader checks
  // isCanceled() instead. Reset by the next initExchange().
  void shareExchange();

  // Finds a connection and opens an exchange on it (ConnectInterceptor). Throws IOException
  // (wrapped in RouteException for connection failures) or InterruptedIOException("Canceled").
  std::shared_ptr<Exchange> initExchange(const RealInterceptorChain& chain);

  // Ends the current attempt; with `closeExchange` (the attempt failed or its response was not
  // returned) the exchange is detached and its connection cannot be reused.
  void exitNetworkInterceptorExchange(bool closeExchange);

  // The exchange opened by initExchange() for the current attempt, or null.
  std::shared_ptr<Exchange> interceptorScopedExchange() const;

  // Reports that `exchange`'s request (`requestDone`) and/or response (`responseDone`) body is
  // finished, with `e` its failure or null. Returns the exception to throw (`e`, or
  // InterruptedIOException("timeout") if the call timed out), or null.
  std::exception_ptr messageDone(Exchange& exchange, bool requestDone, bool responseDone,
                                 std::exception_ptr e) override;

  // No more exchanges will be made (the chain returned or threw `e`). Returns the exception to
  // throw, translated as messageDone() does.
  std::exception_ptr noMoreExchanges(std::exception_ptr e);

  // True if a failed attempt may be retried on another route or connection.
  bool retryAfterFailure();

  // The connections being connected, so that cancel() can reach them.
  void addConnectionToCancel(std::shared_ptr<RealConnection> connection) override;
  void removeConnectionToCancel(const std::shared_ptr<RealConnection>& connection) override;

  // "canceled call to http://host/..." or "call to ...", for messages.
  std::string toLoggableString() const override;

  // Delivers one event: calls `deliver(listener)` with the call's listener, serialized with the
  // call's other events. Does nothing (and `deliver` is not called, so it should build its
  // arguments inside) when the listener is EventListener::none(). An exception from the
  // listener is reported on stderr and dropped.
  template <typename Deliver>
  void event(Deliver&& deliver) noexcept {
    if (listener_.load(std::memory_order_acquire) == nullptr) return;
    std::lock_guard lock(eventMutex_);
    try {
      deliver(*listener_.load(std::memory_order_relaxed));  // addEventListener() swaps it locked.
    } catch (...) {
      reportListenerFailure(std::current_exception());
    }
  }

  // Holds back other threads' events for this call until the lock is released (for an event
  // that must come before anything another thread may report, as dispatcherQueueStart). An
  // empty lock when the listener is EventListener::none().
  std::unique_lock<std::recursive_mutex> lockEvents();

  // True if the call's listener is not EventListener::none().
  bool hasEventListener() const noexcept {
    return listener_.load(std::memory_order_acquire) != nullptr;
  }

  // ConnectionUser's events, each delivered with event().
  void proxySelectStart(const HttpUrl& url) override;
  void proxySelectEnd(const HttpUrl& url, const std::vector<std::string>& proxies) override;
  void dnsStart(const std::string& domainName) override;
  void dnsEnd(const std::string& domainName,
              const std::vector<InetAddress>& inetAddressList) override;
  void connectStart(const InetSocketAddress& inetSocketAddress) override;
  void secureConnectStart() override;
  void secureConnectEnd(const Handshake* handshake) override;
  void connectEnd(const InetSocketAddress& inetSocketAddress,
                  std::optional<Protocol> protocol) override;
  void connectFailed(const InetSocketAddress& inetSocketAddress, std::optional<Protocol> protocol,
                     const IOException& ioe) override;
  void connectionAcquired(Connection& connection) override;
  void connectionReleased(Connection& connection) override;
  void requestHeadersStart() override;
  void requestHeadersEnd(const Request& request) override;
  void requestBodyStart() override;
  void requestBodyEnd(int64_t byteCount) override;
  void requestFailed(const IOException& ioe) override;
  void responseHeadersStart() override;
  void responseHeadersEnd(const Response& response) override;
  void responseBodyStart() override;
  void responseBodyEnd(int64_t byteCount) override;
  void responseFailed(const IOException& ioe) override;

 private:
  void callStart();
  // Reports callEnd (`e` null) or callFailed(e), once.
  void reportTerminal(std::exception_ptr e);
  void reportListenerFailure(std::exception_ptr e) noexcept;
  std::exception_ptr callDone(std::exception_ptr e);
  std::exception_ptr timeoutExit(std::exception_ptr cause);
  void onTimeout();

  const Client client_;
  const Request originalRequest_;
  // Made by the client's factory in the constructor, then never changed.
  std::shared_ptr<EventListener> eventListener_;  // Written under eventMutex_.
  // eventListener_, or null for EventListener::none(). Read without the lock to skip events
  // nobody hears; set under eventMutex_.
  std::atomic<EventListener*> listener_{nullptr};
  // The listeners addEventListener() replaced: a callback of theirs may be running (it may
  // have added the listener), so they live as long as the call.
  std::vector<std::shared_ptr<EventListener>> replacedListeners_;
  std::recursive_mutex eventMutex_;  // Serializes events; guards the fields around it.
  bool callStartReported_ = false;
  bool terminalReported_ = false;  // callEnd or callFailed was reported.
  Timeout timeout_;                // The call timeout; configured before the call starts.
  std::atomic<bool> canceled_{false};

  mutable Mutex mutex_;  // Guards the fields below.
  bool executed_ TERN_GUARDED_BY(mutex_) = false;
  // Until both its bodies are done.
  std::shared_ptr<Exchange> exchange_ TERN_GUARDED_BY(mutex_);
  bool exchangeShared_ TERN_GUARDED_BY(mutex_) = false;  // See shareExchange().
  // For the current attempt.
  std::shared_ptr<Exchange> interceptorScopedExchange_ TERN_GUARDED_BY(mutex_);
  std::vector<std::shared_ptr<RealConnection>> connectionsToCancel_
      TERN_GUARDED_BY(mutex_);  // Connecting.
  // For the current follow-up; exchanges share it.
  std::shared_ptr<ExchangeFinder> exchangeFinder_ TERN_GUARDED_BY(mutex_);
  bool requestBodyOpen_ TERN_GUARDED_BY(mutex_) = false;
  bool responseBodyOpen_ TERN_GUARDED_BY(mutex_) = false;
  bool expectMoreExchanges_ TERN_GUARDED_BY(mutex_) = true;
  bool callDone_ TERN_GUARDED_BY(mutex_) = false;
  // The call timeout watchdog.
  std::unique_ptr<TaskQueue> timeoutQueue_ TERN_GUARDED_BY(mutex_);
  bool timedOut_ TERN_GUARDED_BY(mutex_) = false;
  bool timeoutExited_ TERN_GUARDED_BY(mutex_) = false;
  // tag<T>(compute)'s tags (the request's are looked up there).
  mutable std::map<std::type_index, std::shared_ptr<const void>> tags_ TERN_GUARDED_BY(mutex_);
  std::optional<std::chrono::steady_clock::time_point> callDeadline_ TERN_GUARDED_BY(mutex_);
  // The pool a chain override (withConnectionPool) gave the call, kept alive for its connection
  // and for cancel() to wake.
  std::shared_ptr<ConnectionPool> poolOverride_ TERN_GUARDED_BY(mutex_);
  // Notified (under mutex_) when the call is canceled, for sleepUnlessCanceled().
  Condition canceledCondition_;
};

}  // namespace tern::internal
