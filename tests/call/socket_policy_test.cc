// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Every MockWebServer SocketPolicy, and servers that break HTTP: the call fails with a clear
// IOException (or recovers where it safely can), never crashes or hangs.
#include <gtest/gtest.h>

#include "call/call_fixture.h"

namespace tern::testing {
namespace {

class SocketPolicyTest : public CallFixture {
 protected:
  // A client whose DNS gives "double.test" the loopback address twice: two routes to the server,
  // so a failed first connection can be retried on a second (OkHttp's DoubleInetAddressDns).
  Client doubleRouteClient() {
    auto dns = std::make_shared<FakeDns>();
    dns->set("double.test", {InetAddress::loopbackIpv4(), InetAddress::loopbackIpv4()});
    return client.newBuilder().dns(dns).build();
  }
  Request doubleRouteRequest(std::string_view path = "/") {
    return Request::Builder()
        .url(server.url(path).newBuilder().host("double.test").build())
        .build();
  }
  static std::string message(const std::function<void()>& block) {
    try {
      block();
    } catch (const IOException& e) {
      return e.what();
    }
    return "no exception";
  }
};

TEST_F(SocketPolicyTest, KeepOpenKeepsTheConnectionForTheNextCall) {
  server.enqueue(MockResponse::Builder().body("a").socketPolicy(SocketPolicy::KeepOpen{}).build());
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(), "a");
  EXPECT_EQ(fetch(), "b");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  RecordedRequest second = server.takeRequest();
  EXPECT_EQ(second.connectionIndex(), 0);
  EXPECT_EQ(second.sequenceNumber(), 1);
}

TEST_F(SocketPolicyTest, DisconnectAtStartFailsTheCall) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAtStart{}).build());
  EXPECT_THROW(execute(), IOException);
}

TEST_F(SocketPolicyTest, DisconnectAtStartIsRetriedOnTheNextRoute) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAtStart{}).build());
  server.enqueue(body("second route"));
  Client c = doubleRouteClient();
  EXPECT_EQ(c.newCall(doubleRouteRequest())->execute().body()->string(), "second route");
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_F(SocketPolicyTest, DisconnectAtEndClosesTheConnectionAfterTheResponse) {
  server.enqueue(
      MockResponse::Builder().body("a").socketPolicy(SocketPolicy::DisconnectAtEnd{}).build());
  server.setDispatcher([](const RecordedRequest& request) {
    if (request.path() == "/a") {
      return MockResponse::Builder()
          .body("a")
          .socketPolicy(SocketPolicy::DisconnectAtEnd{})
          .build();
    }
    return MockResponse::Builder().body("b").build();
  });
  EXPECT_EQ(fetch("/a"), "a");
  // Whether the pooled connection is found closed before or after the request is sent, the
  // call recovers on a new connection.
  EXPECT_EQ(fetch("/b"), "b");
  RecordedRequest first = server.takeRequest();
  EXPECT_EQ(first.connectionIndex(), 0);
  RecordedRequest last = server.takeRequest();
  while (std::optional<RecordedRequest> more = server.takeRequest(100ms)) last = *more;
  EXPECT_EQ(last.connectionIndex(), 1);
}

TEST_F(SocketPolicyTest, DisconnectAfterRequestIsAnUnexpectedEndOfStream) {
  server.enqueue(
      MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAfterRequest{}).build());
  EXPECT_EQ(message([&] { execute("/path"); }),
            "unexpected end of stream on " + server.url("/path").redact());
}

TEST_F(SocketPolicyTest, DisconnectAfterRequestIsRetriedOnTheNextRoute) {
  server.enqueue(
      MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAfterRequest{}).build());
  server.enqueue(body("retried"));
  Client c = doubleRouteClient();
  EXPECT_EQ(c.newCall(doubleRouteRequest())->execute().body()->string(), "retried");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

TEST_F(SocketPolicyTest, HalfCloseAfterRequestIsAnUnexpectedEndOfStream) {
  server.enqueue(
      MockResponse::Builder().socketPolicy(SocketPolicy::HalfCloseAfterRequest{}).build());
  EXPECT_EQ(message([&] { execute("/"); }),
            "unexpected end of stream on " + server.url("/").redact());
}

TEST_F(SocketPolicyTest, DisconnectDuringRequestBodyFailsTheCall) {
  server.enqueue(
      MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectDuringRequestBody{}).build());
  std::string big(4 << 20, 'x');
  EXPECT_THROW(
      execute(Request::Builder().url(server.url("/")).post(RequestBody::create(big)).build()),
      IOException);
  RecordedRequest request = server.takeRequest();
  EXPECT_LT(request.bodySize(), static_cast<int64_t>(big.size()));
  EXPECT_TRUE(request.failure());
}

TEST_F(SocketPolicyTest, DisconnectDuringResponseBodyFailsTheRead) {
  server.enqueue(MockResponse::Builder()
                     .body(std::string(1024, 'a'))
                     .socketPolicy(SocketPolicy::DisconnectDuringResponseBody{})
                     .build());
  Response response = execute();
  EXPECT_EQ(response.code(), 200);
  EXPECT_THROW(response.body()->string(), IOException);
  EXPECT_EQ(client.connectionPool()->connectionCount(), 0);  // Broken: not pooled.
}

TEST_F(SocketPolicyTest, DoNotReadRequestBodyStillDeliversTheResponse) {
  server.enqueue(MockResponse::Builder()
                     .code(413)
                     .body("too large")
                     .socketPolicy(SocketPolicy::DoNotReadRequestBody{})
                     .build());
  server.enqueue(body("next"));
  Response response = execute(
      Request::Builder().url(server.url("/")).post(RequestBody::create("small body")).build());
  EXPECT_EQ(response.code(), 413);
  EXPECT_EQ(response.body()->string(), "too large");
  EXPECT_EQ(fetch(), "next");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);  // The server closed the first.
}

TEST_F(SocketPolicyTest, ShutdownInputAtEndIsRecoveredOnANewConnection) {
  server.enqueue(
      MockResponse::Builder().body("a").socketPolicy(SocketPolicy::ShutdownInputAtEnd{}).build());
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(), "a");
  // The server stopped reading the pooled connection: Linux resets it when the next request
  // arrives, and the call is retried on a new connection.
  EXPECT_EQ(fetch(), "b");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

TEST_F(SocketPolicyTest, ShutdownOutputAtEndIsRecoveredOnANewConnection) {
  server.setDispatcher([](const RecordedRequest& request) {
    if (request.path() == "/a") {
      return MockResponse::Builder()
          .body("a")
          .socketPolicy(SocketPolicy::ShutdownOutputAtEnd{})
          .build();
    }
    return MockResponse::Builder().body("b").build();
  });
  EXPECT_EQ(fetch("/a"), "a");
  EXPECT_EQ(fetch("/b"), "b");
}

TEST_F(SocketPolicyTest, ShutdownServerAfterResponseRefusesTheNextConnection) {
  server.enqueue(MockResponse::Builder()
                     .body("last")
                     .socketPolicy(SocketPolicy::ShutdownServerAfterResponse{})
                     .build());
  HttpUrl url = server.url("/");
  EXPECT_EQ(fetch(), "last");
  ASSERT_TRUE(eventually([&] {
    try {
      client.newCall(Request::Builder().url(url).build())->execute();
      return false;
    } catch (const ConnectException&) {
      return true;
    } catch (const IOException&) {
      return false;  // The pooled connection died first; the next try connects.
    }
  }));
}

TEST_F(SocketPolicyTest, StallSocketAtStartTimesOutTheRead) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::StallSocketAtStart{}).build());
  client = client.newBuilder().readTimeout(200ms).build();
  try {
    execute();
    FAIL() << "expected SocketTimeoutException";
  } catch (const SocketTimeoutException& e) {
    EXPECT_NE(std::string(e.what()).find("Read timed out after 200 ms"), std::string::npos)
        << e.what();
  }
}

TEST_F(SocketPolicyTest, NoResponseTimesOutTheRead) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::NoResponse{}).build());
  client = client.newBuilder().readTimeout(200ms).build();
  auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(execute(), SocketTimeoutException);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  EXPECT_EQ(server.takeRequest().method(), "GET");  // The request did arrive.
}

TEST_F(SocketPolicyTest, GarbageStatusLineIsAProtocolException) {
  server.enqueue(MockResponse::Builder().status("HTP/1.1 200 OK").build());
  try {
    execute();
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "Unexpected status line: HTP/1.1 200 OK");
  }
}

TEST_F(SocketPolicyTest, ProtocolErrorsAreNotRetried) {
  server.enqueue(MockResponse::Builder().status("garbage").build());
  server.enqueue(body("should not be fetched"));
  Client c = doubleRouteClient();
  EXPECT_THROW(c.newCall(doubleRouteRequest())->execute(), ProtocolException);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(SocketPolicyTest, TruncatedChunkFailsTheRead) {
  server.enqueue(MockResponse::Builder()
                     .clearHeaders()
                     .addHeader("Transfer-Encoding", "chunked")
                     .body("5\r\nabc")
                     .removeHeader("Content-Length")
                     .socketPolicy(SocketPolicy::DisconnectAtEnd{})
                     .build());
  Response response = execute();
  EXPECT_THROW(response.body()->string(), IOException);
}

TEST_F(SocketPolicyTest, MalformedChunkSizeIsAProtocolException) {
  server.enqueue(MockResponse::Builder()
                     .clearHeaders()
                     .addHeader("Transfer-Encoding", "chunked")
                     .body("zz\r\nabc\r\n0\r\n\r\n")
                     .removeHeader("Content-Length")
                     .build());
  Response response = execute();
  EXPECT_THROW(response.body()->string(), ProtocolException);
}

TEST_F(SocketPolicyTest, BodyShorterThanContentLengthFailsTheRead) {
  server.enqueue(MockResponse::Builder()
                     .body("abc")
                     .setHeader("Content-Length", "10")
                     .socketPolicy(SocketPolicy::DisconnectAtEnd{})
                     .build());
  server.enqueue(body("next"));
  Response response = execute();
  EXPECT_EQ(response.body()->contentLength(), 10);
  try {
    response.body()->string();
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_NE(std::string(e.what()).find("unexpected end of stream"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(fetch(), "next");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

TEST_F(SocketPolicyTest, InvalidContentLengthIsAProtocolException) {
  server.enqueue(MockResponse::Builder().body("abc").setHeader("Content-Length", "three").build());
  EXPECT_THROW(execute(), ProtocolException);
}

TEST_F(SocketPolicyTest, HeadersBeyond256KibAreAProtocolException) {
  MockResponse::Builder builder;
  for (int i = 0; i < 300; ++i)
    builder.addHeader("X-Filler-" + std::to_string(i), std::string(1000, 'x'));
  server.enqueue(builder.body("abc").build());
  EXPECT_THROW(execute(), ProtocolException);
}

}  // namespace
}  // namespace tern::testing
