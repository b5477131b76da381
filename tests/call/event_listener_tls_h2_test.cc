// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The events of https calls and of HTTP/2 calls (OkHttp's EventListenerTest secure and h2
// cases): the TLS handshake between connectStart and connectEnd, its failures and the fallback
// between connection specs, the protocol ALPN chose, and streams sharing one connection.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "call/event_listener_fixture.h"
#include "support/tls_certificates.h"
#include "tern/callback.h"
#include "tern/connection_spec.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class EventListenerTlsTest : public EventListenerFixture {
 protected:
  EventListenerTlsTest() {
    server.useHttps(certificates.server());
    client = client.newBuilder().handshakeCertificates(certificates.clientTrust()).build();
  }

  static MockResponse failHandshake() {
    return MockResponse::Builder().socketPolicy(SocketPolicy::FailHandshake{}).build();
  }

  // The events of a successful https GET on a new connection, from connectStart on.
  static Names freshTlsConnection() {
    return {"connectStart",       "secureConnectStart",
            "secureConnectEnd",   "connectEnd",
            "connectionAcquired", "requestHeadersStart",
            "requestHeadersEnd",  "responseHeadersStart",
            "responseHeadersEnd", "followUpDecision",
            "responseBodyStart",  "responseBodyEnd",
            "connectionReleased", "callEnd"};
  }

  TestCertificates certificates;
};

TEST_F(EventListenerTlsTest, HandshakeComesBetweenConnectStartAndConnectEnd) {
  server.setProtocols({Protocol::HTTP_1_1});
  server.enqueue(body("secret"));
  EXPECT_EQ(fetch(), "secret");
  Names all = names();
  EXPECT_EQ(Names(all.begin(), all.begin() + 3),
            (Names{"callStart", "proxySelectStart", "proxySelectEnd"}));
  EXPECT_EQ(startingAt(all, "connectStart"), freshTlsConnection());
}

TEST_F(EventListenerTlsTest, SecureConnectEndCarriesTheNegotiatedHandshake) {
  server.setProtocols({Protocol::HTTP_1_1});
  server.enqueue(body("secret"));
  Response response = execute();
  response.body()->close();
  ASSERT_TRUE(response.handshake().has_value());
  EXPECT_EQ(listener()->find("secureConnectEnd")->detail,
            std::string(javaName(response.handshake()->tlsVersion())) + " " +
                std::string(response.handshake()->cipherSuite().javaName()));
}

TEST_F(EventListenerTlsTest, ConnectEndNamesTheProtocolAlpnChose) {
  server.enqueue(body("over h2"));
  EXPECT_EQ(fetch(), "over h2");
  EXPECT_THAT(listener()->find("connectEnd")->detail, HasSubstr(" h2"));
  EXPECT_EQ(startingAt(names(), "connectStart"), freshTlsConnection());
}

TEST_F(EventListenerTlsTest, ClientOfferingOnlyHttp11ConnectsWithHttp11) {
  server.enqueue(body("over http/1.1"));
  Client http11 = client.newBuilder().protocols({Protocol::HTTP_1_1}).build();
  EXPECT_EQ(http11.newCall(get())->execute().body()->string(), "over http/1.1");
  EXPECT_THAT(listener()->find("connectEnd")->detail, HasSubstr(" http/1.1"));
}

TEST_F(EventListenerTlsTest, PooledHttpsConnectionHasNoHandshakeEvents) {
  server.setProtocols({Protocol::HTTP_1_1});
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(), "a");
  EXPECT_EQ(fetch(), "b");
  EXPECT_EQ(listener(0)->count("secureConnectStart"), 1);
  EXPECT_EQ(listener(1)->count("connectStart"), 0);
  EXPECT_EQ(listener(1)->count("secureConnectStart"), 0);
  EXPECT_EQ(listener(1)->count("secureConnectEnd"), 0);
  EXPECT_EQ(listener(0)->find("connectionAcquired")->connection,
            listener(1)->find("connectionAcquired")->connection);
}

TEST_F(EventListenerTlsTest, UntrustedCertificateFailsAfterSecureConnectStart) {
  Client stranger =
      client.newBuilder().handshakeCertificates(TestCertificates().clientTrust()).build();
  EXPECT_THROW(stranger.newCall(get())->execute(), SSLHandshakeException);
  Names all = names();
  EXPECT_EQ(startingAt(all, "connectStart"),
            (Names{"connectStart", "secureConnectStart", "connectFailed", "retryDecision",
                   "callFailed"}));
  EXPECT_EQ(listener()->find("connectFailed")->exceptionType, "SSLHandshakeException");
  EXPECT_FALSE(listener()->find("retryDecision")->retry);
  EXPECT_EQ(listener()->find("callFailed")->exceptionType, "SSLHandshakeException");
}

TEST_F(EventListenerTlsTest, HostnameMismatchFailsWithoutSecureConnectEnd) {
  tls::HeldCertificate elsewhere = tls::HeldCertificate::Builder()
                                       .commonName("elsewhere")
                                       .addSubjectAlternativeName("elsewhere.test")
                                       .signedBy(certificates.root)
                                       .build();
  MockWebServer other;
  other.useHttps(tls::HandshakeCertificates::Builder().heldCertificate(elsewhere).build());
  other.enqueue(body("never"));
  EXPECT_THROW(client.newCall(Request::Builder().url(other.url("/")).build())->execute(),
               SSLPeerUnverifiedException);
  EXPECT_EQ(listener()->count("secureConnectStart"), 1);
  EXPECT_EQ(listener()->count("secureConnectEnd"), 0);
  EXPECT_EQ(listener()->find("connectFailed")->exceptionType, "SSLPeerUnverifiedException");
  EXPECT_EQ(names().back(), "callFailed");
}

TEST_F(EventListenerTlsTest, FallbackToTheNextSpecIsASecondConnect) {
  server.enqueue(failHandshake());
  server.enqueue(body("after fallback"));
  Client fallback =
      client.newBuilder()
          .connectionSpecs({ConnectionSpec::MODERN_TLS, ConnectionSpec::COMPATIBLE_TLS})
          .build();
  EXPECT_EQ(fallback.newCall(get())->execute().body()->string(), "after fallback");
  Names all = names();
  Names connects(std::find(all.begin(), all.end(), "connectStart"),
                 std::find(all.begin(), all.end(), "connectionAcquired"));
  EXPECT_EQ(connects, (Names{"connectStart", "secureConnectStart", "connectFailed", "connectStart",
                             "secureConnectStart", "secureConnectEnd", "connectEnd"}));
  EXPECT_EQ(listener()->find("connectFailed")->exceptionType, "SSLHandshakeException");
  EXPECT_EQ(names().back(), "callEnd");
}

TEST_F(EventListenerTlsTest, CancelDuringTheHandshakeIsACanceledConnectFailure) {
  // A cleartext server that stalls: nothing answers the ClientHello.
  MockWebServer stalled;
  stalled.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::StallSocketAtStart{}).build());
  stalled.start();
  std::shared_ptr<Call> call = client.newCall(
      Request::Builder().url("https://127.0.0.1:" + std::to_string(stalled.port()) + "/").build());
  std::thread canceler([&] {
    std::this_thread::sleep_for(200ms);
    call->cancel();
  });
  EXPECT_THROW(call->execute(), InterruptedIOException);
  canceler.join();
  EXPECT_EQ(listener()->count("secureConnectStart"), 1);
  EXPECT_EQ(listener()->count("secureConnectEnd"), 0);
  EXPECT_EQ(listener()->count("canceled"), 1);
  EXPECT_EQ(listener()->find("connectFailed")->exceptionType, "InterruptedIOException");
  EXPECT_EQ(names().back(), "callFailed");
}

TEST_F(EventListenerTlsTest, RedirectFromHttpsToHttpReportsBothConnections) {
  MockWebServer plain;
  plain.enqueue(body("cleartext"));
  server.setProtocols({Protocol::HTTP_1_1});
  server.enqueue(
      MockResponse::Builder().code(302).addHeader("Location", plain.url("/").toString()).build());
  EXPECT_EQ(fetch(), "cleartext");
  EXPECT_EQ(listener()->count("connectStart"), 2);
  EXPECT_EQ(listener()->count("secureConnectStart"), 1);
  EXPECT_EQ(listener()->count("connectionAcquired"), 2);
  EXPECT_EQ(listener()->count("connectionReleased"), 2);
  EXPECT_EQ(listener()->find("followUpDecision")->url, plain.url("/").toString());
}

// HTTP/2: cleartext with prior knowledge, and over TLS by ALPN.
class EventListenerHttp2Test : public EventListenerFixture {
 protected:
  EventListenerHttp2Test() {
    server.setProtocols({Protocol::H2_PRIOR_KNOWLEDGE});
    client = client.newBuilder().protocols({Protocol::H2_PRIOR_KNOWLEDGE}).build();
  }
};

TEST_F(EventListenerHttp2Test, SuccessfulCallEventSequence) {
  server.enqueue(body("abc"));
  EXPECT_EQ(fetch(), "abc");
  EXPECT_EQ(names(), freshConnectionGet());
  EXPECT_THAT(listener()->find("connectEnd")->detail, HasSubstr(" h2_prior_knowledge"));
}

TEST_F(EventListenerHttp2Test, SecondCallSharesTheConnectionWithoutConnecting) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(), "a");
  EXPECT_EQ(fetch(), "b");
  EXPECT_EQ(listener(1)->count("connectStart"), 0);
  EXPECT_EQ(listener(0)->find("connectionAcquired")->connection,
            listener(1)->find("connectionAcquired")->connection);
}

TEST_F(EventListenerHttp2Test, ConcurrentCallsEachAcquireTheOneConnection) {
  constexpr int kCalls = 8;
  for (int i = 0; i < kCalls; ++i) {
    server.enqueue(MockResponse::Builder().body("r").headersDelay(100ms).build());
  }
  std::vector<std::shared_ptr<RecordingCallback>> callbacks;
  for (int i = 0; i < kCalls; ++i) {
    callbacks.push_back(std::make_shared<RecordingCallback>());
    client.newCall(get())->enqueue(callbacks.back());
  }
  for (auto& callback : callbacks) EXPECT_EQ(callback->await(url()).body, "r");
  ASSERT_TRUE(eventually([&] {
    for (int i = 0; i < kCalls; ++i) {
      if (!listener(static_cast<size_t>(i))->ended()) return false;
    }
    return true;
  }));
  int connects = 0;
  const Connection* shared = listener(0)->find("connectionAcquired")->connection;
  for (int i = 0; i < kCalls; ++i) {
    auto l = listener(static_cast<size_t>(i));
    connects += l->count("connectEnd");
    EXPECT_EQ(l->count("connectionAcquired"), 1);
    EXPECT_EQ(l->find("connectionAcquired")->connection, shared);
    EXPECT_EQ(l->count("connectionReleased"), 1);
    EXPECT_EQ(l->eventNames().back(), "callEnd");
  }
  EXPECT_EQ(connects, 1);
}

TEST_F(EventListenerHttp2Test, BodiesAreCountedInBytes) {
  server.enqueue(body("0123456789"));
  Response response =
      client
          .newCall(
              Request::Builder().url(server.url("/")).post(RequestBody::create("hello")).build())
          ->execute();
  EXPECT_EQ(response.body()->string(), "0123456789");
  EXPECT_EQ(listener()->find("requestBodyEnd")->byteCount, 5);
  EXPECT_EQ(listener()->find("responseBodyEnd")->byteCount, 10);
}

TEST_F(EventListenerHttp2Test, BodyClosedEarlyReportsTheBytesRead) {
  constexpr int64_t kSize = 4 << 20;
  server.enqueue(body(std::string(kSize, 'x')));
  Response response = execute();
  EXPECT_EQ(response.body()->source().readUtf8(3), "xxx");
  response.body()->close();
  // What the body's buffer took from the stream: at least what was read, far from everything.
  int64_t read = listener()->find("responseBodyEnd")->byteCount;
  EXPECT_GE(read, 3);
  EXPECT_LT(read, kSize);
  EXPECT_EQ(names().back(), "callEnd");
}

TEST_F(EventListenerHttp2Test, RefusedStreamIsRetriedWithARetryDecision) {
  server.enqueue(MockResponse::Builder()
                     .socketPolicy(SocketPolicy::ResetStreamAtStart{7})  // REFUSED_STREAM
                     .build());
  server.enqueue(body("second try"));
  EXPECT_EQ(fetch(), "second try");
  auto retry = listener()->find("retryDecision");
  ASSERT_TRUE(retry.has_value());
  EXPECT_TRUE(retry->retry);
  EXPECT_EQ(listener()->count("responseFailed"), 1);
  EXPECT_EQ(names().back(), "callEnd");
}

TEST_F(EventListenerHttp2Test, StreamResetIsAResponseFailure) {
  server.enqueue(MockResponse::Builder()
                     .socketPolicy(SocketPolicy::ResetStreamAtStart{2})  // INTERNAL_ERROR
                     .build());
  EXPECT_THROW(execute(), IOException);
  EXPECT_EQ(listener()->find("responseFailed")->exceptionType, "StreamResetException");
  EXPECT_EQ(names().back(), "callFailed");
}

TEST_F(EventListenerHttp2Test, CancelWhileWaitingForHeadersFailsTheStreamOnly) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::NoResponse{}).build());
  server.enqueue(body("next"));
  std::shared_ptr<Call> call = client.newCall(get());
  std::thread canceler([&] {
    std::this_thread::sleep_for(200ms);
    call->cancel();
  });
  EXPECT_THROW(call->execute(), IOException);
  canceler.join();
  EXPECT_EQ(listener(0)->count("canceled"), 1);
  EXPECT_EQ(listener(0)->eventNames().back(), "callFailed");
  // The connection carries on: the next call shares it.
  EXPECT_EQ(fetch(), "next");
  EXPECT_EQ(listener(1)->count("connectStart"), 0);
}

TEST_F(EventListenerHttp2Test, HttpsWithH2ReportsTheHandshakeAndH2) {
  TestCertificates certificates;
  MockWebServer secure;
  secure.useHttps(certificates.server());
  secure.enqueue(body("a"));
  secure.enqueue(body("b"));
  Client https = client.newBuilder()
                     .protocols({Protocol::HTTP_2, Protocol::HTTP_1_1})
                     .handshakeCertificates(certificates.clientTrust())
                     .build();
  Request request = Request::Builder().url(secure.url("/")).build();
  Response first = https.newCall(request)->execute();
  EXPECT_EQ(first.protocol(), Protocol::HTTP_2);
  EXPECT_EQ(first.body()->string(), "a");
  EXPECT_EQ(https.newCall(request)->execute().body()->string(), "b");
  EXPECT_EQ(listener(0)->count("secureConnectEnd"), 1);
  EXPECT_THAT(listener(0)->find("connectEnd")->detail, HasSubstr(" h2"));
  EXPECT_EQ(listener(1)->count("secureConnectStart"), 0);
  EXPECT_EQ(listener(0)->find("connectionAcquired")->connection,
            listener(1)->find("connectionAcquired")->connection);
  RecordedRequest recorded = secure.takeRequest();
  EXPECT_EQ(recorded.requestLine(), "GET / HTTP/2");
  ASSERT_TRUE(recorded.handshake().has_value());
}

}  // namespace
}  // namespace tern::testing
