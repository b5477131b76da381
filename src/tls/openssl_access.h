// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The internal bridge between tern's certificate types and OpenSSL: the TLS socket, the engine and
// MockWebServer reach the X509 / EVP_PKEY inside a Certificate or KeyPair here, and configure an
// SSL_CTX from HandshakeCertificates. Public headers never name OpenSSL types.
#pragma once

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <vector>

#include "tern/certificate.h"
#include "tern/export.h"
#include "tern/tls/handshake_certificates.h"
#include "tern/tls/key_pair.h"

namespace tern::internal {

// The friend of Certificate and KeyPair that reaches their OpenSSL objects.
struct OpenSslAccess {
  static X509* x509(const Certificate& certificate) noexcept;
  static Certificate certificate(X509* x509);
  static EVP_PKEY* evpPkey(const tls::KeyPair& keyPair) noexcept;
  static tls::KeyPair keyPair(EVP_PKEY* key);
};

// The certificate's X509, borrowed: valid while `certificate` (or a copy) lives. Read-only: never
// modify it, as copies share it. Up-ref it (X509_up_ref) to keep it longer.
inline X509* toX509(const Certificate& certificate) noexcept {
  return OpenSslAccess::x509(certificate);
}

// A Certificate sharing `x509` (which is up-ref'd; the caller keeps its own reference). Throws
// std::invalid_argument if it cannot be DER-encoded.
inline Certificate fromX509(X509* x509) { return OpenSslAccess::certificate(x509); }

// The key's EVP_PKEY (private and public halves), borrowed like toX509().
inline EVP_PKEY* toEvpPkey(const tls::KeyPair& keyPair) noexcept {
  return OpenSslAccess::evpPkey(keyPair);
}

// A KeyPair sharing `key` (which is up-ref'd). `key` must hold a private key; throws
// std::invalid_argument otherwise.
inline tls::KeyPair fromEvpPkey(EVP_PKEY* key) { return OpenSslAccess::keyPair(key); }

// A new X509_STORE holding `certificates`' trusted roots, plus the system roots (OpenSSL's
// default verify paths) when platformTrustedCertificates() says so. The caller owns it.
X509_STORE* newTrustStore(const tls::HandshakeCertificates& certificates);

// Sets up a client context: the trust store from `certificates` (SSL_CTX_set_cert_store),
// SSL_VERIFY_PEER (a handshake with an untrusted server fails), and for mutual TLS the held
// certificate, its key and intermediates. Throws std::invalid_argument if the held key does not
// match its certificate, std::runtime_error if OpenSSL fails otherwise.
void configureClient(const tls::HandshakeCertificates& certificates, SSL_CTX* context);

// Sets up a server context: the held certificate, its key and intermediates (required: throws
// std::invalid_argument without a held certificate), and the trust store used to verify client
// certificates, whose subjects are also sent as the acceptable CA list. The verify mode is left
// alone: the caller asks for client certificates (SSL_VERIFY_PEER, plus
// SSL_VERIFY_FAIL_IF_NO_PEER_CERT to require one) as it needs.
TERN_INTERNAL_API void configureServer(const tls::HandshakeCertificates& certificates,
                                       SSL_CTX* context);

// The peer's certificates as it sent them, leaf first, on either side of a handshake (OpenSSL
// leaves the leaf out of SSL_get_peer_cert_chain() on a server). Empty if the peer sent none.
TERN_INTERNAL_API std::vector<Certificate> peerCertificates(const SSL* ssl);

// This side's certificate chain as configured in `ssl` (the leaf first), or empty without one.
TERN_INTERNAL_API std::vector<Certificate> localCertificates(const SSL* ssl);

}  // namespace tern::internal
