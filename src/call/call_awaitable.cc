// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/call_awaitable.h"

#include <condition_variable>
#include <stdexcept>
#include <utility>

#include "call/real_call.h"
#include "concurrent/mutex.h"
#include "concurrent/thread_annotations.h"
#include "tern/call.h"
#include "tern/callback.h"
#include "tern/exceptions.h"

namespace tern {
namespace detail {

// The state machine of one await. Phases, in order:
//   kIdle ──suspend()──▶ kStarting ──start returned──▶ kSuspended ──complete()──▶ kResumed
//                           │                              │   └──abandon()──▶ kAbandoned
//                        complete()                   complete() with an executor
//                           ▼                              ▼
//                     kCompletedEarly ──suspend() ──▶ kPosted ──posted job──▶ kResumed
//                                                          └──abandon()──▶ kAbandoned
// kCompletedEarly without an executor goes to kResumed: suspend() returns false and the
// coroutine goes on without suspending. Only the transition into kResumed resumes the
// coroutine, and abandon() only wins while it is not taken yet, so the frame is resumed at most
// once and never after its awaiter was destroyed.
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
    throw;
  }
  internal::MutexLock lock(state->mutex);
  if (state->phase == State::Phase::kStarting) {
    state->phase = State::Phase::kSuspended;
    return true;
  }
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

bool Completion::complete() noexcept {
  std::shared_ptr<State> state = state_;
  internal::MutexLock lock(state->mutex);
  state->completed = true;
  state->completedChanged.notify_all();
  switch (state->phase) {
    case State::Phase::kStarting:
      state->phase = State::Phase::kCompletedEarly;  // suspend() resumes it.
      return true;
    case State::Phase::kSuspended:
      break;
    default:  // kAbandoned: nobody waits.
      return false;
  }
  if (state->executor) {
    state->phase = State::Phase::kPosted;
    lock.unlock();
    state->post();
  } else {
    state->phase = State::Phase::kResumed;
    std::coroutine_handle<> handle = state->awaiting;
    lock.unlock();
    handle.resume();
  }
  return true;
}

Completion::Abandoned Completion::abandon() noexcept {
  if (!state_) return Abandoned::kNothing;  // Moved from.
  internal::MutexLock lock(state_->mutex);
  switch (state_->phase) {
    case State::Phase::kSuspended:
      state_->phase = State::Phase::kAbandoned;
      return Abandoned::kWhileRunning;
    case State::Phase::kPosted:
      state_->phase = State::Phase::kAbandoned;
      return Abandoned::kAfterCompletion;
    default:
      return Abandoned::kNothing;
  }
}

void Completion::awaitCompletion() noexcept {
  internal::MutexLock lock(state_->mutex);
  while (!state_->completed) state_->completedChanged.wait(lock.native());
}

void CancelCall::operator()() const noexcept { call->cancel(); }

namespace {

// `e` as an exception_ptr that rethrows its dynamic type. The dispatcher calls onFailure() from
// the handler that caught the call's exception, so std::current_exception() is usually that
// very object (which keeps everything, nested exceptions included); otherwise (a refused call,
// failed before it was thrown anywhere) a copy of the most derived public type.
std::exception_ptr captureFailure(const IOException& e) {
  if (std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const IOException& thrown) {
      if (&thrown == &e) return current;
    } catch (...) {
      // Another exception was being handled: fall through to the copy.
    }
  }
  // Most derived first.
  if (auto* x = dynamic_cast<const SocketTimeoutException*>(&e)) return std::make_exception_ptr(*x);
  if (auto* x = dynamic_cast<const InterruptedIOException*>(&e)) return std::make_exception_ptr(*x);
  if (auto* x = dynamic_cast<const ConnectException*>(&e)) return std::make_exception_ptr(*x);
  if (auto* x = dynamic_cast<const UnknownHostException*>(&e)) return std::make_exception_ptr(*x);
  if (auto* x = dynamic_cast<const ProtocolException*>(&e)) return std::make_exception_ptr(*x);
  if (auto* x = dynamic_cast<const EOFException*>(&e)) return std::make_exception_ptr(*x);
  if (auto* x = dynamic_cast<const SocketWriteException*>(&e)) return std::make_exception_ptr(*x);
  if (auto* x = dynamic_cast<const SSLHandshakeException*>(&e)) return std::make_exception_ptr(*x);
  if (auto* x = dynamic_cast<const SSLPeerUnverifiedException*>(&e)) {
    return std::make_exception_ptr(*x);
  }
  if (auto* x = dynamic_cast<const SSLException*>(&e)) return std::make_exception_ptr(*x);
  if (auto* x = dynamic_cast<const UnknownServiceException*>(&e)) {
    return std::make_exception_ptr(*x);
  }
  if (auto* x = dynamic_cast<const ProxyException*>(&e)) return std::make_exception_ptr(*x);
  if (auto* x = dynamic_cast<const StreamResetException*>(&e)) return std::make_exception_ptr(*x);
  return std::make_exception_ptr(e);
}

// The call's Callback: stores the outcome, then completes the await.
class AwaitingCallback final : public Callback {
 public:
  AwaitingCallback(Completion completion, std::shared_ptr<Outcome<Response>> outcome)
      : completion_(std::move(completion)), outcome_(std::move(outcome)) {}

  void onResponse(Call&, Response response) override {
    outcome_->value.emplace(std::move(response));
    // Nobody waits (the coroutine was destroyed): close the response now rather than whenever
    // the dispatcher lets go of this callback, so its connection goes back to the pool.
    if (!completion_.complete()) outcome_->value.reset();
  }

  void onFailure(Call&, const IOException& e) override {
    outcome_->failure = captureFailure(e);
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
  switch (completion_.abandon()) {
    case detail::Completion::Abandoned::kWhileRunning:
      call_->cancel();  // Its callback then finds nobody waiting and closes the response.
      break;
    case detail::Completion::Abandoned::kAfterCompletion:
      // The response came but its resumption had not run: close it here, so that the
      // connection goes back to the pool. complete() ordered the callback's write before this.
      outcome_->value.reset();
      break;
    case detail::Completion::Abandoned::kNothing:
      break;
  }
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
