// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <coroutine>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <utility>

#include "tern/export.h"
#include "tern/response.h"

namespace tern {

class Call;

// Where a coroutine resumes after an asynchronous step: a callable that runs `job` soon, on a
// thread of its choosing, and runs every job it accepts exactly once (Asio's post, libunifex's
// schedule, an event loop's queue; see tern/coro.h). Empty: the coroutine resumes on the thread
// that completed the step. If it throws, the coroutine resumes on the completing thread instead,
// so it is never lost.
using Executor = std::function<void(std::function<void()> job)>;

namespace detail {

// The handshake between an awaiter and the one operation it waits for, which completes on
// another thread (or on the same one, before the awaiter has even suspended). The state is
// shared: copies of a Completion are handles to one state, so the operation keeps it alive after
// the awaiter is gone, and a late completion then finds it abandoned and resumes nothing.
//
// The awaiter calls suspend() (from await_suspend) and, in its destructor, abandon(); the
// operation calls complete() once, after storing its outcome where the awaiter reads it. All
// three may race; a mutex orders them (src/call/call_awaitable.cc has the state machine).
class TERN_API Completion {
 public:
  // Resumes through `executor`, or (empty) on the thread that calls complete().
  explicit Completion(Executor executor = {});

  // await_suspend's body: records `awaiting`, then runs `start`, which begins the operation (it
  // may complete before start returns). Returns false if the operation has already completed and
  // the coroutine should go on at once on this thread (only without an executor); true if it
  // stays suspended until complete() resumes it. If `start` throws, nothing was started: the
  // exception propagates (and so is thrown from the co_await). Throws std::logic_error if called
  // twice: an awaitable is awaited once.
  bool suspend(std::coroutine_handle<> awaiting, const std::function<void()>& start);

  // From the operation, exactly once, after storing its outcome: resumes the coroutine, on the
  // executor if there is one, else right here; does nothing if abandon() came first. Let go of
  // the outcome before: the awaiter's reference should be the last, so that the outcome (a
  // response, an exception) dies on the coroutine's side, or at once if nobody waits any more.
  void complete() noexcept;

  // From the awaiter's destructor: from now on the coroutine is never resumed from here. True if
  // the operation still runs (the coroutine was suspended, or suspending, waiting for it): the
  // caller stops it, or waits for it. False if it never started, or has completed (a resumption
  // not run yet then does nothing).
  bool abandon() noexcept;

  // Blocks until complete() has been called. For an operation that still uses the awaiter's
  // memory (a body read into the caller's Buffer) after abandon().
  void awaitCompletion() noexcept;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

// Where an operation leaves its outcome for the awaiter: written once by the completing thread
// before Completion::complete(), read by the awaiter after it resumed (complete() orders the two).
template <typename T>
struct Outcome {
  std::optional<T> value;
  std::exception_ptr failure;

  // The value, or the failure rethrown.
  T take() {
    if (failure) std::rethrow_exception(failure);
    return std::move(*value);
  }
};

// A std::stop_callback's callable: cancels the call when stop is requested.
struct TERN_API CancelCall {
  std::shared_ptr<Call> call;
  void operator()() const noexcept;
};

}  // namespace detail

// What `co_await call->executeAsync()` awaits: enqueues the call when awaited and resumes the
// coroutine with its Response, or throws its IOException with its type preserved
// (InterruptedIOException("Canceled") after a cancel). See tern/coro.h for the whole coroutine
// API and the threads it resumes on.
//
// Lazy: nothing starts until the co_await. Awaited once. Move-only; it must not be moved while
// awaited (no awaiter is). Works in any coroutine type: it has only await_ready, await_suspend
// and await_resume.
//
// Cancellation: a stop request on `stopToken` while the call runs cancels it (from the
// requesting thread), and the coroutine resumes with InterruptedIOException("Canceled"); after
// the response came, a stop request does nothing. Destroying a coroutine suspended here (its
// frame, and so this awaitable) cancels the call; the late callback then finds nobody waiting and
// closes the response itself. If the response had already come and its resumption was posted to
// the executor, the response is closed instead (the call is not canceled, so its connection is
// reused). The destruction must not race the resumption itself: destroy on the executor's thread
// (a loop, an Asio strand), where no resumption runs meanwhile, or request stop instead.
class TERN_API CallAwaitable {
 public:
  // Awaits `call`, which it keeps alive. Throws std::invalid_argument if `call` is null.
  explicit CallAwaitable(std::shared_ptr<Call> call, std::stop_token stopToken = {},
                         Executor executor = {});
  ~CallAwaitable();
  CallAwaitable(CallAwaitable&&) noexcept = default;
  CallAwaitable& operator=(CallAwaitable&&) = delete;
  CallAwaitable(const CallAwaitable&) = delete;
  CallAwaitable& operator=(const CallAwaitable&) = delete;

  // Always suspends: even a response from the cache comes through the dispatcher.
  bool await_ready() const noexcept { return false; }
  // Enqueues the call. Throws what Call::enqueue() throws (std::logic_error("Already
  // Executed")), which the co_await then throws.
  bool await_suspend(std::coroutine_handle<> awaiting);
  // The response, or the call's IOException rethrown.
  Response await_resume();

 private:
  std::shared_ptr<Call> call_;
  std::stop_token stopToken_;
  detail::Completion completion_;
  std::shared_ptr<detail::Outcome<Response>> outcome_;
  // Registered while suspended; a unique_ptr because a stop_callback cannot move.
  std::unique_ptr<std::stop_callback<detail::CancelCall>> stopCallback_;
};

}  // namespace tern
