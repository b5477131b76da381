// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Call::cancel() from another thread at each stage of a call: before it starts, while it
// connects, while it writes the request, while it waits for headers, while the body streams.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "call/call_fixture.h"

namespace tern::testing {
namespace {

class CancelTest : public CallFixture {
 protected:
  // Runs `block` and returns how long it took and the message of the IOException it threw.
  template <typename Block>
  static std::pair<std::chrono::milliseconds, std::string> timeFailure(Block block) {
    auto start = std::chrono::steady_clock::now();
    std::string message = "no exception";
    try {
      block();
    } catch (const InterruptedIOException& e) {
      message = std::string("interrupted: ") + e.what();
    } catch (const IOException& e) {
      message = e.what();
    }
    return {std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                  start),
            message};
  }

  // Cancels `call` after `delay`, on another thread.
  static std::thread cancelLater(const std::shared_ptr<Call>& call,
                                 std::chrono::milliseconds delay) {
    return std::thread([call, delay] {
      std::this_thread::sleep_for(delay);
      call->cancel();
    });
  }
};

TEST_F(CancelTest, CancelBeforeExecuteFailsAtOnceWithoutTouchingTheServer) {
  server.enqueue(body("never"));
  std::shared_ptr<Call> call = client.newCall(get());
  call->cancel();
  EXPECT_TRUE(call->isCanceled());
  auto [elapsed, message] = timeFailure([&] { call->execute(); });
  EXPECT_EQ(message, "interrupted: Canceled");
  EXPECT_EQ(server.requestCount(), 0);
  EXPECT_EQ(client.connectionPool()->connectionCount(), 0);
}

TEST_F(CancelTest, CancelIsIdempotent) {
  std::shared_ptr<Call> call = client.newCall(get());
  call->cancel();
  call->cancel();
  EXPECT_TRUE(call->isCanceled());
  EXPECT_FALSE(call->isExecuted());
}

TEST_F(CancelTest, CancelWhileConnectingWakesTheConnect) {
  FullBacklog backlog;
  std::shared_ptr<Call> call = client.newBuilder().connectTimeout(10s).build().newCall(
      Request::Builder().url("http://127.0.0.1:" + std::to_string(backlog.port()) + "/").build());
  std::thread canceler = cancelLater(call, 200ms);
  auto [elapsed, message] = timeFailure([&] { call->execute(); });
  canceler.join();
  EXPECT_EQ(message, "interrupted: Canceled");
  EXPECT_LT(elapsed, 5s);
}

TEST_F(CancelTest, CancelWhileWaitingForAnotherCallsConnectWakesTheWait) {
  // With h2 prior knowledge one call connects while the others to the address wait for it
  // (RealConnectionPool::beginConnect()); the connect hangs on a full backlog.
  FullBacklog backlog;
  Client h2 =
      client.newBuilder().protocols({Protocol::H2_PRIOR_KNOWLEDGE}).connectTimeout(30s).build();
  Request request =
      Request::Builder().url("http://127.0.0.1:" + std::to_string(backlog.port()) + "/").build();
  std::shared_ptr<Call> connecting = h2.newCall(request);
  std::shared_ptr<Call> waiting = h2.newCall(request);
  auto connectingDone = std::async(
      std::launch::async, [&] { return timeFailure([&] { connecting->execute(); }).second; });
  std::this_thread::sleep_for(200ms);
  auto waitingDone = std::async(std::launch::async,
                                [&] { return timeFailure([&] { waiting->execute(); }).second; });
  std::this_thread::sleep_for(200ms);
  waiting->cancel();
  // A hang guard, not a timing: the wait wakes at cancel(), it does not time out.
  ASSERT_EQ(waitingDone.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(waitingDone.get(), "interrupted: Canceled");
  EXPECT_FALSE(connecting->isCanceled());
  connecting->cancel();
  ASSERT_EQ(connectingDone.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(connectingDone.get(), "interrupted: Canceled");
}

TEST_F(CancelTest, CancelWhileWaitingForHeadersWakesTheRead) {
  server.enqueue(MockResponse::Builder().headersDelay(10s).body("late").build());
  std::shared_ptr<Call> call = client.newCall(get());
  std::thread canceler = cancelLater(call, 200ms);
  auto [elapsed, message] = timeFailure([&] { call->execute(); });
  canceler.join();
  EXPECT_EQ(message, "interrupted: Canceled");
  EXPECT_LT(elapsed, 5s);
  EXPECT_EQ(client.connectionPool()->connectionCount(), 0);  // A canceled connection is dropped.
}

TEST_F(CancelTest, CancelWhileWritingTheRequestBodyWakesTheWrite) {
  // The server reads the body slowly, so the client blocks once the socket buffers fill.
  server.enqueue(MockResponse::Builder().throttleBody(1024, 100ms).body("slow").build());
  std::string big(16 << 20, 'x');
  std::shared_ptr<Call> call = client.newCall(
      Request::Builder().url(server.url("/")).post(RequestBody::create(big)).build());
  std::thread canceler = cancelLater(call, 300ms);
  auto [elapsed, message] = timeFailure([&] { call->execute(); });
  canceler.join();
  EXPECT_EQ(message, "interrupted: Canceled");
  EXPECT_LT(elapsed, 5s);
}

TEST_F(CancelTest, CancelWhileReadingTheBodyFailsTheRead) {
  server.enqueue(
      MockResponse::Builder().throttleBody(1, 100ms).body(std::string(100, 'a')).build());
  std::shared_ptr<Call> call = client.newCall(get());
  Response response = call->execute();
  std::thread canceler = cancelLater(call, 200ms);
  auto [elapsed, message] = timeFailure([&] { response.body()->string(); });
  canceler.join();
  EXPECT_EQ(message, "interrupted: Canceled");
  EXPECT_LT(elapsed, 5s);
  EXPECT_EQ(client.connectionPool()->connectionCount(), 0);
}

TEST_F(CancelTest, CancelAfterTheBodyWasReadChangesNothing) {
  server.enqueue(body("done"));
  server.enqueue(body("reused"));
  std::shared_ptr<Call> call = client.newCall(get());
  EXPECT_EQ(call->execute().body()->string(), "done");
  call->cancel();
  EXPECT_EQ(client.connectionPool()->idleConnectionCount(), 1);
  EXPECT_EQ(fetch(), "reused");
  server.takeRequest();
  EXPECT_EQ(server.takeRequest().sequenceNumber(), 1);  // The connection survived the cancel.
}

TEST_F(CancelTest, CanceledConnectionIsNotReused) {
  server.enqueue(MockResponse::Builder().headersDelay(10s).body("late").build());
  server.enqueue(body("fresh"));
  std::shared_ptr<Call> call = client.newCall(get());
  std::thread canceler = cancelLater(call, 200ms);
  EXPECT_THROW(call->execute(), InterruptedIOException);
  canceler.join();
  EXPECT_EQ(fetch(), "fresh");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

TEST_F(CancelTest, CancelFromAnInterceptorFailsTheCall) {
  server.enqueue(body("never"));
  Client c = client.newBuilder()
                 .addInterceptor([](Interceptor::Chain& chain) {
                   chain.call().cancel();
                   return chain.proceed(chain.request());
                 })
                 .build();
  EXPECT_THROW(c.newCall(get())->execute(), InterruptedIOException);
  EXPECT_EQ(server.requestCount(), 0);
}

TEST_F(CancelTest, CancelAfterAnInterceptorReturnedStillFailsTheCall) {
  // OkHttp checks once more after the chain: a response to a canceled call is discarded.
  server.enqueue(body("discarded"));
  Client c = client.newBuilder()
                 .addInterceptor([](Interceptor::Chain& chain) {
                   Response response = chain.proceed(chain.request());
                   chain.call().cancel();
                   return response;
                 })
                 .build();
  EXPECT_THROW(c.newCall(get())->execute(), InterruptedIOException);
}

TEST_F(CancelTest, CancelAnEnqueuedCallBeforeItRuns) {
  RecordingExecutor executor;
  auto dispatcher = std::make_shared<Dispatcher>(executor.executor());
  Client c = client.newBuilder().dispatcher(dispatcher).build();
  auto callback = std::make_shared<RecordingCallback>();
  std::shared_ptr<Call> call = c.newCall(get("/a"));
  call->enqueue(callback);
  call->cancel();
  executor.run(0);
  RecordedResponse recorded = callback->await(url("/a"));
  EXPECT_EQ(recorded.failure, "Canceled");
  EXPECT_TRUE(recorded.interrupted);
  EXPECT_EQ(server.requestCount(), 0);
}

TEST_F(CancelTest, CancelARunningEnqueuedCall) {
  server.enqueue(MockResponse::Builder().headersDelay(10s).body("late").build());
  auto callback = std::make_shared<RecordingCallback>();
  std::shared_ptr<Call> call = client.newCall(get("/a"));
  call->enqueue(callback);
  ASSERT_TRUE(eventually([&] { return server.requestCount() == 1; }));
  call->cancel();
  RecordedResponse recorded = callback->await(url("/a"));
  EXPECT_EQ(recorded.failure, "Canceled");
}

TEST_F(CancelTest, CancelAllCancelsRunningSynchronousCalls) {
  server.enqueue(MockResponse::Builder().headersDelay(10s).body("late").build());
  std::shared_ptr<Call> call = client.newCall(get());
  auto result =
      std::async(std::launch::async, [&] { return timeFailure([&] { call->execute(); }); });
  ASSERT_TRUE(eventually([&] { return server.requestCount() == 1; }));
  EXPECT_EQ(client.dispatcher()->runningCallsCount(), 1);
  client.dispatcher()->cancelAll();
  EXPECT_EQ(result.get().second, "interrupted: Canceled");
  EXPECT_TRUE(call->isCanceled());
  EXPECT_EQ(client.dispatcher()->runningCallsCount(), 0);
}

TEST_F(CancelTest, ConcurrentCancelsAndExecutesNeverHang) {
  // Cancel at random moments of many calls: every call ends, one way or the other.
  server.setDispatcher([](const RecordedRequest&) {
    return MockResponse::Builder().throttleBody(2000, 1ms).body(std::string(10000, 'x')).build();
  });
  for (int i = 0; i < 20; ++i) {
    std::shared_ptr<Call> call = client.newCall(get());
    std::thread canceler = cancelLater(call, std::chrono::milliseconds(i % 7));
    try {
      call->execute().body()->string();
    } catch (const IOException&) {
      // Canceled somewhere along the way: fine.
    }
    canceler.join();
  }
  // Whatever the timing, nothing leaked: each connection is idle or gone.
  EXPECT_EQ(client.connectionPool()->idleConnectionCount(),
            client.connectionPool()->connectionCount());
}

}  // namespace
}  // namespace tern::testing
