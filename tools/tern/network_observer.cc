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

void NetworkObserver::begin() { log_ = ExchangeLog(); }

Response NetworkObserver::intercept(Chain& chain) {
  Request request = chain.request();
  if (!droppedHeaders_.empty()) {
    Request::Builder builder = request.newBuilder();
    for (const std::string& name : droppedHeaders_) {
      builder.removeHeader(name);
    }
    request = builder.build();
  }

  Response response = chain.proceed(request);

  log_.responseHeads.push_back(
      responseHead(response.protocol(), response.code(), response.message(), response.headers()));

  if (response.isRedirect() && response.header("Location")) {
    if (maxRedirects_ && *maxRedirects_ >= 0 && log_.redirects >= *maxRedirects_) {
      throw TooManyRedirectsException(*maxRedirects_);
    }
    ++log_.redirects;
  }
  return response;
}

}  // namespace tern::tool
