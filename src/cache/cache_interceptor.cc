// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "cache/cache_interceptor.h"

#include <chrono>
#include <exception>
#include <filesystem>
#include <functional>
#include <utility>

#include "cache/cache_entry.h"
#include "cache/cache_strategy.h"
#include "cache/relay.h"
#include "http/message_framing.h"
#include "io/discard.h"
#include "tern/buffer.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"

namespace tern::internal {

// Copies the network body into the cache as the caller reads it (OkHttp's
// cacheWritingResponse): the entry is committed when the body reaches its end and abandoned if
// the body fails or is closed early. A cache write that fails only stops the copying.
class CacheWritingSource final : public Source {
 public:
  static constexpr std::chrono::milliseconds kDiscardTimeout{100};

  CacheWritingSource(ResponseBody body, std::unique_ptr<CacheRequest> cacheRequest)
      : body_(std::move(body)), cacheRequest_(std::move(cacheRequest)) {}

  // Runs once the body is closed (after the entry was committed or abandoned).
  void onClose(std::function<void()> onClose) { onClose_ = std::move(onClose); }

  ~CacheWritingSource() override { close(); }

  int64_t read(Buffer& sink, int64_t byteCount) override {
    int64_t bytesRead;
    try {
      bytesRead = body_.source().read(sink, byteCount);
    } catch (...) {
      abortCache();
      throw;
    }
    if (bytesRead == -1) {
      if (cacheRequest_) {
        cacheRequest_->commit();
        cacheRequest_.reset();
      }
      return -1;
    }
    if (cacheRequest_) {
      try {
        Buffer copy;
        sink.copyTo(copy, sink.size() - bytesRead, bytesRead);
        cacheRequest_->body().write(copy, bytesRead);
      } catch (const std::exception&) {
        abortCache();  // The caller still gets every byte.
      }
    }
    return bytesRead;
  }

  Timeout& timeout() override { return body_.source().timeout(); }

  void close() override {
    // Closed before its end (a redirect's body, a caller that read enough): finish it quickly
    // if it is nearly there, so the entry is stored anyway, as OkHttp does.
    if (cacheRequest_ && !discard(*this, kDiscardTimeout)) abortCache();
    abortCache();
    body_.close();
    if (onClose_) std::exchange(onClose_, nullptr)();
  }

 private:
  void abortCache() {
    if (!cacheRequest_) return;
    cacheRequest_->abort();
    cacheRequest_.reset();
  }

  ResponseBody body_;
  std::unique_ptr<CacheRequest> cacheRequest_;
  std::function<void()> onClose_;
};

// Reads a source others also hold (the relay's view of the cache-writing source).
class SharedSource final : public Source {
 public:
  explicit SharedSource(std::shared_ptr<Source> source) : source_(std::move(source)) {}
  int64_t read(Buffer& sink, int64_t byteCount) override { return source_->read(sink, byteCount); }
  Timeout& timeout() override { return source_->timeout(); }
  void close() override { source_->close(); }

 private:
  std::shared_ptr<Source> source_;
};

namespace {

int64_t nowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The most recent bytes of a shared body kept in memory; readers further behind read the file.
constexpr int64_t kRelayBufferSize = 64 * 1024;

Response withBody(Response response, ResponseBody body) {
  return std::move(response).newBuilder().body(std::move(body)).build();
}

// `response` as served from the cache: its request is the caller's, and cacheResponse() is
// itself without a body.
Response servedFromCache(Response cached, const Request& request) {
  Response stripped = stripBody(cached);
  return std::move(cached).newBuilder().request(request).cacheResponse(std::move(stripped)).build();
}

bool isServerError(int code) { return code >= 500 && code < 600; }

// The request to validate a response that could be served, for a background revalidation:
// the strategy for a reload ("max-age=0"), with the caller's own Cache-Control kept.
std::optional<Request> revalidationRequest(int64_t now, const Request& request,
                                           const Response& cached) {
  Request reload = request.newBuilder().header("Cache-Control", "max-age=0").build();
  CacheStrategy strategy = CacheStrategy::compute(now, reload, &cached);
  if (!strategy.networkRequest) return std::nullopt;
  Request::Builder builder = strategy.networkRequest->newBuilder().removeHeader("Cache-Control");
  for (const std::string& value : request.headers("Cache-Control")) {
    builder.addHeader("Cache-Control", value);
  }
  return std::move(builder).build();
}

}  // namespace

Response CacheInterceptor::intercept(CacheChain& chain) {
  const Request& request = chain.request();
  Request cacheRequest = requestForCache(request);
  std::optional<CachedResponse> candidate = cache_->get(cacheRequest);
  int64_t now = nowMillis();
  CacheStrategy strategy =
      CacheStrategy::compute(now, request, candidate ? &candidate->response : nullptr);
  const bool revalidation = request.tag<CacheRevalidation>() != nullptr;
  if (revalidation && candidate && strategy.useCacheResponse && !strategy.networkRequest) {
    strategy.networkRequest = revalidationRequest(now, request, candidate->response);
    strategy.revalidateInBackground = false;
    if (!strategy.networkRequest) strategy.useCacheResponse = false;
  }
  cache_->trackResponse(strategy);
  if (candidate && !strategy.useCacheResponse) {
    candidate.reset();  // Closes its body and snapshot.
  }

  if (!strategy.networkRequest && !candidate) {
    // Forbidden from using the network, and the cache is not enough.
    Response response = Response::Builder()
                            .request(request)
                            .protocol(Protocol::HTTP_1_1)
                            .code(504)
                            .message("Unsatisfiable Request (only-if-cached)")
                            .body(ResponseBody::create(std::string()))
                            .sentRequestAtMillis(-1)
                            .receivedResponseAtMillis(now)
                            .build();
    chain.satisfactionFailure(response);
    return response;
  }

  if (!strategy.networkRequest) {
    Response response = servedFromCache(std::move(candidate->response), request);
    chain.cacheHit(response);
    if (strategy.revalidateInBackground && cache_->beginRevalidation(candidate->key)) {
      chain.revalidateInBackground(request.newBuilder().tag(CacheRevalidation{}).build());
    }
    return response;
  }

  // A plain miss of a GET may share a fetch another call is making (collapsed requests).
  std::optional<Lead> lead;
  if (!candidate && !revalidation && request.method() == "GET" && cacheRequest.method() == "GET" &&
      !request.body()) {
    std::string key = cacheKey(cacheRequest.url());
    bool leader = false;
    std::shared_ptr<SharedFetch> fetch = cache_->joinOrLeadFetch(key, request, leader);
    if (leader) {
      // The fetch this call would have joined may have ended (and stored its response) since
      // the lookup above: look again before going to the network.
      if (std::optional<CachedResponse> stored = cache_->get(cacheRequest)) {
        CacheStrategy again = CacheStrategy::compute(nowMillis(), request, &stored->response);
        if (!again.networkRequest && again.useCacheResponse) {
          cache_->endFetch(key, fetch);
          cache_->trackSharedHit();
          Response response = servedFromCache(std::move(stored->response), request);
          chain.cacheHit(response);
          return response;
        }
      }
      lead.emplace(Lead{std::move(key), std::move(fetch)});
    } else if (std::optional<Response> shared = joinFetch(chain, fetch)) {
      return std::move(*shared);
    }
  }

  if (candidate) {
    chain.cacheConditionalHit(candidate->response);
  } else {
    chain.cacheMiss();
  }
  std::string revalidatedKey = revalidation ? cacheKey(cacheRequest.url()) : std::string();
  try {
    Response response = networkWithCache(chain, *strategy.networkRequest, std::move(candidate),
                                         strategy.usableOnError, lead);
    if (revalidation) cache_->endRevalidation(revalidatedKey);
    if (lead) cache_->endFetch(lead->key, lead->fetch);  // Not shared: followers go on alone.
    return response;
  } catch (...) {
    if (revalidation) cache_->endRevalidation(revalidatedKey);
    if (lead) cache_->endFetch(lead->key, lead->fetch);
    throw;
  }
}

std::optional<Response> CacheInterceptor::joinFetch(CacheChain& chain,
                                                    const std::shared_ptr<SharedFetch>& fetch) {
  const Request& request = chain.request();
  auto shared = cache_->awaitFetch(fetch, chain.cancelCheck());
  if (!shared) return std::nullopt;  // The leader's response was not shared.
  auto& [head, relay] = *shared;
  // Served only if the stored response is one the cache could serve this request now.
  CacheStrategy strategy = CacheStrategy::compute(nowMillis(), request, &head);
  if (strategy.networkRequest || !strategy.useCacheResponse) return std::nullopt;
  std::unique_ptr<Source> source = relay->newSource(chain.cancelCheck());
  if (!source) return std::nullopt;  // Every reader left and the fetch was abandoned.
  std::optional<MediaType> contentType;
  if (std::optional<std::string> type = head.header("Content-Type")) {
    contentType = MediaType::parse(*type);
  }
  int64_t contentLength = -1;
  try {
    contentLength = internal::contentLength(head.headers());
  } catch (const ProtocolException&) {
    // Unknown length: the relay's end is the body's end.
  }
  ResponseBody body(tern::buffer(std::move(source)), std::move(contentType), contentLength);
  Response stripped = stripBody(head);
  Response response = std::move(head)
                          .newBuilder()
                          .request(request)
                          .body(std::move(body))
                          .cacheResponse(std::move(stripped))
                          .build();
  cache_->trackSharedHit();
  chain.cacheHit(response);
  return response;
}

Response CacheInterceptor::networkWithCache(CacheChain& chain, const Request& networkRequest,
                                            std::optional<CachedResponse> cached,
                                            bool usableOnError, std::optional<Lead>& lead) {
  const Request& request = chain.request();
  std::optional<Response> networkResponse;
  try {
    networkResponse.emplace(chain.proceed(networkRequest));
  } catch (...) {
    // stale-if-error: the stored response stands in for a network that failed, unless the call
    // itself was canceled.
    if (!cached || !usableOnError || chain.isCanceled() ||
        !chain.isNetworkFailure(std::current_exception())) {
      throw;
    }
    chain.networkFailed();
    Response response = servedFromCache(std::move(cached->response), request);
    chain.cacheHit(response);
    return response;
  }

  if (cached) {
    if (networkResponse->code() == 304) {
      // RFC 9111 §4.3.4: the stored response, its headers updated by the 304's.
      Response& stored = cached->response;
      Response stripped = stripBody(stored);
      Response networkStripped = stripBody(*networkResponse);
      Response response =
          std::move(stored)
              .newBuilder()
              .request(request)
              .headers(combineHeaders(stripped.headers(), networkResponse->headers()))
              .sentRequestAtMillis(networkResponse->sentRequestAtMillis())
              .receivedResponseAtMillis(networkResponse->receivedResponseAtMillis())
              .cacheResponse(std::move(stripped))
              .networkResponse(std::move(networkStripped))
              .build();
      networkResponse.reset();  // Closes the 304's (empty) body, releasing the connection.
      cache_->trackConditionalCacheHit();
      Response forStore = stripBody(response);
      forStore = std::move(forStore).newBuilder().request(requestForCache(networkRequest)).build();
      cache_->update(*cached, forStore);
      chain.cacheHit(response);
      return response;
    }
    if (usableOnError && isServerError(networkResponse->code())) {
      networkResponse.reset();
      Response response = servedFromCache(std::move(cached->response), request);
      chain.cacheHit(response);
      return response;
    }
  }

  std::optional<Response> cacheStripped;
  if (cached) cacheStripped.emplace(stripBody(cached->response));
  cached.reset();  // The network's answer replaces the stored one.
  Response networkStripped = stripBody(*networkResponse);
  Response response = std::move(*networkResponse)
                          .newBuilder()
                          .cacheResponse(std::move(cacheStripped))
                          .networkResponse(std::move(networkStripped))
                          .build();
  if (cacheStripped) chain.cacheMiss();  // Was a conditional hit; the entry is being replaced.
  return storeIfCacheable(chain, networkRequest, std::move(response), lead);
}

Response CacheInterceptor::storeIfCacheable(CacheChain& chain, const Request& networkRequest,
                                            Response response, std::optional<Lead>& lead) {
  Request cacheNetworkRequest = requestForCache(networkRequest);
  bool cacheableMethod = cacheNetworkRequest.method() == "GET";
  if (cacheableMethod && response.body() && promisesBody(response) &&
      CacheStrategy::isCacheable(response, cacheNetworkRequest)) {
    Response head = stripBody(response);
    head = std::move(head).newBuilder().request(cacheNetworkRequest).build();
    std::unique_ptr<CacheRequest> cacheRequest = cache_->put(head);
    if (!cacheRequest) return response;
    ResponseBody networkBody = std::move(*response.body());
    std::optional<MediaType> contentType = networkBody.contentType();
    int64_t contentLength = networkBody.contentLength();
    auto upstream =
        std::make_unique<CacheWritingSource>(std::move(networkBody), std::move(cacheRequest));
    std::unique_ptr<Source> source;
    if (lead && response.isSuccessful()) {
      // Only a 2xx is shared: a redirect's or an error's body is the call's own business, and
      // a follow-up needs the exchange closed.
      source = shareFetch(chain, head, std::move(upstream), *lead);
      lead.reset();  // Shared: the relay ends the fetch when its upstream closes.
    } else {
      source = std::move(upstream);
    }
    ResponseBody body(tern::buffer(std::move(source)), std::move(contentType), contentLength);
    return withBody(std::move(response), std::move(body));
  }
  if (invalidatesCache(networkRequest.method()) && cacheNetworkRequest.method() != "GET") {
    invalidate(networkRequest, response);
  }
  return response;
}

std::unique_ptr<Source> CacheInterceptor::shareFetch(CacheChain& chain, const Response& head,
                                                     std::unique_ptr<CacheWritingSource> upstream,
                                                     const Lead& lead) {
  std::shared_ptr<CacheWritingSource> shared = std::move(upstream);
  std::shared_ptr<Relay> relay;
  try {
    std::filesystem::path file = cache_->newRelayFile(lead.key);
    relay = Relay::edit(file, std::make_unique<SharedSource>(shared), lead.key, kRelayBufferSize);
    std::error_code ignored;
    std::filesystem::remove(file, ignored);  // The relay keeps it open; a crash leaves nothing.
  } catch (const IOException&) {
    // No relay file: this call reads alone, and the others use the network.
    cache_->endFetch(lead.key, lead.fetch);
    return std::make_unique<SharedSource>(std::move(shared));
  }
  shared->onClose([cache = cache_, lead] { cache->endFetch(lead.key, lead.fetch); });
  std::unique_ptr<Source> source = relay->newSource(chain.cancelCheck());
  chain.shareExchange();
  cache_->shareFetch(lead.fetch, stripBody(head), relay);
  return source;
}

void CacheInterceptor::invalidate(const Request& networkRequest, const Response& response) {
  // RFC 9111 §4.4: after a non-error response to an unsafe method, the target URI and the
  // same-origin Location and Content-Location URIs.
  int code = response.code();
  if (code < 200 || code >= 400) return;
  const HttpUrl& url = networkRequest.url();
  cache_->remove(url);
  for (const char* name : {"Location", "Content-Location"}) {
    std::optional<std::string> value = response.header(name);
    if (!value) continue;
    std::optional<HttpUrl> target = url.resolve(*value);
    if (target && target->scheme() == url.scheme() && target->host() == url.host() &&
        target->port() == url.port()) {
      cache_->remove(*target);
    }
  }
}

}  // namespace tern::internal
