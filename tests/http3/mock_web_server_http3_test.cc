// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// MockWebServer serving HTTP/3 (issue 20): with HTTP_3 in its protocols and useHttps(), the
// server answers QUIC on its own port over UDP, records and dispatches requests as over HTTP/2,
// and advertises itself on its TCP responses by Alt-Svc. Checked with tern's client, both HTTP/3
// only and discovering HTTP/3 from the Alt-Svc header, and with the socket policies a QUIC
// connection can meet.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "call/https_fixture.h"
#include "support/recording_event_listener.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

const std::vector<Protocol> kWithHttp3{Protocol::HTTP_3, Protocol::HTTP_2, Protocol::HTTP_1_1};

class MockWebServerHttp3Test : public HttpsFixture {
 protected:
  void SetUp() override {
    server.protocols(kWithHttp3);
    client = clientBuilder().protocols({Protocol::HTTP_3}).build();
  }

  Response post(std::string_view path, std::string body) {
    return client
        .newCall(Request::Builder()
                     .url(server.url(path))
                     .post(RequestBody::create(std::move(body), MediaType::get("text/plain")))
                     .build())
        ->execute();
  }
};

TEST_F(MockWebServerHttp3Test, ServesAGetOverHttp3AndRecordsIt) {
  server.enqueue(MockResponse::Builder().addHeader("X-Served", "yes").body("hello, h3").build());

  Response response = execute("/greeting?x=1");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_3);
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.header("X-Served"), "yes");
  EXPECT_EQ(response.body()->string(), "hello, h3");
  ASSERT_TRUE(response.handshake());
  EXPECT_EQ(response.handshake()->tlsVersion(), TlsVersion::TLS_1_3);

  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.requestLine(), "GET /greeting?x=1 HTTP/3");
  EXPECT_EQ(request.method(), "GET");
  EXPECT_EQ(request.url().encodedPath(), "/greeting");
  EXPECT_EQ(request.sequenceNumber(), 0);
  ASSERT_TRUE(request.handshake());
  EXPECT_EQ(request.handshake()->tlsVersion(), TlsVersion::TLS_1_3);
  EXPECT_EQ(request.handshake()->cipherSuite(), response.handshake()->cipherSuite());
  EXPECT_EQ(request.handshake()->localCertificates().front(), certificates.localhost.certificate());
  EXPECT_TRUE(request.handshakeServerNames().empty());  // No SNI for an IP address.
  // No Alt-Svc over HTTP/3 itself: the client is already there.
  EXPECT_FALSE(response.header("Alt-Svc"));
}

TEST_F(MockWebServerHttp3Test, RecordsTheServerNameTheClientSent) {
  auto dns = std::make_shared<FakeDns>();
  dns->set("localhost", {InetAddress::ipv4({127, 0, 0, 1}, "localhost")});
  client = client.newBuilder().dns(dns).build();
  server.enqueue(body("by name"));
  HttpUrl url = server.url("/").newBuilder().host("localhost").build();
  Response response = client.newCall(Request::Builder().url(url).build())->execute();
  EXPECT_EQ(response.protocol(), Protocol::HTTP_3);
  EXPECT_EQ(response.body()->string(), "by name");
  EXPECT_EQ(server.takeRequest().handshakeServerNames(), std::vector<std::string>{"localhost"});
}

TEST_F(MockWebServerHttp3Test, RecordsTheRequestBody) {
  server.enqueue(body("stored"));
  const std::string big(300 * 1024, 'b');  // More than one flow-control window's first credit.
  Response response = post("/upload", big);
  EXPECT_EQ(response.body()->string(), "stored");

  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.requestLine(), "POST /upload HTTP/3");
  EXPECT_EQ(request.bodySize(), static_cast<int64_t>(big.size()));
  EXPECT_EQ(request.body().readUtf8(), big);
  EXPECT_EQ(request.headers().get("Content-Type"), "text/plain; charset=utf-8");
}

TEST_F(MockWebServerHttp3Test, StreamsALargeBody) {
  std::string large(8 * 1024 * 1024, 'x');
  for (size_t i = 0; i < large.size(); i += 4096) large[i] = static_cast<char>('a' + i % 26);
  server.enqueue(body(large));
  Response response = execute("/large");
  EXPECT_EQ(response.body()->string(), large);
}

TEST_F(MockWebServerHttp3Test, SendsTrailersAndSkipsInformationalResponses) {
  server.enqueue(MockResponse::Builder()
                     .addInformationalResponse(MockResponse::Builder().code(103).build())
                     .body("with trailers")
                     .trailers(Headers::of("X-Checksum", "abc"))
                     .build());
  Response response = execute("/t");
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "with trailers");
  EXPECT_EQ(response.trailers().get("X-Checksum"), "abc");
}

TEST_F(MockWebServerHttp3Test, ManyCallsShareOneQuicConnection) {
  constexpr int kCalls = 20;
  for (int i = 0; i < kCalls; ++i) server.enqueue(body("r"));
  std::vector<std::future<std::string>> results;
  for (int i = 0; i < kCalls; ++i) {
    results.push_back(std::async(std::launch::async, [&] { return fetch("/m"); }));
  }
  for (auto& result : results) EXPECT_EQ(result.get(), "r");
  std::set<int> connections;
  std::set<int> sequenceNumbers;
  for (int i = 0; i < kCalls; ++i) {
    RecordedRequest request = server.takeRequest();
    connections.insert(request.connectionIndex());
    sequenceNumbers.insert(request.sequenceNumber());
  }
  EXPECT_EQ(connections.size(), 1u);
  EXPECT_EQ(sequenceNumbers.size(), static_cast<size_t>(kCalls));
}

TEST_F(MockWebServerHttp3Test, AdvertisesHttp3OverTcpAndTheClientMovesToIt) {
  Client discovering = clientBuilder().protocols(kWithHttp3).build();
  server.enqueue(body("over tcp"));
  server.enqueue(body("over quic"));

  Response first = discovering.newCall(get("/a"))->execute();
  EXPECT_EQ(first.protocol(), Protocol::HTTP_2);
  EXPECT_EQ(first.header("Alt-Svc"), "h3=\":" + std::to_string(server.port()) + "\"; ma=86400");
  EXPECT_EQ(first.body()->string(), "over tcp");

  Response second = discovering.newCall(get("/b"))->execute();
  EXPECT_EQ(second.protocol(), Protocol::HTTP_3);
  EXPECT_EQ(second.body()->string(), "over quic");
  EXPECT_EQ(server.takeRequest().requestLine(), "GET /a HTTP/2");
  EXPECT_EQ(server.takeRequest().requestLine(), "GET /b HTTP/3");
}

TEST_F(MockWebServerHttp3Test, AScriptedAltSvcHeaderIsKept) {
  Client discovering = clientBuilder().protocols(kWithHttp3).build();
  server.enqueue(MockResponse::Builder().addHeader("Alt-Svc", "clear").body("tcp").build());
  Response response = discovering.newCall(get("/"))->execute();
  EXPECT_EQ(response.header("Alt-Svc"), "clear");
  EXPECT_EQ(response.headers().values("Alt-Svc").size(), 1u);
}

TEST_F(MockWebServerHttp3Test, AResetStreamFailsTheCallWithItsHttp3Code) {
  server.enqueue(MockResponse::Builder()
                     .socketPolicy(SocketPolicy::ResetStreamAtStart{0x2})  // INTERNAL_ERROR
                     .build());
  try {
    execute("/reset");
    FAIL() << "expected a StreamResetException";
  } catch (const StreamResetException& e) {
    EXPECT_EQ(e.errorCode(), 0x102u);  // H3_INTERNAL_ERROR.
    EXPECT_STREQ(e.what(), "stream was reset: H3_INTERNAL_ERROR");
  }
  // As OkHttp: a stream reset other than REFUSED_STREAM or CANCEL takes the connection out of
  // service, and the next call makes a new one.
  server.enqueue(body("after"));
  EXPECT_EQ(fetch("/next"), "after");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

TEST_F(MockWebServerHttp3Test, ARefusedStreamIsRetried) {
  server.enqueue(MockResponse::Builder()
                     .socketPolicy(SocketPolicy::ResetStreamAtStart{0x7})  // REFUSED_STREAM
                     .build());
  server.enqueue(body("second try"));
  EXPECT_EQ(fetch("/refused"), "second try");
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_F(MockWebServerHttp3Test, NoResponseTimesOutTheCallAlone) {
  client = client.newBuilder().readTimeout(300ms).build();
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::NoResponse{}).build());
  server.enqueue(body("next"));
  EXPECT_THROW(execute("/silent"), SocketTimeoutException);
  EXPECT_EQ(fetch("/next"), "next");
}

TEST_F(MockWebServerHttp3Test, DisconnectAtEndClosesTheConnectionAfterTheResponse) {
  server.enqueue(MockResponse::Builder()
                     .body("last on this connection")
                     .socketPolicy(SocketPolicy::DisconnectAtEnd{})
                     .build());
  server.enqueue(body("on a new one"));
  EXPECT_EQ(fetch("/1"), "last on this connection");
  // The CONNECTION_CLOSE may still be on its way: the pool may hand out the connection once
  // more, and the call then retries on a new one.
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(fetch("/2"), "on a new one");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

TEST_F(MockWebServerHttp3Test, DisconnectDuringTheBodyFailsTheRead) {
  server.enqueue(MockResponse::Builder()
                     .body(std::string(512 * 1024, 'd'))
                     .socketPolicy(SocketPolicy::DisconnectDuringResponseBody{})
                     .build());
  Response response = execute("/cut");
  EXPECT_EQ(response.code(), 200);
  EXPECT_THROW(response.body()->string(), IOException);
}

TEST_F(MockWebServerHttp3Test, ThrottledAndDelayedResponsesArrive) {
  server.enqueue(MockResponse::Builder()
                     .body(std::string(64 * 1024, 't'))
                     .headersDelay(50ms)
                     .throttleBody(16 * 1024, 20ms)
                     .build());
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(fetch("/slow").size(), 64u * 1024);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 100ms);
}

TEST_F(MockWebServerHttp3Test, CancelingACallMidBodyLeavesTheServerServing) {
  server.enqueue(MockResponse::Builder()
                     .body(std::string(4 * 1024 * 1024, 'c'))
                     .throttleBody(64 * 1024, 10ms)
                     .build());
  std::shared_ptr<Call> call = client.newCall(get("/long"));
  Response response = call->execute();
  std::thread canceler([&] {
    std::this_thread::sleep_for(50ms);
    call->cancel();
  });
  EXPECT_THROW(response.body()->string(), IOException);
  canceler.join();
  server.enqueue(body("still here"));
  EXPECT_EQ(fetch("/after"), "still here");
}

TEST_F(MockWebServerHttp3Test, ClosingTheServerEndsCallsInFlight) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::NoResponse{}).build());
  auto pending = std::async(std::launch::async, [&] {
    try {
      execute("/hang");
      return std::string("response");
    } catch (const IOException& e) {
      return std::string("IOException");
    }
  });
  server.takeRequest();
  const auto start = std::chrono::steady_clock::now();
  server.close();
  EXPECT_EQ(pending.get(), "IOException");
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
}

TEST_F(MockWebServerHttp3Test, AnswersBeforeReadingTheRequestBody) {
  server.enqueue(MockResponse::Builder()
                     .body("answered early")
                     .socketPolicy(SocketPolicy::DoNotReadRequestBody{})
                     .build());
  // A body that keeps coming: the server stops it (STOP_SENDING, H3_NO_ERROR) after answering.
  auto slowBody = RequestBody::create(std::string(4 * 1024 * 1024, 's'), MediaType::get("a/b"));
  Response response =
      client.newCall(Request::Builder().url(server.url("/early")).post(slowBody).build())
          ->execute();
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "answered early");
  server.enqueue(body("next"));
  EXPECT_EQ(fetch("/next"), "next");
}

TEST_F(MockWebServerHttp3Test, ServesOverIpv6) {
  MockWebServer v6;
  v6.useHttps(certificates.server());
  v6.protocols(kWithHttp3);
  try {
    v6.start("::1", 0);
  } catch (const IOException&) {
    GTEST_SKIP() << "no IPv6 loopback";
  }
  v6.enqueue(body("over ::1"));
  Response response = client.newCall(Request::Builder().url(v6.url("/")).build())->execute();
  EXPECT_EQ(response.protocol(), Protocol::HTTP_3);
  EXPECT_EQ(response.body()->string(), "over ::1");
  EXPECT_EQ(v6.takeRequest().requestLine(), "GET / HTTP/3");
}

TEST(MockWebServerHttp3Settings, Http3NeedsHttpsAndHttp11) {
  MockWebServer plain;
  plain.protocols(kWithHttp3);
  EXPECT_THROW(plain.start(), std::invalid_argument);
  MockWebServer server;
  EXPECT_THROW(server.setProtocols({Protocol::HTTP_3}), std::invalid_argument);
  EXPECT_THROW(server.protocols({Protocol::HTTP_3, Protocol::HTTP_2}), std::invalid_argument);
}

}  // namespace
}  // namespace tern::testing
