// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/cache_interceptor_adapter.h"

#include <limits>
#include <utility>

#include "call/real_call.h"
#include "call/real_interceptor_chain.h"
#include "connection/route_exception.h"
#include "tern/callback.h"

namespace tern::internal {
namespace {

class CallCacheChain final : public CacheChain {
 public:
  explicit CallCacheChain(Interceptor::Chain& chain)
      : chain_(chain), call_(static_cast<RealInterceptorChain&>(chain).realCall()) {}

  const Request& request() const override { return chain_.request(); }
  Response proceed(const Request& request) override { return chain_.proceed(request); }
  bool isCanceled() const override { return call_.isCanceled(); }
  bool isNetworkFailure(std::exception_ptr failure) const override {
    try {
      std::rethrow_exception(failure);
    } catch (const IOException&) {
      return true;
    } catch (const RouteException&) {
      return true;  // Every route failed to connect.
    } catch (...) {
      return false;
    }
  }
  std::function<bool()> cancelCheck() const override {
    return [call = std::weak_ptr<RealCall>(call_.shared_from_this())] {
      std::shared_ptr<RealCall> alive = call.lock();
      return alive && alive->isCanceled();
    };
  }
  void shareExchange() override { call_.shareExchange(); }
  void networkFailed() override { call_.exitNetworkInterceptorExchange(true); }

  void cacheHit(const Response& response) override {
    call_.event([&](EventListener& listener) { listener.cacheHit(call_, response); });
  }
  void cacheMiss() override {
    call_.event([&](EventListener& listener) { listener.cacheMiss(call_); });
  }
  void cacheConditionalHit(const Response& cachedResponse) override {
    call_.event(
        [&](EventListener& listener) { listener.cacheConditionalHit(call_, cachedResponse); });
  }
  void satisfactionFailure(const Response& response) override {
    call_.event([&](EventListener& listener) { listener.satisfactionFailure(call_, response); });
  }

  void revalidateInBackground(Request request) override {
    try {
      call_.client()
          .newCall(std::move(request))
          ->enqueue(Callback::of(
              [](Call&, Response response) {
                if (ResponseBody* body = response.body()) {
                  try {
                    body->source().skip(std::numeric_limits<int64_t>::max());
                  } catch (const std::exception&) {
                    // The stored response stays as it was.
                  }
                }
              },
              [](Call&, const IOException&) {}));
    } catch (const std::exception&) {
      // A client that is shut down revalidates nothing.
    }
  }

 private:
  Interceptor::Chain& chain_;
  RealCall& call_;
};

}  // namespace

Response CacheInterceptorAdapter::intercept(Chain& chain) {
  CallCacheChain cacheChain(chain);
  return interceptor_.intercept(cacheChain);
}

}  // namespace tern::internal
