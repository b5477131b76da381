// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The Dispatcher's limits, queue, cancellation and idle callback (OkHttp's DispatcherTest). Calls
// here are answered by an application interceptor, so jobs run without a network; a recording
// executor decides when each one runs.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <set>
#include <thread>

#include "call/call_fixture.h"

namespace tern::testing {
namespace {

class DispatcherTest : public ::testing::Test {
 protected:
  DispatcherTest() {
    client = Client::Builder()
                 .dispatcher(dispatcher)
                 .eventListenerFactory(events)
                 .addInterceptor([](Interceptor::Chain& chain) {
                   return Response::Builder()
                       .request(chain.request())
                       .protocol(Protocol::HTTP_1_1)
                       .code(200)
                       .message("OK")
                       .body(ResponseBody::create(chain.request().url().host()))
                       .build();
                 })
                 .build();
  }

  // Runs the jobs a test left waiting, so every call finishes: an enqueued call holds its client
  // (and so the dispatcher that holds the call) until then.
  void TearDown() override {
    dispatcher->setMaxRequests(1000);
    dispatcher->setMaxRequestsPerHost(1000);
    while (executor.size() > 0) executor.run(0);
    events->checkAllCallsEnded();
  }

  std::shared_ptr<Call> newCall(const std::string& url) {
    return client.newCall(Request::Builder().url(url).build());
  }
  void enqueue(const std::string& url) { newCall(url)->enqueue(callback); }

  std::shared_ptr<RecordingEventListener::Factory> events =
      std::make_shared<RecordingEventListener::Factory>();
  RecordingExecutor executor;
  std::shared_ptr<Dispatcher> dispatcher = std::make_shared<Dispatcher>(executor.executor());
  std::shared_ptr<RecordingCallback> callback = std::make_shared<RecordingCallback>();
  Client client;
};

TEST_F(DispatcherTest, DefaultLimits) {
  Dispatcher defaults;
  EXPECT_EQ(defaults.maxRequests(), 64);
  EXPECT_EQ(defaults.maxRequestsPerHost(), 5);
  EXPECT_EQ(defaults.runningCallsCount(), 0);
  EXPECT_EQ(defaults.queuedCallsCount(), 0);
}

TEST_F(DispatcherTest, LimitsBelowOneAreRejected) {
  try {
    dispatcher->setMaxRequests(0);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "max < 1: 0");
  }
  EXPECT_THROW(dispatcher->setMaxRequestsPerHost(0), std::invalid_argument);
  EXPECT_THROW(Dispatcher{Dispatcher::Executor()}, std::invalid_argument);
}

TEST_F(DispatcherTest, EnqueuedCallsRunOnTheExecutor) {
  enqueue("http://a/1");
  EXPECT_EQ(executor.size(), 1u);
  EXPECT_EQ(dispatcher->runningCallsCount(), 1);
  executor.run(0);
  RecordedResponse recorded = callback->await("http://a/1");
  EXPECT_EQ(recorded.body, "a");
  EXPECT_EQ(dispatcher->runningCallsCount(), 0);
}

TEST_F(DispatcherTest, MaxRequestsQueuesTheRest) {
  dispatcher->setMaxRequests(3);
  enqueue("http://a/1");
  enqueue("http://b/1");
  enqueue("http://c/1");
  enqueue("http://d/1");
  enqueue("http://e/1");
  EXPECT_EQ(executor.size(), 3u);
  EXPECT_EQ(dispatcher->runningCallsCount(), 3);
  EXPECT_EQ(dispatcher->queuedCallsCount(), 2);
}

TEST_F(DispatcherTest, MaxRequestsPerHostQueuesTheRest) {
  dispatcher->setMaxRequestsPerHost(2);
  enqueue("http://a/1");
  enqueue("http://a/2");
  enqueue("http://b/1");
  enqueue("http://a/3");
  EXPECT_EQ(executor.size(), 3u);  // a/1, a/2, b/1.
  EXPECT_EQ(dispatcher->queuedCallsCount(), 1);
  std::vector<std::shared_ptr<Call>> queued = dispatcher->queuedCalls();
  ASSERT_EQ(queued.size(), 1u);
  EXPECT_EQ(queued[0]->request().url().toString(), "http://a/3");
}

TEST_F(DispatcherTest, HostsCountSeparately) {
  dispatcher->setMaxRequestsPerHost(1);
  enqueue("http://a/1");
  enqueue("http://a/2");
  enqueue("http://b/1");
  enqueue("http://c/1");
  EXPECT_EQ(executor.size(), 3u);
  EXPECT_EQ(dispatcher->queuedCallsCount(), 1);
}

TEST_F(DispatcherTest, RaisingMaxRequestsStartsQueuedCalls) {
  dispatcher->setMaxRequests(1);
  enqueue("http://a/1");
  enqueue("http://b/1");
  enqueue("http://c/1");
  EXPECT_EQ(executor.size(), 1u);
  dispatcher->setMaxRequests(3);
  EXPECT_EQ(executor.size(), 3u);
  EXPECT_EQ(dispatcher->queuedCallsCount(), 0);
}

TEST_F(DispatcherTest, RaisingMaxRequestsPerHostStartsQueuedCalls) {
  dispatcher->setMaxRequestsPerHost(1);
  enqueue("http://a/1");
  enqueue("http://a/2");
  enqueue("http://a/3");
  EXPECT_EQ(executor.size(), 1u);
  dispatcher->setMaxRequestsPerHost(2);
  EXPECT_EQ(executor.size(), 2u);
}

TEST_F(DispatcherTest, FinishedCallsStartQueuedOnes) {
  dispatcher->setMaxRequestsPerHost(1);
  enqueue("http://a/1");
  enqueue("http://a/2");
  EXPECT_EQ(executor.size(), 1u);
  executor.run(0);
  callback->await("http://a/1");
  EXPECT_EQ(executor.size(), 1u);  // a/2 started.
  executor.run(0);
  EXPECT_EQ(callback->await("http://a/2").body, "a");
  EXPECT_EQ(dispatcher->runningCallsCount(), 0);
}

TEST_F(DispatcherTest, QueuedCallsStartInOrder) {
  dispatcher->setMaxRequests(1);
  enqueue("http://a/1");
  enqueue("http://b/1");
  enqueue("http://c/1");
  std::vector<std::string> order;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(executor.size(), 1u);
    executor.run(0);
    order.push_back(callback->awaitCount(static_cast<size_t>(i + 1)).back().url);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"http://a/1", "http://b/1", "http://c/1"}));
}

TEST_F(DispatcherTest, CancelAllCancelsQueuedAndRunningCalls) {
  dispatcher->setMaxRequests(1);
  std::shared_ptr<Call> running = newCall("http://a/1");
  std::shared_ptr<Call> queued = newCall("http://b/1");
  running->enqueue(callback);
  queued->enqueue(callback);
  dispatcher->cancelAll();
  EXPECT_TRUE(running->isCanceled());
  EXPECT_TRUE(queued->isCanceled());
  executor.run(0);
  EXPECT_EQ(callback->await("http://a/1").failure, "Canceled");
  executor.run(0);
  EXPECT_EQ(callback->await("http://b/1").failure, "Canceled");
}

TEST_F(DispatcherTest, CancelAllCancelsSynchronousCalls) {
  std::mutex mutex;
  std::condition_variable changed;
  bool blocked = false;
  bool release = false;
  std::shared_ptr<Interceptor> answer = client.interceptors()[0];
  client = Client::Builder()
               .dispatcher(dispatcher)
               .eventListenerFactory(events)
               .addInterceptor([&](Interceptor::Chain& chain) {
                 std::unique_lock lock(mutex);
                 blocked = true;
                 changed.notify_all();
                 changed.wait(lock, [&] { return release; });
                 return chain.proceed(chain.request());
               })
               .addInterceptor(answer)
               .build();
  std::shared_ptr<Call> call = newCall("http://a/1");
  auto result = std::async(std::launch::async, [&]() -> std::string {
    try {
      call->execute();
      return "no exception";
    } catch (const InterruptedIOException& e) {
      return e.what();
    }
  });
  {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return blocked; });
  }
  dispatcher->cancelAll();
  EXPECT_TRUE(call->isCanceled());
  {
    std::lock_guard lock(mutex);
    release = true;
  }
  changed.notify_all();
  EXPECT_EQ(result.get(), "Canceled");
  EXPECT_EQ(dispatcher->runningCallsCount(), 0);
}

TEST_F(DispatcherTest, ShutdownCancelsAndWaitsUntilTheExecutorRanEveryCall) {
  dispatcher->setMaxRequests(1);
  enqueue("http://a/1");
  enqueue("http://b/1");  // Queued behind a/1.
  auto shutdown = std::async(std::launch::async, [&] { dispatcher->shutdown(); });
  ASSERT_TRUE(eventually([&] { return dispatcher->runningCalls().at(0)->isCanceled(); }));
  ASSERT_TRUE(eventually([&] { return dispatcher->queuedCalls().at(0)->isCanceled(); }));
  // Its calls have not ended: the executor has not run them yet.
  EXPECT_NE(shutdown.wait_for(0s), std::future_status::ready);
  executor.run(0);
  EXPECT_EQ(callback->await("http://a/1").failure, "Canceled");
  ASSERT_EQ(executor.size(), 1u);  // b/1 got its turn.
  EXPECT_NE(shutdown.wait_for(0s), std::future_status::ready);
  executor.run(0);
  EXPECT_EQ(callback->await("http://b/1").failure, "Canceled");
  ASSERT_EQ(shutdown.wait_for(30s), std::future_status::ready);
  EXPECT_EQ(dispatcher->runningCallsCount(), 0);
  EXPECT_EQ(dispatcher->queuedCallsCount(), 0);
  dispatcher->shutdown();  // Idempotent, and returns at once with nothing to wait for.
}

TEST_F(DispatcherTest, CallsAfterShutdownFailAtOnce) {
  dispatcher->shutdown();
  enqueue("http://a/1");
  EXPECT_EQ(executor.size(), 0u);                 // Never handed to the executor:
  EXPECT_EQ(callback->awaitCount(0).size(), 1u);  // it failed before enqueue() returned.
  RecordedResponse recorded = callback->await("http://a/1");
  EXPECT_EQ(recorded.failure, "client is shut down");
  EXPECT_TRUE(recorded.interrupted);
  try {
    newCall("http://a/2")->execute();
    FAIL() << "expected InterruptedIOException";
  } catch (const InterruptedIOException& e) {
    EXPECT_STREQ(e.what(), "client is shut down");
  }
  EXPECT_EQ(dispatcher->runningCallsCount(), 0);
  EXPECT_EQ(dispatcher->queuedCallsCount(), 0);
}

TEST_F(DispatcherTest, ShutdownJoinsItsOwnThreads) {
  auto realDispatcher = std::make_shared<Dispatcher>();
  std::shared_ptr<Interceptor> answer = client.interceptors()[0];
  client = Client::Builder()
               .dispatcher(realDispatcher)
               .eventListenerFactory(events)
               .addInterceptor(answer)
               .build();
  for (int i = 0; i < 8; ++i) newCall("http://a/" + std::to_string(i))->enqueue(callback);
  realDispatcher->shutdown();
  // Every call ended before it returned; each was answered or canceled, once.
  std::vector<RecordedResponse> responses = callback->awaitCount(0);
  std::set<std::string> urls;
  for (const RecordedResponse& response : responses) urls.insert(response.url);
  EXPECT_EQ(responses.size(), 8u);
  EXPECT_EQ(urls.size(), 8u);
  EXPECT_EQ(realDispatcher->runningCallsCount(), 0);
  EXPECT_EQ(realDispatcher->queuedCallsCount(), 0);
}

TEST_F(DispatcherTest, IdleCallbackRunsWhenTheLastCallFinishes) {
  std::atomic<int> idle{0};
  dispatcher->setIdleCallback([&] { ++idle; });
  enqueue("http://a/1");
  enqueue("http://b/1");
  executor.run(0);
  callback->await("http://a/1");
  EXPECT_EQ(idle.load(), 0);
  executor.run(0);
  callback->await("http://b/1");
  EXPECT_EQ(idle.load(), 1);
}

TEST_F(DispatcherTest, IdleCallbackRunsAfterSynchronousCalls) {
  std::atomic<int> idle{0};
  dispatcher->setIdleCallback([&] { ++idle; });
  newCall("http://a/1")->execute().body()->string();
  EXPECT_EQ(idle.load(), 1);
  newCall("http://a/2")->execute().body()->string();
  EXPECT_EQ(idle.load(), 2);
}

TEST_F(DispatcherTest, RejectedCallFailsAndFreesItsSlot) {
  executor.shutdown();
  enqueue("http://a/1");
  RecordedResponse recorded = callback->await("http://a/1");
  EXPECT_EQ(recorded.failure, "executor rejected");
  EXPECT_TRUE(recorded.interrupted);
  EXPECT_EQ(dispatcher->runningCallsCount(), 0);
  EXPECT_EQ(dispatcher->queuedCallsCount(), 0);
}

TEST_F(DispatcherTest, SynchronousCallsCountAsRunningButAreNotLimited) {
  std::mutex mutex;
  std::condition_variable changed;
  int blocked = 0;
  bool release = false;
  // Blocks each call before the interceptor that answers it.
  std::shared_ptr<Interceptor> answer = client.interceptors()[0];
  client = Client::Builder()
               .dispatcher(dispatcher)
               .eventListenerFactory(events)
               .addInterceptor([&](Interceptor::Chain& chain) {
                 std::unique_lock lock(mutex);
                 ++blocked;
                 changed.notify_all();
                 changed.wait(lock, [&] { return release; });
                 return chain.proceed(chain.request());
               })
               .addInterceptor(answer)
               .build();
  dispatcher->setMaxRequests(1);
  auto first =
      std::async(std::launch::async, [&] { return newCall("http://a/1")->execute().code(); });
  auto second =
      std::async(std::launch::async, [&] { return newCall("http://a/2")->execute().code(); });
  {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return blocked == 2; });
  }
  EXPECT_EQ(dispatcher->runningCallsCount(), 2);
  EXPECT_EQ(dispatcher->runningCalls().size(), 2u);
  {
    std::lock_guard lock(mutex);
    release = true;
  }
  changed.notify_all();
  EXPECT_EQ(first.get(), 200);
  EXPECT_EQ(second.get(), 200);
  EXPECT_EQ(dispatcher->runningCallsCount(), 0);
}

TEST_F(DispatcherTest, RunningCallsListsEnqueuedCalls) {
  std::shared_ptr<Call> call = newCall("http://a/1");
  call->enqueue(callback);
  std::vector<std::shared_ptr<Call>> running = dispatcher->runningCalls();
  ASSERT_EQ(running.size(), 1u);
  EXPECT_EQ(running[0], call);
  executor.run(0);
  callback->await("http://a/1");
}

TEST_F(DispatcherTest, DefaultExecutorLimitsConcurrencyPerHost) {
  // Real threads: ten calls to one host never run more than five at once. Each call's
  // interceptor blocks its thread until five have been in at once (or 5 s went by), so that the
  // five are reached however slowly the engine adds carriers for blocked ones on a loaded
  // machine (a fixed 50 ms sleep was not always long enough).
  std::atomic<int> concurrent{0};
  std::atomic<int> maxConcurrent{0};
  auto realDispatcher = std::make_shared<Dispatcher>();
  std::shared_ptr<Interceptor> answer = client.interceptors()[0];
  client = Client::Builder()
               .dispatcher(realDispatcher)
               .eventListenerFactory(events)
               .addInterceptor([&](Interceptor::Chain& chain) {
                 int now = ++concurrent;
                 int seen = maxConcurrent.load();
                 while (now > seen && !maxConcurrent.compare_exchange_weak(seen, now)) {
                 }
                 const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
                 while (maxConcurrent.load() < 5 && std::chrono::steady_clock::now() < deadline) {
                   std::this_thread::sleep_for(std::chrono::milliseconds(1));
                 }
                 std::this_thread::sleep_for(std::chrono::milliseconds(10));
                 --concurrent;
                 return chain.proceed(chain.request());
               })
               .addInterceptor(answer)
               .build();
  for (int i = 0; i < 10; ++i) newCall("http://a/" + std::to_string(i))->enqueue(callback);
  std::vector<RecordedResponse> responses = callback->awaitCount(10);
  EXPECT_EQ(responses.size(), 10u);
  EXPECT_EQ(maxConcurrent.load(), 5);
  ASSERT_TRUE(eventually([&] { return realDispatcher->runningCallsCount() == 0; }));
}

TEST_F(DispatcherTest, DefaultExecutorRunsTheNextQueuedCallOnTheThreadThatFinished) {
  // No hand-off: the thread whose call ended takes the queued call its end let through, so a
  // busy dispatcher does not wake another thread per call. Threads are told apart by their ids.
  auto realDispatcher = std::make_shared<Dispatcher>();
  realDispatcher->setMaxRequests(1);
  std::mutex mutex;
  std::vector<std::thread::id> threads;
  std::promise<void> allEnqueued;  // The first call waits for the rest to queue behind it.
  std::shared_future<void> enqueued = allEnqueued.get_future().share();
  std::shared_ptr<Interceptor> answer = client.interceptors()[0];
  client = Client::Builder()
               .dispatcher(realDispatcher)
               .eventListenerFactory(events)
               .addInterceptor([&](Interceptor::Chain& chain) {
                 enqueued.wait();
                 std::lock_guard lock(mutex);
                 threads.push_back(std::this_thread::get_id());
                 return chain.proceed(chain.request());
               })
               .addInterceptor(answer)
               .build();
  for (int i = 0; i < 4; ++i) newCall("http://a/" + std::to_string(i))->enqueue(callback);
  EXPECT_EQ(realDispatcher->queuedCallsCount(), 3);
  allEnqueued.set_value();
  std::vector<RecordedResponse> responses = callback->awaitCount(4);
  ASSERT_EQ(responses.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(responses[i].url, "http://a/" + std::to_string(i));
  ASSERT_TRUE(eventually([&] { return realDispatcher->runningCallsCount() == 0; }));
  std::lock_guard lock(mutex);
  ASSERT_EQ(threads.size(), 4u);
  for (const std::thread::id& thread : threads) EXPECT_EQ(thread, threads[0]);
  EXPECT_NE(threads[0], std::this_thread::get_id());
}

}  // namespace
}  // namespace tern::testing
