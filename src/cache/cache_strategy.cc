// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "cache/cache_strategy.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "http/http_syntax.h"
#include "io/ascii.h"
#include "tern/cache_control.h"

namespace tern::internal {
namespace {

constexpr int64_t kMillisPerSecond = 1000;

// Saturating arithmetic: the fetch times come from a cache file and the dates from a server, so
// neither may overflow our sums into a response that looks fresh.
int64_t plus(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_add_overflow(a, b, &result)) {
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return result;
}

int64_t minus(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_sub_overflow(a, b, &result)) {
    return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return result;
}

int64_t secondsToMillis(int seconds) { return int64_t{seconds} * kMillisPerSecond; }

int64_t toMillis(std::chrono::system_clock::time_point instant) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(instant.time_since_epoch()).count();
}

// The Age header's delta-seconds (RFC 9111 §5.1): the first member of a list ("Age: 10, 20"
// reads as 10), capped at INT_MAX; nullopt when absent or not a number, so it is ignored.
std::optional<int64_t> parseAgeSeconds(const Headers& headers) {
  std::vector<std::string> values = headers.values("Age");
  if (values.empty()) {
    return std::nullopt;
  }
  std::string_view text = values.front();
  text = trimAsciiWhitespace(text.substr(0, text.find(',')));
  if (text.empty()) {
    return std::nullopt;
  }
  int64_t seconds = 0;
  for (char c : text) {
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    seconds = std::min<int64_t>(seconds * 10 + (c - '0'), INT_MAX);
  }
  return seconds;
}

// A value we may put back on the wire: no control characters but HTAB. Stored validators came
// from a server or a cache file, and must never split the conditional request's header lines.
bool isSendableFieldValue(std::string_view value) {
  return std::none_of(value.begin(), value.end(), [](char c) {
    auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && byte != '\t') || byte == 0x7f;
  });
}

// What RFC 9111 §4.2 reads of a stored response: its clocks and its validators.
class StoredResponse {
 public:
  StoredResponse(int64_t nowMillis, const Response& response)
      : response_(response),
        caching_(response.cacheControl()),
        receivedMillis_(response.receivedResponseAtMillis()) {
    const Headers& headers = response.headers();
    if (auto date = headers.getDate("Date")) {
      dateMillis_ = toMillis(*date);
    }
    // Current age, §4.2.3. Without a Date the response is dated when it arrived (RFC 9110
    // §6.6.1), so its apparent age is 0; the response delay still counts, through the Age.
    int64_t dateValue = dateMillis_.value_or(receivedMillis_);
    int64_t apparentAge = std::max<int64_t>(0, minus(receivedMillis_, dateValue));
    int64_t responseDelay =
        std::max<int64_t>(0, minus(receivedMillis_, response.sentRequestAtMillis()));
    int64_t ageValue = parseAgeSeconds(headers).value_or(0) * kMillisPerSecond;
    int64_t correctedInitialAge = std::max(apparentAge, plus(ageValue, responseDelay));
    int64_t residentTime = std::max<int64_t>(0, minus(nowMillis, receivedMillis_));
    ageMillis_ = plus(correctedInitialAge, residentTime);
    lifetimeMillis_ = computeFreshnessLifetime(headers);
  }

  const CacheControl& caching() const { return caching_; }
  int64_t ageMillis() const { return ageMillis_; }
  // How long the response is fresh for, from its Date, per the response alone.
  int64_t lifetimeMillis() const { return lifetimeMillis_; }

  // True if the response is still fresh, or stale by less than `seconds` (-1: not at all).
  bool staleByLessThan(int seconds) const {
    return seconds != -1 && ageMillis_ < plus(lifetimeMillis_, secondsToMillis(seconds));
  }

  // The request header that asks the server whether the stored response is still current,
  // as (name, value): its ETag, else its Last-Modified, else its Date; nullopt with none.
  std::optional<std::pair<std::string_view, std::string>> condition() const {
    const Headers& headers = response_.headers();
    if (auto etag = headers.get("ETag"); etag && isSendableFieldValue(*etag)) {
      return std::pair{std::string_view("If-None-Match"), std::move(*etag)};
    }
    for (std::string_view dateField : {"Last-Modified", "Date"}) {
      // The server's own text: a date we reformatted might not compare equal on its side.
      if (headers.getDate(dateField)) {
        std::string text = *headers.get(dateField);
        if (isSendableFieldValue(text)) {
          return std::pair{std::string_view("If-Modified-Since"), std::move(text)};
        }
      }
    }
    return std::nullopt;
  }

 private:
  // Freshness lifetime, §4.2.1. s-maxage is for shared caches, so this private cache ignores it.
  int64_t computeFreshnessLifetime(const Headers& headers) const {
    if (caching_.maxAgeSeconds() != -1) {
      return secondsToMillis(caching_.maxAgeSeconds());
    }
    int64_t dateValue = dateMillis_.value_or(receivedMillis_);
    if (headers.get("Expires")) {
      // §5.3: an Expires that is not a date ("0") means already expired, and it is still an
      // explicit expiration time, so no heuristic applies.
      auto expires = headers.getDate("Expires");
      return expires ? std::max<int64_t>(0, minus(toMillis(*expires), dateValue)) : 0;
    }
    // §4.2.2's heuristic, 10% of the time since the last change, as browsers do. Like OkHttp we
    // don't guess for URLs with a query, which are more often answers computed per request.
    auto lastModified = headers.getDate("Last-Modified");
    if (lastModified && !response_.request().url().encodedQuery()) {
      return std::max<int64_t>(0, minus(dateValue, toMillis(*lastModified))) / 10;
    }
    return 0;
  }

  const Response& response_;
  CacheControl caching_;
  int64_t receivedMillis_;
  std::optional<int64_t> dateMillis_;
  int64_t ageMillis_ = 0;
  int64_t lifetimeMillis_ = 0;
};

CacheStrategy networkOnly(const Request& request) {
  CacheStrategy strategy;
  strategy.networkRequest = request;
  return strategy;
}

// The strategy as if the request may use the network.
CacheStrategy computeCandidate(int64_t nowMillis, const Request& request,
                               const CacheControl& requestCaching, const Response* cacheResponse) {
  if (cacheResponse == nullptr) {
    return networkOnly(request);
  }
  // An https response must come from a verified connection; an entry without one is unusable.
  if (request.isHttps() && !cacheResponse->handshake()) {
    return networkOnly(request);
  }
  // Should never have been stored; redundant as long as the store applies the same rules. The
  // stored request's no-store counts, not this one's: RFC 9111 §5.2.1.5 lets a request with
  // no-store be answered from the cache.
  if (!CacheStrategy::isCacheable(*cacheResponse, cacheResponse->request())) {
    return networkOnly(request);
  }
  // The caller wants the server's answer, or brings its own validators: a 304 to those is the
  // caller's to handle, and ours would not match what it asked.
  if (requestCaching.noCache() || hasConditions(request)) {
    return networkOnly(request);
  }

  StoredResponse stored(nowMillis, *cacheResponse);
  const CacheControl& responseCaching = stored.caching();
  int64_t ageMillis = stored.ageMillis();

  // §5.2.1: the request may ask for a younger response (max-age; RFC 8246 §2: not of an
  // immutable one, which would only be revalidated to the same bytes), one that stays fresh
  // longer (min-fresh), or accept a stale one (max-stale, unless the response forbids it).
  int64_t freshMillis = stored.lifetimeMillis();
  if (requestCaching.maxAgeSeconds() != -1 && !responseCaching.immutable()) {
    freshMillis = std::min(freshMillis, secondsToMillis(requestCaching.maxAgeSeconds()));
  }
  int64_t minFreshMillis = requestCaching.minFreshSeconds() != -1
                               ? secondsToMillis(requestCaching.minFreshSeconds())
                               : 0;
  int64_t maxStaleMillis = 0;
  if (requestCaching.maxStaleSeconds() != -1 && !responseCaching.mustRevalidate()) {
    maxStaleMillis = secondsToMillis(requestCaching.maxStaleSeconds());
  }

  // §4.2.4: no-cache and must-revalidate forbid serving the response stale, whatever the
  // stale-* extensions of RFC 5861 say.
  bool mayServeStale = !responseCaching.noCache() && !responseCaching.mustRevalidate();
  // stale-while-revalidate is the server's permission, not the client's: a request that sets
  // max-age or min-fresh has said how fresh it wants the answer (§5.2.1.1: without max-stale,
  // "the client does not wish to receive a stale response").
  bool withinStaleWhileRevalidate =
      mayServeStale && requestCaching.maxAgeSeconds() == -1 &&
      requestCaching.minFreshSeconds() == -1 &&
      stored.staleByLessThan(responseCaching.staleWhileRevalidateSeconds());
  bool usableOnError =
      mayServeStale && stored.staleByLessThan(std::max(responseCaching.staleIfErrorSeconds(),
                                                       requestCaching.staleIfErrorSeconds()));

  if (!responseCaching.noCache() &&
      (plus(ageMillis, minFreshMillis) < plus(freshMillis, maxStaleMillis) ||
       withinStaleWhileRevalidate)) {
    CacheStrategy strategy;
    strategy.useCacheResponse = true;
    // RFC 5861 §3: whenever we serve it stale within that window, refresh it for next time.
    strategy.revalidateInBackground = withinStaleWhileRevalidate &&
                                      ageMillis >= stored.lifetimeMillis() &&
                                      !requestCaching.onlyIfCached();
    strategy.usableOnError = usableOnError;
    return strategy;
  }

  auto condition = stored.condition();
  if (!condition) {
    return networkOnly(request);  // Nothing to validate with: a plain request.
  }
  // hasConditions() said the request has neither header, so adding one replaces nothing.
  Headers headers =
      request.headers().newBuilder().addLenient(condition->first, condition->second).build();
  CacheStrategy strategy;
  strategy.networkRequest = request.newBuilder().headers(headers).build();
  strategy.useCacheResponse = true;
  strategy.usableOnError = usableOnError;
  return strategy;
}

// Hop-by-hop fields (RFC 9110 §7.6.1) describe one connection, never the stored response.
bool isEndToEnd(std::string_view name) {
  for (std::string_view hopByHop :
       {"Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization", "TE", "Trailers",
        "Transfer-Encoding", "Upgrade"}) {
    if (equalsIgnoreCase(name, hopByHop)) {
      return false;
    }
  }
  return true;
}

// Fields that describe the stored body, which a 304 does not carry.
bool isContentSpecific(std::string_view name) {
  return equalsIgnoreCase(name, "Content-Length") || equalsIgnoreCase(name, "Content-Encoding") ||
         equalsIgnoreCase(name, "Content-Type");
}

}  // namespace

CacheStrategy CacheStrategy::compute(int64_t nowMillis, const Request& request,
                                     const Response* cacheResponse) {
  CacheControl requestCaching = request.cacheControl();
  CacheStrategy candidate = computeCandidate(nowMillis, request, requestCaching, cacheResponse);
  // §5.2.1.7: only-if-cached forbids the network, and the cache alone is not enough.
  if (candidate.networkRequest && requestCaching.onlyIfCached()) {
    return CacheStrategy{};
  }
  return candidate;
}

bool CacheStrategy::isCacheable(const Response& response, const Request& request) {
  CacheControl responseCaching = response.cacheControl();
  switch (response.code()) {
    // Heuristically cacheable (RFC 9110 §15.1) or otherwise understood; no partial content (206)
    // since we don't combine ranges.
    case 200:
    case 203:
    case 204:
    case 300:
    case 301:
    case 308:
    case 404:
    case 405:
    case 410:
    case 414:
    case 501:
      break;
    // RFC 9111 §3: others only with explicit freshness or a directive allowing storage.
    // s-maxage is for shared caches, so it does not make a response storable here.
    case 302:
    case 307:
      if (!response.header("Expires") && responseCaching.maxAgeSeconds() == -1 &&
          !responseCaching.isPublic() && !responseCaching.isPrivate()) {
        return false;
      }
      break;
    default:
      return false;
  }
  return !responseCaching.noStore() && !request.cacheControl().noStore();
}

Headers combineHeaders(const Headers& cachedHeaders, const Headers& networkHeaders) {
  Headers::Builder result;
  for (const auto& [name, value] : cachedHeaders) {
    // 1xx warnings described the stored response's freshness, which the 304 just renewed.
    if (equalsIgnoreCase(name, "Warning") && value.starts_with('1')) {
      continue;
    }
    if (isContentSpecific(name) || !isEndToEnd(name) || !networkHeaders.get(name)) {
      result.addLenient(name, value);
    }
  }
  for (const auto& [name, value] : networkHeaders) {
    if (!isContentSpecific(name) && isEndToEnd(name)) {
      result.addLenient(name, value);
    }
  }
  return std::move(result).build();
}

bool hasConditions(const Request& request) {
  return request.header("If-Modified-Since") || request.header("If-None-Match");
}

bool invalidatesCache(std::string_view method) {
  return method == "POST" || method == "PATCH" || method == "PUT" || method == "DELETE" ||
         method == "MOVE";
}

}  // namespace tern::internal
