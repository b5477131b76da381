// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/async_call.h"

#include <exception>
#include <iostream>
#include <optional>
#include <utility>

#include "call/real_call.h"
#include "concurrent/fiber.h"
#include "tern/exceptions.h"

namespace tern::internal {

namespace {

// The dispatchers whose calls this thread is inside of, innermost first: a frame per run() or
// failRejected() on the stack (an executor that runs jobs inline nests them).
struct CallFrame {
  const Dispatcher* dispatcher;
  const CallFrame* outer;
};
thread_local const CallFrame* threadCallFrame = nullptr;

// The innermost frame is the fiber's own on a fiber (it may park and resume on another thread),
// else the thread's.
const CallFrame*& innermostCallFrame() noexcept {
  if (Fiber* fiber = Fiber::current()) {
    return reinterpret_cast<const CallFrame*&>(fiber->callFrameSlot());
  }
  return threadCallFrame;
}

class ScopedCallFrame {
 public:
  explicit ScopedCallFrame(const Dispatcher& dispatcher)
      : frame_{&dispatcher, innermostCallFrame()} {
    innermostCallFrame() = &frame_;
  }
  ~ScopedCallFrame() { innermostCallFrame() = frame_.outer; }
  ScopedCallFrame(const ScopedCallFrame&) = delete;
  ScopedCallFrame& operator=(const ScopedCallFrame&) = delete;

 private:
  CallFrame frame_;
};

}  // namespace

bool AsyncCall::onCallThread(const Dispatcher& dispatcher) noexcept {
  for (const CallFrame* frame = innermostCallFrame(); frame != nullptr; frame = frame->outer) {
    if (frame->dispatcher == &dispatcher) return true;
  }
  return false;
}

AsyncCall::AsyncCall(std::shared_ptr<RealCall> call, std::shared_ptr<Callback> callback)
    : call_(std::move(call)),
      callback_(std::move(callback)),
      callsPerHost_(std::make_shared<std::atomic<int>>(0)) {}

const std::string& AsyncCall::host() const { return call_->request().url().host(); }

void AsyncCall::executeOn(const Dispatcher::Executor& executor) {
  std::shared_ptr<AsyncCall> self = shared_from_this();
  try {
    executor([self] { self->run(); });
    return;
  } catch (...) {
    // The executor refused (it is shutting down, or out of threads): fail the call, as OkHttp
    // does with RejectedExecutionException.
  }
  failRejected(InterruptedIOException("executor rejected"));
  call_->client().dispatcher()->finished(self);
}

void AsyncCall::executeOn(FiberScheduler& fibers) {
  std::shared_ptr<AsyncCall> self = shared_from_this();
  try {
    // finished() runs on the carrier once the fiber has ended: a call it lets through then runs
    // on that same thread right after, with no hand-off (docs/performance.md, h2-mux).
    fibers.spawn([self] { self->runExchange(); },
                 [self] { self->call_->client().dispatcher()->finished(self); });
    return;
  } catch (...) {
    // The pool refused a carrier (it is shutting down), or no stack could be mapped.
  }
  failRejected(InterruptedIOException("executor rejected"));
  call_->client().dispatcher()->finished(self);
}

void AsyncCall::failRejected(const InterruptedIOException& e) {
  ScopedCallFrame frame(*call_->client().dispatcher());
  call_->noMoreExchanges(std::make_exception_ptr(e));
  try {
    callback_->onFailure(*call_, e);
  } catch (const std::exception& failure) {
    // The callback's own failure; it already had its answer, so there is no one else to tell.
    std::cerr << "tern: callback failure for " << call_->toLoggableString() << ": "
              << failure.what() << "\n";
  } catch (...) {
    std::cerr << "tern: callback failure for " << call_->toLoggableString() << "\n";
  }
}

void AsyncCall::run() {
  std::shared_ptr<AsyncCall> self = shared_from_this();
  runExchange();
  call_->client().dispatcher()->finished(self);
}

void AsyncCall::runExchange() {
  ScopedCallFrame frame(*call_->client().dispatcher());  // Ends before finished().
  call_->timeoutEnter();
  std::optional<Response> response;
  std::exception_ptr failure;  // Always an IOException.
  try {
    response.emplace(call_->getResponseWithInterceptorChain());
  } catch (const IOException&) {
    failure = std::current_exception();
  } catch (const std::exception& e) {
    // A bug in an interceptor: cancel the call so it releases what it holds, and report it.
    call_->cancel();
    failure = std::make_exception_ptr(IOException(std::string("canceled due to ") + e.what()));
  } catch (...) {
    call_->cancel();
    failure = std::make_exception_ptr(IOException("canceled due to an unknown exception"));
  }

  try {
    // The callback is the user's code: pinned to its thread while it runs (concurrent/fiber.h).
    Fiber::Pin pin;
    if (response) {
      callback_->onResponse(*call_, std::move(*response));
    } else {
      try {
        std::rethrow_exception(failure);
      } catch (const IOException& e) {
        callback_->onFailure(*call_, e);
      }
    }
  } catch (const std::exception& e) {
    // The callback's own failure; it already had its answer, so there is no one else to tell.
    std::cerr << "tern: callback failure for " << call_->toLoggableString() << ": " << e.what()
              << "\n";
  } catch (...) {
    std::cerr << "tern: callback failure for " << call_->toLoggableString() << "\n";
  }
}

}  // namespace tern::internal
