// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Connect, read, write and call timeouts: each fails the call promptly with an exception that
// says which one fired (OkHttp's CallTest and CallKotlinTest timeout cases).
#include <gtest/gtest.h>

#include "call/call_fixture.h"

namespace tern::testing {
namespace {

class TimeoutTest : public CallFixture {
 protected:
  // The type and message of what `block` threw, and how long it took.
  template <typename Block>
  static std::pair<std::chrono::milliseconds, std::string> failure(Block block) {
    auto start = std::chrono::steady_clock::now();
    std::string message = "no exception";
    try {
      block();
    } catch (const SocketTimeoutException& e) {
      message = std::string("SocketTimeoutException: ") + e.what();
    } catch (const InterruptedIOException& e) {
      message = std::string("InterruptedIOException: ") + e.what();
    } catch (const IOException& e) {
      message = std::string("IOException: ") + e.what();
    }
    return {std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                  start),
            message};
  }
  static bool startsWith(const std::string& s, const std::string& prefix) {
    return s.rfind(prefix, 0) == 0;
  }
};

TEST_F(TimeoutTest, ConnectTimeoutFiresWhenTheServerNeverAccepts) {
  FullBacklog backlog;
  Client c = client.newBuilder().connectTimeout(200ms).build();
  auto [elapsed, message] = failure([&] {
    c.newCall(
         Request::Builder().url("http://127.0.0.1:" + std::to_string(backlog.port()) + "/").build())
        ->execute();
  });
  EXPECT_TRUE(startsWith(message, "SocketTimeoutException: Connect timed out after 200 ms"))
      << message;
  EXPECT_GE(elapsed, 150ms);
  EXPECT_LT(elapsed, 5s);
}

TEST_F(TimeoutTest, ReadTimeoutFiresWhileWaitingForHeaders) {
  server.enqueue(MockResponse::Builder().headersDelay(5s).body("late").build());
  client = client.newBuilder().readTimeout(200ms).build();
  auto [elapsed, message] = failure([&] { execute(); });
  EXPECT_TRUE(startsWith(message, "SocketTimeoutException: Read timed out after 200 ms"))
      << message;
  EXPECT_LT(elapsed, 3s);
}

TEST_F(TimeoutTest, ReadTimeoutFiresWhileReadingTheBody) {
  server.enqueue(MockResponse::Builder().bodyDelay(5s).body("late body").build());
  client = client.newBuilder().readTimeout(200ms).build();
  Response response = execute();
  auto [elapsed, message] = failure([&] { response.body()->string(); });
  EXPECT_TRUE(startsWith(message, "SocketTimeoutException: Read timed out after 200 ms"))
      << message;
  EXPECT_LT(elapsed, 3s);
}

TEST_F(TimeoutTest, ReadTimeoutIsPerReadNotPerBody) {
  // 5 bytes, one every 100 ms: a 300 ms read timeout never fires, though the body takes 500 ms.
  server.enqueue(MockResponse::Builder().throttleBody(1, 100ms).body("abcde").build());
  client = client.newBuilder().readTimeout(300ms).build();
  EXPECT_EQ(fetch(), "abcde");
}

TEST_F(TimeoutTest, WriteTimeoutFiresWhenTheServerStopsReading) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::StallSocketAtStart{}).build());
  client = client.newBuilder().writeTimeout(200ms).build();
  std::string big(16 << 20, 'x');
  auto [elapsed, message] = failure([&] {
    execute(Request::Builder().url(server.url("/")).post(RequestBody::create(big)).build());
  });
  EXPECT_TRUE(startsWith(message, "SocketTimeoutException: Write timed out after 200 ms"))
      << message;
  EXPECT_LT(elapsed, 5s);
}

TEST_F(TimeoutTest, ZeroReadTimeoutWaitsAsLongAsItTakes) {
  server.enqueue(MockResponse::Builder().headersDelay(300ms).body("patient").build());
  client = client.newBuilder().readTimeout(0ms).build();
  EXPECT_EQ(fetch(), "patient");
}

TEST_F(TimeoutTest, CallTimeoutFiresWhileWaitingForHeaders) {
  server.enqueue(MockResponse::Builder().headersDelay(5s).body("late").build());
  client = client.newBuilder().callTimeout(200ms).build();
  auto [elapsed, message] = failure([&] { execute(); });
  EXPECT_EQ(message, "InterruptedIOException: timeout");
  EXPECT_GE(elapsed, 150ms);
  EXPECT_LT(elapsed, 3s);
}

TEST_F(TimeoutTest, CallTimeoutCoversReadingTheBody) {
  server.enqueue(MockResponse::Builder().throttleBody(1, 100ms).body(std::string(50, 'a')).build());
  client = client.newBuilder().callTimeout(400ms).build();
  Response response = execute();
  auto [elapsed, message] = failure([&] { response.body()->string(); });
  EXPECT_EQ(message, "InterruptedIOException: timeout");
  EXPECT_LT(elapsed, 3s);
}

TEST_F(TimeoutTest, CallTimeoutSpansRedirects) {
  // Five redirects, each answered after 150 ms: none is slow, but together they exceed 500 ms.
  server.setDispatcher([](const RecordedRequest& request) {
    int step = std::stoi(request.path().substr(1));
    return MockResponse::Builder()
        .code(302)
        .addHeader("Location", "/" + std::to_string(step + 1))
        .headersDelay(150ms)
        .build();
  });
  client = client.newBuilder().callTimeout(500ms).build();
  auto [elapsed, message] = failure([&] { execute("/0"); });
  EXPECT_EQ(message, "InterruptedIOException: timeout");
  EXPECT_LT(elapsed, 3s);
}

TEST_F(TimeoutTest, CallTimeoutSpansRetries) {
  // Each attempt on a new route fails slowly (the server stalls, the read timeout fires).
  server.setDispatcher([](const RecordedRequest&) {
    return MockResponse::Builder().headersDelay(2s).body("late").build();
  });
  client = client.newBuilder().callTimeout(300ms).readTimeout(5s).build();
  auto [elapsed, message] = failure([&] { execute(); });
  EXPECT_EQ(message, "InterruptedIOException: timeout");
  EXPECT_LT(elapsed, 2s);
}

TEST_F(TimeoutTest, CallTimeoutThatDoesNotFireLeavesTheCallAlone) {
  server.enqueue(body("quick"));
  server.enqueue(body("reused"));
  client = client.newBuilder().callTimeout(200ms).build();
  EXPECT_EQ(fetch(), "quick");
  std::this_thread::sleep_for(300ms);  // Past the deadline: nothing happens to the connection.
  EXPECT_EQ(client.connectionPool()->idleConnectionCount(), 1);
  EXPECT_EQ(fetch(), "reused");
  server.takeRequest();
  EXPECT_EQ(server.takeRequest().sequenceNumber(), 1);
}

TEST_F(TimeoutTest, PerCallTimeoutOverridesTheClients) {
  server.enqueue(MockResponse::Builder().headersDelay(5s).body("late").build());
  std::shared_ptr<Call> call = client.newCall(get());
  EXPECT_EQ(call->timeout().timeoutNanos(), std::chrono::nanoseconds(0));
  call->timeout().timeout(200ms);
  auto [elapsed, message] = failure([&] { call->execute(); });
  EXPECT_EQ(message, "InterruptedIOException: timeout");
  EXPECT_LT(elapsed, 3s);
}

TEST_F(TimeoutTest, CallTimeoutStartsAsTheClients) {
  Client c = client.newBuilder().callTimeout(1500ms).build();
  EXPECT_EQ(c.newCall(get())->timeout().timeoutNanos(), std::chrono::milliseconds(1500));
}

TEST_F(TimeoutTest, CallTimeoutFailsAnEnqueuedCall) {
  server.enqueue(MockResponse::Builder().headersDelay(5s).body("late").build());
  client = client.newBuilder().callTimeout(200ms).build();
  auto callback = std::make_shared<RecordingCallback>();
  client.newCall(get("/a"))->enqueue(callback);
  RecordedResponse recorded = callback->await(url("/a"));
  EXPECT_EQ(recorded.failure, "timeout");
  EXPECT_TRUE(recorded.interrupted);
}

TEST_F(TimeoutTest, ApplicationInterceptorCanShortenTheReadTimeout) {
  server.enqueue(MockResponse::Builder().headersDelay(5s).body("late").build());
  client = client.newBuilder()
               .readTimeout(5s)
               .addInterceptor([](Interceptor::Chain& chain) {
                 return chain.withReadTimeout(150ms)->proceed(chain.request());
               })
               .build();
  auto [elapsed, message] = failure([&] { execute(); });
  EXPECT_TRUE(startsWith(message, "SocketTimeoutException: Read timed out after 150 ms"))
      << message;
}

TEST_F(TimeoutTest, ApplicationInterceptorCanShortenTheConnectTimeout) {
  FullBacklog backlog;
  Client c = client.newBuilder()
                 .connectTimeout(10s)
                 .addInterceptor([](Interceptor::Chain& chain) {
                   return chain.withConnectTimeout(150ms)->proceed(chain.request());
                 })
                 .build();
  auto [elapsed, message] = failure([&] {
    c.newCall(
         Request::Builder().url("http://127.0.0.1:" + std::to_string(backlog.port()) + "/").build())
        ->execute();
  });
  EXPECT_TRUE(startsWith(message, "SocketTimeoutException: Connect timed out after 150 ms"))
      << message;
}

TEST_F(TimeoutTest, ApplicationInterceptorCanShortenTheWriteTimeout) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::StallSocketAtStart{}).build());
  client = client.newBuilder()
               .addInterceptor([](Interceptor::Chain& chain) {
                 return chain.withWriteTimeout(150ms)->proceed(chain.request());
               })
               .build();
  std::string big(16 << 20, 'x');
  auto [elapsed, message] = failure([&] {
    execute(Request::Builder().url(server.url("/")).post(RequestBody::create(big)).build());
  });
  EXPECT_TRUE(startsWith(message, "SocketTimeoutException: Write timed out after 150 ms"))
      << message;
}

TEST_F(TimeoutTest, ChainReportsTheTimeoutsInEffect) {
  server.enqueue(body("ok"));
  std::vector<int> seen;
  client =
      Client::Builder()
          .connectTimeout(1s)
          .readTimeout(2s)
          .writeTimeout(3s)
          .addInterceptor([&](Interceptor::Chain& chain) {
            seen = {chain.connectTimeoutMillis(), chain.readTimeoutMillis(),
                    chain.writeTimeoutMillis()};
            return chain.withConnectTimeout(4s)->withReadTimeout(5s)->withWriteTimeout(6s)->proceed(
                chain.request());
          })
          .addNetworkInterceptor([&](Interceptor::Chain& chain) {
            seen.insert(seen.end(), {chain.connectTimeoutMillis(), chain.readTimeoutMillis(),
                                     chain.writeTimeoutMillis()});
            return chain.proceed(chain.request());
          })
          .build();
  fetch();
  EXPECT_EQ(seen, (std::vector<int>{1000, 2000, 3000, 4000, 5000, 6000}));
}

TEST_F(TimeoutTest, NetworkInterceptorsCannotAdjustTimeouts) {
  server.enqueue(body("ok"));
  server.enqueue(body("ok"));
  server.enqueue(body("ok"));
  for (int which = 0; which < 3; ++which) {
    Client c = client.newBuilder()
                   .addNetworkInterceptor([which](Interceptor::Chain& chain) {
                     if (which == 0) return chain.withConnectTimeout(1s)->proceed(chain.request());
                     if (which == 1) return chain.withReadTimeout(1s)->proceed(chain.request());
                     return chain.withWriteTimeout(1s)->proceed(chain.request());
                   })
                   .build();
    try {
      c.newCall(get())->execute();
      FAIL() << "expected std::logic_error";
    } catch (const std::logic_error& e) {
      EXPECT_STREQ(e.what(), "Timeouts can't be adjusted in a network interceptor");
    }
  }
}

TEST_F(TimeoutTest, ChainRejectsInvalidTimeouts) {
  server.enqueue(body("ok"));
  std::vector<std::string> errors;
  client = client.newBuilder()
               .addInterceptor([&](Interceptor::Chain& chain) {
                 for (auto timeout : {std::chrono::nanoseconds(-1), std::chrono::nanoseconds(1)}) {
                   try {
                     chain.withReadTimeout(timeout);
                   } catch (const std::invalid_argument& e) {
                     errors.push_back(e.what());
                   }
                 }
                 return chain.proceed(chain.request());
               })
               .build();
  fetch();
  EXPECT_EQ(errors, (std::vector<std::string>{"readTimeout < 0", "readTimeout too small"}));
}

}  // namespace
}  // namespace tern::testing
