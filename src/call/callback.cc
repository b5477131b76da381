// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/callback.h"

#include <stdexcept>
#include <utility>

namespace tern {
namespace {

class LambdaCallback final : public Callback {
 public:
  LambdaCallback(std::function<void(Call&, Response)> onResponse,
                 std::function<void(Call&, const IOException&)> onFailure)
      : onResponse_(std::move(onResponse)), onFailure_(std::move(onFailure)) {}
  void onFailure(Call& call, const IOException& e) override { onFailure_(call, e); }
  void onResponse(Call& call, Response response) override {
    onResponse_(call, std::move(response));
  }

 private:
  std::function<void(Call&, Response)> onResponse_;
  std::function<void(Call&, const IOException&)> onFailure_;
};

}  // namespace

std::shared_ptr<Callback> Callback::of(
    std::function<void(Call& call, Response response)> onResponse,
    std::function<void(Call& call, const IOException& e)> onFailure) {
  if (!onResponse) throw std::invalid_argument("Callback::of: onResponse is empty");
  if (!onFailure) throw std::invalid_argument("Callback::of: onFailure is empty");
  return std::make_shared<LambdaCallback>(std::move(onResponse), std::move(onFailure));
}

}  // namespace tern
