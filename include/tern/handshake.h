// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tern/certificate.h"
#include "tern/cipher_suite.h"
#include "tern/export.h"
#include "tern/tls_version.h"

namespace tern {

// A record of a completed TLS handshake, as OkHttp's Handshake: the version and cipher suite the
// two sides settled on and the certificates each presented. For a client the server is the
// *peer* and the client *local*. Response::handshake() and Connection::handshake() return one
// for https; MockWebServer's RecordedRequest::handshake() for a request that came over TLS.
//
// The peer's certificates are the chain as the connection verified it (cleaned: leaf first, each
// signed by the next, up to a trusted root when the chain was verified). An immutable value,
// cheap to copy.
class TERN_API Handshake {
 public:
  Handshake(TlsVersion tlsVersion, CipherSuite cipherSuite,
            std::vector<Certificate> peerCertificates, std::vector<Certificate> localCertificates);

  // OkHttp's Handshake.get(...): the same as the constructor.
  static Handshake get(TlsVersion tlsVersion, CipherSuite cipherSuite,
                       std::vector<Certificate> peerCertificates,
                       std::vector<Certificate> localCertificates);

  TlsVersion tlsVersion() const noexcept { return tlsVersion_; }
  const CipherSuite& cipherSuite() const noexcept { return cipherSuite_; }

  // The certificates that identify the peer, leaf first; empty if it sent none.
  const std::vector<Certificate>& peerCertificates() const noexcept { return peerCertificates_; }

  // The certificates this side presented, leaf first; empty if none (no mutual TLS).
  const std::vector<Certificate>& localCertificates() const noexcept { return localCertificates_; }

  // The subject of the first peer certificate, as an RFC 2253 name ("CN=localhost"), or nullopt
  // if the peer is anonymous.
  std::optional<std::string> peerPrincipal() const;

  // The subject of the first local certificate, or nullopt.
  std::optional<std::string> localPrincipal() const;

  bool operator==(const Handshake& other) const;

  // "Handshake{tlsVersion=TLS_1_3 cipherSuite=TLS_AES_128_GCM_SHA256
  // peerCertificates=[CN=localhost] localCertificates=[]}".
  std::string toString() const;

 private:
  TlsVersion tlsVersion_;
  CipherSuite cipherSuite_;
  std::vector<Certificate> peerCertificates_;
  std::vector<Certificate> localCertificates_;
};

}  // namespace tern
