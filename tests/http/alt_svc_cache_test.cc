// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The per-origin Alt-Svc cache (RFC 7838 §2.2, §3, §3.1): a new field replaces what was known,
// `clear` forgets it, alternatives expire by ma, origins are kept apart and bounded in number.
#include "http/alt_svc_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace tern::internal {
namespace {

using namespace std::chrono_literals;
using TimePoint = AltSvcCache::TimePoint;

const AltSvcOrigin kOrigin{"https", "example.com", 443};
// 2026-01-01T00:00:00Z.
const TimePoint kNow = std::chrono::sys_days(std::chrono::year(2026) / 1 / 1) + 0s;

// "protocolId host:port" of each fresh alternative, for compact expectations.
std::vector<std::string> lookup(AltSvcCache& cache, const AltSvcOrigin& origin, TimePoint now,
                                std::string_view protocolId = {}) {
  std::vector<std::string> result;
  for (const AltSvcCache::Entry& entry : cache.lookup(origin, now, protocolId)) {
    result.push_back(entry.service.protocolId + " " + entry.service.host + ":" +
                     std::to_string(entry.service.port));
  }
  return result;
}

using Strings = std::vector<std::string>;

TEST(AltSvcCacheTest, EmptyCacheHasNothing) {
  AltSvcCache cache;
  EXPECT_TRUE(cache.lookup(kOrigin, kNow).empty());
  EXPECT_EQ(cache.size(), 0u);
}

TEST(AltSvcCacheTest, PutThenLookup) {
  AltSvcCache cache;
  EXPECT_TRUE(
      cache.put(kOrigin, "h3=\":443\"; ma=3600; persist=1, h2=\"alt.example.net:8443\"", kNow));
  std::vector<AltSvcCache::Entry> entries = cache.lookup(kOrigin, kNow);
  ASSERT_EQ(entries.size(), 2u);
  // An empty host is the origin's (§3).
  EXPECT_EQ(entries[0].service, (AltService{"h3", "example.com", 443, 3600s, true}));
  EXPECT_EQ(entries[0].expiresAt, kNow + 3600s);
  EXPECT_EQ(entries[1].service, (AltService{"h2", "alt.example.net", 8443, 86400s, false}));
  EXPECT_EQ(entries[1].expiresAt, kNow + 24h);
}

TEST(AltSvcCacheTest, LookupFiltersByProtocolId) {
  AltSvcCache cache;
  cache.put(kOrigin, "h3=\":443\", h3-29=\":443\", h2=\":443\", h3=\"b.example.com:443\"", kNow);
  EXPECT_EQ(lookup(cache, kOrigin, kNow, "h3"),
            (Strings{"h3 example.com:443", "h3 b.example.com:443"}));
  EXPECT_EQ(lookup(cache, kOrigin, kNow, "h3-29"), Strings{"h3-29 example.com:443"});
  EXPECT_TRUE(lookup(cache, kOrigin, kNow, "h4").empty());
  EXPECT_EQ(lookup(cache, kOrigin, kNow).size(), 4u);
}

TEST(AltSvcCacheTest, NewFieldReplacesTheOld) {
  AltSvcCache cache;
  cache.put(kOrigin, "h3=\":443\", h2=\":8443\"", kNow);
  cache.put(kOrigin, "h3-29=\":9443\"", kNow + 1s);
  EXPECT_EQ(lookup(cache, kOrigin, kNow + 1s), Strings{"h3-29 example.com:9443"});
}

TEST(AltSvcCacheTest, ClearForgetsTheOrigin) {
  AltSvcCache cache;
  cache.put(kOrigin, "h3=\":443\"", kNow);
  EXPECT_TRUE(cache.put(kOrigin, "clear", kNow + 1s));
  EXPECT_TRUE(cache.lookup(kOrigin, kNow + 1s).empty());
  EXPECT_EQ(cache.size(), 0u);

  cache.put(kOrigin, "h3=\":443\"", kNow);
  EXPECT_TRUE(cache.put(kOrigin, std::vector<std::string>{"clear"}, kNow));
  EXPECT_TRUE(cache.lookup(kOrigin, kNow).empty());
}

TEST(AltSvcCacheTest, GarbageChangesNothing) {
  AltSvcCache cache;
  cache.put(kOrigin, "h3=\":443\"", kNow);
  EXPECT_FALSE(cache.put(kOrigin, "h3=443", kNow));
  EXPECT_FALSE(cache.put(kOrigin, "", kNow));
  EXPECT_FALSE(cache.put(kOrigin, std::vector<std::string>{}, kNow));
  EXPECT_EQ(lookup(cache, kOrigin, kNow), Strings{"h3 example.com:443"});
}

TEST(AltSvcCacheTest, MalformedAlternativesAreLeftOut) {
  AltSvcCache cache;
  cache.put(kOrigin, "h3=\":0\", h2=\":8443\", h3=:443", kNow);
  EXPECT_EQ(lookup(cache, kOrigin, kNow), Strings{"h2 example.com:8443"});
}

TEST(AltSvcCacheTest, MultipleFieldLines) {
  AltSvcCache cache;
  cache.put(kOrigin, std::vector<std::string>{"h3=\":443\"", "h2=\":8443\""}, kNow);
  EXPECT_EQ(lookup(cache, kOrigin, kNow), (Strings{"h3 example.com:443", "h2 example.com:8443"}));
}

TEST(AltSvcCacheTest, AlternativesExpireByMaxAge) {
  AltSvcCache cache;
  cache.put(kOrigin, "h3=\":443\"; ma=60, h2=\":443\"; ma=120, h3-29=\":443\"", kNow);
  EXPECT_EQ(lookup(cache, kOrigin, kNow + 59s).size(), 3u);
  // Expired at received time + ma exactly.
  EXPECT_EQ(lookup(cache, kOrigin, kNow + 60s),
            (Strings{"h2 example.com:443", "h3-29 example.com:443"}));
  EXPECT_EQ(lookup(cache, kOrigin, kNow + 120s), Strings{"h3-29 example.com:443"});
  EXPECT_EQ(lookup(cache, kOrigin, kNow + 24h - 1s), Strings{"h3-29 example.com:443"});
  EXPECT_TRUE(lookup(cache, kOrigin, kNow + 24h).empty());
  EXPECT_EQ(cache.size(), 0u);  // The lookup dropped the expired origin.
}

TEST(AltSvcCacheTest, MaxAgeZeroIsStaleOnArrivalAndReplacesTheOld) {
  AltSvcCache cache;
  cache.put(kOrigin, "h3=\":443\"", kNow);
  EXPECT_TRUE(cache.put(kOrigin, "h2=\":443\"; ma=0", kNow));
  EXPECT_TRUE(cache.lookup(kOrigin, kNow).empty());
  EXPECT_EQ(cache.size(), 0u);
}

TEST(AltSvcCacheTest, HugeMaxAgeIsCappedToAYear) {
  AltSvcCache cache;
  cache.put(kOrigin, "h3=\":443\"; ma=99999999999999999999999999", kNow);
  std::vector<AltSvcCache::Entry> entries = cache.lookup(kOrigin, kNow);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].expiresAt, kNow + AltService::kMaxAgeCap);
  EXPECT_TRUE(cache.lookup(kOrigin, kNow + std::chrono::years(1)).empty());
}

TEST(AltSvcCacheTest, OriginsAreSeparateByScheme) {
  AltSvcCache cache;
  cache.put({"https", "example.com", 443}, "h3=\":443\"", kNow);
  cache.put({"http", "example.com", 443}, "h2=\":8080\"", kNow);
  EXPECT_EQ(lookup(cache, {"https", "example.com", 443}, kNow), Strings{"h3 example.com:443"});
  EXPECT_EQ(lookup(cache, {"http", "example.com", 443}, kNow), Strings{"h2 example.com:8080"});
}

TEST(AltSvcCacheTest, OriginsAreSeparateByHost) {
  AltSvcCache cache;
  cache.put({"https", "a.example.com", 443}, "h3=\":443\"", kNow);
  cache.put({"https", "b.example.com", 443}, "h3=\":8443\"", kNow);
  EXPECT_EQ(lookup(cache, {"https", "a.example.com", 443}, kNow), Strings{"h3 a.example.com:443"});
  EXPECT_EQ(lookup(cache, {"https", "b.example.com", 443}, kNow), Strings{"h3 b.example.com:8443"});
  EXPECT_TRUE(lookup(cache, {"https", "example.com", 443}, kNow).empty());  // No parent match.
  cache.put({"https", "a.example.com", 443}, "clear", kNow);
  EXPECT_EQ(lookup(cache, {"https", "b.example.com", 443}, kNow).size(), 1u);
}

TEST(AltSvcCacheTest, OriginsAreSeparateByPort) {
  AltSvcCache cache;
  cache.put({"https", "example.com", 443}, "h3=\":443\"", kNow);
  cache.put({"https", "example.com", 8443}, "h3=\":9443\"", kNow);
  EXPECT_EQ(lookup(cache, {"https", "example.com", 443}, kNow), Strings{"h3 example.com:443"});
  EXPECT_EQ(lookup(cache, {"https", "example.com", 8443}, kNow), Strings{"h3 example.com:9443"});
}

TEST(AltSvcCacheTest, OriginOfUrl) {
  AltSvcCache cache;
  AltSvcOrigin origin = AltSvcOrigin::of(HttpUrl::get("https://EXAMPLE.com/path?q"));
  EXPECT_EQ(origin, kOrigin);
  cache.put(origin, "h3=\":443\"", kNow);
  EXPECT_EQ(lookup(cache, AltSvcOrigin::of(HttpUrl::get("https://example.com:443/other")), kNow),
            Strings{"h3 example.com:443"});
  EXPECT_EQ(AltSvcOrigin::of(HttpUrl::get("http://[::1]:8080/")),
            (AltSvcOrigin{"http", "::1", 8080}));
}

TEST(AltSvcCacheTest, RemoveForgetsOneOrigin) {
  AltSvcCache cache;
  cache.put({"https", "a.example.com", 443}, "h3=\":443\"", kNow);
  cache.put({"https", "b.example.com", 443}, "h3=\":443\"", kNow);
  cache.remove({"https", "a.example.com", 443});
  EXPECT_TRUE(cache.lookup({"https", "a.example.com", 443}, kNow).empty());
  EXPECT_EQ(cache.lookup({"https", "b.example.com", 443}, kNow).size(), 1u);
}

TEST(AltSvcCacheTest, OriginsAreBoundedEvictingTheOldest) {
  AltSvcCache cache(3);
  auto origin = [](int i) { return AltSvcOrigin{"https", "o" + std::to_string(i), 443}; };
  for (int i = 0; i < 3; ++i) cache.put(origin(i), "h3=\":443\"", kNow);
  // Putting o0 again makes it the newest: o1 is now the oldest.
  cache.put(origin(0), "h3=\":8443\"", kNow);
  cache.put(origin(3), "h3=\":443\"", kNow);
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_TRUE(cache.lookup(origin(1), kNow).empty());
  EXPECT_EQ(lookup(cache, origin(0), kNow), Strings{"h3 o0:8443"});
  EXPECT_EQ(cache.lookup(origin(2), kNow).size(), 1u);
  EXPECT_EQ(cache.lookup(origin(3), kNow).size(), 1u);

  // A flood of origins leaves the bound and the newest ones.
  for (int i = 4; i < 10000; ++i) cache.put(origin(i), "h3=\":443\"", kNow);
  EXPECT_EQ(cache.size(), 3u);
  for (int i = 9997; i < 10000; ++i) EXPECT_EQ(cache.lookup(origin(i), kNow).size(), 1u) << i;
}

TEST(AltSvcCacheTest, ClearAndGarbageDoNotEvict) {
  AltSvcCache cache(2);
  cache.put({"https", "a", 443}, "h3=\":443\"", kNow);
  cache.put({"https", "b", 443}, "h3=\":443\"", kNow);
  cache.put({"https", "c", 443}, "clear", kNow);
  cache.put({"https", "d", 443}, "junk", kNow);
  cache.put({"https", "e", 443}, "h3=\":443\"; ma=0", kNow);
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.lookup({"https", "a", 443}, kNow).size(), 1u);
  EXPECT_EQ(cache.lookup({"https", "b", 443}, kNow).size(), 1u);
}

TEST(AltSvcCacheTest, GenerationMovesWhenWhatIsKnownChangesNotWhenRenewed) {
  AltSvcCache cache;
  uint64_t start = cache.generation();
  cache.put(kOrigin, "h3=\":443\"", kNow);
  EXPECT_EQ(cache.generation(), start + 1);
  cache.put(kOrigin, "h3=\":443\"", kNow + 1h);  // The same service, a later expiry.
  cache.put(kOrigin, "h3=\":443\"; ma=60", kNow + 1h);
  EXPECT_EQ(cache.generation(), start + 1);
  cache.put(kOrigin, "h3=\":443\"", kNow + 2h, Protocol::HTTP_3);  // Heard over h3 now.
  EXPECT_EQ(cache.generation(), start + 2);
  cache.put(kOrigin, "h3=\":8443\"", kNow + 2h);
  EXPECT_EQ(cache.generation(), start + 3);
  cache.put(kOrigin, "garbage", kNow + 2h);                     // Taken as nothing.
  cache.put({"https", "unknown.example", 443}, "clear", kNow);  // Nothing to forget.
  cache.remove({"https", "unknown.example", 443});
  EXPECT_EQ(cache.generation(), start + 3);
  cache.put(kOrigin, "clear", kNow + 2h);
  EXPECT_EQ(cache.generation(), start + 4);
}

TEST(AltSvcCacheTest, RecordsListOriginsOldestFirstWithFreshAlternatives) {
  AltSvcCache cache;
  cache.put({"https", "a", 443}, "h3=\":443\"; ma=60, h2=\":8443\"", kNow, Protocol::HTTP_1_1);
  cache.put({"https", "b", 443}, "h3=\":443\"; ma=30", kNow);
  std::vector<AltSvcCache::Record> records = cache.records(kNow + 40s);
  ASSERT_EQ(records.size(), 1u);  // b has nothing fresh.
  EXPECT_EQ(records[0].origin, (AltSvcOrigin{"https", "a", 443}));
  ASSERT_EQ(records[0].entries.size(), 2u);
  EXPECT_EQ(records[0].entries[0].service.protocolId, "h3");
  EXPECT_EQ(records[0].entries[0].source, Protocol::HTTP_1_1);
  EXPECT_EQ(records[0].entries[1].expiresAt, kNow + 24h);
}

TEST(AltSvcCacheTest, AddAppendsReplacesTheSameServiceAndIsBounded) {
  AltSvcCache cache;
  auto entry = [](std::string protocolId, int port, TimePoint expiresAt) {
    AltService service;
    service.protocolId = std::move(protocolId);
    service.host = "example.com";
    service.port = port;
    return AltSvcCache::Entry{service, expiresAt};
  };
  cache.add(kOrigin, entry("h3", 443, kNow + 1h), kNow);
  cache.add(kOrigin, entry("h2", 443, kNow + 1h), kNow);
  cache.add(kOrigin, entry("h3", 443, kNow + 2h), kNow);  // Replaces the first.
  cache.add(kOrigin, entry("h3", 9443, kNow), kNow);      // Expired: not kept.
  std::vector<AltSvcCache::Entry> entries = cache.lookup(kOrigin, kNow);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].expiresAt, kNow + 2h);
  EXPECT_EQ(entries[1].service.protocolId, "h2");
  for (int port = 1; port < 200; ++port) cache.add(kOrigin, entry("h3", port, kNow + 1h), kNow);
  EXPECT_EQ(cache.lookup(kOrigin, kNow).size(), AltSvcField::kMaxAlternatives);
}

TEST(AltSvcCacheTest, ConcurrentPutsAndLookups) {
  AltSvcCache cache(16);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&cache, t] {
      for (int i = 0; i < 2000; ++i) {
        AltSvcOrigin origin{"https", "h" + std::to_string((i + t) % 32), 443};
        if (i % 3 == 0) {
          cache.put(origin, "h3=\":443\"; ma=60, h2=\":443\"", kNow);
        } else if (i % 7 == 0) {
          cache.put(origin, "clear", kNow);
        } else {
          for (const AltSvcCache::Entry& entry : cache.lookup(origin, kNow + 30s)) {
            EXPECT_EQ(entry.service.host, origin.host);
          }
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_LE(cache.size(), 16u);
}

}  // namespace
}  // namespace tern::internal
