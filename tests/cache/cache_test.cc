// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The response cache seen from calls, in the spirit of OkHttp's CacheTest: each test runs over
// HTTP/1.1 (cleartext) and HTTP/2 (TLS), against MockWebServer, with every call's events
// checked by RecordingEventListener and the cache in a temporary directory.
#include "tern/cache.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cache/cache_impl.h"
#include "io/gzip_sink.h"
#include "support/recording_event_listener.h"
#include "support/tls_certificates.h"
#include "tern/buffer.h"
#include "tern/client.h"
#include "tern/http_date.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;
using mockwebserver::SocketPolicy;

// An HTTP date `offset` from now.
std::string formatDate(std::chrono::seconds offset) {
  return formatHttpDate(std::chrono::system_clock::now() + offset);
}

std::filesystem::path newTempDirectory(const std::string& name) {
  static std::atomic<int> counter{0};
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("tern-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  return dir;
}

class CacheTest : public ::testing::TestWithParam<Protocol> {
 protected:
  CacheTest() {
    dir_ = newTempDirectory("cache-test");
    cache = std::make_shared<Cache>(dir_, std::numeric_limits<int64_t>::max());
    Client::Builder builder;
    builder.connectTimeout(5s).readTimeout(5s).writeTimeout(5s).eventListenerFactory(events).cache(
        cache);
    if (h2()) {
      server.useHttps(certificates.server());
      server.protocols({Protocol::HTTP_2, Protocol::HTTP_1_1});
      builder.handshakeCertificates(certificates.clientTrust());
    }
    client = builder.build();
  }

  ~CacheTest() override {
    events->checkAllCallsEnded();
    server.close();
    try {
      cache->deleteCache();
    } catch (const std::exception&) {
    }
    std::filesystem::remove_all(dir_);
  }

  bool h2() const { return GetParam() == Protocol::HTTP_2; }

  HttpUrl url(std::string_view path = "/") { return server.url(path); }
  Request get(std::string_view path = "/") { return Request::Builder().url(url(path)).build(); }
  Response execute(const Request& request) { return client.newCall(request)->execute(); }
  // Fetches `path` and reads its body.
  std::string fetch(std::string_view path = "/") { return execute(get(path)).body()->string(); }

  // The events of the call made `index`-th.
  std::vector<std::string> cacheEvents(size_t index) {
    std::vector<std::string> names;
    for (const std::string& name : events->listeners().at(index)->eventNames()) {
      if (name.starts_with("cache") || name == "satisfactionFailure") names.push_back(name);
    }
    return names;
  }

  // The second fetch of a URL whose first response is `response` with body "A": true if it was
  // served from the cache (the server saw one request), after checking the body.
  bool secondFetchIsCached(MockResponse::Builder response) {
    server.enqueue(response.body("A").build());
    server.enqueue(MockResponse::Builder().body("B").build());
    EXPECT_EQ(fetch(), "A");
    std::string second = fetch();
    return second == "A";
  }

  // OkHttp's assertCached: a response with `code`, Last-Modified and Expires, then a second
  // call to the same URL, which the server would answer with "B".
  void assertCached(bool shouldBeCached, int code) {
    SCOPED_TRACE("code " + std::to_string(code));
    std::string path = "/" + std::to_string(code);
    auto served = std::make_shared<std::atomic<int>>(0);
    server.setDispatcher([code, served](const RecordedRequest&) {
      if ((*served)++ > 0) return MockResponse::Builder().body("B").build();
      MockResponse::Builder response;
      response.code(code)
          .addHeader("Last-Modified", formatDate(-3600s))
          .addHeader("Expires", formatDate(3600s));
      if (code == 405) response.addHeader("Allow", "GET, HEAD");
      return response.body("ABCDE").build();
    });
    Response first = execute(get(path));
    EXPECT_EQ(first.code(), code);
    EXPECT_EQ(first.body()->string(), "ABCDE");
    Response second = execute(get(path));
    std::string body = second.body()->string();
    EXPECT_EQ(body, shouldBeCached ? "ABCDE" : "B");
    EXPECT_EQ(second.cacheResponse() != nullptr, shouldBeCached);
  }

  TestCertificates certificates;
  MockWebServer server;
  std::shared_ptr<Cache> cache;
  std::shared_ptr<RecordingEventListener::Factory> events =
      std::make_shared<RecordingEventListener::Factory>();
  Client client;

 private:
  std::filesystem::path dir_;
};

TEST_P(CacheTest, ResponseCachingByResponseCode) {
  for (int code : {200, 203, 300, 301, 404, 405, 410, 414, 501}) assertCached(true, code);
  // 408 is left out: the call retries it.
  for (int code : {201, 202, 400, 403, 406, 409, 500, 502, 503, 504}) {
    assertCached(false, code);
  }
}

TEST_P(CacheTest, FreshResponseIsServedWithoutTheNetwork) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .addHeader("Content-Type", "text/plain")
                     .body("ABC")
                     .build());
  EXPECT_EQ(fetch(), "ABC");
  Response cached = execute(get());
  EXPECT_EQ(cached.code(), 200);
  EXPECT_EQ(cached.header("Content-Type"), "text/plain");
  ASSERT_NE(cached.cacheResponse(), nullptr);
  EXPECT_EQ(cached.networkResponse(), nullptr);
  EXPECT_EQ(cached.request().url(), url());
  EXPECT_EQ(cached.body()->string(), "ABC");
  EXPECT_EQ(server.requestCount(), 1);
  EXPECT_EQ(cacheEvents(0), (std::vector<std::string>{"cacheMiss"}));
  EXPECT_EQ(cacheEvents(1), (std::vector<std::string>{"cacheHit"}));
  // A hit opens no connection.
  EXPECT_EQ(events->listeners().at(1)->eventNames(),
            (std::vector<std::string>{"callStart", "cacheHit", "followUpDecision", "callEnd"}));
  EXPECT_EQ(cache->requestCount(), 2);
  EXPECT_EQ(cache->networkCount(), 1);
  EXPECT_EQ(cache->hitCount(), 1);
  EXPECT_EQ(cache->writeSuccessCount(), 1);
}

TEST_P(CacheTest, MissComesBeforeTheConnection) {
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("A").build());
  EXPECT_EQ(fetch(), "A");
  std::vector<std::string> names = events->listeners().at(0)->eventNames();
  auto miss = std::find(names.begin(), names.end(), "cacheMiss");
  auto acquired = std::find(names.begin(), names.end(), "connectionAcquired");
  ASSERT_NE(miss, names.end());
  ASSERT_NE(acquired, names.end());
  EXPECT_LT(miss, acquired);
}

TEST_P(CacheTest, CachedResponseKeepsTheHandshake) {
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("A").build());
  Response first = execute(get());
  std::optional<Handshake> handshake = first.handshake();
  EXPECT_EQ(first.body()->string(), "A");
  Response second = execute(get());
  EXPECT_EQ(second.body()->string(), "A");
  ASSERT_NE(second.cacheResponse(), nullptr);
  EXPECT_EQ(second.handshake().has_value(), h2());
  if (h2()) {
    EXPECT_EQ(second.handshake()->cipherSuite(), handshake->cipherSuite());
    EXPECT_EQ(second.handshake()->tlsVersion(), handshake->tlsVersion());
    EXPECT_EQ(second.handshake()->peerCertificates().size(), handshake->peerCertificates().size());
  }
}

TEST_P(CacheTest, ChunkedBodyIsCached) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .chunkedBody("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 5)
                     .build());
  EXPECT_EQ(fetch(), "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
  EXPECT_EQ(fetch(), "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_P(CacheTest, LargeBodyIsCached) {
  std::string body(3 * 1024 * 1024 + 7, 'x');
  for (size_t i = 0; i < body.size(); i += 4096) body[i] = static_cast<char>('a' + (i / 4096) % 26);
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body(body).build());
  EXPECT_EQ(fetch(), body);
  Response cached = execute(get());
  EXPECT_EQ(cached.body()->contentLength(), static_cast<int64_t>(body.size()));
  EXPECT_EQ(cached.body()->string(), body);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_P(CacheTest, BodyClosedNearItsEndIsFinishedAndStored) {
  // As OkHttp: closing a body the cache is writing reads what is left for up to 100 ms.
  std::string body(64 * 1024, 'x');
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body(body).build());
  {
    Response response = execute(get());
    Buffer some;
    response.body()->source().read(some, 10);
  }  // Closed unread.
  EXPECT_EQ(cache->writeSuccessCount(), 1);
  EXPECT_EQ(fetch(), body);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_P(CacheTest, SlowBodyClosedBeforeItsEndIsNotStored) {
  std::string body(64 * 1024, 'x');
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .body(body)
                     .throttleBody(1024, 100ms)
                     .build());
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("B").build());
  {
    Response response = execute(get());
    Buffer some;
    response.body()->source().read(some, 10);
  }
  EXPECT_EQ(cache->writeAbortCount(), 1);
  EXPECT_EQ(cache->writeSuccessCount(), 0);
  EXPECT_EQ(fetch(), "B");
  EXPECT_EQ(fetch(), "B");
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_P(CacheTest, ConditionalCacheHitWithEtag) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("ETag", "\"v1\"")
                     .addHeader("Cache-Control", "max-age=0")
                     .addHeader("X-Version", "1")
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder()
                     .code(304)
                     .addHeader("ETag", "\"v1\"")
                     .addHeader("X-Version", "2")
                     .build());
  EXPECT_EQ(fetch(), "A");
  Response second = execute(get());
  EXPECT_EQ(second.code(), 200);
  EXPECT_EQ(second.header("X-Version"), "2");
  ASSERT_NE(second.cacheResponse(), nullptr);
  ASSERT_NE(second.networkResponse(), nullptr);
  EXPECT_EQ(second.networkResponse()->code(), 304);
  EXPECT_EQ(second.body()->string(), "A");
  server.takeRequest();
  RecordedRequest conditional = server.takeRequest();
  EXPECT_EQ(conditional.headers().get("If-None-Match"), "\"v1\"");
  EXPECT_EQ(cacheEvents(1), (std::vector<std::string>{"cacheConditionalHit", "cacheHit"}));
  EXPECT_EQ(cache->hitCount(), 1);
  EXPECT_EQ(cache->networkCount(), 2);
}

TEST_P(CacheTest, ConditionalCacheHitUpdatesTheStoredHeaders) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Last-Modified", formatDate(-3600s))
                     .addHeader("Cache-Control", "max-age=0")
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder()
                     .code(304)
                     .addHeader("Cache-Control", "max-age=60")
                     .addHeader("X-Updated", "yes")
                     .build());
  EXPECT_EQ(fetch(), "A");
  EXPECT_EQ(fetch(), "A");
  // Fresh now, with the 304's headers.
  Response third = execute(get());
  EXPECT_EQ(third.header("X-Updated"), "yes");
  EXPECT_EQ(third.networkResponse(), nullptr);
  EXPECT_EQ(third.body()->string(), "A");
  EXPECT_EQ(server.requestCount(), 2);
  server.takeRequest();
  EXPECT_TRUE(server.takeRequest().headers().get("If-Modified-Since").has_value());
}

TEST_P(CacheTest, ConditionalMissReplacesTheEntry) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("ETag", "\"v1\"")
                     .addHeader("Cache-Control", "max-age=0")
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder()
                     .addHeader("ETag", "\"v2\"")
                     .addHeader("Cache-Control", "max-age=60")
                     .body("B")
                     .build());
  EXPECT_EQ(fetch(), "A");
  Response second = execute(get());
  ASSERT_NE(second.cacheResponse(), nullptr);  // It was validated...
  ASSERT_NE(second.networkResponse(), nullptr);
  EXPECT_EQ(second.networkResponse()->code(), 200);  // ...and replaced.
  EXPECT_EQ(second.body()->string(), "B");
  EXPECT_EQ(fetch(), "B");
  EXPECT_EQ(server.requestCount(), 2);
  EXPECT_EQ(cacheEvents(1), (std::vector<std::string>{"cacheConditionalHit", "cacheMiss"}));
}

TEST_P(CacheTest, DefaultExpirationDateFullyCachedForLessThan24Hours) {
  //      last modified: 105 seconds ago
  //             served:   5 seconds ago
  //   default lifetime: (105 - 5) / 10 = 10 seconds
  //            expires:  10 seconds from served date = 5 seconds from now
  EXPECT_TRUE(secondFetchIsCached(std::move(MockResponse::Builder()
                                                .addHeader("Last-Modified", formatDate(-105s))
                                                .addHeader("Date", formatDate(-5s)))));
}

TEST_P(CacheTest, DefaultExpirationDateConditionallyCached) {
  //      last modified: 115 seconds ago
  //             served:  15 seconds ago
  //   default lifetime: (115 - 15) / 10 = 10 seconds
  //            expires:  10 seconds from served date = 5 seconds ago
  std::string lastModified = formatDate(-115s);
  server.enqueue(MockResponse::Builder()
                     .addHeader("Last-Modified", lastModified)
                     .addHeader("Date", formatDate(-15s))
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().code(304).build());
  EXPECT_EQ(fetch(), "A");
  EXPECT_EQ(fetch(), "A");
  server.takeRequest();
  EXPECT_EQ(server.takeRequest().headers().get("If-Modified-Since"), lastModified);
}

TEST_P(CacheTest, NoDefaultExpirationForUrlsWithQueryString) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Last-Modified", formatDate(-105s))
                     .addHeader("Date", formatDate(-5s))
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().body("B").build());
  EXPECT_EQ(fetch("/?foo=bar"), "A");
  EXPECT_EQ(fetch("/?foo=bar"), "B");
}

TEST_P(CacheTest, ExpirationDateInThePastWithLastModifiedIsValidated) {
  std::string lastModified = formatDate(-3600s);
  server.enqueue(MockResponse::Builder()
                     .addHeader("Last-Modified", lastModified)
                     .addHeader("Expires", formatDate(-3600s))
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().code(304).build());
  EXPECT_EQ(fetch(), "A");
  EXPECT_EQ(fetch(), "A");
  server.takeRequest();
  EXPECT_EQ(server.takeRequest().headers().get("If-Modified-Since"), lastModified);
}

TEST_P(CacheTest, ExpirationDateInTheFuture) {
  EXPECT_TRUE(secondFetchIsCached(
      std::move(MockResponse::Builder().addHeader("Expires", formatDate(3600s)))));
}

TEST_P(CacheTest, MaxAgeInThePastWithDateAndLastModifiedIsValidated) {
  std::string lastModified = formatDate(-7200s);
  server.enqueue(MockResponse::Builder()
                     .addHeader("Date", formatDate(-120s))
                     .addHeader("Last-Modified", lastModified)
                     .addHeader("Cache-Control", "max-age=60")
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().code(304).build());
  EXPECT_EQ(fetch(), "A");
  EXPECT_EQ(fetch(), "A");
  server.takeRequest();
  EXPECT_EQ(server.takeRequest().headers().get("If-Modified-Since"), lastModified);
}

TEST_P(CacheTest, MaxAgeInTheFutureWithDate) {
  EXPECT_TRUE(secondFetchIsCached(std::move(MockResponse::Builder()
                                                .addHeader("Date", formatDate(0s))
                                                .addHeader("Cache-Control", "max-age=60"))));
}

TEST_P(CacheTest, MaxAgePreferredOverLowerExpires) {
  EXPECT_TRUE(secondFetchIsCached(std::move(MockResponse::Builder()
                                                .addHeader("Date", formatDate(-120s))
                                                .addHeader("Expires", formatDate(-60s))
                                                .addHeader("Cache-Control", "max-age=180"))));
}

TEST_P(CacheTest, MaxAgePreferredOverHigherExpires) {
  EXPECT_FALSE(secondFetchIsCached(std::move(MockResponse::Builder()
                                                 .addHeader("Date", formatDate(-120s))
                                                 .addHeader("Expires", formatDate(3600s))
                                                 .addHeader("Cache-Control", "max-age=60"))));
}

TEST_P(CacheTest, SharedMaxAgeIsIgnoredByAPrivateCache) {
  EXPECT_FALSE(secondFetchIsCached(std::move(MockResponse::Builder()
                                                 .addHeader("Date", formatDate(-120s))
                                                 .addHeader("Cache-Control", "s-maxage=180"))));
}

TEST_P(CacheTest, AgeHeaderCountsAgainstFreshness) {
  EXPECT_FALSE(secondFetchIsCached(std::move(
      MockResponse::Builder().addHeader("Age", "120").addHeader("Cache-Control", "max-age=60"))));
}

TEST_P(CacheTest, NoStoreResponseIsNotCached) {
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "no-store, max-age=60").body("A").build());
  server.enqueue(MockResponse::Builder().body("B").build());
  EXPECT_EQ(fetch(), "A");
  EXPECT_EQ(cache->writeSuccessCount(), 0);
  EXPECT_EQ(cache->writeAbortCount(), 0);
  EXPECT_EQ(fetch(), "B");
}

TEST_P(CacheTest, NoStoreRequestIsNotCached) {
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("A").build());
  server.enqueue(MockResponse::Builder().body("B").build());
  Request request = Request::Builder().url(url()).header("Cache-Control", "no-store").build();
  EXPECT_EQ(execute(request).body()->string(), "A");
  EXPECT_EQ(fetch(), "B");
}

TEST_P(CacheTest, NoCacheResponseIsValidated) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "no-cache, max-age=60")
                     .addHeader("ETag", "\"a\"")
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().code(304).build());
  EXPECT_EQ(fetch(), "A");
  EXPECT_EQ(fetch(), "A");
  server.takeRequest();
  EXPECT_EQ(server.takeRequest().headers().get("If-None-Match"), "\"a\"");
}

TEST_P(CacheTest, PragmaNoCacheRequestGoesToTheNetworkUnconditionally) {
  // As OkHttp: a request's no-cache (or Pragma: no-cache) skips the cache for this call; the
  // response it gets is stored.
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .addHeader("ETag", "\"a\"")
                     .body("A")
                     .build());
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("B").build());
  EXPECT_EQ(fetch(), "A");
  Request request = Request::Builder().url(url()).header("Pragma", "no-cache").build();
  EXPECT_EQ(execute(request).body()->string(), "B");
  server.takeRequest();
  EXPECT_FALSE(server.takeRequest().headers().get("If-None-Match").has_value());
  EXPECT_EQ(fetch(), "B");
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_P(CacheTest, RequestMaxAgeZeroValidates) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .addHeader("ETag", "\"a\"")
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().code(304).build());
  EXPECT_EQ(fetch(), "A");
  Request request = Request::Builder()
                        .url(url())
                        .cacheControl(CacheControl::Builder().maxAge(0s).build())
                        .build();
  EXPECT_EQ(execute(request).body()->string(), "A");
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_P(CacheTest, RequestMinFresh) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .addHeader("Date", formatDate(0s))
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().body("B").build());
  EXPECT_EQ(fetch(), "A");
  Request request = Request::Builder()
                        .url(url())
                        .cacheControl(CacheControl::Builder().minFresh(120s).build())
                        .build();
  EXPECT_EQ(execute(request).body()->string(), "B");
}

TEST_P(CacheTest, RequestMaxStaleServesStale) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=120")
                     .addHeader("Date", formatDate(-240s))
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().body("B").build());
  EXPECT_EQ(fetch(), "A");
  Request request = Request::Builder()
                        .url(url())
                        .cacheControl(CacheControl::Builder().maxStale(180s).build())
                        .build();
  Response response = execute(request);
  EXPECT_EQ(response.body()->string(), "A");
  EXPECT_EQ(response.networkResponse(), nullptr);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_P(CacheTest, RequestMaxStaleNotHonoredWithMustRevalidate) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=120, must-revalidate")
                     .addHeader("Date", formatDate(-240s))
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().body("B").build());
  EXPECT_EQ(fetch(), "A");
  Request request = Request::Builder()
                        .url(url())
                        .cacheControl(CacheControl::Builder().maxStale(180s).build())
                        .build();
  EXPECT_EQ(execute(request).body()->string(), "B");
}

TEST_P(CacheTest, OnlyIfCachedWithNoEntryIs504) {
  Request request = Request::Builder().url(url()).cacheControl(CacheControl::forceCache()).build();
  Response response = execute(request);
  EXPECT_EQ(response.code(), 504);
  EXPECT_EQ(response.message(), "Unsatisfiable Request (only-if-cached)");
  EXPECT_EQ(response.body()->string(), "");
  EXPECT_EQ(server.requestCount(), 0);
  EXPECT_EQ(events->listeners().at(0)->eventNames(),
            (std::vector<std::string>{"callStart", "satisfactionFailure", "followUpDecision",
                                      "callEnd"}));
}

TEST_P(CacheTest, OnlyIfCachedWithFreshEntryIsAHit) {
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("A").build());
  EXPECT_EQ(fetch(), "A");
  Request request = Request::Builder().url(url()).cacheControl(CacheControl::forceCache()).build();
  EXPECT_EQ(execute(request).body()->string(), "A");
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_P(CacheTest, OnlyIfCachedWithStaleEntryIs504) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .addHeader("Date", formatDate(-120s))
                     .body("A")
                     .build());
  EXPECT_EQ(fetch(), "A");
  Request request = Request::Builder()
                        .url(url())
                        .cacheControl(CacheControl::Builder().onlyIfCached().build())
                        .build();
  EXPECT_EQ(execute(request).code(), 504);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_P(CacheTest, ForceCacheServesStaleEntries) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .addHeader("Date", formatDate(-120s))
                     .body("A")
                     .build());
  EXPECT_EQ(fetch(), "A");
  Request request = Request::Builder().url(url()).cacheControl(CacheControl::forceCache()).build();
  EXPECT_EQ(execute(request).body()->string(), "A");
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_P(CacheTest, RequestWithOwnConditionsBypassesTheCache) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .addHeader("ETag", "\"a\"")
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().code(304).build());
  EXPECT_EQ(fetch(), "A");
  Request request = Request::Builder().url(url()).header("If-None-Match", "\"a\"").build();
  Response response = execute(request);
  EXPECT_EQ(response.code(), 304);  // The caller asked, the caller gets the 304.
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_P(CacheTest, VaryMatchesTheRequest) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .addHeader("Vary", "Accept-Language")
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().body("B").build());
  Request fr = Request::Builder().url(url()).header("Accept-Language", "fr-CA").build();
  EXPECT_EQ(execute(fr).body()->string(), "A");
  EXPECT_EQ(execute(fr).body()->string(), "A");
  Request en = Request::Builder().url(url()).header("Accept-Language", "en-US").build();
  EXPECT_EQ(execute(en).body()->string(), "B");
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_P(CacheTest, VaryOnAbsentHeader) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .addHeader("Vary", "Foo")
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().body("B").build());
  EXPECT_EQ(fetch(), "A");
  EXPECT_EQ(fetch(), "A");
  Request withFoo = Request::Builder().url(url()).header("Foo", "bar").build();
  EXPECT_EQ(execute(withFoo).body()->string(), "B");
}

TEST_P(CacheTest, VaryAsteriskIsNeverCached) {
  EXPECT_FALSE(secondFetchIsCached(std::move(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").addHeader("Vary", "*"))));
}

TEST_P(CacheTest, PartialContentIsNotCached) {
  server.enqueue(MockResponse::Builder()
                     .code(206)
                     .addHeader("Cache-Control", "max-age=60")
                     .addHeader("Content-Range", "bytes 0-0/2")
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().body("AB").build());
  Request range = Request::Builder().url(url()).header("Range", "bytes=0-0").build();
  EXPECT_EQ(execute(range).body()->string(), "A");
  EXPECT_EQ(fetch(), "AB");
}

TEST_P(CacheTest, PostIsNotCachedAndInvalidates) {
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("A").build());
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("B").build());
  server.enqueue(MockResponse::Builder().body("C").build());
  EXPECT_EQ(fetch(), "A");
  Request post = Request::Builder().url(url()).post(RequestBody::create("x")).build();
  EXPECT_EQ(execute(post).body()->string(), "B");
  EXPECT_EQ(fetch(), "C");
  EXPECT_EQ(server.requestCount(), 3);
}

TEST_P(CacheTest, PutAndDeleteInvalidate) {
  for (const char* method : {"PUT", "DELETE", "PATCH"}) {
    SCOPED_TRACE(method);
    server.enqueue(
        MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("A").build());
    server.enqueue(MockResponse::Builder().body("done").build());
    server.enqueue(MockResponse::Builder().body("C").build());
    EXPECT_EQ(fetch(), "A");
    Request unsafe = Request::Builder().url(url()).method(method, RequestBody::create("x")).build();
    EXPECT_EQ(execute(unsafe).body()->string(), "done");
    EXPECT_EQ(fetch(), "C");
  }
}

TEST_P(CacheTest, FailedUnsafeMethodDoesNotInvalidate) {
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("A").build());
  server.enqueue(MockResponse::Builder().code(500).body("error").build());
  EXPECT_EQ(fetch(), "A");
  Request post = Request::Builder().url(url()).post(RequestBody::create("x")).build();
  EXPECT_EQ(execute(post).code(), 500);
  EXPECT_EQ(fetch(), "A");
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_P(CacheTest, UnsafeMethodInvalidatesSameOriginLocationAndContentLocation) {
  for (std::string path : {"/a", "/b"}) {
    server.enqueue(
        MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("old").build());
    EXPECT_EQ(fetch(path), "old");
  }
  server.enqueue(MockResponse::Builder()
                     .code(201)
                     .addHeader("Location", "/a")
                     .addHeader("Content-Location", url("/b").toString())
                     .body("created")
                     .build());
  server.enqueue(MockResponse::Builder().body("new a").build());
  server.enqueue(MockResponse::Builder().body("new b").build());
  Request post = Request::Builder().url(url("/list")).post(RequestBody::create("x")).build();
  EXPECT_EQ(execute(post).body()->string(), "created");
  EXPECT_EQ(fetch("/a"), "new a");
  EXPECT_EQ(fetch("/b"), "new b");
}

TEST_P(CacheTest, CrossOriginLocationIsNotInvalidated) {
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("A").build());
  EXPECT_EQ(fetch("/a"), "A");
  server.enqueue(MockResponse::Builder()
                     .code(201)
                     .addHeader("Location", "http://other.example/a")
                     .body("created")
                     .build());
  Request post = Request::Builder().url(url("/list")).post(RequestBody::create("x")).build();
  EXPECT_EQ(execute(post).body()->string(), "created");
  EXPECT_EQ(fetch("/a"), "A");
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_P(CacheTest, HeadIsNotCached) {
  server.enqueue(MockResponse::Builder().addHeader("Cache-Control", "max-age=60").build());
  server.enqueue(MockResponse::Builder().addHeader("Cache-Control", "max-age=60").build());
  Request head = Request::Builder().url(url()).head().build();
  execute(head).body()->close();
  execute(head).body()->close();
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_P(CacheTest, GzipBodyIsStoredAsReceivedAndDecodedOnEveryHit) {
  Buffer gzipped;
  {
    internal::GzipSink sink(gzipped);
    Buffer in;
    in.writeUtf8("ABCABCABC");
    sink.write(in, in.size());
    sink.close();
  }
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .addHeader("Content-Encoding", "gzip")
                     .body(gzipped)
                     .build());
  EXPECT_EQ(fetch(), "ABCABCABC");
  Response cached = execute(get());
  EXPECT_EQ(cached.header("Content-Encoding"), std::nullopt);
  EXPECT_EQ(cached.body()->string(), "ABCABCABC");
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_P(CacheTest, RedirectIsCached) {
  server.enqueue(MockResponse::Builder()
                     .code(301)
                     .addHeader("Cache-Control", "max-age=60")
                     .addHeader("Location", "/target")
                     .body("moved")
                     .build());
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("T").build());
  EXPECT_EQ(fetch("/start"), "T");
  EXPECT_EQ(fetch("/start"), "T");
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_P(CacheTest, CacheUrlOverrideCachesAPost) {
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("A").build());
  server.enqueue(MockResponse::Builder().body("B").build());
  auto post = [&] {
    return Request::Builder()
        .url(url("/graphql"))
        .post(RequestBody::create("{query}"))
        .cacheUrlOverride(url("/graphql?q=query"))
        .build();
  };
  EXPECT_EQ(execute(post()).body()->string(), "A");
  EXPECT_EQ(execute(post()).body()->string(), "A");
  EXPECT_EQ(server.requestCount(), 1);
  EXPECT_EQ(server.takeRequest().method(), "POST");
  // A GET of the override URL finds it too.
  EXPECT_EQ(fetch("/graphql?q=query"), "A");
}

TEST_P(CacheTest, StaleWhileRevalidateServesStaleAndRevalidatesInTheBackground) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=1, stale-while-revalidate=600")
                     .addHeader("Date", formatDate(-60s))
                     .addHeader("ETag", "\"v1\"")
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder()
                     .code(304)
                     .addHeader("Cache-Control", "max-age=600")
                     .addHeader("X-Revalidated", "yes")
                     .build());
  EXPECT_EQ(fetch(), "A");
  Response stale = execute(get());
  EXPECT_EQ(stale.body()->string(), "A");
  EXPECT_EQ(stale.networkResponse(), nullptr);
  RecordedRequest revalidation = server.takeRequest();  // The first fetch.
  revalidation = server.takeRequest();
  EXPECT_EQ(revalidation.headers().get("If-None-Match"), "\"v1\"");
  // Once the background call stored the 304's headers, the entry is fresh.
  for (int i = 0; i < 200; ++i) {
    Request cacheOnly =
        Request::Builder().url(url()).cacheControl(CacheControl::forceCache()).build();
    if (execute(cacheOnly).header("X-Revalidated")) break;
    std::this_thread::sleep_for(10ms);
  }
  Response fresh = execute(get());
  EXPECT_EQ(fresh.header("X-Revalidated"), "yes");
  EXPECT_EQ(fresh.body()->string(), "A");
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_P(CacheTest, StaleWhileRevalidateOutsideItsWindowValidatesFirst) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=1, stale-while-revalidate=10")
                     .addHeader("Date", formatDate(-60s))
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().body("B").build());
  EXPECT_EQ(fetch(), "A");
  EXPECT_EQ(fetch(), "B");
}

TEST_P(CacheTest, StaleIfErrorServesStaleForA5xx) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=1, stale-if-error=600")
                     .addHeader("Date", formatDate(-60s))
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().code(503).body("down").build());
  EXPECT_EQ(fetch(), "A");
  Response response = execute(get());
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "A");
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_P(CacheTest, StaleIfErrorServesStaleWhenTheNetworkFails) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=1, stale-if-error=600")
                     .addHeader("Date", formatDate(-60s))
                     .body("A")
                     .build());
  EXPECT_EQ(fetch(), "A");
  server.close();
  Response response = execute(get());
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "A");
}

TEST_P(CacheTest, WithoutStaleIfErrorA5xxIsTheAnswer) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=1")
                     .addHeader("Date", formatDate(-60s))
                     .body("A")
                     .build());
  server.enqueue(MockResponse::Builder().code(503).body("down").build());
  EXPECT_EQ(fetch(), "A");
  Response response = execute(get());
  EXPECT_EQ(response.code(), 503);
  EXPECT_EQ(response.body()->string(), "down");
}

TEST_P(CacheTest, UrlsIteratesAndRemoves) {
  for (std::string path : {"/a", "/b"}) {
    server.enqueue(
        MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("x").build());
    EXPECT_EQ(fetch(path), "x");
  }
  Cache::UrlIterator urls = cache->urls();
  ASSERT_TRUE(urls.hasNext());
  EXPECT_EQ(urls.next(), url("/a").toString());
  urls.remove();
  EXPECT_THROW(urls.remove(), std::logic_error);
  ASSERT_TRUE(urls.hasNext());
  EXPECT_EQ(urls.next(), url("/b").toString());
  EXPECT_FALSE(urls.hasNext());
  EXPECT_THROW(urls.next(), std::out_of_range);
  server.enqueue(MockResponse::Builder().body("refetched").build());
  EXPECT_EQ(fetch("/a"), "refetched");
  EXPECT_EQ(fetch("/b"), "x");
}

TEST_P(CacheTest, EvictAllAndRemove) {
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("A").build());
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("B").build());
  server.enqueue(MockResponse::Builder().body("C").build());
  EXPECT_EQ(fetch(), "A");
  EXPECT_GT(cache->size(), 0);
  EXPECT_TRUE(cache->remove(get()));
  EXPECT_FALSE(cache->remove(get()));
  EXPECT_EQ(fetch(), "B");
  cache->evictAll();
  EXPECT_EQ(cache->size(), 0);
  EXPECT_EQ(fetch(), "C");
}

TEST_P(CacheTest, ClosedCacheGoesToTheNetwork) {
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("A").build());
  server.enqueue(MockResponse::Builder().body("B").build());
  EXPECT_EQ(fetch(), "A");
  cache->close();
  EXPECT_TRUE(cache->isClosed());
  EXPECT_EQ(fetch(), "B");
}

TEST_P(CacheTest, CacheSurvivesAReopen) {
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("A").build());
  EXPECT_EQ(fetch(), "A");
  std::filesystem::path dir = cache->directory();
  cache->close();
  auto reopened = std::make_shared<Cache>(dir, std::numeric_limits<int64_t>::max());
  Client other = client.newBuilder().cache(reopened).build();
  EXPECT_EQ(other.newCall(get())->execute().body()->string(), "A");
  EXPECT_EQ(server.requestCount(), 1);
  reopened->close();
}

TEST_P(CacheTest, SecondCacheOnTheSameDirectoryFailsClearlyAndCallsStillWork) {
  server.enqueue(
      MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body("A").build());
  server.enqueue(MockResponse::Builder().body("B").build());
  EXPECT_EQ(fetch(), "A");
  auto second = std::make_shared<Cache>(cache->directory(), 1024 * 1024);
  try {
    second->initialize();
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_NE(std::string(e.what()).find("Cache already open at"), std::string::npos) << e.what();
  }
  Client other = client.newBuilder().cache(second).build();
  EXPECT_EQ(other.newCall(get())->execute().body()->string(), "B");
}

// A body of `size` bytes that is not the same byte repeated, so a misplaced range shows.
std::string patternedBody(size_t size) {
  std::string body(size, '\0');
  for (size_t i = 0; i < size; ++i) body[i] = static_cast<char>('a' + (i * 7 + i / 1024) % 26);
  return body;
}

TEST_P(CacheTest, ConcurrentIdenticalGetsShareOneFetch) {
  const std::string body = patternedBody(256 * 1024);
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .body(body)
                     .throttleBody(32 * 1024, 20ms)
                     .build());
  constexpr int kCallers = 50;
  std::vector<std::string> bodies(kCallers);
  std::vector<std::string> failures(kCallers);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kCallers; ++i) {
    threads.emplace_back([&, i] {
      ++ready;
      while (ready < kCallers) std::this_thread::yield();
      try {
        bodies[i] = execute(get()).body()->string();
      } catch (const std::exception& e) {
        failures[i] = e.what();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int i = 0; i < kCallers; ++i) {
    EXPECT_EQ(failures[i], "") << "caller " << i;
    EXPECT_TRUE(bodies[i] == body) << "caller " << i << " read " << bodies[i].size() << " bytes";
  }
  EXPECT_EQ(server.requestCount(), 1);
  EXPECT_EQ(cache->requestCount(), kCallers);
  EXPECT_EQ(cache->networkCount(), 1);
  EXPECT_EQ(cache->hitCount(), kCallers - 1);
  EXPECT_EQ(cache->writeSuccessCount(), 1);
  // Every caller but the leader was served without a connection.
  int withConnection = 0;
  for (const auto& listener : events->listeners()) {
    if (listener->count("connectionAcquired") > 0) ++withConnection;
  }
  EXPECT_EQ(withConnection, 1);
}

TEST_P(CacheTest, AFollowerThatCancelsAffectsNoOther) {
  const std::string body = patternedBody(128 * 1024);
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .body(body)
                     .throttleBody(16 * 1024, 20ms)
                     .build());
  Response leader = execute(get());
  std::shared_ptr<Call> followerCall = client.newCall(get());
  Response follower = followerCall->execute();
  ASSERT_NE(follower.cacheResponse(), nullptr);
  Buffer some;
  follower.body()->source().read(some, 1);
  followerCall->cancel();
  EXPECT_THROW(follower.body()->string(), IOException);
  EXPECT_TRUE(leader.body()->string() == body);
  EXPECT_EQ(server.requestCount(), 1);
  EXPECT_EQ(fetch(), body);  // Stored.
}

TEST_P(CacheTest, ALeaderThatCancelsAffectsNoOther) {
  const std::string body = patternedBody(128 * 1024);
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .body(body)
                     .throttleBody(16 * 1024, 20ms)
                     .build());
  std::shared_ptr<Call> leaderCall = client.newCall(get());
  Response leader = leaderCall->execute();
  Response follower = execute(get());
  ASSERT_NE(follower.cacheResponse(), nullptr);
  Buffer some;
  leader.body()->source().read(some, 1);
  leaderCall->cancel();
  try {
    leader.body()->string();
    FAIL() << "expected the canceled leader's read to fail";
  } catch (const IOException& e) {
    EXPECT_EQ(std::string(e.what()), "Canceled");
  }
  EXPECT_TRUE(follower.body()->string() == body);
  EXPECT_EQ(server.requestCount(), 1);
  EXPECT_EQ(fetch(), body);
}

TEST_P(CacheTest, ALateJoinerReadsTheBodyFromItsStart) {
  const std::string body = patternedBody(512 * 1024);
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .body(body)
                     .throttleBody(64 * 1024, 20ms)
                     .build());
  Response leader = execute(get());
  Buffer first;
  while (first.size() < 300 * 1024) leader.body()->source().read(first, 64 * 1024);
  Response late = execute(get());
  EXPECT_TRUE(late.body()->string() == body);
  while (leader.body()->source().read(first, 64 * 1024) != -1) {
  }
  EXPECT_TRUE(first.readUtf8() == body);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_P(CacheTest, GetsWithOtherHeadersAreNotCollapsed) {
  server.setDispatcher([](const RecordedRequest& request) {
    return MockResponse::Builder()
        .addHeader("Cache-Control", "max-age=60")
        .addHeader("Vary", "Accept-Language")
        .body(request.headers().get("Accept-Language").value_or("none"))
        .throttleBody(1, 50ms)
        .build();
  });
  Request fr = Request::Builder().url(url()).header("Accept-Language", "fr").build();
  Request de = Request::Builder().url(url()).header("Accept-Language", "de").build();
  Response a = execute(fr);
  Response b = execute(de);
  EXPECT_EQ(a.body()->string(), "fr");
  EXPECT_EQ(b.body()->string(), "de");
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_P(CacheTest, UncacheableResponsesAreNotShared) {
  // Numbered by the server as they come (a sequence number counts per connection, and over
  // HTTP/1.1 the two requests each have a connection of their own).
  auto served = std::make_shared<std::atomic<int>>(0);
  server.setDispatcher([served](const RecordedRequest&) {
    return MockResponse::Builder()
        .addHeader("Cache-Control", "no-store")
        .body("response " + std::to_string((*served)++))
        .headersDelay(100ms)
        .build();
  });
  std::string first;
  std::thread other([&] { first = fetch(); });
  std::string second = fetch();
  other.join();
  EXPECT_NE(first, second);
  EXPECT_EQ(server.requestCount(), 2);
}

INSTANTIATE_TEST_SUITE_P(Protocols, CacheTest,
                         ::testing::Values(Protocol::HTTP_1_1, Protocol::HTTP_2),
                         [](const ::testing::TestParamInfo<Protocol>& info) {
                           return info.param == Protocol::HTTP_2 ? "Http2" : "Http1";
                         });

}  // namespace
}  // namespace tern::testing
