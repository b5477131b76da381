// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/ssl.h>

#include <cstddef>
#include <string>

#include "tern/exceptions.h"

namespace tern::internal {

// True if `e` is a handshake failure caused by the peer's certificates (an SSLHandshakeException
// with a CertificateException nested inside, as Java's has it as its cause): such a handshake is
// never retried with another ConnectionSpec, since a different offer cannot fix it.
bool isCertificateFailure(const IOException& e);

// The outcome of one OpenSSL call on a TlsSocket, collected right after it (the error queue is
// per thread and the next call clears it).
struct TlsCallResult {
  int error = SSL_ERROR_NONE;  // SSL_get_error() for a failed call.
  size_t bytes = 0;            // What a read or write moved.
  unsigned long code = 0;      // The first queued OpenSSL error (ERR_peek_error()), 0 if none.
  std::string details;         // The whole queue as text, for messages.
  int socketError = 0;         // errno of the socket BIO's last failed system call.
  bool sawEof = false;         // The socket BIO read end of stream.
};

// Turns TLS failures into the exceptions a user can act on, naming the cause and the peer:
//
//   SSLHandshakeException("TLS handshake with localhost/127.0.0.1:8443 failed: certificate
//       CN=localhost expired at 2026-11-28T18:00:00Z (valid from 2026-11-27T18:00:00Z; now
//       2026-11-29T10:00:00Z)")
//   ... failed: untrusted certificate chain: no trusted root for CN=localhost, issued by
//       CN=Fake CA (unable to get local issuer certificate)
//   ... failed: no TLS version in common: the client offers TLSv1.3 only; the server refused it
//   ... failed: the server refused the handshake (handshake failure alert): no cipher suite in
//       common, or it requires a client certificate
//   ... failed: the peer does not speak TLS (wrong version number): is it a plain HTTP port?
//   ... failed: the server closed the connection during the handshake
//
// Certificate verification failures are SSLHandshakeExceptions with a CertificateException nested
// inside (std::throw_with_nested) carrying the same reason.

// Records the first certificate verification error of `ssl`'s handshake (which certificate and
// why), for the message above. Keeps the verify mode and chains to the verify callback already
// set, so the outcome of verification is unchanged.
void recordVerifyFailures(SSL* ssl);

// Throws the exception for a chain that X509_verify_cert() refused in `context` outside an
// OpenSSL handshake (QUIC's runs on GnuTLS): the same SSLHandshakeException, with its nested
// CertificateException, that a handshake over TCP throws for that chain. `peer` names the peer.
[[noreturn]] void throwChainFailure(X509_STORE_CTX* context, const std::string& peer);

// Throws the exception for a failed handshake step. `peer` names the peer.
[[noreturn]] void throwHandshakeFailure(SSL* ssl, const TlsCallResult& result,
                                        const std::string& peer);

// Throws the exception for a failed read (`reading`) or write after the handshake: IOException
// naming the socket error for a reset (a SocketWriteException for a write); SSLException for a
// truncated stream ("Connection to <peer> closed without a TLS close_notify: the stream was
// truncated"), also for a write after a read met that end; SSLHandshakeException for an alert that
// refuses the handshake late (TLS 1.3 servers reject a client certificate after the client has
// finished); SSLException naming OpenSSL's error otherwise.
[[noreturn]] void throwStreamFailure(SSL* ssl, const TlsCallResult& result, const std::string& peer,
                                     bool reading);

}  // namespace tern::internal
