// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// EventListener's API: none(), factories, composition, the Builder's settings, the Dispatcher's
// queue events, and many concurrent calls each with its own listener.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include "call/event_listener_fixture.h"
#include "tern/logging_event_listener.h"

namespace tern::testing {
namespace {

using EventListenerApiTest = EventListenerFixture;

// Counts every event it hears; thread-safe, so one instance can serve many calls.
class CountingListener final : public EventListener {
 public:
  void callStart(Call&) override { ++callStarts; }
  void callEnd(Call&) override { ++callEnds; }
  void requestHeadersStart(Call&) override { ++requestHeaders; }
  std::atomic<int> callStarts{0};
  std::atomic<int> callEnds{0};
  std::atomic<int> requestHeaders{0};
};

// Records event names into a shared list, tagged.
class TaggingListener final : public EventListener {
 public:
  TaggingListener(std::string tag, std::vector<std::string>& log)
      : tag_(std::move(tag)), log_(log) {}
  void callStart(Call&) override { log_.push_back(tag_ + " callStart"); }
  void callEnd(Call&) override { log_.push_back(tag_ + " callEnd"); }

 private:
  std::string tag_;
  std::vector<std::string>& log_;
};

TEST(EventListenerNoneTest, NoneIsOneSharedInstance) {
  EXPECT_NE(EventListener::none(), nullptr);
  EXPECT_EQ(EventListener::none(), EventListener::none());
}

TEST(EventListenerNoneTest, DefaultClientGivesEveryCallTheNoneListener) {
  Client client;
  auto call = client.newCall(Request::Builder().url("http://example.test/").build());
  EXPECT_EQ(client.eventListenerFactory()->create(*call), EventListener::none());
}

TEST(EventListenerNoneTest, ComposeDropsNullAndNoneListeners) {
  auto counting = std::make_shared<CountingListener>();
  EXPECT_EQ(EventListener::compose({}), EventListener::none());
  EXPECT_EQ(EventListener::compose({nullptr, EventListener::none()}), EventListener::none());
  EXPECT_EQ(EventListener::compose({nullptr, counting, EventListener::none()}), counting);
}

TEST(EventListenerNoneTest, BuilderRejectsNulls) {
  Client::Builder builder;
  EXPECT_THROW(builder.eventListener(nullptr), std::invalid_argument);
  EXPECT_THROW(builder.eventListenerFactory(std::shared_ptr<EventListener::Factory>()),
               std::invalid_argument);
  EXPECT_THROW(builder.eventListenerFactory(std::function<std::shared_ptr<EventListener>(Call&)>()),
               std::invalid_argument);
  EXPECT_THROW(EventListener::Factory::of(std::shared_ptr<EventListener>()), std::invalid_argument);
}

TEST_F(EventListenerApiTest, OneListenerForEveryCall) {
  auto counting = std::make_shared<CountingListener>();
  client = client.newBuilder().eventListener(counting).build();
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  fetch();
  fetch();
  EXPECT_EQ(counting->callStarts, 2);
  EXPECT_EQ(counting->callEnds, 2);
  EXPECT_EQ(client.eventListenerFactory()->create(*client.newCall(get())), counting);
}

TEST_F(EventListenerApiTest, FactoryFunctionMakesOneListenerPerCall) {
  std::vector<std::shared_ptr<CountingListener>> made;
  std::mutex mutex;
  client = client.newBuilder()
               .eventListenerFactory([&](Call&) {
                 auto listener = std::make_shared<CountingListener>();
                 std::lock_guard lock(mutex);
                 made.push_back(listener);
                 return listener;
               })
               .build();
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  fetch();
  fetch();
  ASSERT_EQ(made.size(), 2u);
  EXPECT_EQ(made[0]->callStarts, 1);
  EXPECT_EQ(made[1]->callStarts, 1);
}

TEST_F(EventListenerApiTest, FactoryIsAskedWhenTheCallIsMadeNotWhenItRuns) {
  std::shared_ptr<Call> call = client.newCall(get());
  EXPECT_EQ(events->listeners().size(), 1u);
  EXPECT_FALSE(listener()->started());
}

TEST_F(EventListenerApiTest, CloneGetsItsOwnListener) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  std::shared_ptr<Call> call = client.newCall(get());
  call->execute().body()->string();
  call->clone()->execute().body()->string();
  ASSERT_EQ(events->listeners().size(), 2u);
  EXPECT_EQ(listener(0)->count("callStart"), 1);
  EXPECT_EQ(listener(1)->count("callStart"), 1);
}

TEST_F(EventListenerApiTest, ComposeDeliversToEachListenerInOrder) {
  std::vector<std::string> log;
  client = client.newBuilder()
               .eventListener(EventListener::compose({std::make_shared<TaggingListener>("a", log),
                                                      std::make_shared<TaggingListener>("b", log)}))
               .build();
  server.enqueue(body("x"));
  fetch();
  EXPECT_EQ(log,
            (std::vector<std::string>{"a callStart", "b callStart", "a callEnd", "b callEnd"}));
}

TEST_F(EventListenerApiTest, ComposedFactoriesEachMakeAListenerPerCall) {
  auto second = std::make_shared<RecordingEventListener::Factory>();
  client = client.newBuilder()
               .eventListenerFactory(EventListener::Factory::compose({events, nullptr, second}))
               .build();
  server.enqueue(body("x"));
  fetch();
  EXPECT_EQ(names(), freshConnectionGet());
  EXPECT_EQ(second->listener(0)->eventNames(), freshConnectionGet());
}

TEST_F(EventListenerApiTest, LoggingListenerComposesWithOthers) {
  std::vector<std::string> lines;
  std::mutex mutex;
  auto logging = std::make_shared<LoggingEventListener::Factory>([&](std::string_view line) {
    std::lock_guard lock(mutex);
    lines.emplace_back(line);
  });
  client = client.newBuilder()
               .eventListenerFactory(EventListener::Factory::compose({events, logging}))
               .build();
  server.enqueue(body("x"));
  fetch();
  EXPECT_EQ(lines.size(), freshConnectionGet().size());
}

TEST_F(EventListenerApiTest, ExecuteHasNoDispatcherQueueEvents) {
  server.enqueue(body("x"));
  fetch();
  EXPECT_EQ(listener()->count("dispatcherQueueStart"), 0);
}

TEST_F(EventListenerApiTest, EnqueuedCallThatRunsAtOnceHasNoQueueEvents) {
  server.enqueue(body("x"));
  auto callback = std::make_shared<RecordingCallback>();
  client.newCall(get())->enqueue(callback);
  callback->await(url());
  ASSERT_TRUE(eventually([&] { return listener()->ended(); }));
  EXPECT_EQ(listener()->count("dispatcherQueueStart"), 0);
  EXPECT_EQ(listener()->count("dispatcherQueueEnd"), 0);
}

TEST_F(EventListenerApiTest, EnqueuedCallThatWaitsReportsTheQueue) {
  RecordingExecutor executor;
  auto dispatcher = std::make_shared<Dispatcher>(executor.executor());
  dispatcher->setMaxRequests(1);
  client = client.newBuilder().dispatcher(dispatcher).build();
  server.enqueue(body("first"));
  server.enqueue(body("second"));
  auto callback = std::make_shared<RecordingCallback>();
  client.newCall(get("/1"))->enqueue(callback);
  client.newCall(get("/2"))->enqueue(callback);
  EXPECT_EQ(names(0), (Names{"callStart"}));
  EXPECT_EQ(names(1), (Names{"callStart", "dispatcherQueueStart"}));
  executor.run(0);  // The first call; when it finishes the second leaves the queue.
  callback->await(url("/1"));
  ASSERT_TRUE(eventually([&] { return executor.size() == 1; }));
  EXPECT_EQ(names(1), (Names{"callStart", "dispatcherQueueStart", "dispatcherQueueEnd"}));
  executor.run(0);
  callback->await(url("/2"));
  ASSERT_TRUE(eventually([&] { return listener(1)->ended(); }));
  // Then the call runs, on the connection the first one left in the pool.
  EXPECT_EQ(startingAt(names(1), "dispatcherQueueEnd")[1], "connectionAcquired");
}

TEST_F(EventListenerApiTest, CanceledWhileQueuedIsReportedBeforeItRuns) {
  RecordingExecutor executor;
  auto dispatcher = std::make_shared<Dispatcher>(executor.executor());
  dispatcher->setMaxRequests(1);
  client = client.newBuilder().dispatcher(dispatcher).build();
  server.enqueue(body("first"));
  auto callback = std::make_shared<RecordingCallback>();
  client.newCall(get("/1"))->enqueue(callback);
  std::shared_ptr<Call> queued = client.newCall(get("/2"));
  queued->enqueue(callback);
  queued->cancel();
  executor.run(0);
  callback->await(url("/1"));
  ASSERT_TRUE(eventually([&] { return executor.size() == 1; }));
  executor.run(0);
  EXPECT_EQ(callback->await(url("/2")).failure, "Canceled");
  ASSERT_TRUE(eventually([&] { return listener(1)->ended(); }));
  EXPECT_EQ(names(1), (Names{"callStart", "dispatcherQueueStart", "canceled", "dispatcherQueueEnd",
                             "callFailed"}));
}

TEST_F(EventListenerApiTest, FiftyConcurrentCallsEachHearOnlyTheirOwnEvents) {
  constexpr int kCalls = 50;
  server.setDispatcher([](const RecordedRequest& request) {
    return MockResponse::Builder().body("body of " + request.path()).build();
  });
  auto dispatcher = std::make_shared<Dispatcher>();
  dispatcher->setMaxRequestsPerHost(kCalls);
  client = client.newBuilder().dispatcher(dispatcher).build();
  auto callback = std::make_shared<RecordingCallback>();
  for (int i = 0; i < kCalls; ++i) {
    client.newCall(get("/" + std::to_string(i)))->enqueue(callback);
  }
  std::vector<RecordedResponse> responses = callback->awaitCount(kCalls);
  ASSERT_EQ(responses.size(), static_cast<size_t>(kCalls));
  ASSERT_TRUE(eventually([&] {
    for (const auto& l : events->listeners()) {
      if (!l->ended()) return false;
    }
    return true;
  }));
  std::set<std::string> urls;
  for (const auto& l : events->listeners()) {
    std::string callUrl = l->callUrl();
    urls.insert(callUrl);
    EXPECT_EQ(l->count("callStart"), 1);
    EXPECT_EQ(l->count("callEnd"), 1);
    EXPECT_EQ(l->count("requestHeadersEnd"), 1);
    // The request it heard about is its own call's.
    EXPECT_EQ(l->find("requestHeadersEnd")->detail, "GET " + callUrl);
    EXPECT_EQ(l->find("responseBodyEnd")->byteCount,
              static_cast<int64_t>(("body of " + HttpUrl::get(callUrl).encodedPath()).size()));
  }
  EXPECT_EQ(urls.size(), static_cast<size_t>(kCalls));
}

TEST_F(EventListenerApiTest, CancelFromAnotherThreadNeverOverlapsTheCallsEvents) {
  // The recorder fails the test if two threads deliver events at once; cancel while a call runs
  // many times to give an overlap every chance.
  for (int i = 0; i < 20; ++i) {
    server.enqueue(MockResponse::Builder().throttleBody(1, 1ms).body("0123456789").build());
    std::shared_ptr<Call> call = client.newCall(get());
    std::thread canceler([call, i] {
      std::this_thread::sleep_for(std::chrono::milliseconds(i % 7));
      call->cancel();
    });
    try {
      call->execute().body()->string();
    } catch (const IOException&) {
      // Canceled at some point: what the events must show is checked by the recorder.
    }
    canceler.join();
  }
  for (const auto& l : events->listeners()) {
    EXPECT_TRUE(l->ended());
    EXPECT_LE(l->count("canceled"), 1);
  }
}

}  // namespace
}  // namespace tern::testing
