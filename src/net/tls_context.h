// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "net/tls_session_cache.h"
#include "tern/certificate.h"
#include "tern/tls/handshake_certificates.h"
#include "tls/certificate_chain_cleaner.h"
#include "tls/openssl_util.h"

namespace tern::internal {

// The client side of TLS for one Client (and the clients newBuilder() derives from it): an
// OpenSSL SSL_CTX holding whom to trust and the client certificate, if any; the chain cleaner
// that rebuilds a verified chain for pinning from the same trust; and the session cache, so that
// connections to a server resume sessions. Thread-safe once constructed; shared by
// the connections through their Address (clients with different TLS configuration have
// different contexts, so their connections are never shared).
class TlsContext {
 public:
  // Where the system's trusted roots are (Debian's ca-certificates, hashed for lookup by name).
  static constexpr const char* kSystemCertificateDirectory = "/etc/ssl/certs";

  // A context that verifies servers against the system's trusted roots (kSystemCertificateDirectory
  // and OpenSSL's default paths, including $SSL_CERT_FILE / $SSL_CERT_DIR). Throws IOException if
  // OpenSSL cannot make a context. The roots are loaded when the first connection needs them
  // (parsing the system bundle costs more than a hundred thousand allocations), so a client
  // that never speaks https never pays for them.
  TlsContext();

  // A context that trusts what `certificates` trusts and presents its held certificate, if any
  // (mutual TLS). Throws std::invalid_argument if the held key does not match its certificate.
  explicit TlsContext(const tls::HandshakeCertificates& certificates);

  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

  // A new client SSL for a connection to `host`:`port`: server name indication with `host`
  // unless it is an IP address (RFC 6066 §3), ALPN offering `alpnProtocols` in order ("h2",
  // "http/1.1"; none if empty), verification failures recorded for their messages, and the
  // cached session for host:port set for resumption.
  UniqueSsl newSsl(std::string_view host, int port,
                   const std::vector<std::string>& alpnProtocols) const;

  // Verifies a server's `chain` (leaf first, as sent) from a handshake OpenSSL did not run
  // (QUIC's, on GnuTLS) against the roots this context trusts, with the checks OpenSSL makes in
  // a TLS handshake over TCP (validity, signatures, CA constraints, the server-auth purpose):
  // one trust decision for every protocol. The host name is not checked here; the connection's
  // HostnameVerifier does that, as over TCP. Returns when the chain verifies or `host` is
  // insecure (isInsecure()); otherwise throws the SSLHandshakeException a TCP handshake throws
  // for that chain, naming `peer` ("example.com:443"), with a CertificateException nested.
  void verifyServerChain(const std::vector<Certificate>& chain, std::string_view host,
                         const std::string& peer) const;

  // True if `host`'s server is not authenticated (HandshakeCertificates::Builder::
  // addInsecureHost(), or "*").
  bool isInsecure(std::string_view host) const;

  // "host:port" ("[::1]:443" for IPv6), the session cache's key.
  static std::string sessionKey(std::string_view host, int port);

  TlsSessionCache& sessionCache() const noexcept { return sessionCache_; }
  SSL_CTX* get() const noexcept { return context_.get(); }

  // The chain a server presented, cleaned to the path from its leaf to a root this context
  // trusts; what CertificatePinner checks and Handshake reports.
  const CertificateChainCleaner& chainCleaner() const {
    loadSystemTrust();
    return *chainCleaner_;
  }

 private:
  explicit TlsContext(const std::function<void(SSL_CTX*)>& configure);

  // For the system-trust context: loads OpenSSL's default paths and indexes the roots, once.
  void loadSystemTrust() const;

  mutable TlsSessionCache sessionCache_;  // Before context_: the context refers to it.
  UniqueSslCtx context_;
  // Set by every constructor, or for the system trust by loadSystemTrust().
  mutable std::optional<CertificateChainCleaner> chainCleaner_;
  bool systemTrust_ = false;  // Made by TlsContext(): its roots are loaded lazily.
  // HandshakeCertificates::insecureHosts(): servers not verified ("*" for all), lower-case.
  std::vector<std::string> insecureHosts_;
  mutable std::once_flag systemTrustLoaded_;
};

// True if `host` is an IPv4 or IPv6 literal ("127.0.0.1", "::1"), which takes no SNI.
bool isIpLiteral(std::string_view host);

}  // namespace tern::internal
