// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Silent retries: stale pooled connections, other routes, 408 and 503 (OkHttp's CallTest recovery
// cases).
#include <gtest/gtest.h>

#include <thread>

#include "call/call_fixture.h"

namespace tern::testing {
namespace {

class RetryTest : public CallFixture {
 protected:
  // The server closes the connection after "/stale" (so the pooled connection goes stale) and
  // answers "fresh" to everything else.
  void serveStaleThenFresh() {
    server.setDispatcher([](const RecordedRequest& request) {
      if (request.path() == "/stale") {
        return MockResponse::Builder()
            .body("seed")
            .socketPolicy(SocketPolicy::DisconnectAtEnd{})
            .build();
      }
      return MockResponse::Builder().body("fresh").build();
    });
  }
  // Two routes to the server (OkHttp's DoubleInetAddressDns).
  Client doubleRouteClient(Client base) {
    auto dns = std::make_shared<FakeDns>();
    dns->set("double.test", {InetAddress::loopbackIpv4(), InetAddress::loopbackIpv4()});
    return base.newBuilder().dns(dns).build();
  }
  Request::Builder doubleRouteRequest(std::string_view path = "/") {
    return Request::Builder().url(server.url(path).newBuilder().host("double.test").build());
  }
  static std::shared_ptr<RequestBody> oneShotBody(std::string_view text) {
    auto content = std::make_unique<Buffer>();
    content->writeUtf8(text);
    return RequestBody::fromSource(std::move(content), std::nullopt,
                                   static_cast<int64_t>(text.size()));
  }
};

TEST_F(RetryTest, StalePooledConnectionIsRetriedOnANewOne) {
  serveStaleThenFresh();
  EXPECT_EQ(fetch("/stale"), "seed");
  std::this_thread::sleep_for(100ms);  // Let the server close it.
  EXPECT_EQ(fetch("/next"), "fresh");
  EXPECT_EQ(client.connectionPool()->connectionCount(), 1);
}

TEST_F(RetryTest, StalePooledConnectionFailsWithoutRetries) {
  serveStaleThenFresh();
  client = client.newBuilder().retryOnConnectionFailure(false).build();
  EXPECT_EQ(fetch("/stale"), "seed");
  std::this_thread::sleep_for(100ms);
  EXPECT_THROW(fetch("/next"), IOException);
}

TEST_F(RetryTest, StaleConnectionIsNotUsedForANonIdempotentRequest) {
  serveStaleThenFresh();
  client = client.newBuilder().retryOnConnectionFailure(false).build();
  EXPECT_EQ(fetch("/stale"), "seed");
  std::this_thread::sleep_for(100ms);
  // A POST checks the pooled connection first (a peek finds it closed), so it goes out once, on
  // a new connection, even without retries.
  Response response = execute(
      Request::Builder().url(server.url("/post")).post(RequestBody::create("body")).build());
  EXPECT_EQ(response.body()->string(), "fresh");
  server.takeRequest();
  RecordedRequest post = server.takeRequest();
  EXPECT_EQ(post.connectionIndex(), 1);
  EXPECT_EQ(post.sequenceNumber(), 0);
}

TEST_F(RetryTest, FailedFirstRouteIsRetriedOnTheSecond) {
  server.enqueue(
      MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAfterRequest{}).build());
  server.enqueue(body("second"));
  Client c = doubleRouteClient(client);
  Response response =
      c.newCall(doubleRouteRequest().post(RequestBody::create("resendable")).build())->execute();
  EXPECT_EQ(response.body()->string(), "second");
  EXPECT_EQ(server.takeRequest().bodyUtf8(), "resendable");
  EXPECT_EQ(server.takeRequest().bodyUtf8(), "resendable");
}

TEST_F(RetryTest, OneShotBodyIsNotRetriedOnceSent) {
  server.enqueue(
      MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAfterRequest{}).build());
  server.enqueue(body("should not be fetched"));
  Client c = doubleRouteClient(client);
  EXPECT_THROW(c.newCall(doubleRouteRequest().post(oneShotBody("once")).build())->execute(),
               IOException);
  EXPECT_EQ(server.takeRequest().bodyUtf8(), "once");
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(RetryTest, NoRetryOnTheNextRouteWhenDisabled) {
  server.enqueue(
      MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAfterRequest{}).build());
  server.enqueue(body("should not be fetched"));
  Client c = doubleRouteClient(client.newBuilder().retryOnConnectionFailure(false).build());
  EXPECT_THROW(c.newCall(doubleRouteRequest().build())->execute(), IOException);
  EXPECT_EQ(server.requestCount(), 1);
}

// One route at a time, each failure retried: the last failure is the call's. (With fast
// fallback the routes race and the first failure is the call's: fast_fallback_test.cc.)
TEST_F(RetryTest, ConnectFailureOnEveryRouteReportsTheLastWithoutFastFallback) {
  ClosedPort closed;
  auto dns = std::make_shared<FakeDns>();
  dns->set("closed.test", {InetAddress::loopbackIpv4(), *InetAddress::parse("127.0.0.2")});
  Client c = client.newBuilder().dns(dns).fastFallback(false).build();
  try {
    c.newCall(Request::Builder()
                  .url("http://closed.test:" + std::to_string(closed.port()) + "/")
                  .build())
        ->execute();
    FAIL() << "expected ConnectException";
  } catch (const ConnectException& e) {
    std::string expected =
        "Failed to connect to closed.test (127.0.0.2:" + std::to_string(closed.port()) + ")";
    EXPECT_EQ(std::string(e.what()).rfind(expected, 0), 0u) << e.what();
  }
}

TEST_F(RetryTest, ClientTimeoutIsRetriedOnce) {
  server.enqueue(MockResponse::Builder().code(408).body("timed out").build());
  server.enqueue(body("second try"));
  Response response = execute();
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "second try");
  ASSERT_NE(response.priorResponse(), nullptr);
  EXPECT_EQ(response.priorResponse()->code(), 408);
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_F(RetryTest, ClientTimeoutTwiceIsReturned) {
  server.enqueue(MockResponse::Builder().code(408).body("one").build());
  server.enqueue(MockResponse::Builder().code(408).body("two").build());
  Response response = execute();
  EXPECT_EQ(response.code(), 408);
  EXPECT_EQ(response.body()->string(), "two");
}

TEST_F(RetryTest, ClientTimeoutWithARetryAfterDelayIsReturned) {
  server.enqueue(
      MockResponse::Builder().code(408).addHeader("Retry-After", "1").body("later").build());
  Response response = execute();
  EXPECT_EQ(response.code(), 408);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(RetryTest, ClientTimeoutIsNotRetriedWhenRetriesAreDisabled) {
  server.enqueue(MockResponse::Builder().code(408).body("timed out").build());
  client = client.newBuilder().retryOnConnectionFailure(false).build();
  EXPECT_EQ(execute().code(), 408);
}

TEST_F(RetryTest, ClientTimeoutIsNotRetriedWithAOneShotBody) {
  server.enqueue(MockResponse::Builder().code(408).body("timed out").build());
  Response response =
      execute(Request::Builder().url(server.url("/")).post(oneShotBody("once")).build());
  EXPECT_EQ(response.code(), 408);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(RetryTest, ClientTimeoutResendsTheBody) {
  server.enqueue(MockResponse::Builder().code(408).build());
  server.enqueue(body("ok"));
  execute(Request::Builder().url(server.url("/")).post(RequestBody::create("again")).build())
      .body()
      ->string();
  EXPECT_EQ(server.takeRequest().bodyUtf8(), "again");
  EXPECT_EQ(server.takeRequest().bodyUtf8(), "again");
}

TEST_F(RetryTest, ServiceUnavailableWithRetryAfterZeroIsRetriedOnce) {
  server.enqueue(
      MockResponse::Builder().code(503).addHeader("Retry-After", "0").body("busy").build());
  server.enqueue(body("available"));
  Response response = execute();
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "available");
  EXPECT_EQ(response.priorResponse()->code(), 503);
}

TEST_F(RetryTest, ServiceUnavailableWithoutRetryAfterIsReturned) {
  server.enqueue(MockResponse::Builder().code(503).body("busy").build());
  Response response = execute();
  EXPECT_EQ(response.code(), 503);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(RetryTest, ServiceUnavailableWithADelayIsReturned) {
  server.enqueue(
      MockResponse::Builder().code(503).addHeader("Retry-After", "5").body("busy").build());
  EXPECT_EQ(execute().code(), 503);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(RetryTest, ServiceUnavailableTwiceIsReturned) {
  server.enqueue(
      MockResponse::Builder().code(503).addHeader("Retry-After", "0").body("one").build());
  server.enqueue(
      MockResponse::Builder().code(503).addHeader("Retry-After", "0").body("two").build());
  Response response = execute();
  EXPECT_EQ(response.code(), 503);
  EXPECT_EQ(response.body()->string(), "two");
  EXPECT_EQ(server.requestCount(), 2);
}

}  // namespace
}  // namespace tern::testing
