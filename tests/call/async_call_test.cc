// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Call::enqueue() over MockWebServer: callbacks, threads, ownership of the response.
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "call/call_fixture.h"

namespace tern::testing {
namespace {

using AsyncCallTest = CallFixture;

TEST_F(AsyncCallTest, EnqueueDeliversTheResponse) {
  server.enqueue(
      MockResponse::Builder().addHeader("Content-Type", "text/plain").body("abc").build());
  auto callback = std::make_shared<RecordingCallback>();
  client.newCall(get("/a"))->enqueue(callback);
  RecordedResponse recorded = callback->await(url("/a"));
  EXPECT_EQ(recorded.code, 200);
  EXPECT_EQ(recorded.body, "abc");
  EXPECT_EQ(recorded.headers.get("Content-Type"), "text/plain");
  EXPECT_FALSE(recorded.failure);
}

TEST_F(AsyncCallTest, EnqueueDeliversTheFailure) {
  ClosedPort closed;
  auto callback = std::make_shared<RecordingCallback>();
  std::string target = "http://127.0.0.1:" + std::to_string(closed.port()) + "/";
  client.newCall(Request::Builder().url(target).build())->enqueue(callback);
  RecordedResponse recorded = callback->await(target);
  ASSERT_TRUE(recorded.failure);
  EXPECT_EQ(recorded.failure->rfind("Failed to connect to 127.0.0.1:", 0), 0u) << *recorded.failure;
  EXPECT_FALSE(recorded.code);
}

TEST_F(AsyncCallTest, LambdaCallbacks) {
  server.enqueue(body("lambda"));
  std::promise<std::string> result;
  client.newCall(get())->enqueue(
      [&](Call&, Response response) { result.set_value(response.body()->string()); },
      [&](Call&, const IOException& e) { result.set_value(std::string("failed: ") + e.what()); });
  auto future = result.get_future();
  ASSERT_EQ(future.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(future.get(), "lambda");
}

TEST_F(AsyncCallTest, CallbackRunsOnADispatcherThread) {
  server.enqueue(body("ok"));
  std::promise<std::thread::id> callbackThread;
  client.newCall(get())->enqueue(
      [&](Call&, Response) { callbackThread.set_value(std::this_thread::get_id()); },
      [&](Call&, const IOException&) { callbackThread.set_value(std::this_thread::get_id()); });
  auto future = callbackThread.get_future();
  ASSERT_EQ(future.wait_for(10s), std::future_status::ready);
  EXPECT_NE(future.get(), std::this_thread::get_id());
}

TEST_F(AsyncCallTest, CallbackCanHandTheResponseToAnotherThread) {
  server.enqueue(MockResponse::Builder().chunkedBody("read later, elsewhere", 5).build());
  std::promise<Response> handOff;
  client.newCall(get())->enqueue(
      [&](Call&, Response response) { handOff.set_value(std::move(response)); },
      [&](Call&, const IOException& e) { handOff.set_exception(std::make_exception_ptr(e)); });
  auto future = handOff.get_future();
  ASSERT_EQ(future.wait_for(10s), std::future_status::ready);
  Response response = future.get();
  EXPECT_EQ(response.body()->string(), "read later, elsewhere");
  EXPECT_EQ(client.connectionPool()->idleConnectionCount(), 1);
}

TEST_F(AsyncCallTest, CallbackThatThrowsDoesNotStopTheDispatcher) {
  server.setDispatcher([](const RecordedRequest& request) {
    return MockResponse::Builder().body(request.path() == "/1" ? "first" : "second").build();
  });
  client.newCall(get("/1"))->enqueue(
      [](Call&, Response) { throw std::runtime_error("callback bug"); },
      [](Call&, const IOException&) {});
  auto callback = std::make_shared<RecordingCallback>();
  client.newCall(get("/2"))->enqueue(callback);
  EXPECT_EQ(callback->await(url("/2")).body, "second");
  ASSERT_TRUE(eventually([&] { return client.dispatcher()->runningCallsCount() == 0; }));
}

TEST_F(AsyncCallTest, NullCallbackIsRejected) {
  EXPECT_THROW(client.newCall(get())->enqueue(std::shared_ptr<Callback>()), std::invalid_argument);
  EXPECT_THROW(Callback::of(nullptr, [](Call&, const IOException&) {}), std::invalid_argument);
}

TEST_F(AsyncCallTest, ManyConcurrentCallsAllComplete) {
  for (int i = 0; i < 20; ++i) server.enqueue(body("response"));
  auto callback = std::make_shared<RecordingCallback>();
  for (int i = 0; i < 20; ++i) client.newCall(get("/" + std::to_string(i)))->enqueue(callback);
  std::vector<RecordedResponse> responses = callback->awaitCount(20);
  for (const RecordedResponse& recorded : responses) EXPECT_EQ(recorded.body, "response");
  // At most maxRequestsPerHost connections were needed, and all are idle now.
  ASSERT_TRUE(eventually([&] { return client.dispatcher()->runningCallsCount() == 0; }));
  EXPECT_LE(client.connectionPool()->connectionCount(), 5);
  EXPECT_EQ(client.connectionPool()->idleConnectionCount(),
            client.connectionPool()->connectionCount());
}

TEST_F(AsyncCallTest, EnqueueMarksTheCallExecuted) {
  server.enqueue(body("ok"));
  auto callback = std::make_shared<RecordingCallback>();
  std::shared_ptr<Call> call = client.newCall(get("/a"));
  call->enqueue(callback);
  EXPECT_TRUE(call->isExecuted());
  EXPECT_THROW(call->enqueue(callback), std::logic_error);
  EXPECT_THROW(call->execute(), std::logic_error);
  callback->await(url("/a"));
}

TEST_F(AsyncCallTest, DroppingTheCallHandleDoesNotStopIt) {
  server.enqueue(MockResponse::Builder().headersDelay(100ms).body("still delivered").build());
  auto callback = std::make_shared<RecordingCallback>();
  client.newCall(get("/a"))->enqueue(callback);  // The handle is gone at once.
  EXPECT_EQ(callback->await(url("/a")).body, "still delivered");
}

}  // namespace
}  // namespace tern::testing
