// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "cache/cache_interceptor.h"

#include <chrono>
#include <exception>
#include <utility>

#include "cache/cache_entry.h"
#include "cache/cache_strategy.h"
#include "http/message_framing.h"
#include "tern/buffer.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

int64_t nowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Copies the network body into the cache as the caller reads it (OkHttp's
// cacheWritingResponse): the entry is committed when the body reaches its end and abandoned if
// the body fails or is closed early. A cache write that fails only stops the copying.
class CacheWritingSource final : public Source {
 public:
  CacheWritingSource(ResponseBody body, std::unique_ptr<CacheRequest> cacheRequest)
      : body_(std::move(body)), cacheRequest_(std::move(cacheRequest)) {}

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
    abortCache();
    body_.close();
  }

 private:
  void abortCache() {
    if (!cacheRequest_) return;
    cacheRequest_->abort();
    cacheRequest_.reset();
  }

  ResponseBody body_;
  std::unique_ptr<CacheRequest> cacheRequest_;
};

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
      chain.revalidateInBackground(
          request.newBuilder().tag(CacheRevalidation{}).build());
    }
    return response;
  }

  if (candidate) {
    chain.cacheConditionalHit(candidate->response);
  } else {
    chain.cacheMiss();
  }
  std::string revalidatedKey = revalidation ? cacheKey(cacheRequest.url()) : std::string();
  try {
    Response response = networkWithCache(chain, *strategy.networkRequest, std::move(candidate),
                                         strategy.usableOnError);
    if (revalidation) cache_->endRevalidation(revalidatedKey);
    return response;
  } catch (...) {
    if (revalidation) cache_->endRevalidation(revalidatedKey);
    throw;
  }
}

Response CacheInterceptor::networkWithCache(CacheChain& chain, const Request& networkRequest,
                                            std::optional<CachedResponse> cached,
                                            bool usableOnError) {
  const Request& request = chain.request();
  std::optional<Response> networkResponse;
  try {
    networkResponse.emplace(chain.proceed(networkRequest));
  } catch (const IOException&) {
    // stale-if-error: the stored response stands in for a network that failed, unless the call
    // itself was canceled.
    if (!cached || !usableOnError || chain.isCanceled()) throw;
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
  return storeIfCacheable(networkRequest, std::move(response));
}

Response CacheInterceptor::storeIfCacheable(const Request& networkRequest, Response response) {
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
    ResponseBody body(
        tern::buffer(std::make_unique<CacheWritingSource>(std::move(networkBody),
                                                          std::move(cacheRequest))),
        std::move(contentType), contentLength);
    return withBody(std::move(response), std::move(body));
  }
  if (invalidatesCache(networkRequest.method()) && cacheNetworkRequest.method() != "GET") {
    invalidate(networkRequest, response);
  }
  return response;
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
