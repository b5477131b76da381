// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// In the spirit of OkHttp's CacheTest, one level down: each test stores a response fetched at a
// known time, asks at a fixed `kNow`, and checks what the cache would do, as one readable outcome:
// "cache", "validate If-None-Match: ...", "network" (unchanged) or "unsatisfiable" (a 504).
#include "cache/cache_strategy.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tern/cipher_suite.h"
#include "tern/handshake.h"
#include "tern/http_date.h"
#include "tern/protocol.h"
#include "tern/tls_version.h"

namespace tern::internal {
namespace {

constexpr int64_t kSecond = 1000;
constexpr int64_t kMinute = 60 * kSecond;
constexpr int64_t kHour = 60 * kMinute;
constexpr int64_t kDay = 24 * kHour;
// Tue, 14 Nov 2023 22:13:20 GMT: a whole second, so dates format without loss.
constexpr int64_t kNow = 1'700'000'000'000;

constexpr std::string_view kUrl = "http://example.com/page";

// `millis` as a server would send it in Date, Expires or Last-Modified.
std::string httpDate(int64_t millis) {
  return formatHttpDate(std::chrono::system_clock::time_point(std::chrono::milliseconds(millis)));
}

Request get(std::string_view url = kUrl) { return Request::Builder().url(url).build(); }

Request getWith(std::string_view name, std::string_view value, std::string_view url = kUrl) {
  return Request::Builder().url(url).header(name, value).build();
}

// A response to `request` whose request went out and whose headers arrived at `fetchedAt`.
Response::Builder fetched(int64_t fetchedAt, const Request& request = get(), int code = 200) {
  Response::Builder builder;
  builder.request(request)
      .protocol(Protocol::HTTP_1_1)
      .code(code)
      .message("OK")
      .sentRequestAtMillis(fetchedAt)
      .receivedResponseAtMillis(fetchedAt);
  return builder;
}

// What the caller would do with `strategy` for `request`, in words; anything unexpected about
// the request to send (a changed URL, method or header) shows as "(changed)".
std::string outcome(const CacheStrategy& strategy, const Request& request) {
  std::string result;
  if (!strategy.networkRequest) {
    result = strategy.useCacheResponse ? "cache" : "unsatisfiable";
  } else {
    const Request& sent = *strategy.networkRequest;
    Headers expected = request.headers();
    if (strategy.useCacheResponse) {
      result = "validate";
      Headers::Builder withConditions = request.headers().newBuilder();
      for (std::string_view name : {"If-None-Match", "If-Modified-Since"}) {
        if (auto value = sent.header(name)) {
          result += " " + std::string(name) + ": " + *value;
          withConditions.addLenient(name, *value);
        }
      }
      expected = withConditions.build();
    } else {
      result = "network";
    }
    if (sent.url() != request.url() || sent.method() != request.method() ||
        sent.headers() != expected) {
      result += " (changed)";
    }
  }
  if (strategy.revalidateInBackground) {
    result += " +revalidate-in-background";
  }
  if (strategy.usableOnError) {
    result += " +usable-on-error";
  }
  return result;
}

std::string compute(const Response& cached, const Request& request = get(), int64_t now = kNow) {
  return outcome(CacheStrategy::compute(now, request, &cached), request);
}

// --- Freshness lifetime (RFC 9111 §4.2.1) ---------------------------------------------------

TEST(CacheStrategyTest, NoCachedResponseUsesTheNetwork) {
  Request request = getWith("Accept", "text/html");
  EXPECT_EQ(outcome(CacheStrategy::compute(kNow, request, nullptr), request), "network");
}

TEST(CacheStrategyTest, MaxAgeInTheFutureWithDateHeader) {
  Response cached = fetched(kNow - 30 * kSecond)
                        .header("Cache-Control", "max-age=60")
                        .header("Date", httpDate(kNow - 30 * kSecond))
                        .build();
  EXPECT_EQ(compute(cached), "cache");
}

TEST(CacheStrategyTest, MaxAgeInTheFutureWithNoDateHeader) {
  Response cached = fetched(kNow - 30 * kSecond).header("Cache-Control", "max-age=60").build();
  EXPECT_EQ(compute(cached), "cache");
}

TEST(CacheStrategyTest, MaxAgeInThePastWithDateAndLastModifiedHeaders) {
  std::string lastModified = httpDate(kNow - 2 * kHour);
  Response cached = fetched(kNow - 120 * kSecond)
                        .header("Cache-Control", "max-age=60")
                        .header("Date", httpDate(kNow - 120 * kSecond))
                        .header("Last-Modified", lastModified)
                        .build();
  EXPECT_EQ(compute(cached), "validate If-Modified-Since: " + lastModified);
}

TEST(CacheStrategyTest, MaxAgeInThePastWithDateHeaderButNoLastModifiedHeader) {
  // Nothing but the Date to validate with: the server's own clock, as it sent it.
  std::string date = httpDate(kNow - 120 * kSecond);
  Response cached = fetched(kNow - 120 * kSecond)
                        .header("Cache-Control", "max-age=60")
                        .header("Date", date)
                        .build();
  EXPECT_EQ(compute(cached), "validate If-Modified-Since: " + date);
}

TEST(CacheStrategyTest, MaxAgeIsExclusive) {
  // Fresh while its age is less than its lifetime (§4.2: "freshness_lifetime > current_age").
  Response cached = fetched(kNow - 60 * kSecond).header("Cache-Control", "max-age=60").build();
  EXPECT_EQ(compute(cached, get(), kNow - 1), "cache");
  EXPECT_EQ(compute(cached, get(), kNow), "network");
}

TEST(CacheStrategyTest, MaxAgePreferredOverExpires) {
  Response cached = fetched(kNow - 10 * kSecond)
                        .header("Cache-Control", "max-age=60")
                        .header("Date", httpDate(kNow - 10 * kSecond))
                        .header("Expires", httpDate(kNow - kHour))
                        .build();
  EXPECT_EQ(compute(cached), "cache");
}

TEST(CacheStrategyTest, MaxAgePreferredOverLowerSharedMaxAge) {
  // A private cache ignores s-maxage (RFC 9111 §5.2.2.10).
  Response cached = fetched(kNow - 2 * kMinute)
                        .header("Cache-Control", "s-maxage=60, max-age=180")
                        .header("Date", httpDate(kNow - 2 * kMinute))
                        .build();
  EXPECT_EQ(compute(cached), "cache");
}

TEST(CacheStrategyTest, MaxAgePreferredOverHigherSharedMaxAge) {
  std::string date = httpDate(kNow - 2 * kMinute);
  Response cached = fetched(kNow - 2 * kMinute)
                        .header("Cache-Control", "s-maxage=180, max-age=60")
                        .header("Date", date)
                        .build();
  EXPECT_EQ(compute(cached), "validate If-Modified-Since: " + date);
}

TEST(CacheStrategyTest, SharedMaxAgeAloneGivesNoFreshness) {
  Response cached = fetched(kNow - 10 * kSecond).header("Cache-Control", "s-maxage=3600").build();
  EXPECT_EQ(compute(cached), "network");
}

TEST(CacheStrategyTest, ExpirationDateInTheFuture) {
  Response cached = fetched(kNow - 10 * kSecond)
                        .header("Date", httpDate(kNow - 10 * kSecond))
                        .header("Expires", httpDate(kNow + kHour))
                        .build();
  EXPECT_EQ(compute(cached), "cache");
}

TEST(CacheStrategyTest, ExpirationDateInThePastWithLastModifiedHeader) {
  std::string lastModified = httpDate(kNow - 2 * kHour);
  Response cached = fetched(kNow - 10 * kSecond)
                        .header("Last-Modified", lastModified)
                        .header("Expires", httpDate(kNow - kHour))
                        .build();
  EXPECT_EQ(compute(cached), "validate If-Modified-Since: " + lastModified);
}

TEST(CacheStrategyTest, ExpirationDateInThePastWithNoValidatorUsesThePlainNetwork) {
  Response cached = fetched(kNow - 10 * kSecond).header("Expires", httpDate(kNow - kHour)).build();
  EXPECT_EQ(compute(cached), "network");
}

TEST(CacheStrategyTest, ExpiresIsMeasuredFromTheServersDateNotOurClock) {
  // The server's clock runs 2 hours ahead of ours. Its Expires is one hour after its Date, so the
  // response is fresh for an hour of our time, even though Expires is still ahead of our clock.
  int64_t fetchedAt = kNow - 90 * kMinute;
  int64_t serverDate = fetchedAt + 2 * kHour;
  Response cached = fetched(fetchedAt)
                        .header("Date", httpDate(serverDate))
                        .header("Expires", httpDate(serverDate + kHour))
                        .build();
  EXPECT_EQ(compute(cached, get(), fetchedAt + 59 * kMinute), "cache");
  EXPECT_EQ(compute(cached), "validate If-Modified-Since: " + httpDate(serverDate));
}

TEST(CacheStrategyTest, ExpiresWithoutDateIsMeasuredFromWhenTheResponseArrived) {
  int64_t fetchedAt = kNow - kHour;
  Response cached =
      fetched(fetchedAt).header("Expires", httpDate(fetchedAt + 30 * kMinute)).build();
  EXPECT_EQ(compute(cached, get(), fetchedAt + 29 * kMinute), "cache");
  EXPECT_EQ(compute(cached, get(), fetchedAt + 31 * kMinute), "network");
}

TEST(CacheStrategyTest, InvalidExpiresMeansAlreadyExpiredAndDisablesTheHeuristic) {
  // RFC 9111 §5.3: "0" is the classic. It is still an explicit expiration, so no 10% guess.
  std::string lastModified = httpDate(kNow - 100 * kDay);
  Response cached = fetched(kNow - kSecond)
                        .header("Date", httpDate(kNow - kSecond))
                        .header("Last-Modified", lastModified)
                        .header("Expires", "0")
                        .build();
  EXPECT_EQ(compute(cached), "validate If-Modified-Since: " + lastModified);
}

// --- Heuristic freshness (§4.2.2) --------------------------------------------------------------

TEST(CacheStrategyTest, DefaultExpirationDateFullyCachedForLessThan24Hours) {
  //      last modified: 105 seconds ago
  //             served:   5 seconds ago
  //   default lifetime: (105 - 5) / 10 = 10 seconds
  //            expires:  10 seconds from served date = 5 seconds from now
  Response cached = fetched(kNow - 5 * kSecond)
                        .header("Last-Modified", httpDate(kNow - 105 * kSecond))
                        .header("Date", httpDate(kNow - 5 * kSecond))
                        .build();
  EXPECT_EQ(compute(cached), "cache");
  EXPECT_EQ(compute(cached, get(), kNow + 4 * kSecond), "cache");
  EXPECT_EQ(compute(cached, get(), kNow + 5 * kSecond),
            "validate If-Modified-Since: " + httpDate(kNow - 105 * kSecond));
}

TEST(CacheStrategyTest, DefaultExpirationDateFullyCachedForMoreThan24Hours) {
  //      last modified: 105 days ago
  //             served:   5 days ago
  //   default lifetime: (105 - 5) / 10 = 10 days
  //            expires:  10 days from served date = 5 days from now
  // OkHttp adds "Warning: 113"; RFC 9111 obsoleted Warning, and the strategy changes no headers.
  Response cached = fetched(kNow - 5 * kDay)
                        .header("Last-Modified", httpDate(kNow - 105 * kDay))
                        .header("Date", httpDate(kNow - 5 * kDay))
                        .build();
  EXPECT_EQ(compute(cached), "cache");
}

TEST(CacheStrategyTest, NoDefaultExpirationForUrlsWithQueryString) {
  std::string url = "http://example.com/?foo=bar";
  std::string lastModified = httpDate(kNow - 105 * kSecond);
  Response cached = fetched(kNow - 5 * kSecond, get(url))
                        .header("Last-Modified", lastModified)
                        .header("Date", httpDate(kNow - 5 * kSecond))
                        .build();
  EXPECT_EQ(compute(cached, get(url)), "validate If-Modified-Since: " + lastModified);
}

TEST(CacheStrategyTest, ExplicitFreshnessStillAppliesToUrlsWithQueryString) {
  std::string url = "http://example.com/?foo=bar";
  Response cached =
      fetched(kNow - 5 * kSecond, get(url)).header("Cache-Control", "max-age=60").build();
  EXPECT_EQ(compute(cached, get(url)), "cache");
}

TEST(CacheStrategyTest, HeuristicWithoutDateCountsFromArrival) {
  // Last modified 1000 s before it arrived: fresh for 100 s after arrival.
  int64_t fetchedAt = kNow - 50 * kSecond;
  Response cached =
      fetched(fetchedAt).header("Last-Modified", httpDate(fetchedAt - 1000 * kSecond)).build();
  EXPECT_EQ(compute(cached, get(), fetchedAt + 99 * kSecond), "cache");
  EXPECT_EQ(compute(cached, get(), fetchedAt + 101 * kSecond),
            "validate If-Modified-Since: " + httpDate(fetchedAt - 1000 * kSecond));
}

TEST(CacheStrategyTest, LastModifiedInTheFutureGivesNoFreshness) {
  std::string lastModified = httpDate(kNow + kHour);
  Response cached = fetched(kNow - kSecond)
                        .header("Date", httpDate(kNow - kSecond))
                        .header("Last-Modified", lastModified)
                        .build();
  EXPECT_EQ(compute(cached), "validate If-Modified-Since: " + lastModified);
}

TEST(CacheStrategyTest, NoFreshnessInformationMeansValidateEveryTime) {
  Response cached = fetched(kNow).header("ETag", "\"v1\"").build();
  EXPECT_EQ(compute(cached), "validate If-None-Match: \"v1\"");
}

// --- Current age (§4.2.3) ----------------------------------------------------------------------

TEST(CacheStrategyTest, AgeHeaderCountsTowardsTheAge) {
  Response cached = fetched(kNow - 10 * kSecond)
                        .header("Cache-Control", "max-age=60")
                        .header("Date", httpDate(kNow - 10 * kSecond))
                        .header("Age", "45")
                        .header("ETag", "\"v1\"")
                        .build();
  EXPECT_EQ(compute(cached), "cache");  // 45 + 10 = 55 s old.
  EXPECT_EQ(compute(cached, get(), kNow + 5 * kSecond), "validate If-None-Match: \"v1\"");
}

TEST(CacheStrategyTest, AgeHeaderOlderThanMaxAgeIsStaleOnArrival) {
  Response cached = fetched(kNow)
                        .header("Cache-Control", "max-age=60")
                        .header("Date", httpDate(kNow))
                        .header("Age", "120")
                        .build();
  EXPECT_EQ(compute(cached), "validate If-Modified-Since: " + httpDate(kNow));
}

TEST(CacheStrategyTest, ApparentAgeFromDateCountsWhenLargerThanAge) {
  // The server's Date is 50 s before the response arrived; an upstream cache said only 10 s.
  Response cached = fetched(kNow)
                        .header("Cache-Control", "max-age=60")
                        .header("Date", httpDate(kNow - 50 * kSecond))
                        .header("Age", "10")
                        .build();
  EXPECT_EQ(compute(cached), "cache");
  EXPECT_EQ(compute(cached, get(), kNow + 10 * kSecond),
            "validate If-Modified-Since: " + httpDate(kNow - 50 * kSecond));
}

TEST(CacheStrategyTest, ResponseDelayIsAddedToTheAgeHeader) {
  // Sent 20 s before it arrived: the Age the server sent is 20 s older by the time we have it.
  Response::Builder builder = fetched(kNow);
  builder.sentRequestAtMillis(kNow - 20 * kSecond)
      .header("Cache-Control", "max-age=60")
      .header("Date", httpDate(kNow))
      .header("Age", "30");
  Response cached = builder.build();
  EXPECT_EQ(compute(cached, get(), kNow + 9 * kSecond), "cache");  // 30 + 20 + 9 = 59.
  EXPECT_EQ(compute(cached, get(), kNow + 10 * kSecond),
            "validate If-Modified-Since: " + httpDate(kNow));
}

TEST(CacheStrategyTest, ResponseDelayCountsEvenWithoutAgeOrDate) {
  Response::Builder builder = fetched(kNow);
  builder.sentRequestAtMillis(kNow - 50 * kSecond).header("Cache-Control", "max-age=60");
  Response cached = builder.build();
  EXPECT_EQ(compute(cached, get(), kNow + 9 * kSecond), "cache");
  EXPECT_EQ(compute(cached, get(), kNow + 10 * kSecond), "network");
}

TEST(CacheStrategyTest, ResponseDelayIsNotAddedToTheApparentAge) {
  // §4.2.3 takes max(apparent_age, age_value + response_delay): 50 s here, not 50 + 20.
  // (OkHttp adds the delay to both, and would call this response stale.)
  Response::Builder builder = fetched(kNow);
  builder.sentRequestAtMillis(kNow - 20 * kSecond)
      .header("Cache-Control", "max-age=60")
      .header("Date", httpDate(kNow - 50 * kSecond));
  Response cached = builder.build();
  EXPECT_EQ(compute(cached, get(), kNow + 9 * kSecond), "cache");
}

TEST(CacheStrategyTest, ResidentTimeCountsTowardsTheAge) {
  Response cached = fetched(kNow - 50 * kSecond)
                        .header("Cache-Control", "max-age=60")
                        .header("Date", httpDate(kNow - 50 * kSecond))
                        .build();
  EXPECT_EQ(compute(cached), "cache");
  EXPECT_EQ(compute(cached, get(), kNow + 20 * kSecond),
            "validate If-Modified-Since: " + httpDate(kNow - 50 * kSecond));
}

TEST(CacheStrategyTest, ServerClockAheadGivesNoNegativeAge) {
  // A Date in our future must not make the response younger than the time it sat in the cache.
  Response cached = fetched(kNow - 70 * kSecond)
                        .header("Cache-Control", "max-age=60")
                        .header("Date", httpDate(kNow + kHour))
                        .header("ETag", "\"v1\"")
                        .build();
  EXPECT_EQ(compute(cached), "validate If-None-Match: \"v1\"");
}

TEST(CacheStrategyTest, AgeListUsesTheFirstMemberAndGarbageIsIgnored) {
  // RFC 9111 §5.1: a list-valued Age uses its first member; an invalid one is ignored.
  Response listed = fetched(kNow)
                        .header("Cache-Control", "max-age=60")
                        .header("Age", "100, 5")
                        .header("ETag", "\"v1\"")
                        .build();
  EXPECT_EQ(compute(listed), "validate If-None-Match: \"v1\"");
  Response garbage =
      fetched(kNow).header("Cache-Control", "max-age=60").header("Age", "soon").build();
  EXPECT_EQ(compute(garbage), "cache");
  Response negative =
      fetched(kNow).header("Cache-Control", "max-age=60").header("Age", "-100").build();
  EXPECT_EQ(compute(negative), "cache");
}

// --- The request's directives (§5.2.1) -------------------------------------------------------

TEST(CacheStrategyTest, RequestMaxAge) {
  std::string lastModified = httpDate(kNow - 2 * kHour);
  Response cached = fetched(kNow - kMinute)
                        .header("Last-Modified", lastModified)
                        .header("Date", httpDate(kNow - kMinute))
                        .header("Expires", httpDate(kNow + kHour))
                        .build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "max-age=30")),
            "validate If-Modified-Since: " + lastModified);
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "max-age=90")), "cache");
}

TEST(CacheStrategyTest, RequestMaxAgeDoesNotExtendFreshness) {
  Response cached = fetched(kNow - 2 * kMinute).header("Cache-Control", "max-age=60").build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "max-age=3600")), "network");
}

TEST(CacheStrategyTest, RequestMinFresh) {
  Response cached = fetched(kNow)
                        .header("Cache-Control", "max-age=60")
                        .header("Date", httpDate(kNow))
                        .header("ETag", "\"v1\"")
                        .build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "min-fresh=120")),
            "validate If-None-Match: \"v1\"");
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "min-fresh=30")), "cache");
}

TEST(CacheStrategyTest, RequestMaxStale) {
  Response cached = fetched(kNow - 4 * kMinute)
                        .header("Cache-Control", "max-age=120")
                        .header("Date", httpDate(kNow - 4 * kMinute))
                        .build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "max-stale=180")), "cache");
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "max-stale=60")),
            "validate If-Modified-Since: " + httpDate(kNow - 4 * kMinute));
}

TEST(CacheStrategyTest, RequestMaxStaleDirectiveWithNoValue) {
  // Any staleness: here a year.
  Response cached = fetched(kNow - 365 * kDay)
                        .header("Cache-Control", "max-age=120")
                        .header("Date", httpDate(kNow - 365 * kDay))
                        .build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "max-stale")), "cache");
}

TEST(CacheStrategyTest, RequestMaxStaleNotHonoredWithMustRevalidate) {
  Response cached = fetched(kNow - 4 * kMinute)
                        .header("Cache-Control", "max-age=120, must-revalidate")
                        .header("Date", httpDate(kNow - 4 * kMinute))
                        .build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "max-stale=180")),
            "validate If-Modified-Since: " + httpDate(kNow - 4 * kMinute));
}

TEST(CacheStrategyTest, MustRevalidateDoesNotAffectAFreshResponse) {
  Response cached =
      fetched(kNow - kMinute).header("Cache-Control", "max-age=120, must-revalidate").build();
  EXPECT_EQ(compute(cached), "cache");
}

TEST(CacheStrategyTest, RequestCacheControlNoCache) {
  Response cached = fetched(kNow)
                        .header("Last-Modified", httpDate(kNow - 120 * kSecond))
                        .header("Date", httpDate(kNow))
                        .header("Cache-Control", "max-age=60")
                        .build();
  // Fresh, but the caller wants the server's answer; its request goes out as it made it.
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "no-cache")), "network");
}

TEST(CacheStrategyTest, RequestPragmaNoCache) {
  Response cached = fetched(kNow)
                        .header("Last-Modified", httpDate(kNow - 120 * kSecond))
                        .header("Date", httpDate(kNow))
                        .header("Cache-Control", "max-age=60")
                        .build();
  EXPECT_EQ(compute(cached, getWith("Pragma", "no-cache")), "network");
}

TEST(CacheStrategyTest, RequestNoStoreMayStillBeAnsweredFromTheCache) {
  // RFC 9111 §5.2.1.5: no-store in a request is about storing its own response.
  Response cached = fetched(kNow).header("Cache-Control", "max-age=60").build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "no-store")), "cache");
}

TEST(CacheStrategyTest, ClientSuppliedConditionsBypassTheCache) {
  Response cached = fetched(kNow - 2 * kMinute)
                        .header("Cache-Control", "max-age=60")
                        .header("ETag", "\"v1\"")
                        .build();
  // The caller's own validators go out unchanged: a 304 is for the caller, not for us.
  EXPECT_EQ(compute(cached, getWith("If-None-Match", "\"v0\"")), "network");
  std::string since = httpDate(kNow - kDay);
  EXPECT_EQ(compute(cached, getWith("If-Modified-Since", since)), "network");
  // Even when the stored response is fresh.
  Response fresh = fetched(kNow).header("Cache-Control", "max-age=60").build();
  EXPECT_EQ(compute(fresh, getWith("If-None-Match", "\"v0\"")), "network");
}

TEST(CacheStrategyTest, HasConditions) {
  EXPECT_TRUE(hasConditions(getWith("If-None-Match", "\"v1\"")));
  EXPECT_TRUE(hasConditions(getWith("if-modified-since", httpDate(kNow))));
  EXPECT_FALSE(hasConditions(get()));
  EXPECT_FALSE(hasConditions(getWith("If-Match", "\"v1\"")));
}

// --- only-if-cached (§5.2.1.7) -----------------------------------------------------------------

TEST(CacheStrategyTest, RequestOnlyIfCachedWithNoResponseCached) {
  Request request = getWith("Cache-Control", "only-if-cached");
  EXPECT_EQ(outcome(CacheStrategy::compute(kNow, request, nullptr), request), "unsatisfiable");
}

TEST(CacheStrategyTest, RequestOnlyIfCachedWithFullResponseCached) {
  Response cached =
      fetched(kNow).header("Cache-Control", "max-age=30").header("Date", httpDate(kNow)).build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "only-if-cached")), "cache");
}

TEST(CacheStrategyTest, RequestOnlyIfCachedWithConditionalResponseCached) {
  Response cached = fetched(kNow - kMinute)
                        .header("Cache-Control", "max-age=30")
                        .header("Date", httpDate(kNow - kMinute))
                        .build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "only-if-cached")), "unsatisfiable");
}

TEST(CacheStrategyTest, RequestOnlyIfCachedWithUnhelpfulResponseCached) {
  Response cached = fetched(kNow).build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "only-if-cached")), "unsatisfiable");
}

TEST(CacheStrategyTest, ForceCacheServesAStaleResponse) {
  Response cached = fetched(kNow - 30 * kDay).header("Cache-Control", "max-age=60").build();
  Request request = Request::Builder().url(kUrl).cacheControl(CacheControl::forceCache()).build();
  EXPECT_EQ(compute(cached, request), "cache");
}

// --- no-cache and no-store in responses -------------------------------------------------------

TEST(CacheStrategyTest, ResponseCacheControlNoCacheIsValidatedEvenWhenFresh) {
  std::string lastModified = httpDate(kNow - 2 * kHour);
  Response cached = fetched(kNow)
                        .header("Last-Modified", lastModified)
                        .header("Cache-Control", "no-cache, max-age=3600")
                        .build();
  EXPECT_EQ(compute(cached), "validate If-Modified-Since: " + lastModified);
  // Not even max-stale lets it out unvalidated.
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "max-stale")),
            "validate If-Modified-Since: " + lastModified);
}

TEST(CacheStrategyTest, ResponsePragmaNoCache) {
  std::string lastModified = httpDate(kNow - 2 * kHour);
  Response cached = fetched(kNow)
                        .header("Last-Modified", lastModified)
                        .header("Expires", httpDate(kNow + kHour))
                        .header("Pragma", "no-cache")
                        .build();
  EXPECT_EQ(compute(cached), "validate If-Modified-Since: " + lastModified);
}

TEST(CacheStrategyTest, ResponseNoStoreIsNeverUsed) {
  Response cached = fetched(kNow)
                        .header("Cache-Control", "no-store, max-age=3600")
                        .header("Expires", httpDate(kNow + kHour))
                        .header("ETag", "\"v1\"")
                        .build();
  EXPECT_FALSE(CacheStrategy::isCacheable(cached, cached.request()));
  EXPECT_EQ(compute(cached), "network");
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "only-if-cached")), "unsatisfiable");
}

TEST(CacheStrategyTest, RequestNoStoreMakesTheResponseUncacheable) {
  Request request = getWith("Cache-Control", "no-store");
  Response response = fetched(kNow, request).header("Cache-Control", "max-age=60").build();
  EXPECT_FALSE(CacheStrategy::isCacheable(response, request));
  EXPECT_TRUE(CacheStrategy::isCacheable(response, get()));
}

// --- immutable (RFC 8246) ----------------------------------------------------------------------

TEST(CacheStrategyTest, ImmutableIsServedEvenWhenTheRequestSaysMaxAgeZero) {
  Response cached = fetched(kNow - kMinute)
                        .header("Cache-Control", "max-age=31536000, immutable")
                        .header("ETag", "\"v1\"")
                        .build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "max-age=0")), "cache");
}

TEST(CacheStrategyTest, ImmutableIsValidatedOnceStale) {
  Response cached = fetched(kNow - 2 * kMinute)
                        .header("Cache-Control", "max-age=60, immutable")
                        .header("ETag", "\"v1\"")
                        .build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "max-age=0")),
            "validate If-None-Match: \"v1\"");
  EXPECT_EQ(compute(cached), "validate If-None-Match: \"v1\"");
}

TEST(CacheStrategyTest, ImmutableDoesNotOverrideRequestNoCache) {
  Response cached = fetched(kNow).header("Cache-Control", "max-age=3600, immutable").build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "no-cache")), "network");
}

// --- Validation (§4.3.1) -----------------------------------------------------------------------

TEST(CacheStrategyTest, EtagIsPreferredOverLastModified) {
  Response cached = fetched(kNow - kHour)
                        .header("ETag", "W/\"v1\"")
                        .header("Last-Modified", httpDate(kNow - kDay))
                        .header("Date", httpDate(kNow - kHour))
                        .header("Expires", httpDate(kNow - kMinute))
                        .build();
  EXPECT_EQ(compute(cached), "validate If-None-Match: W/\"v1\"");
}

TEST(CacheStrategyTest, LastModifiedIsPreferredOverDate) {
  std::string lastModified = httpDate(kNow - kDay);
  Response cached = fetched(kNow - kHour)
                        .header("Last-Modified", lastModified)
                        .header("Date", httpDate(kNow - kHour))
                        .header("Cache-Control", "max-age=0")
                        .build();
  EXPECT_EQ(compute(cached), "validate If-Modified-Since: " + lastModified);
}

TEST(CacheStrategyTest, ValidatorsAreSentAsTheServerWroteThem) {
  // An obsolete RFC 850 date is sent back verbatim: the server compares its own text.
  std::string lastModified = "Sunday, 06-Nov-94 08:49:37 GMT";
  Response cached = fetched(kNow)
                        .header("Last-Modified", lastModified)
                        .header("Cache-Control", "no-cache")
                        .build();
  EXPECT_EQ(compute(cached), "validate If-Modified-Since: " + lastModified);
}

TEST(CacheStrategyTest, ValidatorWithControlCharactersIsNotSent) {
  // A stored value (from a damaged cache file, say) must never split the request's header lines.
  std::string lastModified = httpDate(kNow - kDay);
  Headers stored = Headers::Builder()
                       .addLenient("ETag", "\"v1\"\r\nX-Injected: 1")
                       .addLenient("Last-Modified", lastModified)
                       .addLenient("Cache-Control", "no-cache")
                       .build();
  Response cached = fetched(kNow).headers(stored).build();
  EXPECT_EQ(compute(cached), "validate If-Modified-Since: " + lastModified);
}

TEST(CacheStrategyTest, UnparseableLastModifiedFallsBackToDate) {
  std::string date = httpDate(kNow - kHour);
  Response cached =
      fetched(kNow - kHour).header("Last-Modified", "yesterday").header("Date", date).build();
  EXPECT_EQ(compute(cached), "validate If-Modified-Since: " + date);
}

TEST(CacheStrategyTest, NoValidatorsMeansAPlainRequest) {
  Response cached = fetched(kNow - kHour).header("Cache-Control", "max-age=60").build();
  EXPECT_EQ(compute(cached), "network");
}

TEST(CacheStrategyTest, ConditionalRequestKeepsTheCallersRequest) {
  Request request = Request::Builder()
                        .url("http://example.com/page?q=1#frag")
                        .header("Accept", "text/html")
                        .header("X-Trace", "abc")
                        .head()
                        .build();
  Response cached = fetched(kNow, request, 200).header("ETag", "\"v2\"").build();
  CacheStrategy strategy = CacheStrategy::compute(kNow, request, &cached);
  ASSERT_TRUE(strategy.networkRequest);
  EXPECT_EQ(strategy.networkRequest->method(), "HEAD");
  EXPECT_EQ(strategy.networkRequest->url(), request.url());
  EXPECT_EQ(strategy.networkRequest->header("Accept"), "text/html");
  EXPECT_EQ(strategy.networkRequest->header("X-Trace"), "abc");
  EXPECT_EQ(strategy.networkRequest->headers("If-None-Match"), std::vector<std::string>{"\"v2\""});
  EXPECT_EQ(outcome(strategy, request), "validate If-None-Match: \"v2\"");
}

// --- https --------------------------------------------------------------------------------------

TEST(CacheStrategyTest, HttpsResponseWithoutHandshakeIsNotUsed) {
  std::string url = "https://example.com/";
  Response cached = fetched(kNow, get(url)).header("Cache-Control", "max-age=60").build();
  EXPECT_EQ(compute(cached, get(url)), "network");
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "only-if-cached", url)), "unsatisfiable");
}

TEST(CacheStrategyTest, HttpsResponseWithHandshakeIsUsed) {
  std::string url = "https://example.com/";
  Response cached =
      fetched(kNow, get(url))
          .handshake(Handshake(TlsVersion::TLS_1_3, CipherSuite::TLS_AES_128_GCM_SHA256, {}, {}))
          .header("Cache-Control", "max-age=60")
          .build();
  EXPECT_EQ(compute(cached, get(url)), "cache");
}

// --- Which responses may be stored (§3) --------------------------------------------------------

TEST(CacheStrategyTest, ResponseCachingByResponseCode) {
  for (int code : {200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501}) {
    Response response = fetched(kNow, get(), code).build();
    EXPECT_TRUE(CacheStrategy::isCacheable(response, get())) << code;
  }
  for (int code : {100, 101, 201, 202, 205, 206, 303, 304, 305, 400,
                   401, 403, 406, 408, 409, 429, 500, 502, 503, 504}) {
    // Not even explicit freshness makes these storable.
    Response response = fetched(kNow, get(), code)
                            .header("Cache-Control", "max-age=3600, public")
                            .header("Expires", httpDate(kNow + kHour))
                            .build();
    EXPECT_FALSE(CacheStrategy::isCacheable(response, get())) << code;
    EXPECT_EQ(compute(response), "network") << code;
  }
}

TEST(CacheStrategyTest, TemporaryRedirectsNeedExplicitPermission) {
  for (int code : {302, 307}) {
    EXPECT_FALSE(CacheStrategy::isCacheable(fetched(kNow, get(), code).build(), get())) << code;
    EXPECT_FALSE(CacheStrategy::isCacheable(
        fetched(kNow, get(), code).header("Last-Modified", httpDate(kNow - kDay)).build(), get()))
        << code;
    // A private cache ignores s-maxage, so it is no permission here.
    EXPECT_FALSE(CacheStrategy::isCacheable(
        fetched(kNow, get(), code).header("Cache-Control", "s-maxage=60").build(), get()))
        << code;
    EXPECT_TRUE(CacheStrategy::isCacheable(
        fetched(kNow, get(), code).header("Expires", httpDate(kNow + kHour)).build(), get()))
        << code;
    EXPECT_TRUE(CacheStrategy::isCacheable(
        fetched(kNow, get(), code).header("Cache-Control", "max-age=60").build(), get()))
        << code;
    EXPECT_TRUE(CacheStrategy::isCacheable(
        fetched(kNow, get(), code).header("Cache-Control", "public").build(), get()))
        << code;
    EXPECT_TRUE(CacheStrategy::isCacheable(
        fetched(kNow, get(), code).header("Cache-Control", "private").build(), get()))
        << code;
    EXPECT_FALSE(CacheStrategy::isCacheable(
        fetched(kNow, get(), code).header("Cache-Control", "max-age=60, no-store").build(), get()))
        << code;
  }
}

TEST(CacheStrategyTest, TemporaryRedirectWithMaxAgeIsServed) {
  Response cached = fetched(kNow - 10 * kSecond, get(), 302)
                        .header("Cache-Control", "max-age=60")
                        .header("Location", "/elsewhere")
                        .build();
  EXPECT_EQ(compute(cached), "cache");
  Response withoutPermission = fetched(kNow - 10 * kSecond, get(), 307)
                                   .header("Location", "/elsewhere")
                                   .header("ETag", "\"v1\"")
                                   .build();
  EXPECT_EQ(compute(withoutPermission), "network");
}

TEST(CacheStrategyTest, VaryIsTheCallersBusiness) {
  // The caller matched Vary before asking (CacheEntry::matches); the strategy does not look.
  Response cached =
      fetched(kNow).header("Cache-Control", "max-age=60").header("Vary", "Accept-Language").build();
  EXPECT_EQ(compute(cached, getWith("Accept-Language", "fr")), "cache");
}

// --- stale-while-revalidate (RFC 5861 §3) ------------------------------------------------------

TEST(CacheStrategyTest, StaleWhileRevalidateServesInsideTheWindow) {
  Response cached = fetched(kNow - 70 * kSecond)
                        .header("Cache-Control", "max-age=60, stale-while-revalidate=30")
                        .header("ETag", "\"v1\"")
                        .build();
  EXPECT_EQ(compute(cached), "cache +revalidate-in-background");
  EXPECT_EQ(compute(cached, get(), kNow + 19 * kSecond), "cache +revalidate-in-background");
}

TEST(CacheStrategyTest, StaleWhileRevalidateValidatesOutsideTheWindow) {
  Response cached = fetched(kNow - 100 * kSecond)
                        .header("Cache-Control", "max-age=60, stale-while-revalidate=30")
                        .header("ETag", "\"v1\"")
                        .build();
  EXPECT_EQ(compute(cached), "validate If-None-Match: \"v1\"");
}

TEST(CacheStrategyTest, StaleWhileRevalidateDoesNotTouchAFreshResponse) {
  Response cached = fetched(kNow - 10 * kSecond)
                        .header("Cache-Control", "max-age=60, stale-while-revalidate=30")
                        .build();
  EXPECT_EQ(compute(cached), "cache");
}

TEST(CacheStrategyTest, StaleWhileRevalidateIsOverriddenByMustRevalidateAndNoCache) {
  for (std::string_view cacheControl : {"max-age=60, stale-while-revalidate=30, must-revalidate",
                                        "max-age=60, stale-while-revalidate=30, no-cache"}) {
    Response cached = fetched(kNow - 70 * kSecond)
                          .header("Cache-Control", cacheControl)
                          .header("ETag", "\"v1\"")
                          .build();
    EXPECT_EQ(compute(cached), "validate If-None-Match: \"v1\"") << cacheControl;
  }
}

TEST(CacheStrategyTest, StaleWhileRevalidateYieldsToARequestThatWantsItFresh) {
  Response cached = fetched(kNow - 70 * kSecond)
                        .header("Cache-Control", "max-age=60, stale-while-revalidate=30")
                        .header("ETag", "\"v1\"")
                        .build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "max-age=600")),
            "validate If-None-Match: \"v1\"");
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "min-fresh=1")),
            "validate If-None-Match: \"v1\"");
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "no-cache")), "network");
}

TEST(CacheStrategyTest, StaleWhileRevalidateUnderOnlyIfCachedServesWithoutRevalidating) {
  Response cached = fetched(kNow - 70 * kSecond)
                        .header("Cache-Control", "max-age=60, stale-while-revalidate=30")
                        .build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "only-if-cached")), "cache");
}

TEST(CacheStrategyTest, StaleWithinMaxStaleAndStaleWhileRevalidateAlsoRevalidates) {
  Response cached = fetched(kNow - 70 * kSecond)
                        .header("Cache-Control", "max-age=60, stale-while-revalidate=30")
                        .build();
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "max-stale=3600")),
            "cache +revalidate-in-background");
  // Past the window, max-stale alone lets it out; revalidating is then the caller's choice.
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "max-stale=3600"), kNow + kMinute), "cache");
}

// --- stale-if-error (RFC 5861 §4) --------------------------------------------------------------

TEST(CacheStrategyTest, StaleIfErrorFromTheResponse) {
  Response cached = fetched(kNow - 2 * kMinute)
                        .header("Cache-Control", "max-age=60, stale-if-error=300")
                        .header("ETag", "\"v1\"")
                        .build();
  EXPECT_EQ(compute(cached), "validate If-None-Match: \"v1\" +usable-on-error");
  // 60 s fresh, then 300 s usable on error: not 6 minutes and a second after it arrived.
  EXPECT_EQ(compute(cached, get(), kNow + 4 * kMinute + kSecond), "validate If-None-Match: \"v1\"");
}

TEST(CacheStrategyTest, StaleIfErrorFromTheRequest) {
  Response cached = fetched(kNow - 2 * kMinute)
                        .header("Cache-Control", "max-age=60")
                        .header("ETag", "\"v1\"")
                        .build();
  EXPECT_EQ(compute(cached), "validate If-None-Match: \"v1\"");
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "stale-if-error=3600")),
            "validate If-None-Match: \"v1\" +usable-on-error");
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "stale-if-error=30")),
            "validate If-None-Match: \"v1\"");
}

TEST(CacheStrategyTest, StaleIfErrorIsOverriddenByMustRevalidateAndNoCache) {
  for (std::string_view cacheControl : {"max-age=60, stale-if-error=300, must-revalidate",
                                        "max-age=60, stale-if-error=300, no-cache"}) {
    Response cached = fetched(kNow - 2 * kMinute)
                          .header("Cache-Control", cacheControl)
                          .header("ETag", "\"v1\"")
                          .build();
    EXPECT_EQ(compute(cached, getWith("Cache-Control", "stale-if-error=300")),
              "validate If-None-Match: \"v1\"")
        << cacheControl;
  }
}

TEST(CacheStrategyTest, StaleIfErrorNeedsTheCachedResponseInPlay) {
  // Without a validator the cache is not consulted at all, so there is nothing to fall back on.
  Response cached =
      fetched(kNow - 2 * kMinute).header("Cache-Control", "max-age=60, stale-if-error=300").build();
  EXPECT_EQ(compute(cached), "network");
  EXPECT_EQ(compute(cached, getWith("Cache-Control", "no-cache")), "network");
}

TEST(CacheStrategyTest, StaleIfErrorAlongsideAFreshOrRevalidatingResponse) {
  Response fresh = fetched(kNow - 10 * kSecond)
                       .header("Cache-Control", "max-age=60, stale-if-error=300")
                       .build();
  EXPECT_EQ(compute(fresh), "cache +usable-on-error");
  Response revalidating =
      fetched(kNow - 70 * kSecond)
          .header("Cache-Control", "max-age=60, stale-while-revalidate=30, stale-if-error=300")
          .build();
  EXPECT_EQ(compute(revalidating), "cache +revalidate-in-background +usable-on-error");
}

// --- combineHeaders (§4.3.4) -------------------------------------------------------------------

TEST(CacheStrategyTest, CombineReplacesFieldsTheNotModifiedResponseCarries) {
  Headers cached = Headers::of("Date", "Mon, 13 Nov 2023 22:13:20 GMT", "ETag", "\"v1\"",
                               "Cache-Control", "max-age=60", "X-Kept", "yes");
  Headers network = Headers::of("date", "Tue, 14 Nov 2023 22:13:20 GMT", "Cache-Control",
                                "max-age=600", "X-New", "1");
  EXPECT_EQ(combineHeaders(cached, network),
            Headers::of("ETag", "\"v1\"", "X-Kept", "yes", "date", "Tue, 14 Nov 2023 22:13:20 GMT",
                        "Cache-Control", "max-age=600", "X-New", "1"));
}

TEST(CacheStrategyTest, CombineKeepsTheStoredBodysDescription) {
  Headers cached = Headers::of("Content-Type", "text/html", "Content-Length", "1024",
                               "Content-Encoding", "gzip");
  Headers network = Headers::of("Content-Type", "text/plain", "Content-Length", "0",
                                "content-encoding", "identity", "ETag", "\"v2\"");
  EXPECT_EQ(combineHeaders(cached, network),
            Headers::of("Content-Type", "text/html", "Content-Length", "1024", "Content-Encoding",
                        "gzip", "ETag", "\"v2\""));
}

TEST(CacheStrategyTest, CombineDropsStoredFreshnessWarnings) {
  Headers cached = Headers::of("Warning", "110 HttpURLConnection \"Response is stale\"", "Warning",
                               "113 HttpURLConnection \"Heuristic expiration\"", "Warning",
                               "299 - \"Deprecated\"", "ETag", "\"v1\"");
  EXPECT_EQ(combineHeaders(cached, Headers()),
            Headers::of("Warning", "299 - \"Deprecated\"", "ETag", "\"v1\""));
}

TEST(CacheStrategyTest, CombineReplacesEveryValueOfAMultiValuedField) {
  Headers cached = Headers::of("Link", "</a>; rel=preload", "Vary", "Accept", "Link",
                               "</b>; rel=preload", "Set-Cookie", "a=1", "Set-Cookie", "b=2");
  Headers network = Headers::of("Link", "</c>; rel=preload", "Link", "</d>; rel=preload");
  EXPECT_EQ(combineHeaders(cached, network),
            Headers::of("Vary", "Accept", "Set-Cookie", "a=1", "Set-Cookie", "b=2", "Link",
                        "</c>; rel=preload", "Link", "</d>; rel=preload"));
}

TEST(CacheStrategyTest, CombineIgnoresTheNotModifiedResponsesHopByHopFields) {
  Headers cached = Headers::of("ETag", "\"v1\"");
  Headers network = Headers::of("Connection", "close", "Keep-Alive", "timeout=5",
                                "Transfer-Encoding", "chunked", "Age", "3");
  EXPECT_EQ(combineHeaders(cached, network), Headers::of("ETag", "\"v1\"", "Age", "3"));
}

TEST(CacheStrategyTest, CombinedHeadersRenewFreshness) {
  // What the caller does with a 304: the merged headers and the new fetch times make the stored
  // response fresh again.
  Response stale = fetched(kNow - kHour)
                       .header("Cache-Control", "max-age=60")
                       .header("ETag", "\"v1\"")
                       .header("Date", httpDate(kNow - kHour))
                       .build();
  ASSERT_EQ(compute(stale), "validate If-None-Match: \"v1\"");
  Headers notModified = Headers::of("Date", httpDate(kNow), "Cache-Control", "max-age=600");
  Response renewed = fetched(kNow).headers(combineHeaders(stale.headers(), notModified)).build();
  EXPECT_EQ(compute(renewed, get(), kNow + 5 * kMinute), "cache");
  EXPECT_EQ(renewed.header("ETag"), "\"v1\"");
}

// --- invalidatesCache (§4.4) -------------------------------------------------------------------

TEST(CacheStrategyTest, InvalidatesCache) {
  for (std::string_view method : {"POST", "PATCH", "PUT", "DELETE", "MOVE"}) {
    EXPECT_TRUE(invalidatesCache(method)) << method;
  }
  // Methods are case-sensitive (RFC 9110 §9.1).
  for (std::string_view method : {"GET", "HEAD", "OPTIONS", "TRACE", "CONNECT", "post", ""}) {
    EXPECT_FALSE(invalidatesCache(method)) << method;
  }
}

}  // namespace
}  // namespace tern::internal
