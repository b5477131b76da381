// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include "cache/cache_interceptor.h"
#include "tern/interceptor.h"

namespace tern::internal {

// Runs the cache layer's CacheInterceptor as a link of a call's chain, between the bridge and
// the connection: it gives the cache the chain, the call's cache events, and background
// revalidations made as new calls of the same client (enqueued on its dispatcher, their bodies
// read to the end and discarded).
class CacheInterceptorAdapter final : public Interceptor {
 public:
  explicit CacheInterceptorAdapter(std::shared_ptr<CacheImpl> cache) : interceptor_(cache) {}

  Response intercept(Chain& chain) override;

 private:
  CacheInterceptor interceptor_;
};

}  // namespace tern::internal
