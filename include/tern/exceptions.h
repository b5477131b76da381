// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "tern/export.h"

namespace tern {

// The root of every I/O failure tern reports: a connection that could not be made, a peer that
// broke the protocol, a timeout, a cancellation. Messages say what failed and where (host, port,
// protocol). Misuse of the API is std::invalid_argument / std::logic_error instead.
class TERN_API IOException : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A blocking operation stopped before it completed: the call was canceled, or a deadline passed.
class TERN_API InterruptedIOException : public IOException {
 public:
  using IOException::IOException;
};

// A connect, read or write timeout fired. The message names which one.
class TERN_API SocketTimeoutException : public InterruptedIOException {
 public:
  using InterruptedIOException::InterruptedIOException;
};

// A TCP connection to the peer could not be established.
class TERN_API ConnectException : public IOException {
 public:
  using IOException::IOException;
};

// The DNS lookup for a host name failed or returned no addresses.
class TERN_API UnknownHostException : public IOException {
 public:
  using IOException::IOException;
};

// The peer sent bytes that break HTTP (a malformed status line, an oversized header, a bad chunk).
class TERN_API ProtocolException : public IOException {
 public:
  using IOException::IOException;
};

// Input ended before the expected number of bytes arrived (a truncated body or chunk).
class TERN_API EOFException : public IOException {
 public:
  using IOException::IOException;
};

// Sending to the peer failed: the connection was reset, or closed by the peer, while tern wrote
// to it (a request, or any HTTP/2 frame), over TCP or TLS. Java reports it as a SocketException
// ("Broken pipe"); tern keeps it apart from a failed read, as curl does (its "Send failure").
// errorNumber() is the system's error for the write (EPIPE: the peer had closed its side first;
// ECONNRESET: it reset an open connection), and the message names it and the peer: "Broken
// pipe: 127.0.0.1:8080". Connect and TLS handshake failures are not this, even when a write
// failed: they throw ConnectException and the handshake's exceptions.
class TERN_API SocketWriteException : public IOException {
 public:
  SocketWriteException(const std::string& message, int errorNumber)
      : IOException(message), errorNumber_(errorNumber) {}
  int errorNumber() const noexcept { return errorNumber_; }

 private:
  int errorNumber_;
};

// A TLS failure (Java's javax.net.ssl.SSLException); the subtypes below say which kind.
class TERN_API SSLException : public IOException {
 public:
  using IOException::IOException;
};

// The TLS handshake failed (protocol or cipher mismatch, untrusted or expired certificate).
class TERN_API SSLHandshakeException : public SSLException {
 public:
  using SSLException::SSLException;
};

// The peer's identity could not be verified (hostname mismatch, certificate pin mismatch).
class TERN_API SSLPeerUnverifiedException : public SSLException {
 public:
  using SSLException::SSLException;
};

// The client cannot use the URL's scheme as configured, as Java's UnknownServiceException: an http
// URL when the client's connection specs lack ConnectionSpec::CLEARTEXT ("CLEARTEXT communication
// not enabled for client"), an https URL when none of its specs is a TLS one this OpenSSL can
// honour ("Unable to find acceptable protocols. ...").
class TERN_API UnknownServiceException : public IOException {
 public:
  using IOException::IOException;
};

// A certificate could not be accepted (untrusted, expired, not yet valid, malformed), as Java's
// java.security.cert.CertificateException. Not an IOException: it is the cause nested inside the
// SSLHandshakeException the handshake throws (std::throw_with_nested), which is how a caller (and
// the connection fallback logic) tells a certificate problem from a protocol one:
//
//   catch (const SSLHandshakeException& e) {
//     try { std::rethrow_if_nested(e); } catch (const CertificateException& cause) { ... }
//   }
class TERN_API CertificateException : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A proxy would not connect the client to the origin server: an HTTP proxy answered CONNECT
// with other than 2xx (responseCode() is its status: 407 when it wanted credentials the proxy
// authenticator did not give), or a SOCKS5 proxy refused the greeting, the credentials or the
// connect (responseCode() is 0; the message gives RFC 1928's reply). The message names the proxy
// and the origin. (OkHttp throws a plain IOException here, with the same message for CONNECT.)
class TERN_API ProxyException : public IOException {
 public:
  explicit ProxyException(const std::string& message, int responseCode = 0)
      : IOException(message), responseCode_(responseCode) {}
  int responseCode() const noexcept { return responseCode_; }

 private:
  int responseCode_;
};

// An HTTP/2 stream was reset by the peer or locally; errorCode is the RST_STREAM code (RFC 9113
// §7).
class TERN_API StreamResetException : public IOException {
 public:
  StreamResetException(uint32_t errorCode, const std::string& message)
      : IOException(message), errorCode_(errorCode) {}
  uint32_t errorCode() const noexcept { return errorCode_; }

 private:
  uint32_t errorCode_;
};

}  // namespace tern
