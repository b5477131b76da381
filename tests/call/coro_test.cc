// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The coroutine API (tern/coro.h) over MockWebServer: executeAsync's response and failures, stop
// tokens, destroying a waiting coroutine, executors, many coroutines over HTTP/2, body reads.
#include "tern/coro.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <coroutine>
#include <cstdlib>
#include <deque>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "call/call_fixture.h"
#include "call/https_fixture.h"
#include "support/thread_count.h"

namespace tern::testing {
namespace {

// A single-thread event loop, as a program without Asio would write one: executor() posts a job
// to it. Runs the jobs left at destruction, then stops.
class EventLoop {
 public:
  EventLoop() : thread_([this] { run(); }) {}
  ~EventLoop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  Executor executor() {
    return [this](std::function<void()> job) {
      // Notified under the lock: the job may end the test and destroy the loop at once.
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back(std::move(job));
      changed_.notify_all();
    };
  }

  std::thread::id threadId() const { return thread_.get_id(); }

 private:
  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      changed_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // Stopping, and nothing left to run.
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::thread thread_;  // Last: starts once the rest is ready.
};

// A coroutine type of the test's own, not tern::Task, as a framework's would be: it starts at
// once, and its owner may destroy it while it is suspended.
class Spawned {
 public:
  struct promise_type {
    Spawned get_return_object() {
      return Spawned(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }
  };
  Spawned(Spawned&& other) noexcept : coroutine_(std::exchange(other.coroutine_, nullptr)) {}
  ~Spawned() {
    if (coroutine_) coroutine_.destroy();
  }

 private:
  explicit Spawned(std::coroutine_handle<promise_type> coroutine) : coroutine_(coroutine) {}
  std::coroutine_handle<promise_type> coroutine_;
};

// Another: fire and forget; the frame frees itself at the end.
struct Detached {
  struct promise_type {
    Detached get_return_object() { return {}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }
  };
};

// Counts down to zero; the test waits for it with a deadline.
class CountDown {
 public:
  explicit CountDown(int count) : count_(count) {}
  void countDown() {
    std::lock_guard<std::mutex> lock(mutex_);  // Notified under the lock: see SyncWaitLatch.
    --count_;
    zero_.notify_all();
  }
  bool await(std::chrono::seconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    return zero_.wait_for(lock, timeout, [this] { return count_ == 0; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable zero_;
  int count_;
};

// Sets a flag when destroyed: a coroutine parameter that tells when its frame went.
struct FrameGuard {
  std::shared_ptr<std::atomic<bool>> destroyed;
  FrameGuard(const FrameGuard&) = delete;
  FrameGuard(FrameGuard&& other) noexcept : destroyed(std::move(other.destroyed)) {}
  explicit FrameGuard(std::shared_ptr<std::atomic<bool>> flag) : destroyed(std::move(flag)) {}
  ~FrameGuard() {
    if (destroyed) *destroyed = true;
  }
};

std::string threadName() {
  char name[16] = {};
  pthread_getname_np(pthread_self(), name, sizeof(name));
  return name;
}

// What `f` threw, as "Type: message", naming the most derived of the types a call throws.
std::string failureOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const SocketTimeoutException& e) {
    return std::string("SocketTimeoutException: ") + e.what();
  } catch (const InterruptedIOException& e) {
    return std::string("InterruptedIOException: ") + e.what();
  } catch (const ConnectException& e) {
    return std::string("ConnectException: ") + e.what();
  } catch (const UnknownHostException& e) {
    return std::string("UnknownHostException: ") + e.what();
  } catch (const ProtocolException& e) {
    return std::string("ProtocolException: ") + e.what();
  } catch (const EOFException& e) {
    return std::string("EOFException: ") + e.what();
  } catch (const IOException& e) {
    return std::string("IOException: ") + e.what();
  } catch (const std::logic_error& e) {
    return std::string("logic_error: ") + e.what();
  }
  return "nothing thrown";
}

// The response's code and body, read with stringAsync().
Task<std::string> fetchText(std::shared_ptr<Call> call, std::stop_token stopToken = {}) {
  Response response = co_await call->executeAsync(std::move(stopToken));
  std::string body = co_await stringAsync(*response.body());
  co_return std::to_string(response.code()) + " " + body;
}

Task<int> awaitCode(CallAwaitable awaitable) {
  Response response = co_await awaitable;
  co_return response.code();
}

using CoroTest = CallFixture;

TEST_F(CoroTest, ExecuteAsyncReturnsTheResponse) {
  server.enqueue(MockResponse::Builder()
                     .code(201)
                     .addHeader("Content-Type", "text/plain")
                     .body("abc")
                     .build());
  auto task = [](std::shared_ptr<Call> call) -> Task<Response> {
    co_return co_await call->executeAsync();
  };
  Response response = syncWait(task(client.newCall(get("/a"))));
  EXPECT_EQ(response.code(), 201);
  EXPECT_EQ(response.header("Content-Type"), "text/plain");
  EXPECT_EQ(response.request().url().toString(), url("/a"));
  EXPECT_EQ(response.body()->string(), "abc");
  EXPECT_EQ(server.takeRequest().path(), "/a");
}

TEST_F(CoroTest, FreeFunctionAndStringAsync) {
  server.enqueue(body("hello"));
  auto task = [](std::shared_ptr<Call> call) -> Task<std::string> {
    Response response = co_await executeAsync(std::move(call));
    co_return co_await stringAsync(*response.body());
  };
  EXPECT_EQ(syncWait(task(client.newCall(get()))), "hello");
}

TEST_F(CoroTest, ResumesOnTheDispatcherThreadByDefault) {
  server.enqueue(body("abc"));
  auto task = [](std::shared_ptr<Call> call) -> Task<std::thread::id> {
    co_await call->executeAsync();
    co_return std::this_thread::get_id();
  };
  std::thread::id resumedOn = syncWait(task(client.newCall(get())));
  EXPECT_NE(resumedOn, std::this_thread::get_id());
}

TEST_F(CoroTest, TheAwaitableKeepsTheCallAlive) {
  server.enqueue(MockResponse::Builder().code(202).build());
  // The only reference to the call is the awaitable's: newCall()'s shared_ptr is gone.
  CallAwaitable awaitable = client.newCall(get())->executeAsync();
  EXPECT_EQ(syncWait(awaitCode(std::move(awaitable))), 202);
}

TEST_F(CoroTest, ConnectFailureThrowsConnectException) {
  ClosedPort closed;
  std::string target = "http://127.0.0.1:" + std::to_string(closed.port()) + "/";
  std::shared_ptr<Call> call = client.newCall(Request::Builder().url(target).build());
  std::string failure = failureOf([&] { syncWait(fetchText(call)); });
  EXPECT_EQ(failure.rfind("ConnectException: Failed to connect to 127.0.0.1:", 0), 0u) << failure;
}

TEST_F(CoroTest, UnknownHostThrowsUnknownHostException) {
  Client noHosts = client.newBuilder().dns(std::make_shared<FakeDns>()).build();
  std::shared_ptr<Call> call =
      noHosts.newCall(Request::Builder().url("http://nowhere.test/").build());
  EXPECT_EQ(failureOf([&] { syncWait(fetchText(call)); }),
            "UnknownHostException: FakeDns: unknown host nowhere.test");
}

TEST_F(CoroTest, ServerDisconnectThrowsWhatExecuteThrows) {
  server.setDispatcher([](const RecordedRequest&) {
    return MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAfterRequest{}).build();
  });
  std::string blocking = failureOf([&] { client.newCall(get())->execute(); });
  std::string coroutine = failureOf([&] { syncWait(fetchText(client.newCall(get()))); });
  EXPECT_NE(blocking, "nothing thrown");
  EXPECT_EQ(coroutine, blocking);
}

// An IOException of the application's own, as an interceptor may throw.
class QuotaExceededException : public IOException {
 public:
  QuotaExceededException(const std::string& message, int remaining)
      : IOException(message), remaining_(remaining) {}
  int remaining() const { return remaining_; }

 private:
  int remaining_;
};

TEST_F(CoroTest, AnInterceptorsOwnExceptionKeepsItsType) {
  Client quota = client.newBuilder()
                     .addInterceptor([](Interceptor::Chain&) -> Response {
                       throw QuotaExceededException("quota exceeded", 7);
                     })
                     .build();
  auto task = [](std::shared_ptr<Call> call) -> Task<std::string> {
    try {
      co_await call->executeAsync();
    } catch (const QuotaExceededException& e) {
      co_return std::string(e.what()) + ", " + std::to_string(e.remaining()) + " left";
    } catch (const IOException& e) {
      co_return std::string("sliced: ") + e.what();
    }
    co_return "no failure";
  };
  EXPECT_EQ(syncWait(task(quota.newCall(get()))), "quota exceeded, 7 left");
}

TEST_F(CoroTest, AwaitingAnExecutedCallThrows) {
  server.enqueue(body("once"));
  std::shared_ptr<Call> call = client.newCall(get());
  EXPECT_EQ(syncWait(fetchText(call)), "200 once");
  EXPECT_EQ(failureOf([&] { syncWait(fetchText(call)); }), "logic_error: Already Executed");
}

TEST_F(CoroTest, ShutDownClientFailsWithoutSuspending) {
  // enqueue() reports the failure before it returns, so the coroutine goes on on this thread.
  client.shutdown();
  auto task = [](std::shared_ptr<Call> call) -> Task<std::thread::id> {
    try {
      co_await call->executeAsync();
    } catch (const InterruptedIOException& e) {
      EXPECT_STREQ(e.what(), "client is shut down");
    }
    co_return std::this_thread::get_id();
  };
  EXPECT_EQ(syncWait(task(client.newCall(get()))), std::this_thread::get_id());
}

TEST_F(CoroTest, StopRequestCancelsTheCall) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::NoResponse{}).build());
  std::shared_ptr<Call> call = client.newCall(get());
  std::stop_source stop;
  std::thread stopper([&] {
    // Once the request is at the server, the call is waiting for a response that never comes.
    EXPECT_TRUE(server.takeRequest(5s).has_value());
    stop.request_stop();
  });
  auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(failureOf([&] { syncWait(fetchText(call, stop.get_token())); }),
            "InterruptedIOException: Canceled");
  stopper.join();
  EXPECT_TRUE(call->isCanceled());
  EXPECT_LT(std::chrono::steady_clock::now() - started, 4s);  // Not the 5 s read timeout.
}

TEST_F(CoroTest, StopRequestedBeforeTheAwaitCancelsAtOnce) {
  std::stop_source stop;
  stop.request_stop();
  std::shared_ptr<Call> call = client.newCall(get());
  EXPECT_EQ(failureOf([&] { syncWait(fetchText(call, stop.get_token())); }),
            "InterruptedIOException: Canceled");
  EXPECT_TRUE(call->isCanceled());
  EXPECT_EQ(server.requestCount(), 0);
}

TEST_F(CoroTest, StopAfterTheResponseLeavesItAlone) {
  server.enqueue(MockResponse::Builder().chunkedBody("still readable", 3).build());
  std::stop_source stop;
  auto task = [](std::shared_ptr<Call> call, std::stop_source stop) -> Task<std::string> {
    Response response = co_await call->executeAsync(stop.get_token());
    stop.request_stop();  // The call has answered: there is nothing left to cancel.
    co_return co_await stringAsync(*response.body());
  };
  std::shared_ptr<Call> call = client.newCall(get());
  EXPECT_EQ(syncWait(task(call, stop)), "still readable");
  EXPECT_FALSE(call->isCanceled());
}

TEST_F(CoroTest, DestroyingTheAwaitingCoroutineCancelsTheCall) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::NoResponse{}).build());
  std::shared_ptr<Call> call = client.newCall(get());
  auto frameDestroyed = std::make_shared<std::atomic<bool>>(false);
  std::atomic<bool> resumed = false;
  {
    // The outer coroutine awaits a Task that awaits the call: destroying the outer one destroys
    // the Task, whose frame holds the suspended co_await.
    auto outer = [](std::shared_ptr<Call> call, std::atomic<bool>& resumed,
                    [[maybe_unused]] FrameGuard guard) -> Spawned {
      co_await fetchText(std::move(call));
      resumed = true;
    };
    Spawned spawned = outer(call, resumed, FrameGuard(frameDestroyed));
    ASSERT_TRUE(server.takeRequest(5s).has_value());  // The call is waiting for its response.
    EXPECT_FALSE(call->isCanceled());
    EXPECT_FALSE(*frameDestroyed);
  }
  EXPECT_TRUE(*frameDestroyed);
  EXPECT_TRUE(call->isCanceled());
  // The callback comes late, into a state nobody waits on (ASan and TSan watch it), and the
  // dispatcher is done with the call.
  EXPECT_TRUE(eventually([&] { return client.dispatcher()->runningCallsCount() == 0; }));
  EXPECT_FALSE(resumed);
  server.enqueue(body("next"));
  EXPECT_EQ(fetch(), "next");
}

TEST_F(CoroTest, DestroyingAfterTheResponseArrivedClosesIt) {
  // The coroutine resumes through an executor whose jobs the test holds: the response has come,
  // the resumption is posted, and the coroutine is destroyed before it runs.
  server.enqueue(body("never read"));
  std::mutex mutex;
  std::vector<std::function<void()>> posted;
  Executor holdJobs = [&](std::function<void()> job) {
    std::lock_guard<std::mutex> lock(mutex);
    posted.push_back(std::move(job));
  };
  std::shared_ptr<Call> call = client.newCall(get());
  std::atomic<bool> resumed = false;
  {
    auto awaitCall = [](std::shared_ptr<Call> call, Executor executor,
                        std::atomic<bool>& resumed) -> Spawned {
      co_await call->executeAsync(std::move(executor));
      resumed = true;
    };
    Spawned spawned = awaitCall(call, holdJobs, resumed);
    ASSERT_TRUE(eventually([&] {
      std::lock_guard<std::mutex> lock(mutex);
      return posted.size() == 1;
    }));
  }
  // The response was closed, not the call canceled: its connection is back in the pool.
  EXPECT_FALSE(call->isCanceled());
  EXPECT_TRUE(eventually([&] { return client.connectionPool()->idleConnectionCount() == 1; }));
  posted[0]();  // The posted resumption finds the coroutine gone and resumes nothing.
  EXPECT_FALSE(resumed);
}

TEST_F(CoroTest, ExecutorResumesOnItsThread) {
  server.enqueue(MockResponse::Builder().body("abc").bodyDelay(50ms).build());
  EventLoop loop;
  struct Threads {
    std::thread::id afterCall;
    std::thread::id afterBody;
    std::string body;
  };
  auto task = [](std::shared_ptr<Call> call, Executor executor) -> Task<Threads> {
    Threads threads;
    Response response = co_await call->executeAsync(executor);
    threads.afterCall = std::this_thread::get_id();
    threads.body = co_await stringAsync(*response.body(), executor);
    threads.afterBody = std::this_thread::get_id();
    co_return threads;
  };
  Threads threads = syncWait(task(client.newCall(get()), loop.executor()));
  EXPECT_EQ(threads.afterCall, loop.threadId());
  EXPECT_EQ(threads.afterBody, loop.threadId());
  EXPECT_EQ(threads.body, "abc");
}

TEST_F(CoroTest, ExecutorAndStopTokenTogether) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::NoResponse{}).build());
  EventLoop loop;
  std::stop_source stop;
  // The failure resumes on the loop too.
  auto onLoop = [](std::shared_ptr<Call> call, std::stop_token token, Executor executor,
                   std::thread::id loopThread) -> Task<std::string> {
    try {
      co_await call->executeAsync(std::move(token), std::move(executor));
      co_return "response";
    } catch (const InterruptedIOException& e) {
      co_return std::string(e.what()) +
          (std::this_thread::get_id() == loopThread ? " on the loop" : " elsewhere");
    }
  };
  std::thread stopper([&] {
    EXPECT_TRUE(server.takeRequest(5s).has_value());
    stop.request_stop();
  });
  EXPECT_EQ(
      syncWait(onLoop(client.newCall(get()), stop.get_token(), loop.executor(), loop.threadId())),
      "Canceled on the loop");
  stopper.join();
}

// Awaits `call` (resumed through `executor`, if any), then reads its body 3 bytes at a time;
// returns the body and the name of the thread the first read that waited resumed on.
Task<std::string> readInThrees(std::shared_ptr<Call> call, Executor executor) {
  Response response = co_await call->executeAsync(executor);
  Buffer sink;
  auto first = readAsync(*response.body(), sink, 3);
  EXPECT_FALSE(first.await_ready());  // Nothing of the body is buffered yet.
  EXPECT_EQ(co_await first, 3);
  std::string thread = threadName();
  while (co_await readAsync(*response.body(), sink, 3) != -1) {
  }
  co_return sink.readUtf8() + " read on " + thread;
}

TEST_F(CoroTest, ReadAsyncOnANetworkBodyWaitsOnTheCoroutinesOwnFiber) {
  // Resumed by executeAsync() on a dispatcher thread, the coroutine is on a fiber there: a read
  // that must wait runs on that fiber, parked while it waits, with no hand-off to another pool.
  server.enqueue(MockResponse::Builder().body("abcdef").bodyDelay(50ms).build());
  EXPECT_EQ(syncWait(readInThrees(client.newCall(get()), {})), "abcdef read on tern Dispatcher");
}

TEST_F(CoroTest, ReadAsyncOffTheDispatcherReadsOnAnotherThread) {
  // A coroutine on a thread of its own (here an event loop's, through an executor) hands a read
  // that must wait to the "tern Async Body" threads, and resumes on the one that read.
  server.enqueue(MockResponse::Builder().body("abcdef").bodyDelay(50ms).build());
  EventLoop loop;
  EXPECT_EQ(syncWait(readInThrees(client.newCall(get()), loop.executor())),
            "abcdef read on tern Async Body");
}

TEST_F(CoroTest, BufferedBytesReadWithoutSuspending) {
  server.enqueue(body("abcdef"));
  auto task = [](std::shared_ptr<Call> call) -> Task<std::string> {
    Response response = co_await call->executeAsync();
    ResponseBody& body = *response.body();
    EXPECT_TRUE(body.source().request(6));  // Blocks here: now the whole body is buffered.
    std::thread::id before = std::this_thread::get_id();
    Buffer sink;
    auto read = readAsync(body, sink, 4);
    EXPECT_TRUE(read.await_ready());
    EXPECT_EQ(co_await read, 4);
    EXPECT_EQ(co_await readAsync(body, sink, 100), 2);  // Only what is buffered: no waiting.
    EXPECT_EQ(std::this_thread::get_id(), before);      // No thread switch either.
    co_return sink.readUtf8();
  };
  EXPECT_EQ(syncWait(task(client.newCall(get()))), "abcdef");
}

// A Source over another that tells when a read has begun (on the thread that reads).
class SignalingSource final : public Source {
 public:
  SignalingSource(Source& source, std::atomic<bool>& reading)
      : source_(source), reading_(reading) {}
  int64_t read(Buffer& sink, int64_t byteCount) override {
    reading_ = true;
    return source_.read(sink, byteCount);
  }
  Timeout& timeout() override { return source_.timeout(); }
  void close() override { source_.close(); }

 private:
  Source& source_;
  std::atomic<bool>& reading_;
};

TEST_F(CoroTest, DestroyingACoroutineInABodyReadWaitsForTheRead) {
  server.enqueue(MockResponse::Builder().bodyDelay(3s).body("late").build());
  std::shared_ptr<Call> call = client.newCall(get());
  std::atomic<bool> reading = false;
  std::atomic<bool> resumed = false;
  auto readBody = [](std::shared_ptr<Call> call, std::atomic<bool>& reading,
                     std::atomic<bool>& resumed) -> Spawned {
    Response response = co_await call->executeAsync();
    // The body, its source and the sink live in this frame; the read uses them on another
    // thread.
    SignalingSource source(response.body()->source(), reading);
    Buffer sink;
    co_await readAsync(source, sink, 100);
    resumed = true;
  };
  std::optional<Spawned> spawned(readBody(call, reading, resumed));
  ASSERT_TRUE(eventually([&] { return reading.load(); }));  // Blocked: the body comes in 3 s.
  auto destroying = std::chrono::steady_clock::now();
  std::thread canceler([&] {
    std::this_thread::sleep_for(200ms);
    call->cancel();  // Makes the read throw at once.
  });
  spawned.reset();  // Waits for the read to return before the frame goes.
  auto waited = std::chrono::steady_clock::now() - destroying;
  canceler.join();
  EXPECT_GE(waited, 200ms);
  EXPECT_LT(waited, 2500ms);  // The cancel ended the read, not the body's arrival.
  EXPECT_FALSE(resumed);
  EXPECT_TRUE(call->isCanceled());
}

TEST_F(CoroTest, InMemoryBodiesCompleteWithoutSuspending) {
  auto task = []() -> Task<std::string> {
    std::thread::id before = std::this_thread::get_id();
    ResponseBody text = ResponseBody::create("in memory");
    auto string = stringAsync(text);
    EXPECT_TRUE(string.await_ready());
    std::string result = co_await string;

    ResponseBody bytes =
        ResponseBody::create(std::vector<std::byte>{std::byte{'h'}, std::byte{'i'}});
    EXPECT_TRUE(bytesAsync(bytes).await_ready());
    std::vector<std::byte> hi = co_await bytesAsync(bytes);
    result += " " + std::string(reinterpret_cast<const char*>(hi.data()), hi.size());

    Buffer source;
    Buffer sink;
    EXPECT_EQ(co_await readAsync(source, sink, 10), -1);  // An empty Buffer is at its end.
    EXPECT_EQ(std::this_thread::get_id(), before);
    co_return result;
  };
  EXPECT_EQ(syncWait(task()), "in memory hi");
}

TEST_F(CoroTest, PeekedBodyIsInMemory) {
  server.enqueue(body("peek at me"));
  auto task = [](std::shared_ptr<Call> call) -> Task<std::string> {
    Response response = co_await call->executeAsync();
    ResponseBody peeked = response.peekBody(4);
    auto string = stringAsync(peeked);
    EXPECT_TRUE(string.await_ready());
    std::string head = co_await string;
    co_return head + "|" + co_await stringAsync(*response.body());
  };
  EXPECT_EQ(syncWait(task(client.newCall(get()))), "peek|peek at me");
}

TEST_F(CoroTest, LargeStreamedBodyInChunks) {
  constexpr int64_t kKiB = 1024;
  std::string content;
  for (int i = 0; content.size() < 1024 * kKiB; ++i) {
    content += "line " + std::to_string(i) + "\n";
  }
  server.enqueue(MockResponse::Builder()
                     .chunkedBody(content, 16 * kKiB)
                     .throttleBody(256 * kKiB, 20ms)  // So some reads must wait.
                     .build());
  struct Result {
    std::string body;
    int reads = 0;
    int suspendedReads = 0;
    // After each read that suspended: on the thread that read (the coroutine's own fiber, on a
    // dispatcher thread), or (a read done before the coroutine finished suspending) on the one
    // that awaited.
    bool resumedWhereExpected = true;
  };
  auto task = [](std::shared_ptr<Call> call) -> Task<Result> {
    Result result;
    Response response = co_await call->executeAsync();
    Buffer sink;
    while (true) {
      auto read = readAsync(*response.body(), sink, 8192);
      bool suspends = !read.await_ready();
      std::thread::id awaiting = std::this_thread::get_id();
      int64_t n = co_await read;
      if (suspends) {
        ++result.suspendedReads;
        if (threadName() != "tern Dispatcher" && std::this_thread::get_id() != awaiting) {
          result.resumedWhereExpected = false;
        }
      }
      if (n == -1) break;
      EXPECT_GT(n, 0);
      EXPECT_LE(n, 8192);
      ++result.reads;
    }
    result.body = sink.readUtf8();
    co_return result;
  };
  Result result = syncWait(task(client.newCall(get())));
  EXPECT_EQ(result.body.size(), content.size());
  EXPECT_TRUE(result.body == content);
  EXPECT_GE(result.reads, static_cast<int>(content.size() / 8192));
  EXPECT_GE(result.suspendedReads, 4);  // At least one per throttle period.
  EXPECT_TRUE(result.resumedWhereExpected);
  EXPECT_TRUE(eventually([&] { return client.connectionPool()->idleConnectionCount() == 1; }));
}

TEST_F(CoroTest, BodyReadFailureIsRethrownAsTheBlockingReadThrowsIt) {
  MockResponse brokenOff = MockResponse::Builder()
                               .body(std::string(64 * 1024, 'x'))
                               .socketPolicy(SocketPolicy::DisconnectDuringResponseBody{})
                               .build();
  server.enqueue(brokenOff);
  server.enqueue(brokenOff);
  std::string blocking = failureOf([&] { execute().body()->string(); });
  auto task = [](std::shared_ptr<Call> call) -> Task<std::string> {
    Response response = co_await call->executeAsync();
    co_return co_await stringAsync(*response.body());
  };
  std::string coroutine = failureOf([&] { syncWait(task(client.newCall(get()))); });
  EXPECT_NE(blocking, "nothing thrown");
  EXPECT_EQ(coroutine, blocking);
}

TEST_F(CoroTest, TaskPropagatesValuesAndExceptionsThroughAwaits) {
  auto inner = [](int x) -> Task<int> {
    if (x < 0) throw std::invalid_argument("negative");
    co_return x * 2;
  };
  auto outer = [inner](int x) -> Task<int> { co_return co_await inner(x) + 1; };
  auto nothing = []() -> Task<> { co_return; };
  EXPECT_EQ(syncWait(outer(20)), 41);
  EXPECT_THROW(syncWait(outer(-1)), std::invalid_argument);
  syncWait(nothing());
  // A deep chain of tasks that complete synchronously does not grow the stack (symmetric
  // transfer): each resumes its awaiter by a tail call.
  struct Chain {
    static Task<int> depth(int n) {
      if (n == 0) co_return 0;  // (Not `?:`: g++ 12 evaluates a co_await in one eagerly.)
      co_return 1 + co_await depth(n - 1);
    }
  };
  EXPECT_EQ(syncWait(Chain::depth(10000)), 10000);
}

using CoroHttpsTest = HttpsFixture;

// A test-owned coroutine type awaiting executeAsync() and stringAsync() directly.
Detached fetchInto(Client& client, Request request, std::string& body, Protocol& protocol,
                   CountDown& done) {
  try {
    Response response = co_await client.newCall(std::move(request))->executeAsync();
    protocol = response.protocol();
    body = co_await stringAsync(*response.body());
  } catch (const IOException& e) {
    body = std::string("failed: ") + e.what();
  }
  done.countDown();  // After the response is gone: the test may end from here on.
}

// A coroutine awaiting a call and its body, stopped (or not) by `stop` at some moment: counts
// once in `ended`, and in `wrongBodies` if it got a body not its own.
Detached fetchUntilStopped(Client& client, Request request, std::string expected,
                           std::stop_token stop, std::atomic<int>& wrongBodies, CountDown& ended) {
  try {
    Response response = co_await client.newCall(std::move(request))->executeAsync(stop);
    if (co_await stringAsync(*response.body()) != expected) ++wrongBodies;
  } catch (const IOException&) {
    // Stopped somewhere along the way.
  }
  ended.countDown();
}

TEST_F(CoroHttpsTest, StopsRequestedAtRandomMomentsEndEachCoroutineOnce) {
  // Stop requests race the call's progress (queued, parked on its stream, its body read on the
  // coroutine's fiber, the resumption): every coroutine ends once, with its own body or an
  // IOException. CI runs this under TSan. The server answers nothing until every coroutine has
  // started, so the stops race calls in flight (under TSan most calls could end first otherwise).
  constexpr int kCount = 200;
  std::promise<void> started;
  server.setDispatcher(
      [startedFuture = started.get_future().share()](const RecordedRequest& request) {
        startedFuture.wait_for(10s);
        const int n = std::atoi(request.path().substr(1).c_str());
        return MockResponse::Builder()
            .body("body of " + request.path())
            .headersDelay(std::chrono::milliseconds(n % 5))
            .bodyDelay(std::chrono::milliseconds(n % 3))
            .build();
      });
  client.dispatcher()->setMaxRequests(50);
  client.dispatcher()->setMaxRequestsPerHost(50);
  std::vector<std::stop_source> stops(kCount);
  std::atomic<int> wrongBodies{0};
  CountDown ended(kCount);
  for (int i = 0; i < kCount; ++i) {
    const std::string path = "/" + std::to_string(i);
    fetchUntilStopped(client, get(path), "body of " + path, stops[i].get_token(), wrongBodies,
                      ended);
  }
  started.set_value();
  std::mt19937 random(7);
  for (int i = 0; i < kCount; ++i) {
    std::this_thread::sleep_for(std::chrono::microseconds(random() % 500));
    if (random() % 2 == 0) stops[random() % kCount].request_stop();
  }
  ASSERT_TRUE(ended.await(60s));
  EXPECT_EQ(wrongBodies.load(), 0);
  EXPECT_TRUE(eventually([&] { return client.dispatcher()->runningCallsCount() == 0; }));
}

TEST_F(CoroHttpsTest, ManyConcurrentCoroutinesOverHttp2) {
  server.setDispatcher([](const RecordedRequest& request) {
    return MockResponse::Builder().body("body of " + request.path()).build();
  });
  constexpr int kCount = 200;
  client.dispatcher()->setMaxRequests(kCount);
  client.dispatcher()->setMaxRequestsPerHost(kCount);
  std::vector<std::string> bodies(kCount);
  std::vector<Protocol> protocols(kCount, Protocol::HTTP_1_0);
  CountDown done(kCount);
  for (int i = 0; i < kCount; ++i) {
    fetchInto(client, get("/" + std::to_string(i)), bodies[i], protocols[i], done);
  }
  ASSERT_TRUE(done.await(60s));
  for (int i = 0; i < kCount; ++i) {
    EXPECT_EQ(bodies[i], "body of /" + std::to_string(i));
    EXPECT_EQ(protocols[i], Protocol::HTTP_2);
  }
  EXPECT_EQ(server.requestCount(), kCount);
}

TEST_F(CoroHttpsTest, BodyReadsWaitingOnTheNetworkHoldNoThread) {
  // 50 coroutines each await a body whose second half comes a second after its first: while
  // they wait, their reads are parked fibers (the coroutines' own, on the dispatcher), not a
  // thread each. (Counted as the threads the test added, of the dispatcher's pool and of the
  // "tern Async Body" one: ctest runs each test in a process of its own.)
  server.setDispatcher([](const RecordedRequest&) {
    return MockResponse::Builder().body(std::string(2048, 'x')).throttleBody(1024, 1s).build();
  });
  constexpr int kCount = 50;
  client.dispatcher()->setMaxRequests(kCount);
  client.dispatcher()->setMaxRequestsPerHost(kCount);
  auto threads = [] { return threadsNamed("tern Async Body") + threadsNamed("tern Dispatcher"); };
  const int before = threads();
  std::vector<std::string> bodies(kCount);
  std::vector<Protocol> protocols(kCount, Protocol::HTTP_1_0);
  CountDown done(kCount);
  for (int i = 0; i < kCount; ++i) {
    fetchInto(client, get("/" + std::to_string(i)), bodies[i], protocols[i], done);
  }
  std::this_thread::sleep_for(600ms);  // Every read has its first half and waits for the rest.
  const int waiting = threads() - before;
  ASSERT_TRUE(done.await(60s));
  EXPECT_LE(waiting, 8) << "threads for " << kCount << " waiting body reads";
  for (int i = 0; i < kCount; ++i) EXPECT_EQ(bodies[i], std::string(2048, 'x')) << i;
}

}  // namespace
}  // namespace tern::testing
