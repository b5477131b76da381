// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "server_tls.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>

#include "server_socket.h"
#include "tern/buffer.h"
#include "tls/openssl_access.h"

namespace tern::mockwebserver::internal {
namespace {

// The protocols MockWebServer can serve once ALPN picks them.
bool canServe(Protocol protocol) {
  return protocol == Protocol::HTTP_1_1 || protocol == Protocol::HTTP_2;
}

}  // namespace

ServerTls::ServerTls(const tls::HandshakeCertificates& certificates, ClientAuth clientAuth,
                     const std::vector<Protocol>& protocols)
    : context_(SSL_CTX_new(TLS_server_method())) {
  if (!context_) throw std::runtime_error(tern::internal::withOpenSslErrors("SSL_CTX_new"));
  if (std::find(protocols.begin(), protocols.end(), Protocol::HTTP_1_1) == protocols.end()) {
    throw std::invalid_argument("MockWebServer: protocols must contain http/1.1");
  }
  for (Protocol protocol : protocols) {
    if (canServe(protocol)) alpnProtocols_.emplace_back(toString(protocol));
  }
  tern::internal::configureServer(certificates, context_.get());
  switch (clientAuth) {
    case ClientAuth::kNone:
      SSL_CTX_set_verify(context_.get(), SSL_VERIFY_NONE, nullptr);
      break;
    case ClientAuth::kRequested:
      SSL_CTX_set_verify(context_.get(), SSL_VERIFY_PEER, nullptr);
      break;
    case ClientAuth::kRequired:
      SSL_CTX_set_verify(context_.get(), SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
                         nullptr);
      break;
  }
  // Sessions are resumable across the server's connections (verifying client certificates needs
  // a session id context for that).
  static const unsigned char kSessionContext[] = "tern MockWebServer";
  SSL_CTX_set_session_id_context(context_.get(), kSessionContext, sizeof(kSessionContext) - 1);
  SSL_CTX_set_alpn_select_cb(context_.get(), &ServerTls::selectAlpn, this);
}

int ServerTls::selectAlpn(SSL*, const unsigned char** out, unsigned char* outLength,
                          const unsigned char* in, unsigned int inLength, void* argument) {
  const auto* self = static_cast<const ServerTls*>(argument);
  // The server's preference first, among the client's offers (RFC 7301 §3.2).
  for (const std::string& protocol : self->alpnProtocols_) {
    for (unsigned int i = 0; i < inLength;) {
      const unsigned int length = in[i];
      if (i + 1 + length > inLength) break;
      if (std::string_view(reinterpret_cast<const char*>(in + i + 1), length) == protocol) {
        *out = in + i + 1;
        *outLength = static_cast<unsigned char>(length);
        return SSL_TLSEXT_ERR_OK;
      }
      i += 1 + length;
    }
  }
  return SSL_TLSEXT_ERR_NOACK;  // Nothing in common: carry on without ALPN.
}

Handshake ServerTls::handshakeOf(SSL* ssl) {
  return Handshake(tlsVersionForJavaName(SSL_get_version(ssl)),
                   CipherSuite::forJavaName(SSL_CIPHER_standard_name(SSL_get_current_cipher(ssl))),
                   tern::internal::peerCertificates(ssl), tern::internal::localCertificates(ssl));
}

void ServerTls::failHandshake(ConnectionSocket& socket) {
  Buffer clientHello;
  if (socket.source().read(clientHello, 16 * 1024) == -1) return;
  // An alert record: type 21, TLS 1.2 on the wire, length 2; level fatal (2), handshake_failure.
  static const unsigned char kAlert[] = {21, 3, 3, 0, 2, 2, SSL_AD_HANDSHAKE_FAILURE};
  Buffer alert;
  alert.write(std::as_bytes(std::span(kAlert)));
  socket.sink().write(alert, alert.size());
  socket.close();
}

}  // namespace tern::mockwebserver::internal
