// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "tern/handshake.h"
#include "tern/protocol.h"
#include "tern/tls/handshake_certificates.h"
#include "tls/openssl_util.h"

namespace tern::mockwebserver::internal {

class ConnectionSocket;

// Whether the server asks clients for a certificate (OkHttp's requestClientAuth(),
// requireClientAuth(), noClientAuth()).
enum class ClientAuth { kNone, kRequested, kRequired };

// The server side of MockWebServer's TLS, set up once by useHttps() before the server starts:
// the OpenSSL context holding the server's certificate, the trust for client certificates, and
// the ALPN protocols it selects from. Read-only once built; shared by the connection threads.
class ServerTls {
 public:
  // Throws std::invalid_argument if `certificates` holds no certificate to serve with, or if
  // `protocols` lacks http/1.1.
  ServerTls(const tls::HandshakeCertificates& certificates, ClientAuth clientAuth,
            const std::vector<Protocol>& protocols);
  ServerTls(const ServerTls&) = delete;
  ServerTls& operator=(const ServerTls&) = delete;

  SSL_CTX* context() const noexcept { return context_.get(); }

  // The handshake `ssl` (a server connection) completed, as RecordedRequest::handshake() reports
  // it: the peer is the client (its certificates for mutual TLS), the local side the server.
  static Handshake handshakeOf(SSL* ssl);

  // Reads the client's first bytes (its ClientHello) and answers with a fatal handshake_failure
  // alert (RFC 8446 §6), then closes: SocketPolicy::FailHandshake.
  static void failHandshake(ConnectionSocket& socket);

 private:
  static int selectAlpn(SSL* ssl, const unsigned char** out, unsigned char* outLength,
                        const unsigned char* in, unsigned int inLength, void* argument);

  std::vector<std::string> alpnProtocols_;  // In the server's order of preference.
  tern::internal::UniqueSslCtx context_;
};

}  // namespace tern::mockwebserver::internal
