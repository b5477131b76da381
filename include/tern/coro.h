// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// C++20 coroutines over tern's asynchronous calls, the native counterpart of okhttp-coroutines:
//
//   tern::Task<std::string> fetch(tern::Client& client, tern::Request request) {
//     tern::Response response = co_await client.newCall(std::move(request))->executeAsync();
//     co_return co_await tern::stringAsync(*response.body());
//   }
//   std::string text = tern::syncWait(fetch(client, request));
//
// What is here:
//  - Call::executeAsync() (tern/call.h; CallAwaitable) and executeAsync(call) below: the call's
//    Response, or its IOException thrown with its dynamic type kept. A std::stop_token cancels
//    the call; so does destroying the coroutine that awaits it.
//  - readAsync(), stringAsync(), bytesAsync(): a response body's reads, which may block, run off
//    the awaiting thread. Bytes already in memory are read at once, without suspending.
//  - Task<T> and syncWait(), for programs without a coroutine library of their own. Every
//    awaitable here works in any coroutine type (Asio's awaitable, libunifex's task, yours).
//
// Threads. Without an executor a coroutine resumes on the thread that completed what it
// awaited: after executeAsync(), the dispatcher thread delivering the callback (code that runs
// there holds a dispatcher thread, as a Callback does); after a body read, the thread that did
// the read: awaited on a dispatcher thread, the read runs on the coroutine's own fiber there
// (parking, not blocking, while it waits), and the coroutine goes on on a dispatcher thread,
// maybe another one; elsewhere a "tern Async Body" thread. If what it awaited was over before
// the coroutine had finished suspending (a call the dispatcher refused), it goes on where it was.
// With an Executor (tern/call_awaitable.h) it always resumes through it, as `executor(resumeJob)`.
// Any callable taking a std::function<void()> will do:
//
//   Asio:      [ex](std::function<void()> job) { asio::post(ex, std::move(job)); }
//              (ex: an io_context's executor, or a strand to keep the coroutine serial)
//   libunifex: [sched](std::function<void()> job) { unifex::execute(sched, std::move(job)); }
//   a loop:    [&loop](std::function<void()> job) { loop.post(std::move(job)); }
//
// Lifetimes. An awaitable is awaited once, in a single co_await. Destroying a coroutine
// suspended in a call's co_await cancels the call; in a body read, it waits for that read to
// return (a read is bounded by the read timeout; Call::cancel() makes it return at once), since
// the read uses the caller's body and Buffer. Destroy a suspended coroutine on the thread it
// would resume on, or request stop instead: a destruction that races its own resumption is a
// race in the program.
//
// Compiling needs C++20 (-std=c++20): g++ 12 and clang 14 need nothing else. (clang 14 with
// -fsanitize=undefined fails on any coroutine, LLVM issue 49689: add -fno-sanitize=function.)
#pragma once

#include <condition_variable>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "tern/buffer.h"
#include "tern/buffered_source.h"
#include "tern/call.h"
#include "tern/call_awaitable.h"
#include "tern/export.h"
#include "tern/response.h"
#include "tern/response_body.h"
#include "tern/source.h"

namespace tern {

template <typename T = void>
class Task;

namespace detail {

// What Task's promises share: a lazy start, and at the end a symmetric transfer to the
// coroutine that awaited the task (no stack grows however long a chain of tasks is).
class TaskPromiseBase {
 public:
  std::suspend_always initial_suspend() const noexcept { return {}; }

  struct FinalAwaiter {
    bool await_ready() const noexcept { return false; }
    template <typename Promise>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> finished) const noexcept {
      return finished.promise().continuation;
    }
    void await_resume() const noexcept {}
  };
  FinalAwaiter final_suspend() const noexcept { return {}; }

  // Set when the task is awaited; resumed when it ends.
  std::coroutine_handle<> continuation = std::noop_coroutine();
};

template <typename T>
class TaskPromise final : public TaskPromiseBase {
 public:
  Task<T> get_return_object() noexcept;
  void return_value(T value) { result_.template emplace<1>(std::move(value)); }
  void unhandled_exception() noexcept { result_.template emplace<2>(std::current_exception()); }

  // The co_returned value, or the exception that escaped the body rethrown.
  T result() {
    if (result_.index() == 2) std::rethrow_exception(std::get<2>(result_));
    return std::move(std::get<1>(result_));
  }

 private:
  std::variant<std::monostate, T, std::exception_ptr> result_;
};

template <>
class TaskPromise<void> final : public TaskPromiseBase {
 public:
  Task<void> get_return_object() noexcept;
  void return_void() noexcept {}
  void unhandled_exception() noexcept { failure_ = std::current_exception(); }

  void result() {
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  std::exception_ptr failure_;
};

}  // namespace detail

// A lazy coroutine producing a T (cppcoro's task): the body starts when the task is awaited, runs
// on the awaiting thread until its first suspension, and when it ends resumes its awaiter by
// symmetric transfer. `co_await task` returns what the body co_returned, or rethrows what escaped
// it. Await a task once. Move-only; destroying a task destroys its coroutine (and what that
// awaits is canceled, as above). Not thread-safe: one awaiter.
template <typename T>
class [[nodiscard]] Task {
 public:
  static_assert(!std::is_reference_v<T>, "Task<T&> is not supported: return a pointer");
  using promise_type = detail::TaskPromise<T>;

  Task(Task&& other) noexcept : coroutine_(std::exchange(other.coroutine_, nullptr)) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      if (coroutine_) coroutine_.destroy();
      coroutine_ = std::exchange(other.coroutine_, nullptr);
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() {
    if (coroutine_) coroutine_.destroy();
  }

  class Awaiter {
   public:
    bool await_ready() const noexcept { return false; }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiting) const noexcept {
      coroutine_.promise().continuation = awaiting;
      return coroutine_;  // Starts the task's body.
    }
    T await_resume() const { return coroutine_.promise().result(); }

   private:
    friend class Task;
    explicit Awaiter(std::coroutine_handle<promise_type> coroutine) : coroutine_(coroutine) {}
    std::coroutine_handle<promise_type> coroutine_;
  };

  // Starts the task. The task must not be empty (moved from).
  Awaiter operator co_await() const noexcept { return Awaiter(coroutine_); }

 private:
  friend promise_type;
  explicit Task(std::coroutine_handle<promise_type> coroutine) noexcept : coroutine_(coroutine) {}
  std::coroutine_handle<promise_type> coroutine_;
};

namespace detail {

template <typename T>
Task<T> TaskPromise<T>::get_return_object() noexcept {
  return Task<T>(std::coroutine_handle<TaskPromise>::from_promise(*this));
}

inline Task<void> TaskPromise<void>::get_return_object() noexcept {
  return Task<void>(std::coroutine_handle<TaskPromise>::from_promise(*this));
}

// Opens once, when syncWait()'s driver ends.
class SyncWaitLatch {
 public:
  void open() {
    // Notified under the lock: the waiter cannot return, and destroy this latch, before.
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    opened_.notify_all();
  }
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    opened_.wait(lock, [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

// The coroutine syncWait() runs: awaits the task, keeps its outcome, and at its final suspension
// (when nothing touches the frame any more) opens the latch.
class SyncWaitDriver {
 public:
  struct promise_type {
    SyncWaitLatch* latch = nullptr;

    SyncWaitDriver get_return_object() noexcept {
      return SyncWaitDriver(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() const noexcept { return {}; }
    auto final_suspend() const noexcept {
      struct OpenLatch {
        bool await_ready() const noexcept { return false; }
        void await_suspend(std::coroutine_handle<promise_type> driver) const noexcept {
          driver.promise().latch->open();
        }
        void await_resume() const noexcept {}
      };
      return OpenLatch{};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }  // driveTask() catches everything.
  };

  SyncWaitDriver(SyncWaitDriver&& other) noexcept
      : coroutine_(std::exchange(other.coroutine_, nullptr)) {}
  SyncWaitDriver& operator=(SyncWaitDriver&&) = delete;
  ~SyncWaitDriver() {
    if (coroutine_) coroutine_.destroy();
  }

  // Runs the driver on this thread until it suspends, then blocks until it ends.
  void run() {
    SyncWaitLatch latch;
    coroutine_.promise().latch = &latch;
    coroutine_.resume();
    latch.wait();
  }

 private:
  explicit SyncWaitDriver(std::coroutine_handle<promise_type> coroutine) : coroutine_(coroutine) {}
  std::coroutine_handle<promise_type> coroutine_;
};

template <typename T>
using SyncWaitValue = std::conditional_t<std::is_void_v<T>, std::monostate, T>;

template <typename T>
SyncWaitDriver driveTask(Task<T>& task, Outcome<SyncWaitValue<T>>& outcome) {
  try {
    if constexpr (std::is_void_v<T>) {
      co_await task;
      outcome.value.emplace();
    } else {
      outcome.value.emplace(co_await task);
    }
  } catch (...) {
    outcome.failure = std::current_exception();
  }
}

}  // namespace detail

// Runs `task` to its end, blocking the calling thread, and returns its value or rethrows its
// exception: the bridge from ordinary code into coroutines (cppcoro's sync_wait). The task starts
// on this thread and, after each suspension, runs wherever it is resumed (the dispatcher, an
// executor); this thread only waits. Don't call it where the task needs this very thread to go
// on (inside the executor the task resumes on), nor on a dispatcher thread.
template <typename T>
T syncWait(Task<T> task) {
  detail::Outcome<detail::SyncWaitValue<T>> outcome;
  {
    detail::SyncWaitDriver driver = detail::driveTask(task, outcome);
    driver.run();
  }
  if constexpr (std::is_void_v<T>) {
    outcome.take();
  } else {
    return outcome.take();
  }
}

// Calls ---------------------------------------------------------------------------------------

// `co_await executeAsync(call)`: the free-function spelling of call->executeAsync() (same
// behavior, see CallAwaitable). Throws std::invalid_argument if `call` is null.
inline CallAwaitable executeAsync(std::shared_ptr<Call> call, std::stop_token stopToken = {},
                                  Executor executor = {}) {
  return CallAwaitable(std::move(call), std::move(stopToken), std::move(executor));
}
inline CallAwaitable executeAsync(std::shared_ptr<Call> call, Executor executor) {
  return CallAwaitable(std::move(call), {}, std::move(executor));
}

// Bodies --------------------------------------------------------------------------------------

namespace detail {

// Runs `job`, which may block, on a thread of tern's: where the body awaitables run their reads.
// `job` runs once and catches its own failures. Throws std::logic_error after tern shut its
// threads down (during exit).
TERN_API void runBlocking(std::function<void()> job);

// The operations the body awaitables run: small values, so an awaitable that completes at once
// allocates nothing.
struct ReadOperation {
  Source* source;
  Buffer* sink;
  int64_t byteCount;
  int64_t operator()() const { return source->read(*sink, byteCount); }
};
struct StringOperation {
  ResponseBody* body;
  std::string operator()() const { return body->string(); }
};
struct BytesOperation {
  ResponseBody* body;
  std::vector<std::byte> operator()() const { return body->bytes(); }
};

}  // namespace detail

// What readAsync(), stringAsync() and bytesAsync() return: runs `Operation` (a read that may
// block) and resumes with its result, or rethrows what it threw (IOException: the call was
// canceled, the peer broke off, a read timed out). When ready (the bytes are in memory) the
// operation runs in await_resume, on the awaiting thread, without suspending; otherwise on a
// fiber (detail::runBlocking: a read waiting on the network holds no thread): the one the
// coroutine runs on if it was resumed by an enqueued call (no hand-off), else one of the
// "tern Async Body" threads; and the coroutine resumes on one of them or through the
// executor (or, without one, goes on on the awaiting thread if the read was over before the
// coroutine had finished suspending). Awaited once; move-only. Destroying the coroutine while
// the read runs blocks until it returns (see the top of this file).
template <typename Operation>
class [[nodiscard]] BodyAwaitable {
 public:
  using Result = std::invoke_result_t<const Operation&>;

  BodyAwaitable(bool ready, Operation operation, Executor executor)
      : ready_(ready), operation_(operation), executor_(std::move(executor)) {}
  ~BodyAwaitable() {
    // The read uses the caller's source and Buffer, which may live in the frame being destroyed.
    if (completion_ && completion_->abandon()) completion_->awaitCompletion();
  }
  BodyAwaitable(BodyAwaitable&&) noexcept = default;
  BodyAwaitable& operator=(BodyAwaitable&&) = delete;
  BodyAwaitable(const BodyAwaitable&) = delete;
  BodyAwaitable& operator=(const BodyAwaitable&) = delete;

  bool await_ready() const noexcept { return ready_; }

  bool await_suspend(std::coroutine_handle<> awaiting) {
    completion_.emplace(std::move(executor_));
    outcome_ = std::make_shared<detail::Outcome<Result>>();
    return completion_->suspend(awaiting, [this] {
      detail::runBlocking(
          [operation = operation_, outcome = outcome_, completion = *completion_]() mutable {
            try {
              outcome->value.emplace(operation());
            } catch (...) {
              outcome->failure = std::current_exception();  // Rethrown by await_resume().
            }
            outcome.reset();  // See Completion::complete().
            completion.complete();
          });
    });
  }

  Result await_resume() { return ready_ ? operation_() : outcome_->take(); }

 private:
  bool ready_;
  Operation operation_;
  Executor executor_;
  std::optional<detail::Completion> completion_;  // From await_suspend() on.
  std::shared_ptr<detail::Outcome<Result>> outcome_;
};

// `co_await readAsync(source, sink, byteCount)`: Source::read() without blocking the coroutine's
// thread. Moves at least 1 and up to `byteCount` bytes from `source` to `sink` and returns how
// many, or -1 at the end of the stream. Ready at once (no suspension, no other thread) when
// `source` is a BufferedSource with bytes in its buffer(), a Buffer, or byteCount <= 0: then the
// read only moves what is there. So reading a streamed body in chunks suspends only when its
// buffer runs dry. `source` and `sink` must outlive the co_await.
inline BodyAwaitable<detail::ReadOperation> readAsync(Source& source, Buffer& sink,
                                                      int64_t byteCount, Executor executor = {}) {
  auto* buffered = dynamic_cast<BufferedSource*>(&source);
  bool ready = byteCount <= 0 || dynamic_cast<Buffer*>(&source) != nullptr ||
               (buffered != nullptr && buffered->buffer().size() > 0);
  return {ready, detail::ReadOperation{&source, &sink, byteCount}, std::move(executor)};
}

// readAsync() on the body's source().
inline BodyAwaitable<detail::ReadOperation> readAsync(ResponseBody& body, Buffer& sink,
                                                      int64_t byteCount, Executor executor = {}) {
  return readAsync(body.source(), sink, byteCount, std::move(executor));
}

// `co_await stringAsync(body)`: ResponseBody::string() (the whole body, decoded, then closed)
// without blocking the coroutine's thread. Ready at once when the body is in memory (its source
// is a Buffer: ResponseBody::create(), Response::peekBody()). `body` must outlive the co_await.
inline BodyAwaitable<detail::StringOperation> stringAsync(ResponseBody& body,
                                                          Executor executor = {}) {
  bool ready = dynamic_cast<Buffer*>(&body.source()) != nullptr;
  return {ready, detail::StringOperation{&body}, std::move(executor)};
}

// `co_await bytesAsync(body)`: ResponseBody::bytes(), as stringAsync().
inline BodyAwaitable<detail::BytesOperation> bytesAsync(ResponseBody& body,
                                                        Executor executor = {}) {
  bool ready = dynamic_cast<Buffer*>(&body.source()) != nullptr;
  return {ready, detail::BytesOperation{&body}, std::move(executor)};
}

}  // namespace tern
