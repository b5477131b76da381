// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "cache/cache_impl.h"
#include "tern/request.h"
#include "tern/response.h"

namespace tern::internal {

// What the cache interceptor needs of the call it runs in: the rest of the chain, the call's
// cache events, and a way to start a background revalidation. The call layer implements it
// (src/call/cache_interceptor_adapter), so this layer never sees a Call or a Client.
class CacheChain {
 public:
  virtual ~CacheChain() = default;

  // The request as the cache received it (after the bridge: Host, Accept-Encoding, cookies).
  virtual const Request& request() const = 0;
  // Sends `request` on: the connection, network interceptors and the server.
  virtual Response proceed(const Request& request) = 0;
  // True if `failure`, thrown by proceed(), means the network could not answer (an
  // IOException, or a failure to connect as the call layer reports it).
  virtual bool isNetworkFailure(std::exception_ptr failure) const = 0;
  virtual bool isCanceled() const = 0;
  // isCanceled() for later: the returned function stays valid after the chain is gone (for a
  // body that reads a shared fetch).
  virtual std::function<bool()> cancelCheck() const = 0;
  // The network response of this call is now shared with other calls (collapsed GETs): from
  // here on, canceling this call must not break its exchange, only this call's own reading.
  virtual void shareExchange() = 0;
  // proceed() failed and the cache answers instead (stale-if-error): the failed exchange is
  // over; release what it held.
  virtual void networkFailed() = 0;

  // EventListener's cache events, for the call.
  virtual void cacheHit(const Response& response) = 0;
  virtual void cacheMiss() = 0;
  virtual void cacheConditionalHit(const Response& cachedResponse) = 0;
  virtual void satisfactionFailure(const Response& response) = 0;

  // Starts a call of `request` in the background whose only purpose is to refresh the cache
  // (stale-while-revalidate): it must reach this cache again, carrying the CacheRevalidation
  // tag, and its body is read to the end and discarded. Never throws.
  virtual void revalidateInBackground(Request request) = 0;
};

class CacheWritingSource;

// The tag on a background revalidation's request: the cache validates the stored response with
// the server even though it could serve it.
struct CacheRevalidation {};

// Serves requests from the cache and stores responses in it, as OkHttp's CacheInterceptor
// (RFC 9111; see CacheStrategy for the rules): a fresh hit never reaches the network (cacheHit);
// a stale entry is validated with a conditional request (cacheConditionalHit, then cacheHit on
// a 304, whose headers update the entry); a miss goes to the network (cacheMiss) and a
// cacheable response's body is stored as the caller reads it (stored once read to its end;
// closing it early abandons the entry). only-if-cached without a usable entry is a 504
// (satisfactionFailure). A successful unsafe method invalidates the URL and a same-origin
// Location or Content-Location (RFC 9111 §4.4). stale-while-revalidate serves the stale entry
// and revalidates once in the background; stale-if-error serves it when the network fails or
// answers 5xx. A failing cache never fails the call.
//
// Collapsed requests: a GET that misses while an identical one (same URL and headers) is being
// fetched waits for that fetch's response head instead of going to the network. If the response
// is stored and fresh for it, it reads the body through a Relay as it arrives (reported as
// cacheHit); otherwise it makes its own request.
class CacheInterceptor final {
 public:
  explicit CacheInterceptor(std::shared_ptr<CacheImpl> cache) : cache_(std::move(cache)) {}

  Response intercept(CacheChain& chain);

 private:
  // A fetch this call leads, for collapsing.
  struct Lead {
    std::string key;
    std::shared_ptr<SharedFetch> fetch;
  };
  // The response of a fetch another call leads, or nullopt to use the network.
  std::optional<Response> joinFetch(CacheChain& chain, const std::shared_ptr<SharedFetch>& fetch);
  Response networkWithCache(CacheChain& chain, const Request& networkRequest,
                            std::optional<CachedResponse> cached, bool usableOnError,
                            std::optional<Lead>& lead);
  Response storeIfCacheable(CacheChain& chain, const Request& networkRequest, Response response,
                            std::optional<Lead>& lead);
  void invalidate(const Request& networkRequest, const Response& response);
  // Puts the leader's body behind a relay other calls read; returns this call's reader.
  std::unique_ptr<Source> shareFetch(CacheChain& chain, const Response& head,
                                     std::unique_ptr<CacheWritingSource> upstream,
                                     const Lead& lead);

  std::shared_ptr<CacheImpl> cache_;
};

}  // namespace tern::internal
