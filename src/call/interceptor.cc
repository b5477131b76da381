// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/interceptor.h"

#include <stdexcept>
#include <utility>

namespace tern {
namespace {

class LambdaInterceptor final : public Interceptor {
 public:
  explicit LambdaInterceptor(std::function<Response(Chain&)> intercept)
      : intercept_(std::move(intercept)) {}
  Response intercept(Chain& chain) override { return intercept_(chain); }

 private:
  std::function<Response(Chain&)> intercept_;
};

}  // namespace

std::shared_ptr<Interceptor> Interceptor::of(std::function<Response(Chain& chain)> intercept) {
  if (!intercept) throw std::invalid_argument("Interceptor::of: intercept is empty");
  return std::make_shared<LambdaInterceptor>(std::move(intercept));
}

}  // namespace tern
