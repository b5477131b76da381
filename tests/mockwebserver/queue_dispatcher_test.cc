// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/mockwebserver/queue_dispatcher.h"

#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "tern/mockwebserver/recorded_request.h"

namespace tern::mockwebserver {
namespace {

using namespace std::chrono_literals;

RecordedRequest requestFor(const std::string& requestLine) {
  return RecordedRequest(requestLine, Headers(), {}, 0, "", 0, 0,
                         HttpUrl::get("http://127.0.0.1:8080/"));
}

TEST(QueueDispatcherTest, DispatchesEnqueuedResponsesInOrder) {
  QueueDispatcher dispatcher;
  dispatcher.enqueueResponse(MockResponse::Builder().body("a").build());
  dispatcher.enqueueResponse(MockResponse::Builder().body("b").build());
  EXPECT_EQ(dispatcher.dispatch(requestFor("GET / HTTP/1.1")).body().readUtf8(), "a");
  EXPECT_EQ(dispatcher.dispatch(requestFor("GET / HTTP/1.1")).body().readUtf8(), "b");
}

TEST(QueueDispatcherTest, PeekShowsTheNextResponseWithoutConsumingIt) {
  QueueDispatcher dispatcher;
  EXPECT_TRUE(dispatcher.peek().socketPolicy().is<SocketPolicy::KeepOpen>());
  dispatcher.enqueueResponse(MockResponse(200, Headers(), "", SocketPolicy::NoResponse{}));
  EXPECT_TRUE(dispatcher.peek().socketPolicy().is<SocketPolicy::NoResponse>());
  EXPECT_TRUE(dispatcher.peek().socketPolicy().is<SocketPolicy::NoResponse>());
  EXPECT_TRUE(dispatcher.dispatch(requestFor("GET / HTTP/1.1"))
                  .socketPolicy()
                  .is<SocketPolicy::NoResponse>());
}

TEST(QueueDispatcherTest, EmptyQueueWaitsForTheNextEnqueuedResponse) {
  QueueDispatcher dispatcher;
  auto result = std::async(std::launch::async,
                           [&] { return dispatcher.dispatch(requestFor("GET / HTTP/1.1")); });
  EXPECT_EQ(result.wait_for(50ms), std::future_status::timeout);
  dispatcher.enqueueResponse(MockResponse::Builder().body("late").build());
  EXPECT_EQ(result.get().body().readUtf8(), "late");
}

TEST(QueueDispatcherTest, ShutdownReleasesWaitingDispatchWith503) {
  QueueDispatcher dispatcher;
  auto result = std::async(std::launch::async,
                           [&] { return dispatcher.dispatch(requestFor("GET / HTTP/1.1")); });
  std::this_thread::sleep_for(20ms);
  dispatcher.shutdown();
  EXPECT_EQ(result.get().code(), 503);
  EXPECT_EQ(dispatcher.dispatch(requestFor("GET / HTTP/1.1")).status(),
            "HTTP/1.1 503 shutting down");
}

TEST(QueueDispatcherTest, FailFastAnswers404WhenEmpty) {
  QueueDispatcher dispatcher;
  dispatcher.setFailFast(true);
  EXPECT_EQ(dispatcher.peek().code(), 404);
  EXPECT_EQ(dispatcher.dispatch(requestFor("GET / HTTP/1.1")).code(), 404);
  dispatcher.enqueueResponse(MockResponse::Builder().code(200).build());
  EXPECT_EQ(dispatcher.dispatch(requestFor("GET / HTTP/1.1")).code(), 200);
}

TEST(QueueDispatcherTest, FailFastWithCustomResponseAndOff) {
  QueueDispatcher dispatcher;
  dispatcher.setFailFast(MockResponse::Builder().code(500).build());
  EXPECT_EQ(dispatcher.dispatch(requestFor("GET / HTTP/1.1")).code(), 500);
  dispatcher.setFailFast(false);
  auto result = std::async(std::launch::async,
                           [&] { return dispatcher.dispatch(requestFor("GET / HTTP/1.1")); });
  EXPECT_EQ(result.wait_for(50ms), std::future_status::timeout);
  dispatcher.shutdown();
  EXPECT_EQ(result.get().code(), 503);
}

TEST(QueueDispatcherTest, FaviconIsAnswered404WithoutConsumingTheScript) {
  QueueDispatcher dispatcher;
  dispatcher.enqueueResponse(MockResponse::Builder().body("scripted").build());
  EXPECT_EQ(dispatcher.dispatch(requestFor("GET /favicon.ico HTTP/1.1")).code(), 404);
  EXPECT_EQ(dispatcher.dispatch(requestFor("GET / HTTP/1.1")).body().readUtf8(), "scripted");
}

}  // namespace
}  // namespace tern::mockwebserver
