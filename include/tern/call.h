// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <memory>
#include <stop_token>
#include <typeindex>
#include <typeinfo>

#include "tern/call_awaitable.h"
#include "tern/callback.h"
#include "tern/exceptions.h"
#include "tern/export.h"
#include "tern/request.h"
#include "tern/response.h"
#include "tern/timeout.h"

namespace tern {

class EventListener;

// A request prepared for execution, as OkHttp's Call. Made by Client::newCall(); runs once,
// either synchronously (execute()) or asynchronously (enqueue()). clone() makes a fresh call for
// the same request to run it again.
//
// Shared (std::shared_ptr) so that cancel() can be called from any thread while another thread
// runs it. Every method is thread-safe.
class TERN_API Call {
 public:
  virtual ~Call() = default;

  // The request this call was made for (before redirects and interceptors changed it).
  virtual const Request& request() const = 0;

  // Sends the request and blocks until the response headers arrive, on the calling thread; the
  // body then streams from the connection as it is read. The caller must close the body (read it
  // to the end, call close(), or destroy the response) to release the connection.
  //
  // Throws IOException if the request could not be sent or no response arrived: UnknownHost-
  // Exception, ConnectException, SocketTimeoutException (a connect, read or write timeout;
  // the message says which), InterruptedIOException("Canceled") after cancel(),
  // InterruptedIOException("timeout") when the call timeout fires,
  // InterruptedIOException("client is shut down") after Client::shutdown(), ProtocolException
  // (a malformed response, "Too many follow-up requests: 21"). Throws std::logic_error("Already
  // Executed") if this call has already run.
  virtual Response execute() = 0;

  // Schedules the call on the client's Dispatcher and returns at once; `callback` hears the
  // outcome on a dispatcher thread. After Client::shutdown(), or if the dispatcher's executor
  // refuses the call, onFailure (InterruptedIOException "client is shut down" or "executor
  // rejected") runs instead before enqueue() returns, on the calling thread. Throws
  // std::logic_error("Already Executed") if this call has already run, std::invalid_argument if
  // `callback` is null.
  virtual void enqueue(std::shared_ptr<Callback> callback) = 0;

  // enqueue() with the two halves of a callback as functions.
  void enqueue(std::function<void(Call& call, Response response)> onResponse,
               std::function<void(Call& call, const IOException& e)> onFailure) {
    enqueue(Callback::of(std::move(onResponse), std::move(onFailure)));
  }

  // The call as a C++20 awaitable, OkHttp-coroutines' executeAsync(): in a coroutine,
  // `Response response = co_await call->executeAsync();` enqueues the call when awaited and
  // resumes with its response (on the dispatcher thread that delivers it, or through
  // `executor`), or throws what execute() would throw, as its own type. A stop request on
  // `stopToken` cancels the call; destroying the awaiting coroutine cancels it too. The awaitable
  // keeps this call alive. Include tern/coro.h for Task, syncWait and the body reads; see
  // CallAwaitable for the details and docs/calls.md ("Coroutines") for recipes.
  CallAwaitable executeAsync(std::stop_token stopToken = {}, Executor executor = {});
  CallAwaitable executeAsync(Executor executor) { return executeAsync({}, std::move(executor)); }

  // Cancels the call, from any thread, at any time: a call not started yet fails at once when
  // it starts; a call connecting, writing or waiting for the response wakes at once with
  // InterruptedIOException("Canceled") (its socket is closed); a response body being read
  // throws the same on its next read. Does nothing to a call that has already completed.
  // Idempotent; never throws.
  virtual void cancel() noexcept = 0;

  // True once execute() or enqueue() was called.
  virtual bool isExecuted() const = 0;

  // True once cancel() was called (including by Dispatcher::cancelAll() or the call timeout).
  virtual bool isCanceled() const = 0;

  // The call timeout: how long the whole call may take, from execute() or enqueue() until the
  // response body is read, across DNS, connecting, redirects and retries. Starts as the client's
  // callTimeout (zero: none). Set it before the call starts: `call->timeout().timeout(2s)`.
  // When it fires the call is canceled and fails with InterruptedIOException("timeout").
  virtual Timeout& timeout() = 0;

  // A new, unexecuted call for the same request on the same client.
  virtual std::shared_ptr<Call> clone() const = 0;

  // The call's tag of type T, or null (OkHttp 5's Call.tag(KClass)). A call's tags start as its
  // request's (Request::Builder::tag<T>()) and grow with tag<T>(compute): interceptors and event
  // listeners keep per-call state there, as OkHttp's do.
  template <typename T>
  std::shared_ptr<const T> tag() const {
    return std::static_pointer_cast<const T>(tagFor(std::type_index(typeid(T)), nullptr));
  }
  // The call's tag of type T; if it has none, `computeIfAbsent()`'s value is attached and
  // returned. Calls from several threads at once may each compute a value, but one is kept and
  // all get it. If `computeIfAbsent` throws, nothing is attached.
  template <typename T, typename Compute>
  std::shared_ptr<const T> tag(Compute&& computeIfAbsent) {
    std::function<std::shared_ptr<const void>()> compute = [&]() -> std::shared_ptr<const void> {
      return std::make_shared<const T>(computeIfAbsent());
    };
    return std::static_pointer_cast<const T>(tagFor(std::type_index(typeid(T)), &compute));
  }

  // Adds `listener` to the call's event listeners (OkHttp 5's Call.addEventListener): it hears
  // the events that come after this, in order after the client's listener, and none from before.
  // From any thread, at any time, also from inside an interceptor or another listener's event.
  // Throws std::invalid_argument if null.
  virtual void addEventListener(std::shared_ptr<EventListener> listener) = 0;

 protected:
  // The tag of `type`; when absent, `compute`'s value (if given) is attached and returned.
  virtual std::shared_ptr<const void> tagFor(
      std::type_index type, const std::function<std::shared_ptr<const void>()>* compute) const = 0;
};

}  // namespace tern
