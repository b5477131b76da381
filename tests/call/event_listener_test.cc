// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The events of successful calls over HTTP/1.1 (OkHttp's EventListenerTest): the sequence, DNS,
// connecting, pooled reuse, bodies and their byte counts, redirects and retries.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "call/event_listener_fixture.h"

namespace tern::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using EventListenerTest = EventListenerFixture;

TEST_F(EventListenerTest, SuccessfulCallEventSequence) {
  server.enqueue(body("abc"));
  EXPECT_EQ(fetch(), "abc");
  EXPECT_EQ(names(), freshConnectionGet());
}

TEST_F(EventListenerTest, SuccessfulCallEventSequenceForEnqueue) {
  server.enqueue(body("abc"));
  auto callback = std::make_shared<RecordingCallback>();
  client.newCall(get())->enqueue(callback);
  EXPECT_EQ(callback->await(url()).body, "abc");
  ASSERT_TRUE(eventually([&] { return listener()->ended(); }));
  EXPECT_EQ(names(), freshConnectionGet());
}

TEST_F(EventListenerTest, CallEndComesWhenTheBodyIsClosedNotWhenExecuteReturns) {
  server.enqueue(body("abc"));
  Response response = execute();
  EXPECT_FALSE(listener()->ended());
  EXPECT_EQ(names().back(), "followUpDecision");
  response.body()->close();
  EXPECT_TRUE(listener()->ended());
  EXPECT_EQ(names().back(), "callEnd");
}

TEST_F(EventListenerTest, HostNameIsLookedUpWithDnsEvents) {
  server.enqueue(body("abc"));
  Client c = withDns("android.test");
  EXPECT_EQ(c.newCall(Request::Builder().url(hostUrl("android.test")).build())
                ->execute()
                .body()
                ->string(),
            "abc");
  Names expected = freshConnectionGet();
  expected.insert(expected.begin() + 3, {"dnsStart", "dnsEnd"});
  EXPECT_EQ(names(), expected);
  EXPECT_EQ(listener()->find("dnsStart")->detail, "android.test");
  EXPECT_EQ(listener()->find("dnsEnd")->detail, "android.test [127.0.0.1]");
}

TEST_F(EventListenerTest, IpLiteralIsNotLookedUp) {
  server.enqueue(body("abc"));
  fetch();
  EXPECT_EQ(listener()->count("dnsStart"), 0);
  EXPECT_EQ(listener()->count("dnsEnd"), 0);
}

TEST_F(EventListenerTest, ProxySelectionReportsTheOriginAndNoProxies) {
  server.enqueue(body("abc"));
  fetch("/a/b?c=d");
  std::string origin = server.url("/").toString();
  EXPECT_EQ(listener()->find("proxySelectStart")->url, origin);
  EXPECT_EQ(listener()->find("proxySelectEnd")->detail, origin + " [DIRECT]");
}

TEST_F(EventListenerTest, ConnectEventsCarryTheAddressAndProtocol) {
  server.enqueue(body("abc"));
  fetch();
  std::string address = "127.0.0.1:" + std::to_string(server.port());
  EXPECT_EQ(listener()->find("connectStart")->socketAddress, address);
  EXPECT_EQ(listener()->find("connectEnd")->detail, address + " http/1.1");
}

TEST_F(EventListenerTest, PooledConnectionHasNoDnsOrConnectEvents) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  Client c = withDns("android.test");
  Request request = Request::Builder().url(hostUrl("android.test")).build();
  EXPECT_EQ(c.newCall(request)->execute().body()->string(), "a");
  EXPECT_EQ(c.newCall(request)->execute().body()->string(), "b");
  EXPECT_EQ(names(1),
            (Names{"callStart", "connectionAcquired", "requestHeadersStart", "requestHeadersEnd",
                   "responseHeadersStart", "responseHeadersEnd", "followUpDecision",
                   "responseBodyStart", "responseBodyEnd", "connectionReleased", "callEnd"}));
  EXPECT_EQ(listener(0)->find("connectionAcquired")->connection,
            listener(1)->find("connectionAcquired")->connection);
}

TEST_F(EventListenerTest, ConnectionReleasedNamesTheAcquiredConnection) {
  server.enqueue(body("abc"));
  fetch();
  const Connection* acquired = listener()->find("connectionAcquired")->connection;
  EXPECT_NE(acquired, nullptr);
  EXPECT_EQ(listener()->find("connectionReleased")->connection, acquired);
  EXPECT_THAT(listener()->find("connectionAcquired")->detail, HasSubstr("127.0.0.1"));
}

TEST_F(EventListenerTest, RequestHeadersEndCarriesTheRequestAsSent) {
  server.enqueue(body("abc"));
  fetch("/path");
  EXPECT_EQ(listener()->find("requestHeadersEnd")->detail, "GET " + url("/path"));
}

TEST_F(EventListenerTest, ResponseHeadersEndCarriesTheFinalResponse) {
  server.enqueue(MockResponse::Builder().code(201).body("made").build());
  fetch();
  EXPECT_EQ(listener()->find("responseHeadersEnd")->detail, "201");
}

TEST_F(EventListenerTest, InterimResponsesAreSkipped) {
  server.enqueue(MockResponse::Builder()
                     .addInformationalResponse(MockResponse::Builder().code(103).build())
                     .body("final")
                     .build());
  EXPECT_EQ(fetch(), "final");
  EXPECT_EQ(listener()->count("responseHeadersStart"), 1);
  EXPECT_EQ(listener()->count("responseHeadersEnd"), 1);
  EXPECT_EQ(listener()->find("responseHeadersEnd")->detail, "200");
}

TEST_F(EventListenerTest, ResponseBodyEndCountsTheBytes) {
  server.enqueue(body(std::string(10'000, 'x')));
  EXPECT_EQ(fetch().size(), 10'000u);
  EXPECT_EQ(listener()->find("responseBodyEnd")->byteCount, 10'000);
}

TEST_F(EventListenerTest, ChunkedResponseBodyCountsTheBodyBytesOnly) {
  server.enqueue(MockResponse::Builder().chunkedBody("hello chunks", 5).build());
  EXPECT_EQ(fetch(), "hello chunks");
  EXPECT_EQ(listener()->find("responseBodyEnd")->byteCount, 12);
}

TEST_F(EventListenerTest, GzipResponseBodyCountsTheBytesOnTheWire) {
  Buffer compressed = gzip(std::string(5000, 'z'));
  int64_t wireSize = compressed.size();
  server.enqueue(
      MockResponse::Builder().addHeader("Content-Encoding", "gzip").body(compressed).build());
  EXPECT_EQ(fetch(), std::string(5000, 'z'));
  EXPECT_EQ(listener()->find("responseBodyEnd")->byteCount, wireSize);
}

TEST_F(EventListenerTest, EmptyResponseBodyEndsAtOnce) {
  server.enqueue(body(""));
  Response response = execute();
  // Nothing to read: the body is over before the application touches it.
  EXPECT_EQ(listener()->find("responseBodyEnd")->byteCount, 0);
  EXPECT_TRUE(listener()->ended());
  EXPECT_EQ(response.body()->string(), "");
  EXPECT_EQ(startingAt(names(), "responseHeadersEnd"),
            (Names{"responseHeadersEnd", "responseBodyStart", "responseBodyEnd", "followUpDecision",
                   "connectionReleased", "callEnd"}));
}

TEST_F(EventListenerTest, ResponseBodyClosedUnreadReportsZeroBytes) {
  server.enqueue(body(std::string(100'000, 'x')));
  execute().body()->close();
  EXPECT_EQ(startingAt(names(), "responseBodyStart"),
            (Names{"responseBodyStart", "responseBodyEnd", "connectionReleased", "callEnd"}));
  EXPECT_EQ(listener()->find("responseBodyEnd")->byteCount, 0);
}

TEST_F(EventListenerTest, ResponseBodyClosedEarlyReportsTheBytesRead) {
  constexpr int64_t kSize = 4 << 20;
  server.enqueue(MockResponse::Builder().body(std::string(kSize, 'x')).build());
  Response response = execute();
  EXPECT_EQ(response.body()->source().readUtf8(10), std::string(10, 'x'));
  EXPECT_EQ(listener()->count("responseBodyStart"), 1);
  response.body()->close();
  int64_t read = listener()->find("responseBodyEnd")->byteCount;
  EXPECT_GE(read, 10);
  EXPECT_LT(read, kSize);
  EXPECT_EQ(names().back(), "callEnd");
}

TEST_F(EventListenerTest, RequestBodyEventsCountTheBytes) {
  server.enqueue(body("ok"));
  execute(Request::Builder().url(server.url("/")).post(RequestBody::create("hello world")).build())
      .body()
      ->string();
  Names got = names();
  EXPECT_EQ(Names(got.begin() + 6, got.begin() + 11),
            (Names{"requestHeadersStart", "requestHeadersEnd", "requestBodyStart", "requestBodyEnd",
                   "responseHeadersStart"}));
  EXPECT_EQ(listener()->find("requestBodyEnd")->byteCount, 11);
}

TEST_F(EventListenerTest, StreamedRequestBodyCountsTheBytes) {
  server.enqueue(body("ok"));
  auto content = std::make_unique<Buffer>();
  content->writeUtf8(std::string(70'000, 's'));
  auto streamed = RequestBody::fromSource(std::move(content), std::nullopt);  // Chunked.
  execute(Request::Builder().url(server.url("/")).post(streamed).build()).body()->string();
  EXPECT_EQ(server.takeRequest().bodySize(), 70'000);
  EXPECT_EQ(listener()->find("requestBodyEnd")->byteCount, 70'000);
}

TEST_F(EventListenerTest, EmptyRequestBodyReportsZeroBytes) {
  server.enqueue(body("ok"));
  execute(Request::Builder().url(server.url("/")).post(RequestBody::create("")).build())
      .body()
      ->string();
  EXPECT_EQ(listener()->count("requestBodyStart"), 1);
  EXPECT_EQ(listener()->find("requestBodyEnd")->byteCount, 0);
}

TEST_F(EventListenerTest, GetHasNoRequestBodyEvents) {
  server.enqueue(body("ok"));
  fetch();
  EXPECT_EQ(listener()->count("requestBodyStart"), 0);
  EXPECT_EQ(listener()->count("requestBodyEnd"), 0);
}

TEST_F(EventListenerTest, ExpectContinueSendsTheBodyBetweenResponseHeaderEvents) {
  server.enqueue(MockResponse::Builder().add100Continue().body("ok").build());
  execute(Request::Builder()
              .url(server.url("/"))
              .header("Expect", "100-continue")
              .post(RequestBody::create("body"))
              .build())
      .body()
      ->string();
  EXPECT_EQ(without(names(), {"callStart", "proxySelectStart", "proxySelectEnd", "connectStart",
                              "connectEnd", "connectionAcquired", "connectionReleased", "callEnd",
                              "followUpDecision", "responseBodyStart", "responseBodyEnd"}),
            (Names{"requestHeadersStart", "requestHeadersEnd", "responseHeadersStart",
                   "requestBodyStart", "requestBodyEnd", "responseHeadersEnd"}));
}

TEST_F(EventListenerTest, HeadResponseHasAnEmptyBody) {
  server.enqueue(MockResponse::Builder().setHeader("Content-Length", "5").build());
  execute(Request::Builder().url(server.url("/")).head().build());
  EXPECT_EQ(listener()->find("responseBodyEnd")->byteCount, 0);
  EXPECT_EQ(names().back(), "callEnd");
}

TEST_F(EventListenerTest, RedirectToTheSameHostReusesTheConnection) {
  server.enqueue(
      MockResponse::Builder().code(302).addHeader("Location", "/b").body("moved").build());
  server.enqueue(body("there"));
  EXPECT_EQ(fetch("/a"), "there");
  EXPECT_EQ(names(), (Names{"callStart",
                            "proxySelectStart",
                            "proxySelectEnd",
                            "connectStart",
                            "connectEnd",
                            "connectionAcquired",
                            "requestHeadersStart",
                            "requestHeadersEnd",
                            "responseHeadersStart",
                            "responseHeadersEnd",
                            "responseBodyStart",
                            "responseBodyEnd",
                            "followUpDecision",
                            "requestHeadersStart",
                            "requestHeadersEnd",
                            "responseHeadersStart",
                            "responseHeadersEnd",
                            "followUpDecision",
                            "responseBodyStart",
                            "responseBodyEnd",
                            "connectionReleased",
                            "callEnd"}));
  EXPECT_EQ(listener()->find("followUpDecision")->detail, "302 -> " + url("/b"));
}

TEST_F(EventListenerTest, RedirectToAnotherHostConnectsAgain) {
  MockWebServer other;
  other.enqueue(body("elsewhere"));
  server.enqueue(
      MockResponse::Builder().code(301).addHeader("Location", other.url("/x").toString()).build());
  EXPECT_EQ(fetch(), "elsewhere");
  Names got = names();
  EXPECT_EQ(std::count(got.begin(), got.end(), "connectStart"), 2);
  EXPECT_EQ(std::count(got.begin(), got.end(), "connectionAcquired"), 2);
  EXPECT_EQ(std::count(got.begin(), got.end(), "connectionReleased"), 2);
  EXPECT_EQ(
      startingAt(got, "followUpDecision"),
      (Names{"followUpDecision", "connectionReleased", "proxySelectStart", "proxySelectEnd",
             "connectStart", "connectEnd", "connectionAcquired", "requestHeadersStart",
             "requestHeadersEnd", "responseHeadersStart", "responseHeadersEnd", "followUpDecision",
             "responseBodyStart", "responseBodyEnd", "connectionReleased", "callEnd"}));
}

TEST_F(EventListenerTest, RedirectToAnotherHostNameLooksItUp) {
  server.enqueue(MockResponse::Builder()
                     .code(302)
                     .addHeader("Location", hostUrl("second.test", "/2").toString())
                     .build());
  server.enqueue(body("resolved"));
  dns->set("second.test", {InetAddress::loopbackIpv4()});
  Client c = withDns("first.test");
  EXPECT_EQ(
      c.newCall(Request::Builder().url(hostUrl("first.test")).build())->execute().body()->string(),
      "resolved");
  std::vector<std::string> domains;
  for (const CallEvent& event : listener()->events()) {
    if (event.name == "dnsStart") domains.push_back(event.detail);
  }
  EXPECT_EQ(domains, (std::vector<std::string>{"first.test", "second.test"}));
}

TEST_F(EventListenerTest, RedirectNotFollowedIsAFinalDecision) {
  client = client.newBuilder().followRedirects(false).build();
  server.enqueue(MockResponse::Builder().code(302).addHeader("Location", "/b").build());
  EXPECT_EQ(execute().code(), 302);
  EXPECT_EQ(listener()->count("followUpDecision"), 1);
  EXPECT_EQ(listener()->find("followUpDecision")->detail, "302 -> null");
}

TEST_F(EventListenerTest, AuthChallengeIsAFollowUp) {
  client = client.newBuilder()
               .authenticator(Authenticator::of([](const Route*, const Response& response) {
                 return std::optional(
                     response.request().newBuilder().header("Authorization", "Basic x").build());
               }))
               .build();
  server.enqueue(MockResponse::Builder().code(401).body("who?").build());
  server.enqueue(body("welcome"));
  EXPECT_EQ(fetch(), "welcome");
  std::vector<std::string> decisions;
  for (const CallEvent& event : listener()->events()) {
    if (event.name == "followUpDecision") decisions.push_back(event.detail);
  }
  EXPECT_EQ(decisions, (std::vector<std::string>{"401 -> " + url(), "200 -> null"}));
}

TEST_F(EventListenerTest, TooManyFollowUpsEndsWithANullDecisionAndCallFailed) {
  server.setDispatcher([](const RecordedRequest&) {
    return MockResponse::Builder().code(302).addHeader("Location", "/again").build();
  });
  EXPECT_THROW(fetch(), ProtocolException);
  EXPECT_EQ(listener()->count("followUpDecision"), 21);
  Names got = names();
  EXPECT_EQ(Names(got.end() - 4, got.end()),
            (Names{"responseBodyEnd", "followUpDecision", "connectionReleased", "callFailed"}));
  EXPECT_THAT(listener()->find("callFailed")->detail, HasSubstr("Too many follow-up requests: 21"));
}

TEST_F(EventListenerTest, ClientTimeoutResponseIsRetriedAsAFollowUp) {
  server.enqueue(MockResponse::Builder().code(408).body("slow").build());
  server.enqueue(body("better"));
  EXPECT_EQ(fetch(), "better");
  EXPECT_EQ(listener()->find("followUpDecision")->detail, "408 -> " + url());
}

TEST_F(EventListenerTest, ApplicationInterceptorShortCircuitHasOnlyCallEvents) {
  client = client.newBuilder()
               .addInterceptor([](Interceptor::Chain& chain) {
                 return Response::Builder()
                     .request(chain.request())
                     .protocol(Protocol::HTTP_1_1)
                     .code(200)
                     .message("OK")
                     .body(ResponseBody::create("made up"))
                     .build();
               })
               .build();
  EXPECT_EQ(fetch(), "made up");
  EXPECT_EQ(names(), (Names{"callStart", "callEnd"}));
}

TEST_F(EventListenerTest, ApplicationInterceptorProceedingTwiceMakesTwoExchanges) {
  client = client.newBuilder()
               .addInterceptor([](Interceptor::Chain& chain) {
                 chain.proceed(chain.request()).body()->string();
                 return chain.proceed(chain.request());
               })
               .build();
  server.enqueue(body("one"));
  server.enqueue(body("two"));
  EXPECT_EQ(fetch(), "two");
  EXPECT_EQ(listener()->count("requestHeadersStart"), 2);
  EXPECT_EQ(listener()->count("connectStart"), 1);
  EXPECT_EQ(listener()->count("followUpDecision"), 2);
  EXPECT_EQ(listener()->count("callEnd"), 1);
}

// Without fast fallback, each address is an attempt of its own, with a retry decision between
// (fast_fallback_test.cc has the raced version).
TEST_F(EventListenerTest, ConnectFailureFallsBackToTheNextAddressWithoutFastFallback) {
  // 127.0.0.2 is loopback too, but nothing listens there on the server's port.
  server.enqueue(body("second address"));
  Client c =
      withDns("fallback.test", {*InetAddress::parse("127.0.0.2"), InetAddress::loopbackIpv4()})
          .newBuilder()
          .fastFallback(false)
          .build();
  EXPECT_EQ(c.newCall(Request::Builder().url(hostUrl("fallback.test")).build())
                ->execute()
                .body()
                ->string(),
            "second address");
  std::string port = std::to_string(server.port());
  EXPECT_EQ(without(names(), {"requestHeadersStart", "requestHeadersEnd", "responseHeadersStart",
                              "responseHeadersEnd", "followUpDecision", "responseBodyStart",
                              "responseBodyEnd"}),
            (Names{"callStart", "proxySelectStart", "proxySelectEnd", "dnsStart", "dnsEnd",
                   "connectStart", "connectFailed", "retryDecision", "connectStart", "connectEnd",
                   "connectionAcquired", "connectionReleased", "callEnd"}));
  std::optional<CallEvent> failed = listener()->find("connectFailed");
  EXPECT_EQ(failed->socketAddress, "127.0.0.2:" + port);
  EXPECT_EQ(failed->exceptionType, "ConnectException");
  EXPECT_TRUE(listener()->find("retryDecision")->retry);
  EXPECT_EQ(listener()->find("connectEnd")->socketAddress, "127.0.0.1:" + port);
}

TEST_F(EventListenerTest, ConnectFailureOnEveryAddressFailsTheCallWithoutFastFallback) {
  ClosedPort closed;
  Client c = withDns("dead.test", {InetAddress::loopbackIpv4(), InetAddress::loopbackIpv4()})
                 .newBuilder()
                 .fastFallback(false)
                 .build();
  HttpUrl url = HttpUrl::get("http://dead.test:" + std::to_string(closed.port()) + "/");
  EXPECT_THROW(c.newCall(Request::Builder().url(url).build())->execute(), ConnectException);
  EXPECT_EQ(startingAt(names(), "connectStart"),
            (Names{"connectStart", "connectFailed", "retryDecision", "connectStart",
                   "connectFailed", "retryDecision", "callFailed"}));
  std::vector<bool> retries;
  for (const CallEvent& event : listener()->events()) {
    if (event.name == "retryDecision") retries.push_back(event.retry);
  }
  EXPECT_EQ(retries, (std::vector<bool>{true, false}));
  EXPECT_EQ(listener()->find("callFailed")->exceptionType, "ConnectException");
}

TEST_F(EventListenerTest, StalePooledConnectionIsRetriedWithFreshConnectEvents) {
  server.setDispatcher([](const RecordedRequest& request) {
    if (request.path() == "/stale") {
      return MockResponse::Builder()
          .body("seed")
          .socketPolicy(SocketPolicy::DisconnectAtEnd{})
          .build();
    }
    return MockResponse::Builder().body("fresh").build();
  });
  EXPECT_EQ(fetch("/stale"), "seed");
  std::this_thread::sleep_for(100ms);  // Let the server close it.
  EXPECT_EQ(fetch("/next"), "fresh");
  Names second = names(1);
  // Either the health check caught the closed connection (released, then a new one), or the
  // request failed on it and was retried; both end on a fresh connection.
  EXPECT_EQ(std::count(second.begin(), second.end(), "connectionAcquired"), 2);
  EXPECT_EQ(std::count(second.begin(), second.end(), "connectStart"), 1);
  EXPECT_EQ(startingAt(second, "connectStart").back(), "callEnd");
  if (listener(1)->count("retryDecision") > 0) {
    EXPECT_TRUE(listener(1)->find("retryDecision")->retry);
  }
}

}  // namespace
}  // namespace tern::testing
