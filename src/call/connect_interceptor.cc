// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/connect_interceptor.h"

#include "call/real_call.h"
#include "call/real_interceptor_chain.h"
#include "connection/exchange.h"

namespace tern::internal {

Response ConnectInterceptor::intercept(Chain& chain) {
  auto& realChain = static_cast<RealInterceptorChain&>(chain);
  std::shared_ptr<Exchange> exchange = realChain.realCall().initExchange(realChain);
  RealInterceptorChain connectedChain = realChain.withExchange(std::move(exchange));
  return connectedChain.proceed(realChain.request());
}

}  // namespace tern::internal
