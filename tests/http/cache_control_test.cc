// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/cache_control.h"

#include <chrono>
#include <climits>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace tern {
namespace {

using std::chrono::seconds;

CacheControl parseCacheControl(std::string_view value) {
  return CacheControl::parse(Headers::Builder().set("Cache-Control", value).build());
}

TEST(CacheControlTest, EmptyBuilderIsEmpty) {
  CacheControl cacheControl = CacheControl::Builder().build();
  EXPECT_EQ(cacheControl.toString(), "");
  EXPECT_FALSE(cacheControl.noCache());
  EXPECT_FALSE(cacheControl.noStore());
  EXPECT_EQ(cacheControl.maxAgeSeconds(), -1);
  EXPECT_EQ(cacheControl.sMaxAgeSeconds(), -1);
  EXPECT_FALSE(cacheControl.isPrivate());
  EXPECT_FALSE(cacheControl.isPublic());
  EXPECT_FALSE(cacheControl.mustRevalidate());
  EXPECT_EQ(cacheControl.maxStaleSeconds(), -1);
  EXPECT_EQ(cacheControl.minFreshSeconds(), -1);
  EXPECT_FALSE(cacheControl.onlyIfCached());
  EXPECT_FALSE(cacheControl.noTransform());
  EXPECT_FALSE(cacheControl.immutable());
  EXPECT_EQ(cacheControl.staleWhileRevalidateSeconds(), -1);
  EXPECT_EQ(cacheControl.staleIfErrorSeconds(), -1);
}

TEST(CacheControlTest, CompleteBuilder) {
  CacheControl cacheControl = CacheControl::Builder()
                                  .noCache()
                                  .noStore()
                                  .maxAge(seconds(1))
                                  .maxStale(seconds(2))
                                  .minFresh(seconds(3))
                                  .onlyIfCached()
                                  .noTransform()
                                  .immutable()
                                  .build();
  EXPECT_EQ(cacheControl.toString(),
            "no-cache, no-store, max-age=1, max-stale=2, min-fresh=3, only-if-cached, "
            "no-transform, immutable");
  EXPECT_TRUE(cacheControl.noCache());
  EXPECT_TRUE(cacheControl.noStore());
  EXPECT_EQ(cacheControl.maxAgeSeconds(), 1);
  EXPECT_EQ(cacheControl.maxStaleSeconds(), 2);
  EXPECT_EQ(cacheControl.minFreshSeconds(), 3);
  EXPECT_TRUE(cacheControl.onlyIfCached());
  EXPECT_TRUE(cacheControl.noTransform());
  EXPECT_TRUE(cacheControl.immutable());
  // These directives belong to responses, so a request builder never sets them.
  EXPECT_EQ(cacheControl.sMaxAgeSeconds(), -1);
  EXPECT_FALSE(cacheControl.isPrivate());
  EXPECT_FALSE(cacheControl.isPublic());
  EXPECT_FALSE(cacheControl.mustRevalidate());
}

TEST(CacheControlTest, ParseEmpty) {
  CacheControl cacheControl = parseCacheControl("");
  EXPECT_EQ(cacheControl.toString(), "");
  EXPECT_FALSE(cacheControl.noCache());
  EXPECT_EQ(cacheControl.maxAgeSeconds(), -1);
  EXPECT_EQ(cacheControl.maxStaleSeconds(), -1);
  EXPECT_EQ(CacheControl::parse(Headers()).toString(), "");
}

TEST(CacheControlTest, ParseEveryDirective) {
  std::string header =
      "no-cache, no-store, max-age=1, s-maxage=2, private, public, must-revalidate, "
      "max-stale=3, min-fresh=4, only-if-cached, no-transform, immutable";
  CacheControl cacheControl = parseCacheControl(header);
  EXPECT_TRUE(cacheControl.noCache());
  EXPECT_TRUE(cacheControl.noStore());
  EXPECT_EQ(cacheControl.maxAgeSeconds(), 1);
  EXPECT_EQ(cacheControl.sMaxAgeSeconds(), 2);
  EXPECT_TRUE(cacheControl.isPrivate());
  EXPECT_TRUE(cacheControl.isPublic());
  EXPECT_TRUE(cacheControl.mustRevalidate());
  EXPECT_EQ(cacheControl.maxStaleSeconds(), 3);
  EXPECT_EQ(cacheControl.minFreshSeconds(), 4);
  EXPECT_TRUE(cacheControl.onlyIfCached());
  EXPECT_TRUE(cacheControl.noTransform());
  EXPECT_TRUE(cacheControl.immutable());
  EXPECT_EQ(cacheControl.toString(), header);
}

TEST(CacheControlTest, ParseIgnoresExtensions) {
  // RFC 9111 §5.2.3's example of an extension directive.
  CacheControl cacheControl = parseCacheControl("private, community=\"UCI\"");
  EXPECT_TRUE(cacheControl.isPrivate());
  EXPECT_FALSE(cacheControl.noCache());
  EXPECT_FALSE(cacheControl.isPublic());
  EXPECT_EQ(cacheControl.maxAgeSeconds(), -1);
  EXPECT_EQ(cacheControl.toString(), "private, community=\"UCI\"");
}

TEST(CacheControlTest, ParseIgnoresCaseAndWhitespace) {
  CacheControl cacheControl = parseCacheControl("  NO-CACHE ,Max-Age = 60 ,\tPUBLIC");
  EXPECT_TRUE(cacheControl.noCache());
  EXPECT_EQ(cacheControl.maxAgeSeconds(), 60);
  EXPECT_TRUE(cacheControl.isPublic());
}

TEST(CacheControlTest, ParseAcceptsSemicolonsAndQuotes) {
  CacheControl cacheControl = parseCacheControl("no-store;max-age=\"30\";no-cache=\"Set-Cookie\"");
  EXPECT_TRUE(cacheControl.noStore());
  EXPECT_EQ(cacheControl.maxAgeSeconds(), 30);
  EXPECT_TRUE(cacheControl.noCache());  // The field-name form still means no-cache.
}

TEST(CacheControlTest, QuotedValueMayHoldSeparators) {
  CacheControl cacheControl = parseCacheControl("community=\"a, max-age=5\", min-fresh=7");
  EXPECT_EQ(cacheControl.maxAgeSeconds(), -1);
  EXPECT_EQ(cacheControl.minFreshSeconds(), 7);
}

TEST(CacheControlTest, UnterminatedQuoteTakesTheRest) {
  CacheControl cacheControl = parseCacheControl("public, max-age=\"12");
  EXPECT_TRUE(cacheControl.isPublic());
  EXPECT_EQ(cacheControl.maxAgeSeconds(), 12);
}

TEST(CacheControlTest, NumbersClampAndGarbageIsAbsent) {
  EXPECT_EQ(parseCacheControl("max-age=2147483647").maxAgeSeconds(), INT_MAX);
  EXPECT_EQ(parseCacheControl("max-age=2147483648").maxAgeSeconds(), INT_MAX);
  EXPECT_EQ(parseCacheControl("max-age=99999999999999999999999999").maxAgeSeconds(), INT_MAX);
  EXPECT_EQ(parseCacheControl("max-age=-5").maxAgeSeconds(), 0);
  EXPECT_EQ(parseCacheControl("max-age=+7").maxAgeSeconds(), 7);
  EXPECT_EQ(parseCacheControl("max-age=abc").maxAgeSeconds(), -1);
  EXPECT_EQ(parseCacheControl("max-age=1.5").maxAgeSeconds(), -1);
  EXPECT_EQ(parseCacheControl("max-age=").maxAgeSeconds(), -1);
  EXPECT_EQ(parseCacheControl("max-age").maxAgeSeconds(), -1);
  EXPECT_EQ(parseCacheControl("max-age=-").maxAgeSeconds(), -1);
  EXPECT_EQ(parseCacheControl("s-maxage=x").sMaxAgeSeconds(), -1);
  EXPECT_EQ(parseCacheControl("min-fresh=x").minFreshSeconds(), -1);
}

TEST(CacheControlTest, MaxStaleWithoutValueAcceptsAnyStaleness) {
  EXPECT_EQ(parseCacheControl("max-stale").maxStaleSeconds(), INT_MAX);
  EXPECT_EQ(parseCacheControl("max-stale=junk").maxStaleSeconds(), INT_MAX);
  EXPECT_EQ(parseCacheControl("max-stale=10").maxStaleSeconds(), 10);
}

TEST(CacheControlTest, ParseStaleWhileRevalidateAndStaleIfError) {
  // RFC 5861 §3's example.
  std::string header = "max-age=600, stale-while-revalidate=30, stale-if-error=86400";
  CacheControl cacheControl = parseCacheControl(header);
  EXPECT_EQ(cacheControl.maxAgeSeconds(), 600);
  EXPECT_EQ(cacheControl.staleWhileRevalidateSeconds(), 30);
  EXPECT_EQ(cacheControl.staleIfErrorSeconds(), 86400);
  EXPECT_EQ(cacheControl.toString(), header);

  CacheControl other = parseCacheControl("Stale-If-Error = \"5\" ; STALE-WHILE-REVALIDATE=7");
  EXPECT_EQ(other.staleWhileRevalidateSeconds(), 7);
  EXPECT_EQ(other.staleIfErrorSeconds(), 5);
}

TEST(CacheControlTest, StaleDirectivesFollowMaxAgesNumberRules) {
  EXPECT_EQ(parseCacheControl("stale-while-revalidate=2147483648").staleWhileRevalidateSeconds(),
            INT_MAX);
  EXPECT_EQ(parseCacheControl("stale-while-revalidate=-3").staleWhileRevalidateSeconds(), 0);
  EXPECT_EQ(parseCacheControl("stale-while-revalidate=x").staleWhileRevalidateSeconds(), -1);
  EXPECT_EQ(parseCacheControl("stale-if-error=99999999999999").staleIfErrorSeconds(), INT_MAX);
  EXPECT_EQ(parseCacheControl("stale-if-error=-1").staleIfErrorSeconds(), 0);
  EXPECT_EQ(parseCacheControl("stale-if-error=1.5").staleIfErrorSeconds(), -1);
  // Unlike max-stale, a missing value does not mean "any": these directives require one.
  EXPECT_EQ(parseCacheControl("stale-while-revalidate").staleWhileRevalidateSeconds(), -1);
  EXPECT_EQ(parseCacheControl("stale-if-error").staleIfErrorSeconds(), -1);
  EXPECT_EQ(parseCacheControl("stale-if-error=").staleIfErrorSeconds(), -1);
}

TEST(CacheControlTest, StaleDirectivesInCanonicalForm) {
  Headers headers = Headers::of("Cache-Control", "stale-if-error=60, max-age=1", "Pragma",
                                "stale-while-revalidate=10");
  CacheControl cacheControl = CacheControl::parse(headers);
  EXPECT_EQ(cacheControl.toString(), "max-age=1, stale-while-revalidate=10, stale-if-error=60");
  CacheControl reparsed = parseCacheControl(cacheControl.toString());
  EXPECT_EQ(reparsed.staleWhileRevalidateSeconds(), 10);
  EXPECT_EQ(reparsed.staleIfErrorSeconds(), 60);
}

TEST(CacheControlTest, LastValueOfARepeatedDirectiveWins) {
  EXPECT_EQ(parseCacheControl("max-age=5, max-age=9").maxAgeSeconds(), 9);
}

TEST(CacheControlTest, CacheControlAndPragmaAreCombined) {
  Headers headers =
      Headers::of("Cache-Control", "max-age=12", "Pragma", "must-revalidate", "Pragma", "public");
  EXPECT_EQ(CacheControl::parse(headers).toString(), "max-age=12, public, must-revalidate");
}

TEST(CacheControlTest, HeaderValueIsRetained) {
  std::string value = "max-age=12 , PUBLIC";
  CacheControl cacheControl = CacheControl::parse(Headers::of("Cache-Control", value));
  EXPECT_EQ(cacheControl.toString(), value);
}

TEST(CacheControlTest, HeaderValueInvalidatedByPragma) {
  Headers headers = Headers::of("Cache-Control", "max-age=12", "Pragma", "must-revalidate");
  EXPECT_EQ(CacheControl::parse(headers).toString(), "max-age=12, must-revalidate");
}

TEST(CacheControlTest, HeaderValueInvalidatedByTwoValues) {
  Headers headers = Headers::of("Cache-Control", "max-age=12", "cache-control", "must-revalidate");
  EXPECT_EQ(CacheControl::parse(headers).toString(), "max-age=12, must-revalidate");
}

TEST(CacheControlTest, PragmaValueIsNotRetained) {
  EXPECT_EQ(CacheControl::parse(Headers::of("Pragma", "must-revalidate")).toString(),
            "must-revalidate");
  EXPECT_TRUE(CacheControl::parse(Headers::of("Pragma", "no-cache")).noCache());
}

TEST(CacheControlTest, OtherHeadersAreIgnored) {
  CacheControl cacheControl =
      CacheControl::parse(Headers::of("Expires", "no-cache", "X-Cache-Control", "no-store"));
  EXPECT_FALSE(cacheControl.noCache());
  EXPECT_FALSE(cacheControl.noStore());
  EXPECT_EQ(cacheControl.toString(), "");
}

TEST(CacheControlTest, ComputedHeaderValue) {
  CacheControl cacheControl = CacheControl::Builder().maxAge(std::chrono::days(2)).build();
  EXPECT_EQ(cacheControl.toString(), "max-age=172800");
}

TEST(CacheControlTest, DurationTruncatedToIntMax) {
  CacheControl cacheControl = CacheControl::Builder()
                                  .maxAge(std::chrono::days(365 * 100))
                                  .minFresh(std::chrono::hours::max())
                                  .build();
  EXPECT_EQ(cacheControl.maxAgeSeconds(), INT_MAX);
  EXPECT_EQ(cacheControl.minFreshSeconds(), INT_MAX);
}

TEST(CacheControlTest, PrecisionIsTruncatedToSeconds) {
  EXPECT_EQ(CacheControl::Builder().maxAge(std::chrono::milliseconds(4999)).build().maxAgeSeconds(),
            4);
  EXPECT_EQ(CacheControl::Builder()
                .maxStale(std::chrono::duration<double>(1.9))
                .build()
                .maxStaleSeconds(),
            1);
}

TEST(CacheControlTest, NegativeDurationsAreRejected) {
  auto expectMessage = [](auto action, const std::string& message) {
    try {
      action();
      ADD_FAILURE() << "expected std::invalid_argument: " << message;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(e.what(), message);
    }
  };
  expectMessage([] { CacheControl::Builder().maxAge(seconds(-1)); }, "maxAge < 0: -1");
  expectMessage([] { CacheControl::Builder().maxStale(std::chrono::minutes(-2)); },
                "maxStale < 0: -120");
  expectMessage([] { CacheControl::Builder().minFresh(seconds(-3)); }, "minFresh < 0: -3");
}

TEST(CacheControlTest, ForceNetworkIsNoCache) {
  const CacheControl& forceNetwork = CacheControl::forceNetwork();
  EXPECT_TRUE(forceNetwork.noCache());
  EXPECT_FALSE(forceNetwork.onlyIfCached());
  EXPECT_EQ(forceNetwork.toString(), "no-cache");
}

TEST(CacheControlTest, ForceCacheIsOnlyIfCachedWithAnyStaleness) {
  const CacheControl& forceCache = CacheControl::forceCache();
  EXPECT_TRUE(forceCache.onlyIfCached());
  EXPECT_EQ(forceCache.maxStaleSeconds(), INT_MAX);
  EXPECT_EQ(forceCache.toString(), "max-stale=2147483647, only-if-cached");
}

TEST(CacheControlTest, ParsedCanonicalFormParsesToTheSameDirectives) {
  Headers headers = Headers::of("Cache-Control", "no-store, max-age=5", "Pragma", "no-cache");
  CacheControl first = CacheControl::parse(headers);
  CacheControl second = CacheControl::parse(Headers::of("Cache-Control", first.toString()));
  EXPECT_EQ(second.toString(), first.toString());
  EXPECT_TRUE(second.noCache());
  EXPECT_TRUE(second.noStore());
  EXPECT_EQ(second.maxAgeSeconds(), 5);
}

TEST(CacheControlTest, ArbitraryBytesNeverCrash) {
  for (int b = 0; b < 256; ++b) {
    std::string c(1, static_cast<char>(b));
    for (std::string value : {c, "max-age=" + c, c + "=" + c, "\"" + c, "max-age=\"" + c,
                              "no-cache" + c + "max-age=1", "=" + c + ",;"}) {
      CacheControl cacheControl =
          CacheControl::parse(Headers::Builder().addLenient("Cache-Control", value).build());
      EXPECT_GE(cacheControl.maxAgeSeconds(), -1);
    }
  }
  std::string huge(1 << 20, ',');
  EXPECT_EQ(parseCacheControl(huge + "max-age=3").maxAgeSeconds(), 3);
  EXPECT_EQ(parseCacheControl("max-age=" + std::string(1 << 20, '9')).maxAgeSeconds(), INT_MAX);
}

}  // namespace
}  // namespace tern
