// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "tern/certificate.h"
#include "tern/export.h"

namespace tern {

// Decides whether the certificates a TLS server presented are valid for the host name the client
// asked for (Java's javax.net.ssl.HostnameVerifier). The client calls it after the handshake
// verified the chain, and fails the connection with SSLPeerUnverifiedException when it returns
// false. The default is OkHostnameVerifier; replace it with Client::Builder's hostnameVerifier()
// only with great care. Implementations are shared between calls and must be thread-safe.
class TERN_API HostnameVerifier {
 public:
  virtual ~HostnameVerifier() = default;

  // True if `peerCertificates` (the server's chain, leaf first) identifies `host`: a canonical
  // host as HttpUrl::host() gives it ("example.com", "xn--bcher-kva.example", "127.0.0.1",
  // "::1"). False for an empty chain.
  virtual bool verify(std::string_view host,
                      const std::vector<Certificate>& peerCertificates) const = 0;

  // A verifier that calls `verify` (which must be thread-safe), for tests and special cases in one
  // line. Throws std::invalid_argument if `verify` is empty.
  static std::shared_ptr<HostnameVerifier> of(
      std::function<bool(std::string_view host, const std::vector<Certificate>& peerCertificates)>
          verify);
};

}  // namespace tern
