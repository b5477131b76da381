// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Client and Client::Builder: defaults, validation, and what newBuilder() shares.
#include <gtest/gtest.h>

#include "call/call_fixture.h"
#include "connection/connection_pool_access.h"

namespace tern::testing {
namespace {

TEST(ClientTest, Defaults) {
  Client client;
  EXPECT_EQ(client.connectTimeout(), 10s);
  EXPECT_EQ(client.readTimeout(), 10s);
  EXPECT_EQ(client.writeTimeout(), 10s);
  EXPECT_EQ(client.callTimeout(), 0s);
  EXPECT_EQ(client.connectTimeoutMillis(), 10000);
  EXPECT_TRUE(client.followRedirects());
  EXPECT_TRUE(client.followSslRedirects());
  EXPECT_TRUE(client.retryOnConnectionFailure());
  EXPECT_TRUE(client.interceptors().empty());
  EXPECT_TRUE(client.networkInterceptors().empty());
  EXPECT_EQ(client.dns(), Dns::system());
  EXPECT_EQ(client.authenticator(), Authenticator::none());
  EXPECT_EQ(client.proxyAuthenticator(), Authenticator::none());
  EXPECT_EQ(client.cookieJar(), CookieJar::noCookies());
  EXPECT_EQ(client.protocols(), (std::vector<Protocol>{Protocol::HTTP_2, Protocol::HTTP_1_1}));
  EXPECT_EQ(client.dispatcher()->maxRequests(), 64);
  EXPECT_EQ(client.connectionPool()->connectionCount(), 0);
}

TEST(ClientTest, EachDefaultClientHasItsOwnPoolAndDispatcher) {
  Client a;
  Client b;
  EXPECT_NE(a.connectionPool(), b.connectionPool());
  EXPECT_NE(a.dispatcher(), b.dispatcher());
}

TEST(ClientTest, CopiesAndDerivedClientsShareThePoolAndDispatcher) {
  Client client;
  Client copy = client;  // NOLINT(performance-unnecessary-copy-initialization)
  Client derived = client.newBuilder().readTimeout(1s).followRedirects(false).build();
  EXPECT_EQ(copy.connectionPool(), client.connectionPool());
  EXPECT_EQ(derived.connectionPool(), client.connectionPool());
  EXPECT_EQ(derived.dispatcher(), client.dispatcher());
  EXPECT_EQ(derived.readTimeout(), 1s);
  EXPECT_FALSE(derived.followRedirects());
  EXPECT_EQ(client.readTimeout(), 10s);  // The original is unchanged.
  EXPECT_TRUE(client.followRedirects());
}

TEST(ClientTest, OneBuilderBuildsClientsThatShare) {
  Client::Builder builder;
  Client a = builder.build();
  Client b = builder.build();
  EXPECT_EQ(a.connectionPool(), b.connectionPool());
  EXPECT_EQ(a.dispatcher(), b.dispatcher());
}

TEST(ClientTest, NewBuilderKeepsInterceptorsAndAddsToACopy) {
  Client client =
      Client::Builder()
          .addInterceptor([](Interceptor::Chain& chain) { return chain.proceed(chain.request()); })
          .build();
  Client derived = client.newBuilder()
                       .addNetworkInterceptor(
                           [](Interceptor::Chain& chain) { return chain.proceed(chain.request()); })
                       .build();
  EXPECT_EQ(client.interceptors().size(), 1u);
  EXPECT_EQ(client.networkInterceptors().size(), 0u);
  EXPECT_EQ(derived.interceptors(), client.interceptors());
  EXPECT_EQ(derived.networkInterceptors().size(), 1u);
}

TEST(ClientTest, TimeoutsAreValidated) {
  Client::Builder builder;
  try {
    builder.connectTimeout(-1ms);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "connectTimeout < 0");
  }
  try {
    builder.readTimeout(std::chrono::microseconds(10));
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "readTimeout too small");
  }
  try {
    builder.callTimeout(std::chrono::hours(24 * 365));
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "callTimeout too large");
  }
  EXPECT_EQ(builder.writeTimeout(0s).build().writeTimeout(), 0ms);
  EXPECT_EQ(builder.writeTimeout(1500us).build().writeTimeout(), 1ms);  // Truncated to ms.
}

TEST(ClientTest, NullDependenciesAreRejected) {
  Client::Builder builder;
  EXPECT_THROW(builder.dispatcher(nullptr), std::invalid_argument);
  EXPECT_THROW(builder.connectionPool(nullptr), std::invalid_argument);
  EXPECT_THROW(builder.dns(nullptr), std::invalid_argument);
  EXPECT_THROW(builder.authenticator(nullptr), std::invalid_argument);
  EXPECT_THROW(builder.proxyAuthenticator(nullptr), std::invalid_argument);
  EXPECT_THROW(builder.cookieJar(nullptr), std::invalid_argument);
  EXPECT_THROW(builder.addInterceptor(std::shared_ptr<Interceptor>()), std::invalid_argument);
  EXPECT_THROW(builder.addNetworkInterceptor(std::function<Response(Interceptor::Chain&)>()),
               std::invalid_argument);
}

TEST(ClientTest, ProtocolsAreValidatedAndDeduplicated) {
  Client::Builder builder;
  EXPECT_EQ(builder.protocols({Protocol::HTTP_1_1, Protocol::HTTP_1_1}).build().protocols(),
            std::vector<Protocol>{Protocol::HTTP_1_1});
  try {
    builder.protocols({Protocol::HTTP_2});
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "protocols must contain h2_prior_knowledge, http/1.1, or be h3 alone: [h2]");
  }
  try {
    builder.protocols({Protocol::HTTP_1_1, Protocol::HTTP_1_0});
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "protocols must not contain http/1.0: [http/1.1, http/1.0]");
  }
  try {
    builder.protocols({Protocol::H2_PRIOR_KNOWLEDGE, Protocol::HTTP_1_1});
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "protocols containing h2_prior_knowledge cannot use other protocols: "
                 "[h2_prior_knowledge, http/1.1]");
  }
  EXPECT_EQ(builder.protocols({Protocol::H2_PRIOR_KNOWLEDGE}).build().protocols(),
            std::vector<Protocol>{Protocol::H2_PRIOR_KNOWLEDGE});
}

TEST(ClientTest, Http3StandsBesideTcpProtocolsWithHttp11AsTheFallback) {
  Client::Builder builder;
  EXPECT_EQ(builder.protocols({Protocol::HTTP_3, Protocol::HTTP_2, Protocol::HTTP_1_1})
                .build()
                .protocols(),
            (std::vector<Protocol>{Protocol::HTTP_3, Protocol::HTTP_2, Protocol::HTTP_1_1}));
  EXPECT_EQ(builder.protocols({Protocol::HTTP_1_1, Protocol::HTTP_3}).build().protocols(),
            (std::vector<Protocol>{Protocol::HTTP_1_1, Protocol::HTTP_3}));
  // Alone it means HTTP/3 only (curl's --http3-only).
  EXPECT_EQ(builder.protocols({Protocol::HTTP_3}).build().protocols(),
            (std::vector<Protocol>{Protocol::HTTP_3}));
  try {
    builder.protocols({Protocol::HTTP_3, Protocol::HTTP_2});
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "protocols must contain h2_prior_knowledge, http/1.1, or be h3 alone: [h3, h2]");
  }
  try {
    builder.protocols({Protocol::H2_PRIOR_KNOWLEDGE, Protocol::HTTP_3});
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "protocols containing h2_prior_knowledge cannot use other protocols: "
                 "[h2_prior_knowledge, h3]");
  }
}

TEST(ClientTest, AddingHttp3KeepsTheAddressSoTcpConnectionsAreShared) {
  Client client;
  Client withHttp3 = client.newBuilder()
                         .protocols({Protocol::HTTP_2, Protocol::HTTP_3, Protocol::HTTP_1_1})
                         .build();
  HttpUrl url = HttpUrl::get("https://example.com/");
  EXPECT_EQ(withHttp3.address(url), client.address(url));
  EXPECT_EQ(withHttp3.address(url).protocols(),
            (std::vector<Protocol>{Protocol::HTTP_2, Protocol::HTTP_3, Protocol::HTTP_1_1}));
  // Another TCP offer is another connection.
  Client http11 = client.newBuilder().protocols({Protocol::HTTP_1_1, Protocol::HTTP_3}).build();
  EXPECT_FALSE(http11.address(url) == client.address(url));
}

TEST(ClientTest, PingIntervalDefaultsToNoneAndIsValidated) {
  Client::Builder builder;
  EXPECT_EQ(builder.build().pingInterval(), std::chrono::milliseconds(0));
  EXPECT_EQ(builder.pingInterval(std::chrono::milliseconds(500)).build().pingIntervalMillis(), 500);
  EXPECT_THROW(builder.pingInterval(std::chrono::milliseconds(-1)), std::invalid_argument);
}

TEST(ClientTest, NewCallDoesNotRunTheCall) {
  Client client;
  std::shared_ptr<Call> call =
      client.newCall(Request::Builder().url("http://example.invalid/").build());
  EXPECT_FALSE(call->isExecuted());
  EXPECT_FALSE(call->isCanceled());
  EXPECT_EQ(call->request().url().toString(), "http://example.invalid/");
}

TEST(ClientTest, ConnectionPoolRejectsBadSettings) {
  EXPECT_THROW(ConnectionPool(-1), std::invalid_argument);
  EXPECT_THROW(ConnectionPool(5, 0s), std::invalid_argument);
  EXPECT_THROW(internal::ConnectionPoolAccess::over(nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace tern::testing
