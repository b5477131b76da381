// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// How https connections are made: connection specs and the fallback between them, cleartext
// permission, redirects across schemes, cancellation and timeouts during the handshake, session
// resumption, and which connections the pool shares. As OkHttp's CallTest, ConnectionSpecTest
// and ConnectionReuseTest https cases.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "call/https_fixture.h"
#include "connection/real_connection.h"
#include "net/tls_peer.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

class TlsConnectionTest : public HttpsFixture {
 protected:
  // A spec offering TLS 1.3 only.
  static ConnectionSpec tls13Only() {
    return ConnectionSpec::Builder(ConnectionSpec::RESTRICTED_TLS)
        .tlsVersions({TlsVersion::TLS_1_3})
        .build();
  }

  // A TLS server (tern's TlsSocket) that speaks TLS 1.2 at most and answers `connections`
  // requests, one per connection.
  std::unique_ptr<TlsServer> tls12Server(int connections = 1) {
    return std::make_unique<TlsServer>(
        serverContext(certificates.server(),
                      [](SSL_CTX* c) { SSL_CTX_set_max_proto_version(c, TLS1_2_VERSION); }),
        respondWith("over TLS 1.2"), connections);
  }

  static Request requestTo(const TlsServer& tlsServer) {
    return Request::Builder()
        .url("https://localhost:" + std::to_string(tlsServer.port()) + "/")
        .build();
  }

  static MockResponse failHandshake() {
    return MockResponse::Builder().socketPolicy(SocketPolicy::FailHandshake{}).build();
  }
};

TEST_F(TlsConnectionTest, NoCommonTlsVersionFailsWithoutFallback) {
  auto tls12 = tls12Server();
  Client restricted = clientBuilder().connectionSpecs({tls13Only()}).build();
  EXPECT_THAT(
      failureOf(restricted, requestTo(*tls12)),
      MatchesRegex("SSLHandshakeException: TLS handshake with localhost \\(127.0.0.1:[0-9]+\\) "
                   "failed: no TLS version in common: the client offers TLSv1.3 and the "
                   "server refused \\(protocol version alert\\)"));
}

TEST_F(TlsConnectionTest, FallsBackToTheNextSpecWhenTheHandshakeFails) {
  auto tls12 = tls12Server(2);
  Client fallback =
      clientBuilder().connectionSpecs({tls13Only(), ConnectionSpec::MODERN_TLS}).build();
  Response response = fallback.newCall(requestTo(*tls12))->execute();
  EXPECT_EQ(response.body()->string(), "over TLS 1.2");
  EXPECT_EQ(response.handshake()->tlsVersion(), TlsVersion::TLS_1_2);
}

TEST_F(TlsConnectionTest, FailHandshakePolicyIsRetriedWithTheFallbackSpec) {
  server.enqueue(failHandshake());
  server.enqueue(body("after fallback"));
  Client fallback =
      clientBuilder()
          .connectionSpecs({ConnectionSpec::MODERN_TLS, ConnectionSpec::COMPATIBLE_TLS})
          .build();
  EXPECT_EQ(fallback.newCall(get())->execute().body()->string(), "after fallback");
  RecordedRequest failed = server.takeRequest();
  EXPECT_EQ(failed.requestLine(), "");  // The bookkeeping record of the failed connection.
  EXPECT_EQ(failed.connectionIndex(), 0);
  RecordedRequest served = server.takeRequest();
  EXPECT_EQ(served.requestLine(), "GET / HTTP/2");  // ALPN chose h2 on the fallback connection.
  EXPECT_EQ(served.connectionIndex(), 1);
}

TEST_F(TlsConnectionTest, FailHandshakeWithoutAFallbackSpecFails) {
  server.enqueue(failHandshake());
  EXPECT_THAT(failureOf(client, get()),
              MatchesRegex("SSLHandshakeException: TLS handshake with 127.0.0.1:[0-9]+ failed: "
                           "the server refused the handshake \\(handshake failure alert\\): no "
                           "cipher suite in common, or it requires a client certificate"));
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(TlsConnectionTest, FallbackGivesUpWhenEverySpecFails) {
  server.enqueue(failHandshake());
  server.enqueue(failHandshake());
  server.enqueue(body("never reached"));
  Client fallback =
      clientBuilder()
          .connectionSpecs({ConnectionSpec::MODERN_TLS, ConnectionSpec::COMPATIBLE_TLS})
          .build();
  EXPECT_THAT(failureOf(fallback, get()), StartsWith("SSLHandshakeException: "));
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_F(TlsConnectionTest, NoFallbackWhenRetriesAreOff) {
  server.enqueue(failHandshake());
  server.enqueue(body("never reached"));
  Client noRetries =
      clientBuilder()
          .connectionSpecs({ConnectionSpec::MODERN_TLS, ConnectionSpec::COMPATIBLE_TLS})
          .retryOnConnectionFailure(false)
          .build();
  EXPECT_THAT(failureOf(noRetries, get()), StartsWith("SSLHandshakeException: "));
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(TlsConnectionTest, NoFallbackForAnUntrustedCertificate) {
  Client stranger =
      client.newBuilder()
          .handshakeCertificates(TestCertificates().clientTrust())
          .connectionSpecs({ConnectionSpec::MODERN_TLS, ConnectionSpec::COMPATIBLE_TLS})
          .build();
  EXPECT_THAT(failureOf(stranger, get()), StartsWith("SSLHandshakeException: "));
  // One connection was tried: the next one the server accepts is its second.
  server.enqueue(body("trusted"));
  EXPECT_EQ(fetch("/"), "trusted");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

TEST_F(TlsConnectionTest, NoFallbackForAHostnameMismatch) {
  Client fallback =
      clientBuilder()
          .connectionSpecs({ConnectionSpec::MODERN_TLS, ConnectionSpec::COMPATIBLE_TLS})
          .hostnameVerifier(HostnameVerifier::of([](auto, const auto&) { return false; }))
          .build();
  EXPECT_THAT(failureOf(fallback, get()),
              StartsWith("SSLPeerUnverifiedException: Hostname 127.0.0.1 not verified:"));
  server.enqueue(body("trusted"));
  EXPECT_EQ(fetch("/"), "trusted");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

TEST_F(TlsConnectionTest, CleartextNeedsTheCleartextSpec) {
  MockWebServer plain;
  plain.enqueue(body("never"));
  Client tlsOnly = clientBuilder().connectionSpecs({ConnectionSpec::MODERN_TLS}).build();
  EXPECT_EQ(failureOf(tlsOnly, Request::Builder().url(plain.url("/")).build()),
            "UnknownServiceException: CLEARTEXT communication not enabled for client");
  EXPECT_EQ(plain.requestCount(), 0);
  // https still works for it.
  server.enqueue(body("secure"));
  EXPECT_EQ(tlsOnly.newCall(get())->execute().body()->string(), "secure");
}

TEST_F(TlsConnectionTest, HttpsNeedsATlsSpec) {
  Client cleartextOnly = clientBuilder().connectionSpecs({ConnectionSpec::CLEARTEXT}).build();
  EXPECT_THAT(failureOf(cleartextOnly, get()),
              StartsWith("UnknownServiceException: Unable to find acceptable protocols. "
                         "isFallback=false, modes=[ConnectionSpec()], supported "
                         "protocols=[TLSv1.3, TLSv1.2"));
}

TEST_F(TlsConnectionTest, RedirectFromHttpsToHttpFollowsSslRedirectsSetting) {
  MockWebServer plain;
  plain.enqueue(body("landed on http"));
  for (bool follow : {false, true}) {
    server.enqueue(MockResponse::Builder()
                       .code(302)
                       .addHeader("Location", plain.url("/insecure").toString())
                       .body("moved")
                       .build());
    Client c = clientBuilder().followSslRedirects(follow).build();
    Response response = c.newCall(get())->execute();
    if (follow) {
      EXPECT_EQ(response.body()->string(), "landed on http");
      EXPECT_EQ(response.request().url().scheme(), "http");
      EXPECT_EQ(response.handshake(), std::nullopt);
      ASSERT_NE(response.priorResponse(), nullptr);
      EXPECT_TRUE(response.priorResponse()->handshake().has_value());
    } else {
      EXPECT_EQ(response.code(), 302);
      EXPECT_EQ(response.body()->string(), "moved");
      EXPECT_TRUE(response.handshake().has_value());
    }
  }
  EXPECT_EQ(plain.requestCount(), 1);
}

TEST_F(TlsConnectionTest, RedirectFromHttpToHttpsFollowsSslRedirectsSetting) {
  MockWebServer plain;
  for (bool follow : {false, true}) {
    plain.enqueue(MockResponse::Builder()
                      .code(301)
                      .addHeader("Location", server.url("/secure").toString())
                      .build());
    Client c = clientBuilder().followSslRedirects(follow).build();
    if (follow) server.enqueue(body("landed on https"));
    Response response = c.newCall(Request::Builder().url(plain.url("/")).build())->execute();
    EXPECT_EQ(response.code(), follow ? 200 : 301);
    EXPECT_EQ(response.handshake().has_value(), follow);
    if (follow) {
      EXPECT_EQ(response.body()->string(), "landed on https");
    }
  }
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(TlsConnectionTest, CancelDuringTheHandshake) {
  TlsServer silent(nullptr, [](internal::TlsSocket*, internal::Socket& socket) {
    Buffer ignored;
    while (socket.source().read(ignored, 65536) != -1) ignored.clear();
  });
  std::shared_ptr<Call> call = client.newCall(requestTo(silent));
  std::thread canceler([&] {
    std::this_thread::sleep_for(150ms);
    call->cancel();
  });
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(failureOf([&] { call->execute(); }), StartsWith("InterruptedIOException: "));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  canceler.join();
}

TEST_F(TlsConnectionTest, HandshakeIsBoundedByTheConnectTimeout) {
  TlsServer silent(nullptr, [](internal::TlsSocket*, internal::Socket& socket) {
    Buffer ignored;
    while (socket.source().read(ignored, 65536) != -1) ignored.clear();
  });
  Client c = clientBuilder().connectTimeout(250ms).readTimeout(30s).build();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(failureOf(c, requestTo(silent)),
              MatchesRegex("SocketTimeoutException: TLS handshake timed out after 250 ms: "
                           "localhost \\(127.0.0.1:[0-9]+\\)"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

// Whether the connection that carried a response resumed a TLS session (internal).
bool resumedSession(Interceptor::Chain& chain) {
  auto* connection = static_cast<internal::RealConnection*>(chain.connection());
  return connection->tlsSocket()->sessionReused();
}

TEST_F(TlsConnectionTest, NewConnectionsToTheSameServerResumeTheSession) {
  server.setProtocols({Protocol::HTTP_1_1});  // A connection per call ("Connection: close").
  std::vector<bool> resumed;
  Client c = clientBuilder()
                 .addNetworkInterceptor([&](Interceptor::Chain& chain) {
                   resumed.push_back(resumedSession(chain));
                   return chain.proceed(chain.request());
                 })
                 .build();
  for (int i = 0; i < 3; ++i) {
    // "Connection: close": the client takes a new connection for the next call.
    server.enqueue(MockResponse::Builder()
                       .body("response " + std::to_string(i))
                       .addHeader("Connection", "close")
                       .build());
  }
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(c.newCall(get())->execute().body()->string(), "response " + std::to_string(i));
  }
  EXPECT_EQ(resumed, (std::vector<bool>{false, true, true}));
  // A client with its own TLS settings has its own sessions.
  server.enqueue(body("fresh"));
  std::vector<bool> otherResumed;
  Client other = clientBuilder()
                     .addNetworkInterceptor([&](Interceptor::Chain& chain) {
                       otherResumed.push_back(resumedSession(chain));
                       return chain.proceed(chain.request());
                     })
                     .build();
  EXPECT_EQ(other.newCall(get())->execute().body()->string(), "fresh");
  EXPECT_EQ(otherResumed, (std::vector<bool>{false}));
}

TEST_F(TlsConnectionTest, PoolSharesConnectionsOnlyBetweenClientsWithTheSameTlsSettings) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  server.enqueue(body("c"));
  EXPECT_EQ(fetch("/a"), "a");
  // Derived without TLS changes: the same TLS context, so the pooled connection is reused.
  Client sameTls = client.newBuilder().readTimeout(7s).build();
  EXPECT_EQ(sameTls.newCall(get("/b"))->execute().body()->string(), "b");
  // Other trust settings (even equal ones) make another TLS context: a new connection.
  Client otherTls = client.newBuilder().handshakeCertificates(certificates.clientTrust()).build();
  EXPECT_EQ(otherTls.newCall(get("/c"))->execute().body()->string(), "c");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
  EXPECT_EQ(client.connectionPool()->connectionCount(), 2);
}

}  // namespace
}  // namespace tern::testing
