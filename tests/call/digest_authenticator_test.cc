// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// DigestAuthenticator (RFC 7616) answering MockWebServer's challenges through a Client.
#include "tern/digest_authenticator.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "call/call_fixture.h"
#include "http/digest.h"
#include "tern/challenge.h"
#include "tern/proxy.h"

namespace tern::testing {
namespace {

constexpr const char* kNonce = "dcd98b7102dd2f0e8b11d0f600bfb0c093";
constexpr const char* kOpaque = "5ccc069c403ebaf9f0171e9517f40e41";

class DigestAuthenticatorTest : public CallFixture {
 protected:
  void SetUp() override {
    client = client.newBuilder()
                 .authenticator(std::make_shared<DigestAuthenticator>("Mufasa", "Circle of Life"))
                 .build();
  }

  static MockResponse challenge(std::string params, std::string extra = "") {
    MockResponse::Builder builder;
    builder.code(401).addHeader("WWW-Authenticate", "Digest " + params).body("Who are you?");
    if (!extra.empty()) builder.addHeader("WWW-Authenticate", extra);
    return builder.build();
  }
  static std::string params(std::string algorithm, std::string nonce = kNonce,
                            std::string more = "") {
    return "realm=\"testrealm@host.com\", qop=\"auth,auth-int\", algorithm=" + algorithm +
           ", nonce=\"" + nonce + "\", opaque=\"" + kOpaque + "\"" + more;
  }

  // The Authorization header's parameters, and a check that its response is right for
  // Mufasa's password.
  static std::map<std::string, std::string> verify(const RecordedRequest& request,
                                                   const std::string& method = "GET") {
    std::optional<std::string> value = request.headers().get("Authorization");
    EXPECT_TRUE(value) << "no Authorization";
    if (!value) return {};
    std::vector<Challenge> parsed =
        parseChallenges(Headers::of("Authorization", *value), "Authorization");
    EXPECT_EQ(parsed.size(), 1u) << *value;
    if (parsed.size() != 1) return {};
    EXPECT_EQ(parsed[0].scheme(), "Digest");
    std::map<std::string, std::string> p = parsed[0].authParams();
    internal::DigestInput in;
    in.algorithm = *internal::parseDigestAlgorithm(p["algorithm"]);
    in.username = p["username"];
    in.password = "Circle of Life";
    in.realm = p["realm"];
    in.nonce = p["nonce"];
    in.cnonce = p["cnonce"];
    in.nc = p["nc"];
    in.qop = p["qop"];
    in.method = method;
    in.uri = p["uri"];
    EXPECT_EQ(p["response"], internal::digestResponse(in)) << *value;
    return p;
  }
};

TEST_F(DigestAuthenticatorTest, ChallengeIsAnswered) {
  server.enqueue(challenge(params("MD5")));
  server.enqueue(body("Welcome, Mufasa."));
  Response response = execute("/dir/index.html?x=1");
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "Welcome, Mufasa.");
  EXPECT_EQ(response.priorResponse()->code(), 401);

  EXPECT_FALSE(server.takeRequest().headers().get("Authorization"));
  auto p = verify(server.takeRequest());
  EXPECT_EQ(p["username"], "Mufasa");
  EXPECT_EQ(p["realm"], "testrealm@host.com");
  EXPECT_EQ(p["nonce"], kNonce);
  EXPECT_EQ(p["uri"], "/dir/index.html?x=1");
  EXPECT_EQ(p["algorithm"], "MD5");
  EXPECT_EQ(p["qop"], "auth");
  EXPECT_EQ(p["nc"], "00000001");
  EXPECT_EQ(p["cnonce"].size(), 32u);
  EXPECT_EQ(p["opaque"], kOpaque);
}

TEST_F(DigestAuthenticatorTest, NonceCountIncrementsAcrossCalls) {
  for (int i = 0; i < 2; ++i) {
    server.enqueue(challenge(params("SHA-256")));
    server.enqueue(body("ok"));
  }
  EXPECT_EQ(execute().code(), 200);
  EXPECT_EQ(execute().code(), 200);
  server.takeRequest();
  auto first = verify(server.takeRequest());
  server.takeRequest();
  auto second = verify(server.takeRequest());
  EXPECT_EQ(first["nc"], "00000001");
  EXPECT_EQ(second["nc"], "00000002");
  EXPECT_NE(first["cnonce"], second["cnonce"]);
}

TEST_F(DigestAuthenticatorTest, StaleNonceIsRetriedOnceWithTheNewNonce) {
  server.enqueue(challenge(params("MD5")));
  server.enqueue(challenge(params("MD5", "fresh-nonce", ", stale=true")));
  server.enqueue(body("ok"));
  Response response = execute();
  EXPECT_EQ(response.code(), 200);
  server.takeRequest();
  EXPECT_EQ(verify(server.takeRequest())["nonce"], kNonce);
  auto retried = verify(server.takeRequest());
  EXPECT_EQ(retried["nonce"], "fresh-nonce");
  EXPECT_EQ(retried["nc"], "00000001");
}

TEST_F(DigestAuthenticatorTest, SecondStaleGivesUp) {
  server.enqueue(challenge(params("MD5")));
  server.enqueue(challenge(params("MD5", "n2", ", stale=true")));
  server.enqueue(challenge(params("MD5", "n3", ", stale=true")));
  server.enqueue(body("never"));
  Response response = execute();
  EXPECT_EQ(response.code(), 401);
  EXPECT_EQ(server.requestCount(), 3);
}

TEST_F(DigestAuthenticatorTest, RepeatedChallengeGivesUp) {
  server.enqueue(challenge(params("MD5")));
  server.enqueue(challenge(params("MD5")));
  server.enqueue(body("never"));
  Response response = execute();
  EXPECT_EQ(response.code(), 401);
  EXPECT_EQ(response.body()->string(), "Who are you?");
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_F(DigestAuthenticatorTest, StrongestAlgorithmIsChosen) {
  server.enqueue(challenge(params("MD5", "md5-nonce"), "Digest " + params("SHA-256", "sha-nonce")));
  server.enqueue(body("ok"));
  EXPECT_EQ(execute().code(), 200);
  server.takeRequest();
  auto p = verify(server.takeRequest());
  EXPECT_EQ(p["algorithm"], "SHA-256");
  EXPECT_EQ(p["nonce"], "sha-nonce");
}

TEST_F(DigestAuthenticatorTest, SessionAlgorithmAndPost) {
  server.enqueue(challenge(params("SHA-256-sess")));
  server.enqueue(body("ok"));
  Request request =
      Request::Builder().url(server.url("/form")).post(RequestBody::create("a=1")).build();
  EXPECT_EQ(execute(request).code(), 200);
  server.takeRequest();
  EXPECT_EQ(verify(server.takeRequest(), "POST")["algorithm"], "SHA-256-sess");
}

TEST_F(DigestAuthenticatorTest, AuthIntOnlyAndOtherSchemesAreDeclined) {
  server.enqueue(challenge("realm=\"r\", qop=\"auth-int\", nonce=\"n\"", "Basic realm=\"r\""));
  Response response = execute();
  EXPECT_EQ(response.code(), 401);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(DigestAuthenticatorTest, UserhashSendsTheHashedUsername) {
  server.enqueue(challenge(params("SHA-256", kNonce, ", userhash=true")));
  server.enqueue(body("ok"));
  EXPECT_EQ(execute().code(), 200);
  server.takeRequest();
  RecordedRequest answered = server.takeRequest();
  std::string value = *answered.headers().get("Authorization");
  EXPECT_NE(value.find("userhash=true"), std::string::npos) << value;
  EXPECT_NE(value.find("username=\"" +
                       internal::digestUserhash(internal::DigestAlgorithm::kSha256, "Mufasa",
                                                "testrealm@host.com") +
                       "\""),
            std::string::npos)
      << value;
}

TEST_F(DigestAuthenticatorTest, QuotedValuesAreEscaped) {
  server.enqueue(challenge("realm=\"a \\\"quoted\\\" realm\", nonce=\"n\\\\1\", qop=auth"));
  server.enqueue(body("ok"));
  EXPECT_EQ(execute().code(), 200);
  server.takeRequest();
  RecordedRequest answered = server.takeRequest();
  std::string value = *answered.headers().get("Authorization");
  EXPECT_NE(value.find(R"(realm="a \"quoted\" realm")"), std::string::npos) << value;
  EXPECT_NE(value.find(R"(nonce="n\\1")"), std::string::npos) << value;
  auto p = verify(answered);
  EXPECT_EQ(p["realm"], "a \"quoted\" realm");
}

TEST_F(DigestAuthenticatorTest, ProxyChallengeIsAnsweredWithProxyAuthorization) {
  server.enqueue(MockResponse::Builder()
                     .code(407)
                     .addHeader("Proxy-Authenticate", "Digest " + params("SHA-256"))
                     .build());
  server.enqueue(body("proxied"));
  Client proxied =
      client.newBuilder()
          .authenticator(Authenticator::none())
          .proxy(Proxy::http("127.0.0.1", server.port()))
          .proxyAuthenticator(std::make_shared<DigestAuthenticator>("Mufasa", "Circle of Life"))
          .build();
  Response response =
      proxied.newCall(Request::Builder().url("http://origin.test/a?b").build())->execute();
  EXPECT_EQ(response.body()->string(), "proxied");
  EXPECT_FALSE(server.takeRequest().headers().get("Proxy-Authorization"));
  RecordedRequest answered = server.takeRequest();
  EXPECT_FALSE(answered.headers().get("Authorization"));
  std::string value = answered.headers().get("Proxy-Authorization").value_or("");
  EXPECT_TRUE(value.starts_with("Digest username=\"Mufasa\"")) << value;
  EXPECT_NE(value.find("uri=\"/a?b\""), std::string::npos) << value;
}

TEST_F(DigestAuthenticatorTest, Utf8RealmIsEchoed) {
  server.enqueue(MockResponse::Builder()
                     .code(401)
                     .addHeaderLenient("WWW-Authenticate",
                                       "Digest realm=\"K\xC3\xB6nig\", nonce=\"n\", qop=auth")
                     .build());
  server.enqueue(body("ok"));
  EXPECT_EQ(execute().code(), 200);
  server.takeRequest();
  std::string value = server.takeRequest().headers().get("Authorization").value_or("");
  EXPECT_NE(value.find("realm=\"K\xC3\xB6nig\""), std::string::npos) << value;
}

// Concurrent calls meeting the same nonce each get their own nonce count.
TEST_F(DigestAuthenticatorTest, NonceCountsAreUniqueAcrossThreads) {
  DigestAuthenticator authenticator("Mufasa", "Circle of Life");
  Response challenged = Response::Builder()
                            .request(get("/"))
                            .protocol(Protocol::HTTP_1_1)
                            .code(401)
                            .message("Unauthorized")
                            .header("WWW-Authenticate", "Digest " + params("MD5"))
                            .build();
  constexpr int kThreads = 8;
  constexpr int kEach = 50;
  std::mutex mutex;
  std::set<std::string> counts;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) {
        std::optional<Request> answer = authenticator.authenticate(nullptr, challenged);
        ASSERT_TRUE(answer);
        std::string value = answer->header("Authorization").value_or("");
        size_t nc = value.find("nc=");
        ASSERT_NE(nc, std::string::npos) << value;
        std::lock_guard<std::mutex> lock(mutex);
        counts.insert(value.substr(nc + 3, 8));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(counts.size(), static_cast<size_t>(kThreads * kEach));
  EXPECT_EQ(*counts.begin(), "00000001");
  EXPECT_EQ(*counts.rbegin(), "00000190");  // 400 in hex.
}

}  // namespace
}  // namespace tern::testing
