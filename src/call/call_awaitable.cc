// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/call_awaitable.h"

#include <condition_variable>
#include <stdexcept>
#include <typeinfo>
#include <utility>

#include "call/real_call.h"
#include "concurrent/fiber.h"
#include "concurrent/mutex.h"
#include "concurrent/thread_annotations.h"
#include "tern/call.h"
#include "tern/callback.h"
#include "tern/exceptions.h"

namespace tern {
namespace detail {

// The state machine of one await. Phases, in order:
//   kIdle ──suspend()──▶ kStarting ──start returned──▶ kSuspended ──complete()──▶ kResumed
//                           │                              │
//                        complete()                   complete() with an executor
//                           ▼                              ▼
//                     kCompletedEarly ──suspend()──▶ kPosted ──posted job──▶ kResumed
// kCompletedEarly without an executor goes to kResumed: suspend() returns false and the
// coroutine goes on without suspending. abandon() (the frame is being destroyed) turns any of
// kStarting, kSuspended, kCompletedEarly and kPosted into kAbandoned, after which nothing resumes
// the coroutine and suspend() touches nothing more. Only the transition into kResumed resumes
// the coroutine, so the frame is resumed at most once, and never after its awaiter was destroyed.
struct Completion::State : std::enable_shared_from_this<State> {
  enum class Phase { kIdle, kStarting, kCompletedEarly, kSuspended, kPosted, kResumed, kAbandoned };

  explicit State(Executor e) : executor(std::move(e)) {}

  // Hands the resumption to the executor; resumes here if it refuses. Called without the lock,
  // in kPosted.
  void post() noexcept {
    try {
      executor([self = shared_from_this()] { self->resumePosted(); });
      return;
    } catch (...) {
      // The executor refused the job (it is shutting down): resuming here is better than never.
    }
    resumePosted();
  }

  void resumePosted() noexcept {
    internal::MutexLock lock(mutex);
    if (phase != Phase::kPosted) return;  // Abandoned meanwhile: the frame is gone.
    phase = Phase::kResumed;
    std::coroutine_handle<> handle = awaiting;
    lock.unlock();
    internal::Fiber::Pin pin;  // The user's coroutine, if this is a fiber: on one thread.
    handle.resume();
  }

  const Executor executor;
  internal::Mutex mutex;
  Phase phase TERN_GUARDED_BY(mutex) = Phase::kIdle;
  std::coroutine_handle<> awaiting TERN_GUARDED_BY(mutex);
  bool completed TERN_GUARDED_BY(mutex) = false;
  std::condition_variable completedChanged;  // Signals `completed`, for awaitCompletion().
};

Completion::Completion(Executor executor) : state_(std::make_shared<State>(std::move(executor))) {}

bool Completion::suspend(std::coroutine_handle<> awaiting, const std::function<void()>& start) {
  // The state, not `this`: once the coroutine may resume on another thread, its frame (where
  // this Completion lives) may be destroyed before this function returns.
  std::shared_ptr<State> state = state_;
  {
    internal::MutexLock lock(state->mutex);
    if (state->phase != State::Phase::kIdle) {
      throw std::logic_error("tern: an awaitable can be awaited only once");
    }
    state->phase = State::Phase::kStarting;
    state->awaiting = awaiting;
  }
  try {
    start();
  } catch (...) {
    internal::MutexLock lock(state->mutex);
    state->phase = State::Phase::kIdle;
    // Nothing started, so nothing will complete: let an awaitCompletion() go.
    state->completed = true;
    state->completedChanged.notify_all();
    throw;
  }
  internal::MutexLock lock(state->mutex);
  if (state->phase == State::Phase::kStarting) {
    state->phase = State::Phase::kSuspended;
    return true;
  }
  // The frame was destroyed from another thread once the operation had started: stay put.
  if (state->phase == State::Phase::kAbandoned) return true;
  // kCompletedEarly: the operation finished inside start().
  if (!state->executor) {
    state->phase = State::Phase::kResumed;
    return false;
  }
  state->phase = State::Phase::kPosted;
  lock.unlock();
  state->post();
  return true;
}

void Completion::complete() noexcept {
  std::shared_ptr<State> state = state_;
  internal::MutexLock lock(state->mutex);
  state->completed = true;
  state->completedChanged.notify_all();
  switch (state->phase) {
    case State::Phase::kStarting:
      state->phase = State::Phase::kCompletedEarly;  // suspend() resumes it.
      return;
    case State::Phase::kSuspended:
      break;
    default:  // kAbandoned: nobody waits.
      return;
  }
  if (state->executor) {
    state->phase = State::Phase::kPosted;
    lock.unlock();
    state->post();
  } else {
    state->phase = State::Phase::kResumed;
    std::coroutine_handle<> handle = state->awaiting;
    lock.unlock();
    internal::Fiber::Pin pin;  // The user's coroutine, if this is a fiber: on one thread.
    handle.resume();
  }
}

bool Completion::abandon() noexcept {
  if (!state_) return false;  // Moved from.
  internal::MutexLock lock(state_->mutex);
  switch (state_->phase) {
    case State::Phase::kStarting:
    case State::Phase::kSuspended:
      state_->phase = State::Phase::kAbandoned;
      return true;  // The operation runs.
    case State::Phase::kCompletedEarly:
    case State::Phase::kPosted:
      state_->phase = State::Phase::kAbandoned;
      return false;  // Its outcome is stored; the resumption that would take it does nothing.
    default:
      return false;
  }
}

void Completion::awaitCompletion() noexcept {
  internal::MutexLock lock(state_->mutex);
  while (!state_->completed) state_->completedChanged.wait(lock.native());
}

void CancelCall::operator()() const noexcept { call->cancel(); }

namespace {

// A new exception like `e`, with a message string of its own: a copy constructor would share
// the message's buffer (std::runtime_error's is reference-counted inside libstdc++).
template <typename T>
T freshCopy(const T& e) {
  return T(std::string(e.what()));
}
SocketWriteException freshCopy(const SocketWriteException& e) {
  return SocketWriteException(std::string(e.what()), e.errorNumber());
}
ProxyException freshCopy(const ProxyException& e) {
  return ProxyException(std::string(e.what()), e.responseCode());
}
StreamResetException freshCopy(const StreamResetException& e) {
  return StreamResetException(e.errorCode(), std::string(e.what()));
}

// A fresh copy of `e` if its exact type is one of `Types`, else null.
template <typename... Types>
std::exception_ptr copyIfExactly(const IOException& e) {
  std::exception_ptr copy;
  (void)((typeid(e) == typeid(Types) &&
          (copy = std::make_exception_ptr(freshCopy(static_cast<const Types&>(e))), true)) ||
         ...);
  return copy;
}

// `e` as an exception_ptr that rethrows its dynamic type, for the awaiting coroutine alone.
//
// tern's own exception types are copied, message and all. The dispatcher keeps its own
// exception_ptr to `e` until after onFailure() returns; sharing the object (or its message's
// buffer) across threads is correct (both count their references atomically), but those counts
// live in libstdc++, which ThreadSanitizer does not see, so every read of a shared exception on
// the coroutine's side would be reported as a race with its destruction on the dispatcher
// thread. A fresh copy belongs to the coroutine only.
//
// Any other type (a subclass an interceptor threw, or a throw_with_nested wrapper that carries a
// cause) cannot be copied without slicing: the object itself is shared. The dispatcher calls
// onFailure() from the handler that caught it, so std::current_exception() is that object.
std::exception_ptr captureFailure(const IOException& e) {
  std::exception_ptr copy =
      copyIfExactly<IOException, InterruptedIOException, SocketTimeoutException, ConnectException,
                    UnknownHostException, ProtocolException, EOFException, SocketWriteException,
                    SSLException, SSLHandshakeException, SSLPeerUnverifiedException,
                    UnknownServiceException, ProxyException, StreamResetException>(e);
  if (copy) return copy;
  if (std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const IOException& thrown) {
      if (&thrown == &e) return current;
    } catch (...) {
      // Another exception was being handled: fall through.
    }
  }
  return std::make_exception_ptr(e);  // Not reached by the dispatcher; loses the subclass.
}

// The call's Callback: stores the outcome, then completes the await.
class AwaitingCallback final : public Callback {
 public:
  AwaitingCallback(Completion completion, std::shared_ptr<Outcome<Response>> outcome)
      : completion_(std::move(completion)), outcome_(std::move(outcome)) {}

  // Each lets go of the outcome before complete(), so the awaiter holds the last reference: if
  // the coroutine was destroyed meanwhile, the response closes here and now (its connection goes
  // back to the pool); else the outcome dies where the coroutine goes on, never on this thread
  // after the coroutine has read it.
  void onResponse(Call&, Response response) override {
    std::shared_ptr<Outcome<Response>> outcome = std::move(outcome_);
    outcome->value.emplace(std::move(response));
    outcome.reset();
    completion_.complete();
  }

  void onFailure(Call&, const IOException& e) override {
    std::shared_ptr<Outcome<Response>> outcome = std::move(outcome_);
    outcome->failure = captureFailure(e);
    outcome.reset();
    completion_.complete();
  }

 private:
  Completion completion_;
  std::shared_ptr<Outcome<Response>> outcome_;
};

}  // namespace
}  // namespace detail

CallAwaitable::CallAwaitable(std::shared_ptr<Call> call, std::stop_token stopToken,
                             Executor executor)
    : call_(std::move(call)),
      stopToken_(std::move(stopToken)),
      completion_(std::move(executor)),
      outcome_(std::make_shared<detail::Outcome<Response>>()) {
  if (!call_) throw std::invalid_argument("CallAwaitable: call is null");
}

CallAwaitable::~CallAwaitable() {
  stopCallback_.reset();
  // Still running: cancel it; its callback then finds nobody waiting. (A response that came but
  // whose resumption had not run yet closes with outcome_, now.)
  if (completion_.abandon()) call_->cancel();
}

bool CallAwaitable::await_suspend(std::coroutine_handle<> awaiting) {
  return completion_.suspend(awaiting, [this] {
    // Before enqueue(): a stop already requested cancels the call here, and enqueue() then
    // fails it with InterruptedIOException("Canceled") like any canceled call.
    if (stopToken_.stop_possible()) {
      stopCallback_ = std::make_unique<std::stop_callback<detail::CancelCall>>(
          stopToken_, detail::CancelCall{call_});
    }
    call_->enqueue(std::make_shared<detail::AwaitingCallback>(completion_, outcome_));
  });
}

Response CallAwaitable::await_resume() {
  stopCallback_.reset();  // The call is over: a later stop request has nothing to cancel.
  return outcome_->take();
}

CallAwaitable Call::executeAsync(std::stop_token stopToken, Executor executor) {
  // Our calls are RealCalls, made shared (Client::newCall()), so the awaitable can own one. A
  // Call implemented elsewhere is borrowed: its owner keeps it alive until the co_await ends.
  std::shared_ptr<Call> self;
  if (auto* real = dynamic_cast<internal::RealCall*>(this)) self = real->weak_from_this().lock();
  if (!self) self = std::shared_ptr<Call>(std::shared_ptr<Call>(), this);
  return CallAwaitable(std::move(self), std::move(stopToken), std::move(executor));
}

}  // namespace tern
