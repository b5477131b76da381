// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "network_observer.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "message_text.h"
#include "request_factory.h"
#include "tern/buffer.h"
#include "tern/request_body.h"

namespace tern::tool {
namespace {

// A request body that shows its bytes on a DebugOutput as it is written, in pieces of curl's
// upload buffer size (64 KiB).
class TracedRequestBody final : public RequestBody {
 public:
  TracedRequestBody(std::shared_ptr<RequestBody> body, std::shared_ptr<DebugOutput> debug)
      : body_(std::move(body)), debug_(std::move(debug)) {}

  std::optional<MediaType> contentType() const override { return body_->contentType(); }
  int64_t contentLength() const override { return body_->contentLength(); }
  bool isDuplex() const override { return body_->isDuplex(); }
  bool isOneShot() const override { return body_->isOneShot(); }

  void writeTo(BufferedSink& sink) override {
    Buffer buffer;
    body_->writeTo(buffer);
    std::vector<std::byte> bytes = buffer.snapshot();
    std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    constexpr size_t kUploadBufferSize = size_t{64} * 1024;
    for (size_t start = 0; start < text.size(); start += kUploadBufferSize) {
      debug_->dataOut(text.substr(start, kUploadBufferSize));
    }
    sink.write(buffer, buffer.size());
  }

 private:
  const std::shared_ptr<RequestBody> body_;
  const std::shared_ptr<DebugOutput> debug_;
};

}  // namespace

class NetworkObserver::CacheSide final : public Interceptor {
 public:
  explicit CacheSide(std::shared_ptr<NetworkObserver> observer) : observer_(std::move(observer)) {}

  Response intercept(Chain& chain) override {
    const Call& call = chain.call();
    size_t before = observer_->headCount(call);
    Response response = chain.proceed(chain.request());
    // No network response: a hit, a stale response standing in for a failure, or the 504 of
    // only-if-cached. A 304 with a cached response: validated. Either way the caller gets a
    // head no exchange received as it is.
    const Response* network = response.networkResponse();
    bool validated = network != nullptr && network->code() == 304 && response.cacheResponse();
    if (network == nullptr || validated) observer_->replaceHeads(call, before, response);
    return response;
  }

 private:
  const std::shared_ptr<NetworkObserver> observer_;
};

NetworkObserver::NetworkObserver(const Options& options, std::shared_ptr<DebugOutput> debug)
    : options_(options), debug_(std::move(debug)) {}

void NetworkObserver::begin(const Call& call) {
  std::lock_guard lock(mutex_);
  logs_[&call] = ExchangeLog();
}

ExchangeLog NetworkObserver::take(const Call& call) {
  std::lock_guard lock(mutex_);
  auto it = logs_.find(&call);
  if (it == logs_.end()) return ExchangeLog();
  ExchangeLog result = std::move(it->second);
  logs_.erase(it);
  return result;
}

std::shared_ptr<Interceptor> NetworkObserver::cacheSide() {
  return std::make_shared<CacheSide>(shared_from_this());
}

size_t NetworkObserver::headCount(const Call& call) {
  std::lock_guard lock(mutex_);
  auto it = logs_.find(&call);
  return it == logs_.end() ? 0 : it->second.responseHeads.size();
}

void NetworkObserver::replaceHeads(const Call& call, size_t from, const Response& served) {
  std::string head =
      responseHead(served.protocol(), served.code(), served.message(), served.headers());
  std::lock_guard lock(mutex_);
  auto it = logs_.find(&call);
  if (it == logs_.end()) return;  // Not a transfer's call: the cache's background revalidation.
  std::vector<std::string>& heads = it->second.responseHeads;
  heads.resize(std::min(heads.size(), from));
  heads.push_back(std::move(head));
}

Response NetworkObserver::intercept(Chain& chain) {
  const Request& sent = chain.request();
  bool placeholder = sent.body() == placeholderBody();
  Request::Builder builder = sent.newBuilder();
  builder.headers(curlRequestHeaders(sent.headers(), options_, placeholder));
  if (debug_ && sent.body() && !placeholder) {
    builder.method(sent.method(), std::make_shared<TracedRequestBody>(sent.body(), debug_));
  }
  Request request = builder.build();

  const Call* call = &chain.call();
  Response response = chain.proceed(request);

  std::string head =
      responseHead(response.protocol(), response.code(), response.message(), response.headers());
  std::lock_guard lock(mutex_);
  logs_[call].responseHeads.push_back(std::move(head));
  return response;
}

}  // namespace tern::tool
