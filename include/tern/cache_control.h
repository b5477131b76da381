// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "tern/export.h"
#include "tern/headers.h"

namespace tern {

// The cache directives of a request or response (RFC 9111 §5.2): what may be stored and which
// stored responses may answer a request. Immutable; safe to share between threads.
//
// Durations are whole seconds, -1 when the directive is absent. Parsed values larger than INT_MAX
// become INT_MAX (RFC 9111 §1.2.2); negative values become 0; values that are not numbers count
// as absent, except that a max-stale without a usable number means "any staleness" (INT_MAX).
class TERN_API CacheControl {
 public:
  class Builder;

  // The directives of `headers`' Cache-Control fields, plus those of Pragma fields (HTTP/1.0
  // caches sent "Pragma: no-cache"). Unknown directives are ignored. Never throws.
  static CacheControl parse(const Headers& headers);

  // OkHttp's FORCE_NETWORK: "no-cache", so the response is validated with the server (a cached
  // response may still help through a conditional GET).
  static const CacheControl& forceNetwork();

  // OkHttp's FORCE_CACHE: "only-if-cached, max-stale=2147483647", so only the cache answers, even
  // with a stale response; when it cannot, the call gets a 504.
  static const CacheControl& forceCache();

  // In a response, "no-cache" means the response may be stored but must be validated before each
  // use. In a request, it means a cached response must not answer without validation.
  bool noCache() const noexcept { return noCache_; }

  // The response must not be stored in any cache.
  bool noStore() const noexcept { return noStore_; }

  // How long past its date a response is fresh, in seconds; -1 if absent.
  int maxAgeSeconds() const noexcept { return maxAgeSeconds_; }

  // "s-maxage": the max age for shared caches; -1 if absent. Like browsers, tern's private cache
  // does not honor it.
  int sMaxAgeSeconds() const noexcept { return sMaxAgeSeconds_; }

  bool isPrivate() const noexcept { return isPrivate_; }
  bool isPublic() const noexcept { return isPublic_; }
  bool mustRevalidate() const noexcept { return mustRevalidate_; }

  // How stale a cached response the request accepts, in seconds; -1 if absent.
  int maxStaleSeconds() const noexcept { return maxStaleSeconds_; }

  // How much longer a cached response must stay fresh to be used, in seconds; -1 if absent.
  int minFreshSeconds() const noexcept { return minFreshSeconds_; }

  // "only-if-cached" really means "don't use the network": the request is answered from the cache
  // or not at all (504).
  bool onlyIfCached() const noexcept { return onlyIfCached_; }

  bool noTransform() const noexcept { return noTransform_; }

  // The response will not change while fresh (RFC 8246), so it is never revalidated early.
  bool immutable() const noexcept { return immutable_; }

  // "stale-while-revalidate" (RFC 5861 §3): in a response, how long after it goes stale a cache
  // may still serve it while revalidating it in the background, in seconds; -1 if absent.
  int staleWhileRevalidateSeconds() const noexcept { return staleWhileRevalidateSeconds_; }

  // "stale-if-error" (RFC 5861 §4): how long after it goes stale a cached response may still be
  // served when the server fails (a 5xx or a network error), in seconds; -1 if absent. In a
  // request, how much staleness the client accepts in that case.
  int staleIfErrorSeconds() const noexcept { return staleIfErrorSeconds_; }

  // The header value: the received text when it came from exactly one Cache-Control field and no
  // Pragma, else the directives in canonical form ("no-cache, max-age=60"); "" when there are none.
  const std::string& toString() const noexcept { return headerValue_; }

 private:
  CacheControl() = default;
  std::string canonicalHeaderValue() const;

  bool noCache_ = false;
  bool noStore_ = false;
  int maxAgeSeconds_ = -1;
  int sMaxAgeSeconds_ = -1;
  bool isPrivate_ = false;
  bool isPublic_ = false;
  bool mustRevalidate_ = false;
  int maxStaleSeconds_ = -1;
  int minFreshSeconds_ = -1;
  bool onlyIfCached_ = false;
  bool noTransform_ = false;
  bool immutable_ = false;
  int staleWhileRevalidateSeconds_ = -1;
  int staleIfErrorSeconds_ = -1;
  std::string headerValue_;
};

// Builds the Cache-Control directives of a request. Not thread-safe; methods chain.
class TERN_API CacheControl::Builder {
 public:
  // Don't accept a cached response without validating it with the server.
  Builder& noCache();

  // Don't store the server's response in any cache.
  Builder& noStore();

  // Only accept a cached response; a 504 if there is none.
  Builder& onlyIfCached();

  // Don't accept a transformed response.
  Builder& noTransform();

  Builder& immutable();

  // Don't accept a cached response older than `maxAge`. Sent in whole seconds (finer precision is
  // truncated), at most INT_MAX. Throws std::invalid_argument if negative.
  template <typename Rep, typename Period>
  Builder& maxAge(std::chrono::duration<Rep, Period> maxAge) {
    maxAgeSeconds_ = checkedSeconds("maxAge", toSeconds(maxAge));
    return *this;
  }

  // Accept a cached response up to `maxStale` past its freshness lifetime. Whole seconds, at most
  // INT_MAX. Throws std::invalid_argument if negative.
  template <typename Rep, typename Period>
  Builder& maxStale(std::chrono::duration<Rep, Period> maxStale) {
    maxStaleSeconds_ = checkedSeconds("maxStale", toSeconds(maxStale));
    return *this;
  }

  // Only accept a cached response that stays fresh for at least `minFresh` more. Whole seconds, at
  // most INT_MAX. Throws std::invalid_argument if negative.
  template <typename Rep, typename Period>
  Builder& minFresh(std::chrono::duration<Rep, Period> minFresh) {
    minFreshSeconds_ = checkedSeconds("minFresh", toSeconds(minFresh));
    return *this;
  }

  CacheControl build() const;

 private:
  // Whole seconds of `d`, truncated toward zero, saturating instead of overflowing.
  template <typename Rep, typename Period>
  static int64_t toSeconds(std::chrono::duration<Rep, Period> d) {
    long double seconds = std::chrono::duration_cast<std::chrono::duration<long double>>(d).count();
    if (std::isnan(seconds)) {
      return 0;
    }
    if (seconds >= 9.0e18L) {
      return std::numeric_limits<int64_t>::max();
    }
    if (seconds <= -9.0e18L) {
      return std::numeric_limits<int64_t>::min();
    }
    return static_cast<int64_t>(seconds);
  }

  // Throws for a negative value; clamps to INT_MAX.
  static int checkedSeconds(const char* what, int64_t seconds);

  bool noCache_ = false;
  bool noStore_ = false;
  int maxAgeSeconds_ = -1;
  int maxStaleSeconds_ = -1;
  int minFreshSeconds_ = -1;
  bool onlyIfCached_ = false;
  bool noTransform_ = false;
  bool immutable_ = false;
};

}  // namespace tern
