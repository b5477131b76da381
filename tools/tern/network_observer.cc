// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "network_observer.h"

#include <string>
#include <utility>

#include "exit_code.h"
#include "message_text.h"

namespace tern::tool {

NetworkObserver::NetworkObserver(std::vector<std::string> droppedHeaders,
                                 std::optional<int64_t> maxRedirects)
    : droppedHeaders_(std::move(droppedHeaders)), maxRedirects_(maxRedirects) {}

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

Response NetworkObserver::intercept(Chain& chain) {
  Request request = chain.request();
  if (!droppedHeaders_.empty()) {
    Request::Builder builder = request.newBuilder();
    for (const std::string& name : droppedHeaders_) {
      builder.removeHeader(name);
    }
    request = builder.build();
  }

  const Call* call = &chain.call();
  Response response = chain.proceed(request);

  std::string head =
      responseHead(response.protocol(), response.code(), response.message(), response.headers());
  std::lock_guard lock(mutex_);
  ExchangeLog& log = logs_[call];
  log.responseHeads.push_back(std::move(head));

  if (response.isRedirect() && response.header("Location")) {
    if (maxRedirects_ && *maxRedirects_ >= 0 && log.redirects >= *maxRedirects_) {
      throw TooManyRedirectsException(*maxRedirects_);
    }
    ++log.redirects;
  }
  return response;
}

}  // namespace tern::tool
