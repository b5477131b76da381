// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The client's lifetime (docs/calls.md): Client::shutdown() cancels, delivers every callback
// exactly once and joins; dropping the last Client lets every call run to its end. Many calls
// wait on a slow MockWebServer while the client goes away. A hang fails the test through a
// watchdog instead of blocking ctest; nothing here asserts on how long something took.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "call/call_fixture.h"

namespace tern::testing {
namespace {

// Aborts the process with `what` unless destroyed within `limit`: a deadlock then fails the test
// binary at once, with a message, rather than hanging until ctest's timeout.
class HangGuard {
 public:
  HangGuard(const char* what, std::chrono::seconds limit = 60s)
      : thread_([this, what, limit] {
          std::unique_lock lock(mutex_);
          if (!doneChanged_.wait_for(lock, limit, [&] { return done_; })) {
            std::fprintf(stderr, "HangGuard: %s did not finish within %llds\n", what,
                         static_cast<long long>(limit.count()));
            std::abort();
          }
        }) {}
  ~HangGuard() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    doneChanged_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable doneChanged_;
  bool done_ = false;
  std::thread thread_;
};

// Counts each call's callbacks (by URL, so every call needs its own), remembers what they said,
// and notes a callback that comes after close().
class CountingCallback final : public Callback {
 public:
  void onFailure(Call& call, const IOException& e) override {
    record(call,
           std::string(dynamic_cast<const InterruptedIOException*>(&e) ? "interrupted: " : "") +
               e.what());
  }
  void onResponse(Call& call, Response response) override {
    std::string body;
    try {
      body = response.body()->string();
    } catch (const IOException& e) {
      body = std::string("body failed: ") + e.what();
    }
    record(call, std::to_string(response.code()) + " " + body);
  }

  // From now on a callback is a failure of the test.
  void close() { closed_ = true; }

  // Waits until `count` callbacks came, at most 30 s. False if they did not.
  bool awaitCount(size_t count) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 30s, [&] { return total_ >= count; });
  }

  // Each URL's callbacks: how many, and what the last one said.
  std::map<std::string, std::pair<int, std::string>> outcomes() const {
    std::lock_guard lock(mutex_);
    return outcomes_;
  }
  size_t total() const {
    std::lock_guard lock(mutex_);
    return total_;
  }
  int lateCallbacks() const { return late_.load(); }

 private:
  void record(Call& call, std::string outcome) {
    if (closed_) ++late_;
    {
      std::lock_guard lock(mutex_);
      auto& [count, last] = outcomes_[call.request().url().toString()];
      ++count;
      last = std::move(outcome);
      ++total_;
    }
    changed_.notify_all();
  }

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::pair<int, std::string>> outcomes_;
  size_t total_ = 0;
  std::atomic<bool> closed_{false};
  std::atomic<int> late_{0};
};

class ClientLifetimeTest : public CallFixture {
 protected:
  ClientLifetimeTest() {
    // Every response waits 10 s for its headers (the server's sleep ends when it shuts down), so
    // calls are running or queued when the client goes away; "/fast" answers at once.
    server.setDispatcher([](const RecordedRequest& request) {
      if (request.path() == "/fast") return MockResponse::Builder().body("fast").build();
      return MockResponse::Builder().headersDelay(10s).body("late").build();
    });
    // Read timeouts longer than the delay: every failure here comes from the shutdown.
    client = client.newBuilder().readTimeout(30s).build();
  }

  // Enqueues `count` calls to /slow/0 .. /slow/count-1 on `on`.
  void enqueueSlow(const Client& on, int count) {
    for (int i = 0; i < count; ++i) {
      on.newCall(get("/slow/" + std::to_string(i)))->enqueue(callback);
    }
  }

  // Every one of `count` slow calls got exactly one callback, and it said `expected`.
  void expectEachOnce(int count, const std::string& expected) {
    std::map<std::string, std::pair<int, std::string>> outcomes = callback->outcomes();
    EXPECT_EQ(outcomes.size(), static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
      auto it = outcomes.find(url("/slow/" + std::to_string(i)));
      ASSERT_NE(it, outcomes.end()) << "no callback for /slow/" << i;
      EXPECT_EQ(it->second.first, 1) << "/slow/" << i;
      EXPECT_EQ(it->second.second, expected) << "/slow/" << i;
    }
  }

  std::shared_ptr<CountingCallback> callback = std::make_shared<CountingCallback>();
};

TEST_F(ClientLifetimeTest, ShutdownCancelsQueuedAndRunningCallsAndDeliversEachCallbackOnce) {
  HangGuard guard("shutdown with 40 calls in flight");
  const int calls = 40;  // 5 run (the per-host limit), 35 wait in the queue.
  enqueueSlow(client, calls);
  ASSERT_TRUE(eventually([&] { return server.requestCount() == 5; }, 10s));
  EXPECT_EQ(client.dispatcher()->queuedCallsCount(), calls - 5);

  client.shutdown();
  callback->close();

  // Everything happened before shutdown() returned: every callback, once.
  EXPECT_EQ(callback->total(), static_cast<size_t>(calls));
  expectEachOnce(calls, "interrupted: Canceled");
  EXPECT_EQ(client.dispatcher()->runningCallsCount(), 0);
  EXPECT_EQ(client.dispatcher()->queuedCallsCount(), 0);
  EXPECT_EQ(client.connectionPool()->connectionCount(), 0);
  EXPECT_EQ(server.requestCount(), 5);  // The queued calls never reached the network.

  client.shutdown();  // Idempotent.
  server.shutdown();
  EXPECT_EQ(callback->lateCallbacks(), 0);
}

TEST_F(ClientLifetimeTest, CallsAfterShutdownFailPromptlyWithTheirCallbackOnce) {
  HangGuard guard("calls after shutdown");
  client.shutdown();

  client.newCall(get("/slow/0"))->enqueue(callback);
  // Before enqueue() returned: no dispatcher thread is left to take it.
  EXPECT_EQ(callback->total(), 1u);
  expectEachOnce(1, "interrupted: client is shut down");

  // A client made from it shares the dispatcher, so it is shut down too.
  Client derived = client.newBuilder().build();
  try {
    derived.newCall(get("/fast"))->execute();
    FAIL() << "expected InterruptedIOException";
  } catch (const InterruptedIOException& e) {
    EXPECT_STREQ(e.what(), "client is shut down");
  }
  EXPECT_EQ(server.requestCount(), 0);
  EXPECT_EQ(client.dispatcher()->runningCallsCount(), 0);
}

TEST_F(ClientLifetimeTest, ShutdownCancelsSynchronousCalls) {
  HangGuard guard("shutdown with a synchronous call in flight");
  std::optional<std::string> failure;
  std::thread caller([&] {
    try {
      client.newCall(get("/slow/0"))->execute();
    } catch (const IOException& e) {
      failure = e.what();
    }
  });
  ASSERT_TRUE(eventually([&] { return server.requestCount() == 1; }, 10s));
  client.shutdown();  // Does not wait for it, but it is canceled.
  caller.join();
  EXPECT_EQ(failure, "Canceled");
}

TEST_F(ClientLifetimeTest, ShutdownFromACallbackDoesNotDeadlock) {
  HangGuard guard("shutdown from a callback");
  const int calls = 20;
  // Calls to fast.invalid are answered here, at once, and count against another host's limit.
  client = client.newBuilder()
               .addInterceptor([](Interceptor::Chain& chain) {
                 if (chain.request().url().host() != "fast.invalid") {
                   return chain.proceed(chain.request());
                 }
                 return Response::Builder()
                     .request(chain.request())
                     .protocol(Protocol::HTTP_1_1)
                     .code(200)
                     .message("OK")
                     .body(ResponseBody::create("fast"))
                     .build();
               })
               .build();
  enqueueSlow(client, calls);
  ASSERT_TRUE(eventually([&] { return server.requestCount() == 5; }, 10s));
  // Its callback shuts the client down while the slow calls are in flight. It cannot wait for
  // its own call to end, so it cancels and returns at once.
  auto shutdownReturned = std::make_shared<std::atomic<bool>>(false);
  Client shared = client;
  client.newCall(Request::Builder().url("http://fast.invalid/").build())
      ->enqueue(
          [shared, shutdownReturned](Call&, Response) {
            shared.shutdown();
            *shutdownReturned = true;
          },
          [](Call&, const IOException& e) { ADD_FAILURE() << e.what(); });
  ASSERT_TRUE(callback->awaitCount(static_cast<size_t>(calls)));
  client.shutdown();  // From here it waits and joins: the fast callback has returned.
  EXPECT_TRUE(shutdownReturned->load());
  callback->close();
  expectEachOnce(calls, "interrupted: Canceled");
  server.shutdown();
  EXPECT_EQ(callback->lateCallbacks(), 0);
}

TEST_F(ClientLifetimeTest, DroppingTheLastClientLetsEveryCallRunToItsEnd) {
  HangGuard guard("calls of a destroyed client");
  server.setDispatcher([](const RecordedRequest&) {
    return MockResponse::Builder().headersDelay(100ms).body("still delivered").build();
  });
  const int calls = 20;
  std::weak_ptr<Dispatcher> dispatcher;
  {
    Client own = client.newBuilder().dispatcher(std::make_shared<Dispatcher>()).build();
    client = Client();  // Not the fixture's: `own` is the only handle on its dispatcher.
    dispatcher = own.dispatcher();
    enqueueSlow(own, calls);
  }
  // OkHttp's rule: the calls keep what they need alive, and each gets its callback.
  ASSERT_TRUE(callback->awaitCount(static_cast<size_t>(calls)));
  expectEachOnce(calls, "200 still delivered");
  // The dispatcher goes once its last call ended (on that call's thread).
  EXPECT_TRUE(eventually([&] { return dispatcher.expired(); }, 10s));
}

TEST_F(ClientLifetimeTest, DroppingTheLastClientFromInsideACallback) {
  HangGuard guard("dropping the last client from a callback");
  server.setDispatcher(
      [](const RecordedRequest&) { return MockResponse::Builder().body("ok").build(); });
  const int calls = 10;
  std::weak_ptr<Dispatcher> dispatcher;
  auto last = std::make_shared<std::optional<Client>>(
      client.newBuilder().dispatcher(std::make_shared<Dispatcher>()).build());
  client = Client();
  dispatcher = (*last)->dispatcher();
  std::atomic<int> answered{0};
  for (int i = 0; i < calls; ++i) {
    (*last)
        ->newCall(get("/slow/" + std::to_string(i)))
        ->enqueue(
            [&, last](Call& call, Response response) {
              callback->onResponse(call, std::move(response));
              // The last callback drops the last handle, on a dispatcher thread.
              if (++answered == calls) last->reset();
            },
            [&](Call& call, const IOException& e) { callback->onFailure(call, e); });
  }
  ASSERT_TRUE(callback->awaitCount(static_cast<size_t>(calls)));
  expectEachOnce(calls, "200 ok");
  EXPECT_TRUE(eventually([&] { return dispatcher.expired(); }, 10s));
}

TEST_F(ClientLifetimeTest, ShutdownFromManyThreadsAtOnce) {
  HangGuard guard("concurrent shutdowns");
  const int calls = 12;
  enqueueSlow(client, calls);
  ASSERT_TRUE(eventually([&] { return server.requestCount() == 5; }, 10s));
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i) threads.emplace_back([&] { client.shutdown(); });
  for (std::thread& thread : threads) thread.join();
  callback->close();
  expectEachOnce(calls, "interrupted: Canceled");
  server.shutdown();
  EXPECT_EQ(callback->lateCallbacks(), 0);
}

}  // namespace
}  // namespace tern::testing
