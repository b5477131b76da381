// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/real_call.h"

#include <algorithm>
#include <cassert>
#include <iostream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "call/async_call.h"
#include "call/client_access.h"
#include "call/composite_event_listener.h"
#include "call/real_interceptor_chain.h"
#include "concurrent/task_runner.h"
#include "connection/connection_pool_access.h"
#include "connection/exchange.h"
#include "connection/exchange_finder.h"
#include "connection/real_connection.h"
#include "connection/real_connection_pool.h"
#include "tern/connection_pool.h"
#include "tern/dispatcher.h"

namespace tern::internal {

RealCall::RealCall(Client client, Request originalRequest)
    : ConnectionUser(ConnectionPoolAccess::delegate(*client.connectionPool())),
      client_(std::move(client)),
      originalRequest_(std::move(originalRequest)) {
  timeout_.timeout(client_.callTimeout());
  eventListener_ = client_.eventListenerFactory()->create(*this);
  if (!eventListener_) {
    throw std::logic_error("EventListener::Factory::create returned null for " +
                           toLoggableString());
  }
  if (eventListener_ != EventListener::none()) listener_.store(eventListener_.get());
}

RealCall::~RealCall() {
  // The watchdog's task holds only a weak reference; dropping the queue drops the task.
  timeoutQueue_.reset();
}

void RealCall::addEventListener(std::shared_ptr<EventListener> listener) {
  if (!listener) throw std::invalid_argument("Call::addEventListener: listener == null");
  std::lock_guard lock(eventMutex_);
  std::shared_ptr<EventListener> combined = listener;
  if (listener_.load(std::memory_order_relaxed) != nullptr) {
    combined = std::make_shared<CompositeEventListener>(
        std::vector<std::shared_ptr<EventListener>>{eventListener_, std::move(listener)});
    replacedListeners_.push_back(std::move(eventListener_));
  }
  eventListener_ = std::move(combined);
  listener_.store(eventListener_.get(), std::memory_order_release);
}

std::shared_ptr<const void> RealCall::tagFor(
    std::type_index type, const std::function<std::shared_ptr<const void>()>* compute) const {
  {
    MutexLock lock(mutex_);
    if (auto it = tags_.find(type); it != tags_.end()) return it->second;
  }
  if (std::shared_ptr<const void> fromRequest = originalRequest_.tagFor(type)) return fromRequest;
  if (compute == nullptr) return nullptr;
  std::shared_ptr<const void> computed = (*compute)();  // Unlocked: it may use the call.
  MutexLock lock(mutex_);
  return tags_.emplace(type, std::move(computed)).first->second;  // The first one computed wins.
}

bool RealCall::isExecuted() const {
  MutexLock lock(mutex_);
  return executed_;
}

std::shared_ptr<Call> RealCall::clone() const {
  return std::make_shared<RealCall>(client_, originalRequest_);
}

std::string RealCall::toLoggableString() const {
  return std::string(isCanceled() ? "canceled " : "") + "call to " +
         originalRequest_.url().redact();
}

Response RealCall::execute() {
  {
    MutexLock lock(mutex_);
    if (executed_) throw std::logic_error("Already Executed");
    executed_ = true;
  }
  timeoutEnter();
  callStart();
  Dispatcher& dispatcher = *client_.dispatcher();
  try {
    dispatcher.executed(this);
  } catch (const IOException&) {
    // The client is shut down: the call ends before it starts.
    std::rethrow_exception(noMoreExchanges(std::current_exception()));
  }
  try {
    Response response = getResponseWithInterceptorChain();
    dispatcher.finished(this);
    return response;
  } catch (...) {
    dispatcher.finished(this);
    throw;
  }
}

void RealCall::enqueue(std::shared_ptr<Callback> callback) {
  if (!callback) throw std::invalid_argument("Call::enqueue: callback == null");
  {
    MutexLock lock(mutex_);
    if (executed_) throw std::logic_error("Already Executed");
    executed_ = true;
  }
  callStart();
  client_.dispatcher()->enqueue(
      std::make_shared<AsyncCall>(shared_from_this(), std::move(callback)));
}

void RealCall::callStart() {
  std::unique_lock<std::recursive_mutex> events = lockEvents();
  if (!events) {
    // A listener added later (addEventListener) must know the call started.
    std::lock_guard lock(eventMutex_);
    callStartReported_ = true;
    return;
  }
  // A cancel() that came before the call started is reported now, so callStart stays first.
  // (One that comes during callStart, from its listener, is reported by cancel() itself.)
  bool canceledBefore = isCanceled();
  callStartReported_ = true;
  event([&](EventListener& listener) { listener.callStart(*this); });
  if (canceledBefore) event([&](EventListener& listener) { listener.canceled(*this); });
}

void RealCall::cancel() noexcept {
  // Holding the event lock until canceled is reported keeps it ahead of the callFailed that the
  // broken sockets cause on the call's thread.
  std::unique_lock<std::recursive_mutex> events = lockEvents();
  if (canceled_.exchange(true)) return;
  {
    MutexLock lock(mutex_);
    // Both only break sockets (thread-safe, non-blocking); the threads using them wake and fail.
    // A response body shared with other calls (collapsed GETs) must go on for them: this
    // call's own reader fails instead.
    if (exchange_ && !exchangeShared_) exchange_->cancel();
    for (const auto& connection : connectionsToCancel_) connection->cancel();
    canceledCondition_.notify_all();
  }
  // A call waiting for another call's connect to the same HTTP/2 address holds no socket yet.
  // (Not through pool(): the call's thread may rebind it; the pools it may use are these two.)
  ConnectionPoolAccess::delegate(*client_.connectionPool()).wakeConnectWaiters();
  std::shared_ptr<ConnectionPool> poolOverride;
  {
    MutexLock lock(mutex_);
    poolOverride = poolOverride_;
  }
  if (poolOverride) ConnectionPoolAccess::delegate(*poolOverride).wakeConnectWaiters();
  if (events && callStartReported_ && !terminalReported_) {
    event([&](EventListener& listener) { listener.canceled(*this); });
  }
}

std::unique_lock<std::recursive_mutex> RealCall::lockEvents() {
  if (listener_.load(std::memory_order_acquire) == nullptr) return {};
  return std::unique_lock(eventMutex_);
}

void RealCall::reportListenerFailure(std::exception_ptr e) noexcept {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& failure) {
    std::cerr << "tern: EventListener threw for " << toLoggableString() << ": " << failure.what()
              << "\n";
  } catch (...) {
    std::cerr << "tern: EventListener threw for " << toLoggableString() << "\n";
  }
}

void RealCall::addConnectionToCancel(std::shared_ptr<RealConnection> connection) {
  MutexLock lock(mutex_);
  // A cancel() that came before this connection was visible must still reach it.
  if (isCanceled()) connection->cancel();
  connectionsToCancel_.push_back(std::move(connection));
}

void RealCall::removeConnectionToCancel(const std::shared_ptr<RealConnection>& connection) {
  MutexLock lock(mutex_);
  std::erase(connectionsToCancel_, connection);
}

Response RealCall::getResponseWithInterceptorChain() {
  RealInterceptorChain chain(*this, client_, 0, nullptr, originalRequest_, client_.connectTimeout(),
                             client_.readTimeout(), client_.writeTimeout());
  std::optional<Response> response;
  try {
    response.emplace(chain.proceed(originalRequest_));
    if (isCanceled()) {
      response.reset();  // Closes the body.
      throw InterruptedIOException("Canceled");
    }
  } catch (const IOException&) {
    std::rethrow_exception(noMoreExchanges(std::current_exception()));
  } catch (...) {
    // Not an IOException (an interceptor's bug): the call still fails, and the caller gets the
    // exception as it was thrown.
    noMoreExchanges(std::current_exception());
    throw;
  }
  if (std::exception_ptr e = noMoreExchanges(nullptr)) {
    response.reset();
    std::rethrow_exception(e);
  }
  return std::move(*response);
}

void RealCall::enterNetworkInterceptorExchange(const Client& client, const Request& request,
                                               bool newExchangeFinder) {
  {
    MutexLock lock(mutex_);
    if (interceptorScopedExchange_) {
      throw std::logic_error("RealCall: an exchange is already in progress");
    }
    if (responseBodyOpen_) {
      throw std::logic_error(
          "cannot make a new request because the previous response is still open: please call "
          "response.close()");
    }
    if (requestBodyOpen_) throw std::logic_error("RealCall: the request body is still open");
  }
  if (!newExchangeFinder) return;

  const HttpUrl& url = request.url();
  const std::vector<ConnectionSpec>& specs = client.connectionSpecs();
  if (!url.isHttps() &&
      std::find(specs.begin(), specs.end(), ConnectionSpec::CLEARTEXT) == specs.end()) {
    throw UnknownServiceException("CLEARTEXT communication not enabled for client");
  }
  const std::vector<Protocol>& protocols = client.protocols();
  if (protocols.size() == 1 && protocols[0] == Protocol::HTTP_3) {
    // HTTP/3 only: nothing else to fall back to.
    if (!url.isHttps()) throw UnknownServiceException("HTTP/3 needs https: " + url.toString());
    if ((client.proxy() && !client.proxy()->isDirect()) || client.unixSocket()) {
      throw UnknownServiceException(
          "HTTP/3 goes to the server directly, not through a proxy or a Unix socket: " +
          url.toString());
    }
  }
  usePoolOf(client);
  Address address = ClientAccess::address(client, url);
  ConnectionSettings settings;
  settings.http2WriteTimeout = client.writeTimeout();
  settings.pingInterval = client.pingInterval();
  settings.retryOnConnectionFailure = client.retryOnConnectionFailure();
  settings.fastFallback = client.fastFallback();
  settings.altSvc = ClientAccess::altSvcCache(client);
  settings.quicHints = ClientAccess::quicHints(client);
  auto finder = std::make_shared<ExchangeFinder>(pool(), std::move(address), settings,
                                                 ClientAccess::routeDatabase(client), *this);
  MutexLock lock(mutex_);
  exchangeFinder_ = std::move(finder);
}

void RealCall::usePoolOf(const Client& client) {
  RealConnectionPool& wanted = ConnectionPoolAccess::delegate(*client.connectionPool());
  if (&wanted == &pool()) return;
  // An application interceptor proceeded again with another pool (withConnectionPool): the
  // connection an earlier attempt left with the call goes back to its own pool first.
  if (std::shared_ptr<RealConnection> released = releaseConnectionNoEvents()) {
    event([&](EventListener& l) { l.connectionReleased(*this, *released); });
  }
  {
    MutexLock lock(mutex_);
    if (client.connectionPool() != client_.connectionPool())
      poolOverride_ = client.connectionPool();
  }
  bindPool(wanted);
}

void RealCall::shareExchange() {
  MutexLock lock(mutex_);
  exchangeShared_ = true;
}

std::shared_ptr<Exchange> RealCall::initExchange(const RealInterceptorChain& chain) {
  std::shared_ptr<ExchangeFinder> finder;
  {
    MutexLock lock(mutex_);
    if (!expectMoreExchanges_) throw std::logic_error("RealCall: released");
    if (responseBodyOpen_ || requestBodyOpen_) {
      throw std::logic_error("RealCall: the previous exchange is still open");
    }
    finder = exchangeFinder_;
  }
  bool doExtensiveHealthChecks = chain.request().method() != "GET";
  std::unique_ptr<ExchangeCodec> codec = finder->find(
      chain.connectTimeout(), chain.readTimeout(), chain.writeTimeout(), doExtensiveHealthChecks);
  std::shared_ptr<RealConnection> connection = this->connection();
  auto exchange = std::make_shared<Exchange>(shared_from_this(), finder, std::move(connection),
                                             std::move(codec));
  {
    MutexLock lock(mutex_);
    interceptorScopedExchange_ = exchange;
    exchange_ = exchange;
    exchangeShared_ = false;
    requestBodyOpen_ = true;
    responseBodyOpen_ = true;
  }
  // A cancel() that came while connecting found no exchange to break: fail now.
  if (isCanceled()) throw InterruptedIOException("Canceled");
  return exchange;
}

void RealCall::exitNetworkInterceptorExchange(bool closeExchange) {
  std::shared_ptr<Exchange> exchange;
  {
    MutexLock lock(mutex_);
    if (!expectMoreExchanges_) throw std::logic_error("RealCall: released");
    if (closeExchange) exchange = exchange_;
    interceptorScopedExchange_.reset();
  }
  if (exchange) exchange->detachWithViolence();
}

std::shared_ptr<Exchange> RealCall::interceptorScopedExchange() const {
  MutexLock lock(mutex_);
  return interceptorScopedExchange_;
}

std::exception_ptr RealCall::messageDone(Exchange& exchange, bool requestDone, bool responseDone,
                                         std::exception_ptr e) {
  bool bothStreamsDone = false;
  bool callDone = false;
  {
    MutexLock lock(mutex_);
    if (exchange_.get() != &exchange) return e;  // Already detached.
    if ((requestDone && requestBodyOpen_) || (responseDone && responseBodyOpen_)) {
      if (requestDone) requestBodyOpen_ = false;
      if (responseDone) responseBodyOpen_ = false;
      bothStreamsDone = !requestBodyOpen_ && !responseBodyOpen_;
      callDone = bothStreamsDone && !expectMoreExchanges_;
    }
    if (bothStreamsDone) exchange_.reset();
  }
  if (bothStreamsDone) connectionSucceeded();
  if (callDone) return this->callDone(e);
  return e;
}

std::exception_ptr RealCall::noMoreExchanges(std::exception_ptr e) {
  bool callDone = false;
  {
    MutexLock lock(mutex_);
    if (expectMoreExchanges_) {
      expectMoreExchanges_ = false;
      callDone = !requestBodyOpen_ && !responseBodyOpen_;
    }
  }
  if (callDone) return this->callDone(e);
  return e;
}

std::exception_ptr RealCall::callDone(std::exception_ptr e) {
  {
    MutexLock lock(mutex_);
    if (callDone_) return e;
    callDone_ = true;
    connectionsToCancel_.clear();
    exchangeFinder_.reset();
  }
  std::shared_ptr<RealConnection> connection = releaseConnectionNoEvents();
  std::exception_ptr result = timeoutExit(e);
  if (connection) event([&](EventListener& l) { l.connectionReleased(*this, *connection); });
  reportTerminal(result);
  return result;
}

void RealCall::reportTerminal(std::exception_ptr e) {
  std::unique_lock<std::recursive_mutex> events = lockEvents();
  if (!events || terminalReported_) return;
  terminalReported_ = true;
  if (!e) {
    event([&](EventListener& listener) { listener.callEnd(*this); });
    return;
  }
  try {
    std::rethrow_exception(e);
  } catch (const IOException& failure) {
    event([&](EventListener& listener) { listener.callFailed(*this, failure); });
  } catch (const std::exception& failure) {
    IOException described(std::string("call failed: ") + failure.what());
    event([&](EventListener& listener) { listener.callFailed(*this, described); });
  } catch (...) {
    IOException described("call failed: unknown exception");
    event([&](EventListener& listener) { listener.callFailed(*this, described); });
  }
}

bool RealCall::retryAfterFailure() {
  std::shared_ptr<ExchangeFinder> finder;
  {
    MutexLock lock(mutex_);
    finder = exchangeFinder_;
  }
  return finder && finder->retryAfterFailure();
}

void RealCall::timeoutEnter() {
  std::chrono::nanoseconds delay;
  if (timeout_.hasDeadline()) {
    auto untilDeadline = timeout_.deadlineNanoTime() - Timeout::Clock::now();
    delay = timeout_.timeoutNanos() > std::chrono::nanoseconds(0)
                ? std::min<std::chrono::nanoseconds>(timeout_.timeoutNanos(), untilDeadline)
                : untilDeadline;
    if (delay < std::chrono::nanoseconds(0)) delay = std::chrono::nanoseconds(0);
  } else if (timeout_.timeoutNanos() > std::chrono::nanoseconds(0)) {
    delay = timeout_.timeoutNanos();
  } else {
    return;  // No call timeout.
  }
  std::weak_ptr<RealCall> weakSelf = weak_from_this();
  {
    MutexLock lock(mutex_);
    callDeadline_ = std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(delay);
  }
  auto queue = TaskRunner::instance()->newQueue("tern call timeout");
  queue->execute("call timeout", delay, true, [weakSelf] {
    if (std::shared_ptr<RealCall> self = weakSelf.lock()) self->onTimeout();
  });
  MutexLock lock(mutex_);
  timeoutQueue_ = std::move(queue);
}

bool RealCall::sleepUnlessCanceled(std::chrono::milliseconds delay) {
  MutexLock lock(mutex_);
  return !canceledCondition_.wait_for(lock.native(), delay, [this] { return isCanceled(); });
}

std::optional<std::chrono::steady_clock::time_point> RealCall::callDeadline() const {
  MutexLock lock(mutex_);
  return callDeadline_;
}

void RealCall::onTimeout() {
  {
    MutexLock lock(mutex_);
    if (timeoutExited_) return;
    timedOut_ = true;
  }
  cancel();
}

void RealCall::timeoutEarlyExit() {
  std::unique_ptr<TaskQueue> queue;
  {
    MutexLock lock(mutex_);
    if (timedOut_) return;  // Too late: the call is being canceled, and will fail as timed out.
    timeoutExited_ = true;
    queue = std::move(timeoutQueue_);
  }
  queue.reset();  // Drops the pending watchdog, or waits for a firing one to finish.
}

std::exception_ptr RealCall::timeoutExit(std::exception_ptr cause) {
  std::unique_ptr<TaskQueue> queue;
  bool timedOut = false;
  {
    MutexLock lock(mutex_);
    timeoutExited_ = true;
    timedOut = timedOut_;
    queue = std::move(timeoutQueue_);
  }
  queue.reset();  // Drops the pending watchdog, or waits for a firing one to finish.
  if (!timedOut) return cause;
  return std::make_exception_ptr(InterruptedIOException("timeout"));
}

// ConnectionUser's events.
void RealCall::proxySelectStart(const HttpUrl& url) {
  event([&](EventListener& listener) { listener.proxySelectStart(*this, url); });
}
void RealCall::proxySelectEnd(const HttpUrl& url, const std::vector<std::string>& proxies) {
  event([&](EventListener& listener) { listener.proxySelectEnd(*this, url, proxies); });
}
void RealCall::dnsStart(const std::string& domainName) {
  event([&](EventListener& listener) { listener.dnsStart(*this, domainName); });
}
void RealCall::dnsEnd(const std::string& domainName,
                      const std::vector<InetAddress>& inetAddressList) {
  event([&](EventListener& listener) { listener.dnsEnd(*this, domainName, inetAddressList); });
}
void RealCall::connectStart(const InetSocketAddress& inetSocketAddress) {
  event([&](EventListener& listener) { listener.connectStart(*this, inetSocketAddress); });
}
void RealCall::secureConnectStart() {
  event([&](EventListener& listener) { listener.secureConnectStart(*this); });
}
void RealCall::secureConnectEnd(const Handshake* handshake) {
  event([&](EventListener& listener) { listener.secureConnectEnd(*this, handshake); });
}
void RealCall::connectEnd(const InetSocketAddress& inetSocketAddress,
                          std::optional<Protocol> protocol) {
  event([&](EventListener& listener) { listener.connectEnd(*this, inetSocketAddress, protocol); });
}
void RealCall::connectFailed(const InetSocketAddress& inetSocketAddress,
                             std::optional<Protocol> protocol, const IOException& ioe) {
  event([&](EventListener& listener) {
    listener.connectFailed(*this, inetSocketAddress, protocol, ioe);
  });
}
void RealCall::connectionAcquired(Connection& connection) {
  event([&](EventListener& listener) { listener.connectionAcquired(*this, connection); });
}
void RealCall::connectionReleased(Connection& connection) {
  event([&](EventListener& listener) { listener.connectionReleased(*this, connection); });
}
void RealCall::requestHeadersStart() {
  event([&](EventListener& listener) { listener.requestHeadersStart(*this); });
}
void RealCall::requestHeadersEnd(const Request& request) {
  event([&](EventListener& listener) { listener.requestHeadersEnd(*this, request); });
}
void RealCall::requestBodyStart() {
  event([&](EventListener& listener) { listener.requestBodyStart(*this); });
}
void RealCall::requestBodyEnd(int64_t byteCount) {
  event([&](EventListener& listener) { listener.requestBodyEnd(*this, byteCount); });
}
void RealCall::requestFailed(const IOException& ioe) {
  event([&](EventListener& listener) { listener.requestFailed(*this, ioe); });
}
void RealCall::responseHeadersStart() {
  event([&](EventListener& listener) { listener.responseHeadersStart(*this); });
}
void RealCall::responseHeadersEnd(const Response& response) {
  event([&](EventListener& listener) { listener.responseHeadersEnd(*this, response); });
}
void RealCall::responseBodyStart() {
  event([&](EventListener& listener) { listener.responseBodyStart(*this); });
}
void RealCall::responseBodyEnd(int64_t byteCount) {
  event([&](EventListener& listener) { listener.responseBodyEnd(*this, byteCount); });
}
void RealCall::responseFailed(const IOException& ioe) {
  event([&](EventListener& listener) { listener.responseFailed(*this, ioe); });
}

}  // namespace tern::internal
