// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The engine under enqueue() (DESIGN.md, Threads): an enqueued call waiting on the network holds
// no thread. Counted by the threads of the Dispatcher's own pool ("tern Dispatcher"): with a
// thread per call, 200 calls waiting for their responses would hold 200 of them.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <future>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "call/dispatcher_access.h"
#include "call/https_fixture.h"
#include "support/thread_count.h"

namespace tern::testing {
namespace {

constexpr size_t kCalls = 200;
constexpr char kPoolThread[] = "tern Dispatcher";

// The pool threads the engine may have made for 200 calls: far below one per call. (What a
// carrier holds is asserted exactly, by heldNoThread. The pool makes a new thread whenever a
// carrier is asked for just as one is going back, and the reactor adds carriers when they all
// sleep while calls wait to run, so the count varies with the machine's load; issue 18's scale
// figure of "4 + cores" threads is a benchmark's to measure.)
int poolThreadBudget() { return static_cast<int>(kCalls) / 8; }

// Waits until the server has `count` requests: the calls are then all waiting for responses.
bool serverHas(const MockWebServer& server, size_t count) {
  for (int i = 0; i < 2000 && static_cast<size_t>(server.requestCount()) < count; ++i) {
    std::this_thread::sleep_for(5ms);
  }
  return static_cast<size_t>(server.requestCount()) >= count;
}

// Waits until `dispatcher` runs no call and no fiber of its lives on.
bool dispatcherIsIdle(const Dispatcher& dispatcher) {
  for (int i = 0; i < 2000; ++i) {
    if (dispatcher.runningCallsCount() == 0 &&
        internal::DispatcherAccess::liveFibers(dispatcher) == 0) {
      return true;
    }
    std::this_thread::sleep_for(5ms);
  }
  return false;
}

// What 200 enqueued calls to a server that answers only once all have arrived saw.
struct WaitingCalls {
  bool heldNoThread = false;  // Every call on a parked fiber, no carrier running.
  int poolThreadsWhileWaiting = 0;
  std::vector<std::string> bodies;  // Sorted; "failed: ..." for a failure.
  std::vector<Protocol> protocols;
};

WaitingCalls enqueueWaitingCalls(const Client& client, MockWebServer& server) {
  // The server answers once the test has looked (every call is then waiting for its response).
  std::promise<void> answer;
  std::shared_future<void> answered = answer.get_future().share();
  server.setDispatcher([answered](const RecordedRequest& request) {
    answered.wait_for(30s);
    return MockResponse::Builder().body("ok " + request.path()).build();
  });
  auto dispatcher = std::make_shared<Dispatcher>();
  dispatcher->setMaxRequests(static_cast<int>(kCalls));
  dispatcher->setMaxRequestsPerHost(static_cast<int>(kCalls));
  Client c = client.newBuilder().dispatcher(dispatcher).build();
  const int before = threadsNamed(kPoolThread);
  WaitingCalls result;
  std::mutex mutex;
  std::promise<void> allDone;
  auto record = [&](std::string body, Protocol protocol) {
    std::lock_guard lock(mutex);
    result.bodies.push_back(std::move(body));
    result.protocols.push_back(protocol);
    if (result.bodies.size() == kCalls) allDone.set_value();
  };
  for (size_t i = 0; i < kCalls; ++i) {
    c.newCall(Request::Builder().url(server.url("/" + std::to_string(i))).build())
        ->enqueue(
            [&](Call&, Response response) {
              record(response.body()->string(), response.protocol());
            },
            [&](Call&, const IOException& e) {
              record(std::string("failed: ") + e.what(), Protocol::HTTP_1_0);
            });
  }
  EXPECT_TRUE(serverHas(server, kCalls)) << server.requestCount() << " requests arrived";
  // The test hook: the dispatcher's carriers. All 200 calls are waiting now, so every fiber is
  // parked and no carrier runs (one may linger a few ms for work before it goes).
  for (int i = 0; i < 100 && !result.heldNoThread; ++i) {
    result.heldNoThread =
        internal::DispatcherAccess::carriers(*dispatcher) == 0 &&
        internal::DispatcherAccess::liveFibers(*dispatcher) == static_cast<int>(kCalls);
    if (!result.heldNoThread) std::this_thread::sleep_for(2ms);
  }
  result.poolThreadsWhileWaiting = threadsNamed(kPoolThread) - before;
  answer.set_value();
  EXPECT_EQ(allDone.get_future().wait_for(30s), std::future_status::ready);
  std::lock_guard lock(mutex);
  std::sort(result.bodies.begin(), result.bodies.end());
  return result;
}

std::vector<std::string> expectedBodies() {
  std::vector<std::string> bodies;
  for (size_t i = 0; i < kCalls; ++i) bodies.push_back("ok /" + std::to_string(i));
  std::sort(bodies.begin(), bodies.end());
  return bodies;
}

using AsyncEngineTest = CallFixture;
using AsyncEngineHttpsTest = HttpsFixture;

TEST_F(AsyncEngineTest, CallsWaitingOnHttp11HoldNoThread) {
  // 200 connections, each with a call parked on its socket (the reactor's epoll watches them).
  WaitingCalls calls = enqueueWaitingCalls(client, server);
  EXPECT_TRUE(calls.heldNoThread);
  EXPECT_LE(calls.poolThreadsWhileWaiting, poolThreadBudget());
  EXPECT_EQ(calls.bodies, expectedBodies());
  EXPECT_EQ(std::count(calls.protocols.begin(), calls.protocols.end(), Protocol::HTTP_1_1),
            static_cast<std::ptrdiff_t>(kCalls));
}

TEST_F(AsyncEngineHttpsTest, CallsWaitingOnHttp2StreamsHoldNoThread) {
  // 200 streams on one connection, each call parked until the connection's reader wakes it.
  WaitingCalls calls = enqueueWaitingCalls(client, server);
  EXPECT_TRUE(calls.heldNoThread);
  EXPECT_LE(calls.poolThreadsWhileWaiting, poolThreadBudget());
  EXPECT_EQ(calls.bodies, expectedBodies());
  EXPECT_EQ(std::count(calls.protocols.begin(), calls.protocols.end(), Protocol::HTTP_2),
            static_cast<std::ptrdiff_t>(kCalls));
}

TEST_F(AsyncEngineTest, CallbacksThatBlockDoNotHoldBackTheOtherCalls) {
  // Callbacks are the user's code and may block on anything; here more of them than the engine
  // has carrier threads wait for a signal that only the last, unblocked calls send. The engine
  // notices its carriers are stuck and adds one, as a thread per call would never have needed.
  server.setDispatcher(
      [](const RecordedRequest&) { return MockResponse::Builder().body("x").build(); });
  const int blockers = std::max(2, static_cast<int>(std::thread::hardware_concurrency())) + 1;
  const int others = 20;
  auto dispatcher = std::make_shared<Dispatcher>();
  Client c = client.newBuilder().dispatcher(dispatcher).build();
  std::promise<void> othersDone;
  std::shared_future<void> othersDoneFuture = othersDone.get_future().share();
  std::atomic<int> finished{0};
  std::atomic<int> released{0};
  std::promise<void> blockersDone;
  for (int i = 0; i < blockers; ++i) {
    c.newCall(get("/blocker"))
        ->enqueue(
            [&](Call&, Response response) {
              response.body()->string();
              if (othersDoneFuture.wait_for(20s) == std::future_status::ready) ++released;
              if (++finished == blockers) blockersDone.set_value();
            },
            [&](Call&, const IOException&) {
              if (++finished == blockers) blockersDone.set_value();
            });
  }
  std::atomic<int> otherCount{0};
  for (int i = 0; i < others; ++i) {
    c.newCall(get("/other"))
        ->enqueue(
            [&](Call&, Response response) {
              response.body()->string();
              if (++otherCount == others) othersDone.set_value();
            },
            [&](Call&, const IOException&) {});
  }
  ASSERT_EQ(blockersDone.get_future().wait_for(30s), std::future_status::ready);
  EXPECT_EQ(released.load(), blockers);
  EXPECT_EQ(otherCount.load(), others);
}

TEST_F(AsyncEngineTest, ACallbackReadingASlowBodyStaysOnItsThread) {
  // A callback is pinned to its thread: what it keeps in a thread_local, or a lock it holds,
  // across a body read that waits stays with it, as with a thread per call.
  server.enqueue(MockResponse::Builder()
                     .body(std::string(64 * 1024, 'a'))
                     .throttleBody(8 * 1024, 20ms)
                     .build());
  std::promise<std::pair<std::thread::id, std::thread::id>> threads;
  std::promise<size_t> size;
  client.newCall(get())->enqueue(
      [&](Call&, Response response) {
        const std::thread::id first = std::this_thread::get_id();
        size.set_value(response.body()->string().size());
        threads.set_value({first, std::this_thread::get_id()});
      },
      [&](Call&, const IOException&) {
        size.set_value(0);
        threads.set_value({});
      });
  EXPECT_EQ(size.get_future().get(), 64u * 1024);
  auto [before, after] = threads.get_future().get();
  EXPECT_EQ(before, after);
}

TEST_F(AsyncEngineHttpsTest, ASmallBodyThatLagsItsHeadersIsInMemoryWhenOnResponseRuns) {
  // Over HTTP/2 a response's DATA comes after its HEADERS. A callback reading a small body that
  // is not there yet would hold its (pinned) thread while it waits: with thousands of calls, a
  // thread each. So the call waits for a small body, parked, before onResponse runs, and the
  // read there finds it in memory. Each body here comes 50 ms after its headers; reading it in
  // onResponse takes no time. (Most, not all: a loaded machine may stop a carrier mid-read.)
  constexpr int kCount = 20;
  server.setDispatcher([](const RecordedRequest& request) {
    return MockResponse::Builder().body("late " + request.path()).bodyDelay(50ms).build();
  });
  client.dispatcher()->setMaxRequests(kCount);
  client.dispatcher()->setMaxRequestsPerHost(kCount);
  std::mutex mutex;
  std::vector<std::string> bodies;
  int quickReads = 0;
  std::promise<void> allDone;
  for (int i = 0; i < kCount; ++i) {
    client.newCall(get("/" + std::to_string(i)))
        ->enqueue(
            [&](Call&, Response response) {
              const auto start = std::chrono::steady_clock::now();
              std::string body = response.body()->string();
              const bool quick = std::chrono::steady_clock::now() - start < 25ms;
              std::lock_guard lock(mutex);
              quickReads += quick ? 1 : 0;
              bodies.push_back(std::move(body));
              if (bodies.size() == kCount) allDone.set_value();
            },
            [&](Call&, const IOException& e) {
              std::lock_guard lock(mutex);
              bodies.push_back(std::string("failed: ") + e.what());
              if (bodies.size() == kCount) allDone.set_value();
            });
  }
  ASSERT_EQ(allDone.get_future().wait_for(30s), std::future_status::ready);
  std::lock_guard lock(mutex);
  std::sort(bodies.begin(), bodies.end());
  std::vector<std::string> expected;
  for (int i = 0; i < kCount; ++i) expected.push_back("late /" + std::to_string(i));
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(bodies, expected);
  EXPECT_GE(quickReads, kCount * 9 / 10);
}

TEST_F(AsyncEngineHttpsTest, OnResponseIsNotHeldBackLongByABodyThatLags) {
  // The wait for a small body ends once the connection has been quiet for a moment
  // (Http2ExchangeCodec::kBodyPatience): a response whose body comes much later still reaches
  // onResponse with its headers, as OkHttp's does.
  server.enqueue(MockResponse::Builder().body("much later").bodyDelay(3s).build());
  const auto start = std::chrono::steady_clock::now();
  std::promise<std::chrono::steady_clock::duration> headersSeen;
  std::promise<std::string> body;
  client.newCall(get())->enqueue(
      [&](Call&, Response response) {
        headersSeen.set_value(std::chrono::steady_clock::now() - start);
        body.set_value(response.body()->string());
      },
      [&](Call&, const IOException& e) {
        headersSeen.set_value({});
        body.set_value(std::string("failed: ") + e.what());
      });
  EXPECT_LT(headersSeen.get_future().get(), 2s);
  EXPECT_EQ(body.get_future().get(), "much later");
}

// Cancels enqueued calls at random moments (queued behind the dispatcher's limit, connecting,
// parked on a socket or a stream, waiting for a small body, in the callback): every call ends
// exactly once, with its own body or a failure, and nothing is left running. CI runs this under
// TSan, where the races between a cancel and a park or a wake-up would show.
//
// The server answers nothing until every call is enqueued (under TSan, enqueuing 200 calls took
// long enough for most to end before the first cancel), and every tenth call, which the canceler
// always cancels, is held until the canceler is done, so some calls surely end canceled.
void cancelAtRandomMoments(const Client& client, MockWebServer& server) {
  constexpr int kCount = 200;
  std::promise<void> enqueued;
  std::promise<void> cancelsDone;
  server.setDispatcher(
      [enqueuedFuture = enqueued.get_future().share(),
       cancelsDoneFuture = cancelsDone.get_future().share()](const RecordedRequest& request) {
        const int n = std::atoi(request.path().substr(1).c_str());
        enqueuedFuture.wait_for(10s);
        if (n % 10 == 0) cancelsDoneFuture.wait_for(10s);
        return MockResponse::Builder()
            .body("ok " + request.path())
            .headersDelay(std::chrono::milliseconds(n % 5))
            .bodyDelay(std::chrono::milliseconds(n % 3))
            .build();
      });
  struct State {
    std::atomic<int> endings[kCount] = {};
    std::atomic<int> ended{0};
    std::atomic<int> wrongBodies{0};
    std::atomic<int> responses{0};  // Read whole.
    std::atomic<int> failures{0};   // Failed, or their body read did.
    std::promise<void> allEnded;
    void end(int i) {
      if (endings[i].fetch_add(1) == 0 && ++ended == kCount) allEnded.set_value();
    }
  };
  auto state = std::make_shared<State>();
  auto dispatcher = std::make_shared<Dispatcher>();
  dispatcher->setMaxRequests(50);  // The rest queue.
  dispatcher->setMaxRequestsPerHost(50);
  Client c = client.newBuilder().dispatcher(dispatcher).build();
  std::vector<std::shared_ptr<Call>> calls;
  for (int i = 0; i < kCount; ++i) {
    calls.push_back(c.newCall(Request::Builder().url(server.url("/" + std::to_string(i))).build()));
    calls.back()->enqueue(
        [state, i](Call&, Response response) {
          try {
            if (response.body()->string() != "ok /" + std::to_string(i)) ++state->wrongBodies;
            ++state->responses;
          } catch (const IOException&) {
            ++state->failures;  // Canceled while reading.
          }
          state->end(i);
        },
        [state, i](Call&, const IOException&) {
          ++state->failures;
          state->end(i);
        });
  }
  enqueued.set_value();
  std::thread canceler([&calls, &cancelsDone] {
    std::mt19937 random(18);
    std::vector<size_t> order(calls.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), random);
    for (size_t i : order) {
      std::this_thread::sleep_for(std::chrono::microseconds(random() % 500));
      if (i % 10 == 0 || random() % 2 == 0) calls[i]->cancel();
    }
    cancelsDone.set_value();
  });
  const bool allEnded = state->allEnded.get_future().wait_for(60s) == std::future_status::ready;
  canceler.join();
  ASSERT_TRUE(allEnded) << state->ended << " of " << kCount << " calls ended";
  for (int i = 0; i < kCount; ++i) EXPECT_EQ(state->endings[i].load(), 1) << "call " << i;
  EXPECT_EQ(state->wrongBodies.load(), 0);
  // The cancels raced the calls: some ended first, some did not.
  EXPECT_GT(state->responses.load(), 0);
  EXPECT_GT(state->failures.load(), 0);
  EXPECT_TRUE(dispatcherIsIdle(*dispatcher));
}

TEST_F(AsyncEngineTest, CancelingCallsAtRandomMomentsEndsEachOnceOverHttp11) {
  cancelAtRandomMoments(client, server);
}

TEST_F(AsyncEngineHttpsTest, CancelingCallsAtRandomMomentsEndsEachOnceOverHttp2) {
  cancelAtRandomMoments(client, server);
}

}  // namespace
}  // namespace tern::testing
