// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "network_observer.h"

#include <string>
#include <utility>

#include "message_text.h"
#include "request_factory.h"

namespace tern::tool {

NetworkObserver::NetworkObserver(const Options& options) : options_(options) {}

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
  const Request& sent = chain.request();
  Request request =
      sent.newBuilder()
          .headers(curlRequestHeaders(sent.headers(), options_, sent.body() == placeholderBody()))
          .build();

  const Call* call = &chain.call();
  Response response = chain.proceed(request);

  std::string head =
      responseHead(response.protocol(), response.code(), response.message(), response.headers());
  std::lock_guard lock(mutex_);
  logs_[call].responseHeads.push_back(std::move(head));
  return response;
}

}  // namespace tern::tool
