// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/hostname_verifier.h"

#include <stdexcept>
#include <utility>

namespace tern {
namespace {

class FunctionHostnameVerifier final : public HostnameVerifier {
 public:
  explicit FunctionHostnameVerifier(
      std::function<bool(std::string_view, const std::vector<Certificate>&)> verify)
      : verify_(std::move(verify)) {}

  bool verify(std::string_view host,
              const std::vector<Certificate>& peerCertificates) const override {
    return verify_(host, peerCertificates);
  }

 private:
  std::function<bool(std::string_view, const std::vector<Certificate>&)> verify_;
};

}  // namespace

std::shared_ptr<HostnameVerifier> HostnameVerifier::of(
    std::function<bool(std::string_view host, const std::vector<Certificate>& peerCertificates)>
        verify) {
  if (!verify) throw std::invalid_argument("HostnameVerifier::of: empty function");
  return std::make_shared<FunctionHostnameVerifier>(std::move(verify));
}

}  // namespace tern
