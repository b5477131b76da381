// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/ssl.h>

#include <cstddef>
#include <vector>

#include "tern/connection_spec.h"
#include "tern/exceptions.h"

namespace tern::internal {

// Chooses the ConnectionSpec for each TLS connection attempt to one route, and whether a failed
// handshake may be retried with the next one, as OkHttp's ConnectionSpecSelector. The first
// attempt uses the first spec OpenSSL can honour; after a handshake failure that a different offer
// could fix (see connectionFailed()), the next compatible spec is tried on a new connection, with
// the TLS_FALLBACK_SCSV signal so that a server that could have done better refuses the downgrade
// (RFC 7507). Used by one call on its thread.
class ConnectionSpecSelector {
 public:
  explicit ConnectionSpecSelector(std::vector<ConnectionSpec> connectionSpecs);

  // Narrows `ssl` to the next compatible spec and returns it. Throws UnknownServiceException
  // ("Unable to find acceptable protocols. isFallback=false, modes=[...], supported
  // protocols=[TLSv1.3, TLSv1.2]") if no spec left is compatible with what OpenSSL offers.
  const ConnectionSpec& configureSecureSocket(SSL* ssl);

  // Reports that the handshake with the last spec failed with `e`. Returns true if a retry with
  // the next spec may succeed: there is one, and `e` is a TLS failure other than a certificate
  // problem, an identity check (SSLPeerUnverifiedException), a protocol violation or an
  // interruption (OkHttp's retryTlsHandshake).
  bool connectionFailed(const IOException& e);

  bool isFallback() const noexcept { return isFallback_; }

 private:
  bool isFallbackPossible(const SSL* ssl) const;

  std::vector<ConnectionSpec> connectionSpecs_;
  size_t nextModeIndex_ = 0;
  bool isFallbackPossible_ = false;
  bool isFallback_ = false;
};

}  // namespace tern::internal
