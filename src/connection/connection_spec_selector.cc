// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "connection/connection_spec_selector.h"

#include <string>
#include <utility>

#include "net/connection_spec_ssl.h"
#include "net/tls_failure.h"

namespace tern::internal {

ConnectionSpecSelector::ConnectionSpecSelector(std::vector<ConnectionSpec> connectionSpecs)
    : connectionSpecs_(std::move(connectionSpecs)) {}

const ConnectionSpec& ConnectionSpecSelector::configureSecureSocket(SSL* ssl) {
  const ConnectionSpec* chosen = nullptr;
  for (size_t i = nextModeIndex_; i < connectionSpecs_.size(); ++i) {
    if (isCompatible(connectionSpecs_[i], ssl)) {
      chosen = &connectionSpecs_[i];
      nextModeIndex_ = i + 1;
      break;
    }
  }
  if (chosen == nullptr) {
    std::string modes = "[";
    for (size_t i = 0; i < connectionSpecs_.size(); ++i) {
      modes += (i > 0 ? ", " : "") + connectionSpecs_[i].toString();
    }
    std::string supported = "[";
    const std::vector<TlsVersion> versions = enabledTlsVersions(ssl);
    for (size_t i = 0; i < versions.size(); ++i) {
      supported += std::string(i > 0 ? ", " : "") + std::string(javaName(versions[i]));
    }
    throw UnknownServiceException("Unable to find acceptable protocols. isFallback=" +
                                  std::string(isFallback_ ? "true" : "false") + ", modes=" + modes +
                                  "], supported protocols=" + supported + "]");
  }
  isFallbackPossible_ = isFallbackPossible(ssl);
  applyConnectionSpec(*chosen, ssl, isFallback_);
  return *chosen;
}

bool ConnectionSpecSelector::connectionFailed(const IOException& e) {
  // Any retry that follows is a fallback, whether or not this failure allows one.
  isFallback_ = true;
  if (!isFallbackPossible_) return false;
  if (dynamic_cast<const ProtocolException*>(&e) != nullptr) return false;
  // A timeout or a cancellation: the host is unreachable or the call is over, not picky.
  if (dynamic_cast<const InterruptedIOException*>(&e) != nullptr) return false;
  // An untrusted or expired certificate stays so whatever we offer.
  if (isCertificateFailure(e)) return false;
  // Hostname or pin mismatch: the server is the wrong one, not the offer.
  if (dynamic_cast<const SSLPeerUnverifiedException*>(&e) != nullptr) return false;
  return dynamic_cast<const SSLException*>(&e) != nullptr;
}

bool ConnectionSpecSelector::isFallbackPossible(const SSL* ssl) const {
  for (size_t i = nextModeIndex_; i < connectionSpecs_.size(); ++i) {
    if (isCompatible(connectionSpecs_[i], ssl)) return true;
  }
  return false;
}

}  // namespace tern::internal
