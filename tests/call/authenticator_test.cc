// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Answering 401 challenges through the client's Authenticator (OkHttp's CallTest auth cases).
#include <gtest/gtest.h>

#include <atomic>

#include "call/call_fixture.h"

namespace tern::testing {
namespace {

class AuthenticatorTest : public CallFixture {
 protected:
  static MockResponse unauthorized() {
    return MockResponse::Builder()
        .code(401)
        .addHeader("WWW-Authenticate", "Basic realm=\"protected area\"")
        .body("Please authenticate.")
        .build();
  }
  // An authenticator that adds `credential` unless the request already carries it.
  static std::shared_ptr<Authenticator> basic(std::string credential, std::atomic<int>& calls) {
    return Authenticator::of(
        [credential, &calls](const Route*, const Response& response) -> std::optional<Request> {
          ++calls;
          if (response.request().header("Authorization") == credential) return std::nullopt;
          return response.request().newBuilder().header("Authorization", credential).build();
        });
  }
};

TEST_F(AuthenticatorTest, ChallengeIsAnsweredWithCredentials) {
  server.enqueue(unauthorized());
  server.enqueue(body("Successful auth!"));
  std::atomic<int> calls{0};
  client =
      client.newBuilder().authenticator(basic("Basic dXNlcm5hbWU6cGFzc3dvcmQ=", calls)).build();
  Response response = execute();
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "Successful auth!");
  EXPECT_EQ(response.priorResponse()->code(), 401);
  EXPECT_EQ(calls.load(), 1);
  EXPECT_FALSE(server.takeRequest().headers().get("Authorization"));
  EXPECT_EQ(server.takeRequest().headers().get("Authorization"), "Basic dXNlcm5hbWU6cGFzc3dvcmQ=");
}

TEST_F(AuthenticatorTest, AuthenticatorSeesTheChallengeAndTheRoute) {
  server.enqueue(unauthorized());
  std::vector<Challenge> challenges;
  std::optional<int> routePort;
  client = client.newBuilder()
               .authenticator(Authenticator::of(
                   [&](const Route* route, const Response& response) -> std::optional<Request> {
                     challenges = response.challenges();
                     if (route) routePort = route->socketAddress().port();
                     return std::nullopt;
                   }))
               .build();
  Response response = execute();
  EXPECT_EQ(response.code(), 401);
  EXPECT_EQ(response.body()->string(), "Please authenticate.");
  ASSERT_EQ(challenges.size(), 1u);
  EXPECT_EQ(challenges[0].scheme(), "Basic");
  EXPECT_EQ(challenges[0].realm(), "protected area");
  EXPECT_EQ(routePort, server.port());
}

TEST_F(AuthenticatorTest, NoAuthenticatorReturnsTheChallenge) {
  server.enqueue(unauthorized());
  Response response = execute();
  EXPECT_EQ(response.code(), 401);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(AuthenticatorTest, AuthenticatorThatKeepsTryingIsStoppedAfterTwentyFollowUps) {
  for (int i = 0; i < 21; ++i) server.enqueue(unauthorized());
  client =
      client.newBuilder()
          .authenticator(Authenticator::of(
              [](const Route*, const Response& response) -> std::optional<Request> {
                return response.request().newBuilder().header("Authorization", "wrong").build();
              }))
          .build();
  try {
    execute();
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "Too many follow-up requests: 21");
  }
}

TEST_F(AuthenticatorTest, AuthenticatorIsNotAskedAboutOtherResponses) {
  server.enqueue(MockResponse::Builder().code(403).body("forbidden").build());
  std::atomic<int> calls{0};
  client = client.newBuilder().authenticator(basic("Basic x", calls)).build();
  EXPECT_EQ(execute().code(), 403);
  EXPECT_EQ(calls.load(), 0);
}

TEST_F(AuthenticatorTest, AuthenticatorFailureFailsTheCall) {
  server.enqueue(unauthorized());
  client = client.newBuilder()
               .authenticator(
                   Authenticator::of([](const Route*, const Response&) -> std::optional<Request> {
                     throw IOException("credentials unavailable");
                   }))
               .build();
  try {
    execute();
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_STREQ(e.what(), "credentials unavailable");
  }
}

TEST_F(AuthenticatorTest, PostBodyIsResentWithTheCredentials) {
  server.enqueue(unauthorized());
  server.enqueue(body("ok"));
  std::atomic<int> calls{0};
  client = client.newBuilder().authenticator(basic("Basic x", calls)).build();
  execute(Request::Builder().url(server.url("/")).post(RequestBody::create("form data")).build())
      .body()
      ->string();
  EXPECT_EQ(server.takeRequest().bodyUtf8(), "form data");
  RecordedRequest retried = server.takeRequest();
  EXPECT_EQ(retried.method(), "POST");
  EXPECT_EQ(retried.bodyUtf8(), "form data");
}

TEST_F(AuthenticatorTest, ProxyAuthenticationWithoutAProxyIsAProtocolException) {
  server.enqueue(MockResponse::Builder()
                     .code(407)
                     .addHeader("Proxy-Authenticate", "Basic realm=\"x\"")
                     .build());
  try {
    execute();
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "Received HTTP_PROXY_AUTH (407) code while not using proxy");
  }
}

TEST_F(AuthenticatorTest, ApplicationInterceptorResponseGivesTheAuthenticatorNoRoute) {
  // A 401 made up by an application interceptor never reaches RetryAndFollowUp; one made up by a
  // network interceptor does, with the connection's route.
  std::vector<bool> sawRoute;
  client = client.newBuilder()
               .authenticator(Authenticator::of(
                   [&](const Route* route, const Response&) -> std::optional<Request> {
                     sawRoute.push_back(route != nullptr);
                     return std::nullopt;
                   }))
               .addNetworkInterceptor([](Interceptor::Chain& chain) {
                 Response real = chain.proceed(chain.request());
                 return std::move(real).newBuilder().code(401).message("Unauthorized").build();
               })
               .build();
  server.enqueue(body("made up"));
  EXPECT_EQ(execute().code(), 401);
  EXPECT_EQ(sawRoute, std::vector<bool>{true});
}

}  // namespace
}  // namespace tern::testing
