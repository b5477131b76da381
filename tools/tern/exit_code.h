// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>

#include "tern/exceptions.h"
#include "tern/protocol.h"
#include "tern/proxy.h"

namespace tern::tool {

// curl's exit codes (its CURLcode values) for the failures tern reports, so scripts written for
// curl read tern's the same way.
enum ExitCode : int {
  kExitOk = 0,
  kExitUnsupportedProtocol = 1,
  kExitFailedInit = 2,  // Also: bad command line.
  kExitUrlMalformed = 3,
  kExitNotBuiltIn = 4,           // What tern does not do (a SOCKS4 proxy).
  kExitCouldntResolveProxy = 5,  // Also: a proxy that does not parse.
  kExitCouldntResolveHost = 6,
  kExitCouldntConnect = 7,
  kExitWeirdServerReply = 8,
  kExitHttp2 = 16,  // The HTTP/2 connection failed (a GOAWAY from the server).
  kExitPartialFile = 18,
  kExitHttpReturnedError = 22,
  kExitWriteError = 23,
  kExitReadError = 26,
  kExitOperationTimedOut = 28,
  kExitRangeError = 33,  // -C: the server sent the whole document, not the rest.
  kExitSslConnectError = 35,
  kExitBadFunctionArgument = 43,  // A value tern cannot send (a bad header, method or type).
  kExitTooManyRedirects = 47,
  kExitSetoptOptionSyntax = 49,  // A --resolve entry that does not parse.
  kExitGotNothing = 52,          // "Empty reply from server": the server ended before any response.
  kExitSendError = 55,
  kExitRecvError = 56,
  kExitSslCertProblem = 58,  // The client certificate or key cannot be used.
  kExitPeerFailedVerification = 60,
  kExitBadContentEncoding = 61,  // --compressed: a coding tern cannot decode, or a corrupt body.
  kExitSslCaCertBadFile = 77,
  kExitSslPinnedPubKeyNotMatch = 90,
  kExitHttp2Stream = 92,  // The server reset the stream or made it invalid.
  kExitProxy = 97,        // A SOCKS5 proxy refused the handshake, the credentials or the connect.
};

// A failure the tool itself detects (a URL it cannot use, a local file it cannot read, an output
// it cannot write), carrying curl's exit code and message.
class ToolException : public std::runtime_error {
 public:
  ToolException(int exitCode, const std::string& message)
      : std::runtime_error(message), exitCode_(exitCode) {}
  int exitCode() const noexcept { return exitCode_; }

 private:
  int exitCode_;
};

// A response asked for one redirect more than --max-redirs allows. A ProtocolException so the
// client does not retry it.
class TooManyRedirectsException : public ProtocolException {
 public:
  explicit TooManyRedirectsException(int64_t maxRedirects);
  int64_t maxRedirects() const noexcept { return maxRedirects_; }

 private:
  int64_t maxRedirects_;
};

// Where a failed transfer was, to phrase the message as curl does.
struct FailureContext {
  std::string host;
  int port = 0;
  // From the transfer's start to the failure.
  std::chrono::milliseconds elapsed{0};
  // Body bytes received before the failure.
  int64_t bytesReceived = 0;
  // The client's own limit on follow-ups, reported when it, not --max-redirs, stops a transfer.
  int64_t clientMaxRedirects = 20;
  // The protocol of the connection the failure happened on; nullopt before there was one.
  std::optional<Protocol> protocol;
  // The proxy the transfer went through, to name it where curl does.
  Proxy proxy = Proxy::direct();
};

// The exit code and the message printed after "tern: (N) " for a failure.
struct TransferError {
  int exitCode = kExitOk;
  std::string message;
};

// Maps the exception a transfer threw to curl's exit code and message (docs/tool.md, Exit codes,
// has the table): ToolException as it says; UnknownHostException 6; ConnectException 7;
// SocketTimeoutException and other InterruptedIOExceptions 28; too many redirects 47; an
// SSLHandshakeException caused by the server's certificate (a CertificateException inside) and an
// SSLPeerUnverifiedException for the host name 60; a pinned key mismatch (--pinnedpubkey, or a
// CertificatePinner's "Certificate pinning failure!") 90; other SSLHandshakeExceptions, and a
// connection reset during the TLS handshake, 35; EOFException 18. A write that failed
// (SocketWriteException) 55, as curl's "Send failure" (but 56 for a reset while an HTTP/1.1 request
// went out: see sendFailure() in exit_code.cc). HTTP/2, as curl 7.88 tells its failures apart: a
// stream reset by the server or made invalid (StreamResetException) 92, with NO_ERROR 52,
// REFUSED_STREAM 56, refused by the server's GOAWAY 16; the connection ending mid-stream (with or
// without TLS close_notify) 18; a connection error of the server's that the client answered with
// GOAWAY 52 before any body byte, 18 after; input nghttp2 or tern refused (floods, headers over a
// limit) 56. Proxies (context.proxy), as curl 7.88: an HTTP proxy's name that does not resolve 5
// (a SOCKS proxy's 6, and a host a SOCKS5 proxy was to reach that the client cannot resolve 97),
// a proxy refusing the connection 7 naming the proxy, a CONNECT answered with a non-2xx status
// (ProxyException with its responseCode()) 56, a SOCKS5 proxy refusing or breaking its handshake
// 97. Otherwise ProtocolException 8; any other IOException 56; anything else 2
// with its message.
TransferError classifyFailure(const std::exception_ptr& failure, const FailureContext& context);

}  // namespace tern::tool
