// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// OkHttp 5.4's per-call overrides (Interceptor::Chain::withDns and the others), Call's typed tags
// and Call::addEventListener, through a Client and MockWebServer.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include <unistd.h>

#include "call/https_fixture.h"
#include "tern/cache.h"
#include "tern/connection_pool.h"
#include "tern/cookie_jar.h"
#include "tern/credentials.h"
#include "tern/dns.h"
#include "tern/in_memory_cookie_jar.h"
#include "tern/retry_policy.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;

std::shared_ptr<Dns> loopbackDns(std::shared_ptr<std::atomic<int>> lookups = nullptr) {
  return Dns::of([lookups](const std::string&) {
    if (lookups) ++*lookups;
    return std::vector<InetAddress>{InetAddress::loopbackIpv4()};
  });
}

// An application interceptor that proceeds through `override(chain)`'s chain.
std::shared_ptr<Interceptor> overriding(
    std::function<std::unique_ptr<Interceptor::Chain>(Interceptor::Chain&)> override) {
  return Interceptor::of(
      [override](Interceptor::Chain& chain) { return override(chain)->proceed(chain.request()); });
}

class ChainOverridesTest : public CallFixture {
 protected:
  // A URL on the server whose host only the overriding Dns knows.
  std::string madeUpUrl(std::string_view path = "/") {
    return "http://override.test:" + std::to_string(server.port()) + std::string(path);
  }
};

TEST_F(ChainOverridesTest, WithDnsResolvesForThatCallOnly) {
  auto lookups = std::make_shared<std::atomic<int>>(0);
  Client overridden = client.newBuilder()
                          .addInterceptor(overriding([&](Interceptor::Chain& chain) {
                            if (chain.request().header("X-Dns"))
                              return chain.withDns(loopbackDns(lookups));
                            return chain.withReadTimeout(5s);  // Unchanged for the others.
                          }))
                          .build();
  server.enqueue(body("found"));
  Request request = Request::Builder().url(madeUpUrl()).header("X-Dns", "1").build();
  EXPECT_EQ(overridden.newCall(request)->execute().body()->string(), "found");
  EXPECT_EQ(lookups->load(), 1);
  // The same client, the same host, without the override: the system resolver knows no such name,
  // and the connection the overridden call made is not reused for it.
  EXPECT_THROW(overridden.newCall(Request::Builder().url(madeUpUrl()).build())->execute(),
               UnknownHostException);
}

TEST_F(ChainOverridesTest, LaterInterceptorsSeeTheOverriddenClient) {
  auto dns = loopbackDns();
  std::shared_ptr<Dns> seen;
  Client overridden = client.newBuilder()
                          .addInterceptor(overriding([&](Interceptor::Chain& chain) {
                            EXPECT_EQ(chain.client().dns(), client.dns());
                            return chain.withDns(dns);
                          }))
                          .addInterceptor(Interceptor::of([&](Interceptor::Chain& chain) {
                            seen = chain.client().dns();
                            return chain.proceed(chain.request());
                          }))
                          .build();
  server.enqueue(body("ok"));
  EXPECT_EQ(overridden.newCall(Request::Builder().url(madeUpUrl()).build())->execute().code(), 200);
  EXPECT_EQ(seen, dns);
}

TEST_F(ChainOverridesTest, WithCookieJarKeepsAndSendsThatCallsCookies) {
  auto clientJar = std::make_shared<InMemoryCookieJar>();
  auto sessionJar = std::make_shared<InMemoryCookieJar>();
  Client overridden = client.newBuilder()
                          .cookieJar(clientJar)
                          .addInterceptor(overriding([&](Interceptor::Chain& chain) {
                            if (!chain.request().header("X-Session")) {
                              return chain.withReadTimeout(5s);
                            }
                            return chain.withCookieJar(sessionJar);
                          }))
                          .build();
  server.enqueue(MockResponse::Builder().addHeader("Set-Cookie", "s=1").body("a").build());
  server.enqueue(body("b"));
  server.enqueue(body("c"));
  auto session = [&] { return Request::Builder().url(server.url("/")).header("X-Session", "1"); };
  overridden.newCall(session().build())->execute().body()->string();
  overridden.newCall(session().build())->execute().body()->string();
  overridden.newCall(Request::Builder().url(server.url("/")).build())->execute().body()->string();
  EXPECT_EQ(sessionJar->cookies().size(), 1u);
  EXPECT_TRUE(clientJar->cookies().empty());
  server.takeRequest();
  EXPECT_EQ(server.takeRequest().headers().get("Cookie"), "s=1");
  EXPECT_EQ(server.takeRequest().headers().get("Cookie"), std::nullopt);
}

TEST_F(ChainOverridesTest, WithAuthenticatorAnswersThatCallsChallenges) {
  auto answered = std::make_shared<std::atomic<int>>(0);
  auto authenticator = Authenticator::of([answered](const Route*, const Response& response) {
    ++*answered;
    return std::optional<Request>(response.request()
                                      .newBuilder()
                                      .header("Authorization", Credentials::basic("u", "p"))
                                      .build());
  });
  Client overridden = client.newBuilder()
                          .addInterceptor(overriding([&](Interceptor::Chain& chain) {
                            return chain.withAuthenticator(authenticator);
                          }))
                          .build();
  server.enqueue(MockResponse::Builder().code(401).body("who?").build());
  server.enqueue(body("welcome"));
  EXPECT_EQ(overridden.newCall(get())->execute().body()->string(), "welcome");
  EXPECT_EQ(answered->load(), 1);
  // The client's own authenticator (none) still answers other calls.
  server.enqueue(MockResponse::Builder().code(401).body("who?").build());
  EXPECT_EQ(execute().code(), 401);
}

TEST_F(ChainOverridesTest, WithRetryPolicyRetriesThatCall) {
  Client overridden = client.newBuilder()
                          .addInterceptor(overriding([&](Interceptor::Chain& chain) {
                            return chain.withRetryPolicy(
                                RetryPolicy::Builder().initialDelay(10ms).jitter(0).build());
                          }))
                          .build();
  server.enqueue(MockResponse::Builder().code(503).body("busy").build());
  server.enqueue(body("ready"));
  EXPECT_EQ(overridden.newCall(get())->execute().body()->string(), "ready");
  server.enqueue(MockResponse::Builder().code(503).body("busy").build());
  EXPECT_EQ(execute().code(), 503);  // The client itself has no policy.
}

TEST_F(ChainOverridesTest, WithRetryOnConnectionFailureFalseFailsWhereTheClientRetries) {
  server.setDispatcher([](const RecordedRequest& request) {
    if (request.path() == "/stale") {
      return MockResponse::Builder()
          .body("seed")
          .socketPolicy(SocketPolicy::DisconnectAtEnd{})
          .build();
    }
    return MockResponse::Builder().body("fresh").build();
  });
  Client noRetries = client.newBuilder()
                         .addInterceptor(overriding([](Interceptor::Chain& chain) {
                           EXPECT_TRUE(chain.client().retryOnConnectionFailure());
                           return chain.withRetryOnConnectionFailure(false);
                         }))
                         .build();
  EXPECT_EQ(fetch("/stale"), "seed");
  std::this_thread::sleep_for(100ms);  // The server closes the pooled connection.
  EXPECT_THROW(noRetries.newCall(get("/next"))->execute(), IOException);
  EXPECT_EQ(fetch("/stale"), "seed");
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(fetch("/next"), "fresh");  // The client's own calls retry on a new connection.
}

TEST_F(ChainOverridesTest, WithCacheStoresInThatCache) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tern-chain-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  auto cache = std::make_shared<Cache>(dir, 1 << 20);
  Client overridden = client.newBuilder()
                          .addInterceptor(overriding(
                              [&](Interceptor::Chain& chain) { return chain.withCache(cache); }))
                          .build();
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("v1").build());
  EXPECT_EQ(overridden.newCall(get())->execute().body()->string(), "v1");
  EXPECT_EQ(overridden.newCall(get())->execute().body()->string(), "v1");  // From the cache.
  EXPECT_EQ(server.requestCount(), 1);
  EXPECT_EQ(cache->hitCount(), 1);
  server.enqueue(body("v2"));
  EXPECT_EQ(fetch(), "v2");  // The client has no cache.
  cache->deleteCache();
  std::filesystem::remove_all(dir);
}

TEST_F(ChainOverridesTest, WithProxySendsThatCallThroughIt) {
  MockWebServer proxy;
  proxy.enqueue(body("via proxy"));
  Client overridden = client.newBuilder()
                          .addInterceptor(overriding([&](Interceptor::Chain& chain) {
                            return chain.withProxy(Proxy::http(proxy.hostName(), proxy.port()));
                          }))
                          .build();
  Response response =
      overridden.newCall(Request::Builder().url("http://origin.test/page").build())->execute();
  EXPECT_EQ(response.body()->string(), "via proxy");
  EXPECT_EQ(proxy.takeRequest().requestLine(), "GET http://origin.test/page HTTP/1.1");
}

TEST_F(ChainOverridesTest, WithConnectionPoolKeepsThatCallsConnectionsApart) {
  auto separate = std::make_shared<ConnectionPool>();
  Client overridden = client.newBuilder()
                          .addInterceptor(overriding([&](Interceptor::Chain& chain) {
                            return chain.withConnectionPool(separate);
                          }))
                          .build();
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  server.enqueue(body("c"));
  EXPECT_EQ(overridden.newCall(get())->execute().body()->string(), "a");
  EXPECT_EQ(separate->connectionCount(), 1);
  EXPECT_EQ(client.connectionPool()->connectionCount(), 0);
  EXPECT_EQ(overridden.newCall(get())->execute().body()->string(), "b");  // Reused from there.
  EXPECT_EQ(fetch(), "c");  // The client's own calls make their own.
  EXPECT_EQ(client.connectionPool()->connectionCount(), 1);
  EXPECT_EQ(server.takeRequest().sequenceNumber(), 0);
  EXPECT_EQ(server.takeRequest().sequenceNumber(), 1);
  EXPECT_EQ(server.takeRequest().sequenceNumber(), 0);  // A new connection.
}

TEST_F(ChainOverridesTest, ProceedingAgainWithAnotherPoolLetsGoOfTheFirstConnection) {
  auto separate = std::make_shared<ConnectionPool>();
  Client twice = client.newBuilder()
                     .addInterceptor(Interceptor::of([&](Interceptor::Chain& chain) {
                       Response first = chain.proceed(chain.request());
                       first.body()->string();
                       return chain.withConnectionPool(separate)->proceed(chain.request());
                     }))
                     .build();
  server.enqueue(body("first"));
  server.enqueue(body("second"));
  EXPECT_EQ(twice.newCall(get())->execute().body()->string(), "second");
  EXPECT_EQ(client.connectionPool()->connectionCount(), 1);  // The first, back in its pool.
  EXPECT_EQ(separate->connectionCount(), 1);
}

TEST_F(ChainOverridesTest, NetworkInterceptorsCannotOverride) {
  Client c = client.newBuilder()
                 .addNetworkInterceptor(Interceptor::of([](Interceptor::Chain& chain) {
                   return chain.withDns(Dns::system())->proceed(chain.request());
                 }))
                 .build();
  server.enqueue(body("never"));
  try {
    c.newCall(get())->execute();
    FAIL() << "no exception";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "Dns can't be overridden in a network interceptor");
  }
}

TEST_F(ChainOverridesTest, NullOverridesAreRefusedByName) {
  Client c = client.newBuilder()
                 .addInterceptor(Interceptor::of([](Interceptor::Chain& chain) {
                   EXPECT_THROW(chain.withDns(nullptr), std::invalid_argument);
                   EXPECT_THROW(chain.withCookieJar(nullptr), std::invalid_argument);
                   EXPECT_THROW(chain.withAuthenticator(nullptr), std::invalid_argument);
                   EXPECT_THROW(chain.withHostnameVerifier(nullptr), std::invalid_argument);
                   EXPECT_THROW(chain.withConnectionPool(nullptr), std::invalid_argument);
                   return chain.proceed(chain.request());
                 }))
                 .build();
  server.enqueue(body("ok"));
  EXPECT_EQ(c.newCall(get())->execute().code(), 200);
}

class ChainTlsOverridesTest : public HttpsFixture {};

TEST_F(ChainTlsOverridesTest, WithHandshakeCertificatesTrustsForThatCallOnly) {
  // A client that trusts only the system's roots, which know nothing of the test root.
  Client untrusting = Client::Builder()
                          .connectTimeout(5s)
                          .readTimeout(5s)
                          .addInterceptor(overriding([&](Interceptor::Chain& chain) {
                            if (!chain.request().header("X-Trust"))
                              return chain.withReadTimeout(5s);
                            return chain.withHandshakeCertificates(certificates.clientTrust());
                          }))
                          .build();
  server.enqueue(body("secret"));
  Request trusted = Request::Builder().url(server.url("/")).header("X-Trust", "1").build();
  EXPECT_EQ(untrusting.newCall(trusted)->execute().body()->string(), "secret");
  // Without the override the call neither trusts the server nor reuses the trusted connection.
  EXPECT_NE(failureOf(untrusting, get()).find("SSLHandshakeException"), std::string::npos);
}

TEST_F(ChainTlsOverridesTest, WithCertificatePinnerAndHostnameVerifierRefuseForThatCall) {
  Client pinned = client.newBuilder()
                      .addInterceptor(overriding([](Interceptor::Chain& chain) {
                        return chain.withCertificatePinner(
                            CertificatePinner::Builder()
                                .add(chain.request().url().host(),
                                     {"sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="})
                                .build());
                      }))
                      .build();
  EXPECT_NE(failureOf(pinned, get()).find("Certificate pinning failure"), std::string::npos)
      << failureOf(pinned, get());
  Client refusing =
      client.newBuilder()
          .addInterceptor(overriding([](Interceptor::Chain& chain) {
            return chain.withHostnameVerifier(HostnameVerifier::of(
                [](std::string_view, const std::vector<Certificate>&) { return false; }));
          }))
          .build();
  EXPECT_NE(failureOf(refusing, get()).find("SSLPeerUnverifiedException"), std::string::npos);
  server.enqueue(body("fine"));
  EXPECT_EQ(fetch(), "fine");  // The client itself trusts the server.
}

// Typed tags.
struct TraceId {
  std::string value;
};
struct Attempts {
  int count = 0;
};

TEST_F(ChainOverridesTest, CallTagsStartAsTheRequestsAndGrow) {
  Request request = Request::Builder().url(server.url("/")).tag(TraceId{"abc"}).build();
  std::shared_ptr<Call> call = client.newCall(request);
  ASSERT_NE(call->tag<TraceId>(), nullptr);
  EXPECT_EQ(call->tag<TraceId>()->value, "abc");
  EXPECT_EQ(call->tag<Attempts>(), nullptr);
  std::shared_ptr<const Attempts> attempts = call->tag<Attempts>([] { return Attempts{3}; });
  EXPECT_EQ(attempts->count, 3);
  EXPECT_EQ(call->tag<Attempts>([] { return Attempts{9}; })->count, 3);  // Not computed again.
  EXPECT_EQ(call->tag<Attempts>(), attempts);
  EXPECT_THROW(call->tag<int>([]() -> int { throw std::runtime_error("no"); }), std::runtime_error);
  EXPECT_EQ(call->tag<int>(), nullptr);  // Nothing attached when computing threw.
  // A clone starts again from the request's tags.
  EXPECT_EQ(call->clone()->tag<Attempts>(), nullptr);
  EXPECT_EQ(call->clone()->tag<TraceId>()->value, "abc");
}

TEST_F(ChainOverridesTest, ConcurrentComputationsKeepOneValue) {
  std::shared_ptr<Call> call = client.newCall(get());
  std::atomic<int> next{0};
  std::vector<std::shared_ptr<const Attempts>> seen(8);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i) {
    threads.emplace_back(
        [&, i] { seen[i] = call->tag<Attempts>([&] { return Attempts{++next}; }); });
  }
  for (std::thread& t : threads) t.join();
  for (const auto& value : seen) EXPECT_EQ(value, seen[0]);
}

TEST_F(ChainOverridesTest, InterceptorsKeepPerCallStateInTags) {
  Client counting = client.newBuilder()
                        .addNetworkInterceptor(Interceptor::of([](Interceptor::Chain& chain) {
                          auto count = chain.call().tag<std::shared_ptr<std::atomic<int>>>(
                              [] { return std::make_shared<std::atomic<int>>(0); });
                          ++**count;
                          return chain.proceed(chain.request());
                        }))
                        .build();
  server.enqueue(MockResponse::Builder().code(302).addHeader("Location", "/b").body("").build());
  server.enqueue(body("b"));
  std::shared_ptr<Call> call = counting.newCall(get("/a"));
  EXPECT_EQ(call->execute().body()->string(), "b");
  EXPECT_EQ((*call->tag<std::shared_ptr<std::atomic<int>>>())->load(), 2);  // Two exchanges.
}

// addEventListener.
class NamesListener final : public EventListener {
 public:
  void callStart(Call&) override { add("callStart"); }
  void connectStart(Call&, const InetSocketAddress&) override { add("connectStart"); }
  void responseHeadersEnd(Call&, const Response&) override { add("responseHeadersEnd"); }
  void callEnd(Call&) override { add("callEnd"); }
  std::vector<std::string> names() {
    std::lock_guard lock(mutex_);
    return names_;
  }

 private:
  void add(std::string name) {
    std::lock_guard lock(mutex_);
    names_.push_back(std::move(name));
  }
  std::mutex mutex_;
  std::vector<std::string> names_;
};

TEST_F(ChainOverridesTest, AddedListenerHearsWhatComesAfter) {
  auto added = std::make_shared<NamesListener>();
  Client c = client.newBuilder()
                 .addInterceptor(Interceptor::of([&](Interceptor::Chain& chain) {
                   chain.call().addEventListener(added);  // After callStart.
                   return chain.proceed(chain.request());
                 }))
                 .build();
  server.enqueue(body("ok"));
  EXPECT_EQ(c.newCall(get())->execute().body()->string(), "ok");
  EXPECT_EQ(added->names(),
            (std::vector<std::string>{"connectStart", "responseHeadersEnd", "callEnd"}));
  // The client's listener (the fixture's recorder) still heard everything, callStart first.
  EXPECT_EQ(events->listener(0)->eventNames().front(), "callStart");
}

TEST_F(ChainOverridesTest, AddedListenerWorksWithoutAClientListener) {
  Client quiet = Client::Builder().connectTimeout(5s).readTimeout(5s).build();
  auto added = std::make_shared<NamesListener>();
  std::shared_ptr<Call> call = quiet.newCall(get());
  call->addEventListener(added);
  server.enqueue(body("ok"));
  EXPECT_EQ(call->execute().body()->string(), "ok");
  EXPECT_EQ(added->names(), (std::vector<std::string>{"callStart", "connectStart",
                                                      "responseHeadersEnd", "callEnd"}));
  EXPECT_THROW(call->addEventListener(nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace tern::testing
