// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "tern/headers.h"
#include "tern/request.h"
#include "tern/response.h"

namespace tern::internal {

// What a private cache does with a request given the response it holds for it (OkHttp's
// CacheStrategy, RFC 9111 for a private cache, plus RFC 5861's stale-while-revalidate and
// stale-if-error). Pure: it reads headers and clocks, never the disk or the network.
//
// The outcomes, as (networkRequest, useCacheResponse):
//  - (nullopt, true): serve the cached response as is (fresh, or stale within what the request's
//    max-stale or the response's stale-while-revalidate allow);
//  - (request, true): validate it: `networkRequest` is the caller's request plus If-None-Match
//    (from ETag) or If-Modified-Since (from Last-Modified, else Date); a 304 means "serve the
//    cached response with merged headers", anything else replaces it;
//  - (request, false): the cache cannot help; send the caller's request unchanged;
//  - (nullopt, false): only-if-cached could not be satisfied: the caller answers 504.
struct CacheStrategy {
  // The request to send, or nullopt to stay off the network.
  std::optional<Request> networkRequest;
  // Whether the cached response is used (served, or validated by networkRequest).
  bool useCacheResponse = false;
  // Served stale under stale-while-revalidate (RFC 5861 §3): the caller should revalidate it
  // once, in the background. Only with (nullopt, true).
  bool revalidateInBackground = false;
  // The cached response may be served instead of a network failure (an IOException) or a 5xx
  // answer (stale-if-error, RFC 5861 §4, from the response's or the request's directive). Only
  // with useCacheResponse, and never when must-revalidate or no-cache forbid serving it stale.
  bool usableOnError = false;

  // The strategy at `nowMillis` (milliseconds since the Unix epoch) for `request`, given
  // `cacheResponse`: the stored response for the request's key, already matched against the
  // request's method and Vary (or null). Its sentRequestAtMillis() and
  // receivedResponseAtMillis() are when it was fetched.
  //
  // Rules, in order (RFC 9111 section in brackets):
  //  - no cached response, an https request whose cached response has no handshake, a cached
  //    response that may not be stored (isCacheable, with the stored request: a request's own
  //    no-store does not stop it being answered from the cache, §5.2.1.5), a request with
  //    no-cache or its own conditions (hasConditions): the network, unchanged;
  //  - age per §4.2.3: max(apparent age from Date, Age + response delay) + resident time (OkHttp
  //    adds the response delay to the apparent age too); a list-valued Age uses its first member
  //    and an invalid one is ignored. Freshness lifetime per §4.2.1: max-age (s-maxage is for
  //    shared caches, ignored), else Expires − Date (an Expires that is not a date, such as "0",
  //    means already expired, §5.3), else the heuristic of §4.2.2 (10% of Date − Last-Modified)
  //    when the URL has no query. A missing Date is the receive time (RFC 9110 §6.6.1), for the
  //    heuristic too (OkHttp uses the send time there). The request's max-age caps the
  //    lifetime, min-fresh adds to the age, max-stale (unless the response says
  //    must-revalidate) allows staleness; immutable responses are fresh for their whole
  //    lifetime even when the request says max-age=0;
  //  - fresh enough: serve it. Stale within the response's stale-while-revalidate: serve it,
  //    unless no-cache or must-revalidate, or the request sets max-age or min-fresh (it asked
  //    for a fresh answer, §5.2.1.1). revalidateInBackground is set whenever the response
  //    served is stale within that window (also when max-stale let it out), but never under
  //    only-if-cached;
  //  - else validate it with ETag / Last-Modified / Date (as the server wrote them; a value
  //    with control characters is skipped); with none of them, the network unchanged;
  //  - a request with only-if-cached that would need the network: (nullopt, false).
  // usableOnError holds while the response is stale by less than the larger of the response's
  // and the request's stale-if-error, measured from the response's own lifetime.
  static CacheStrategy compute(int64_t nowMillis, const Request& request,
                               const Response* cacheResponse);

  // Whether `response` to `request` may be stored (RFC 9111 §3): the codes heuristically
  // cacheable or understood (200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501), or 302 and
  // 307 with Expires, max-age, public or private; never with no-store on the request or the
  // response.
  static bool isCacheable(const Response& response, const Request& request);
};

// The headers of a stored response updated by a 304 (RFC 9111 §4.3.4), as OkHttp's
// CacheInterceptor.combine: the stored fields, except the 304's replace those of the same name
// (but never Content-Length, Content-Encoding or Content-Type, which describe the stored body);
// the 304's hop-by-hop fields (Connection, Transfer-Encoding, ...) are ignored; Warning 1xx values
// are dropped.
Headers combineHeaders(const Headers& cachedHeaders, const Headers& networkHeaders);

// True if `request` carries its own validators (If-Modified-Since or If-None-Match): the cache
// then neither serves nor validates for it (OkHttp's hasConditions).
bool hasConditions(const Request& request);

// True for the methods whose success invalidates stored responses (RFC 9111 §4.4): POST, PATCH,
// PUT, DELETE, MOVE (OkHttp's HttpMethod.invalidatesCache).
bool invalidatesCache(std::string_view method);

}  // namespace tern::internal
