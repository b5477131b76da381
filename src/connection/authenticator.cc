// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/authenticator.h"

#include <stdexcept>
#include <utility>

namespace tern {
namespace {

class NoAuthenticator final : public Authenticator {
 public:
  std::optional<Request> authenticate(const Route*, const Response&) override {
    return std::nullopt;
  }
};

class LambdaAuthenticator final : public Authenticator {
 public:
  explicit LambdaAuthenticator(
      std::function<std::optional<Request>(const Route*, const Response&)> authenticate)
      : authenticate_(std::move(authenticate)) {}
  std::optional<Request> authenticate(const Route* route, const Response& response) override {
    return authenticate_(route, response);
  }

 private:
  std::function<std::optional<Request>(const Route*, const Response&)> authenticate_;
};

}  // namespace

const std::shared_ptr<Authenticator>& Authenticator::none() {
  static const std::shared_ptr<Authenticator> kNone = std::make_shared<NoAuthenticator>();
  return kNone;
}

std::shared_ptr<Authenticator> Authenticator::of(
    std::function<std::optional<Request>(const Route* route, const Response& response)>
        authenticate) {
  if (!authenticate) throw std::invalid_argument("Authenticator::of: authenticate is empty");
  return std::make_shared<LambdaAuthenticator>(std::move(authenticate));
}

}  // namespace tern
