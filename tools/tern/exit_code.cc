// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "exit_code.h"

#include <cerrno>
#include <exception>
#include <string>
#include <string_view>

namespace tern::tool {
namespace {

// OkHttp's message when a call passes its follow-up limit ("Too many follow-up requests: 21").
constexpr std::string_view kTooManyFollowUps = "Too many follow-up requests";

// True if `message` says a connect timed out: "Connect timed out after 500 ms: /1.2.3.4:80", as
// tern's sockets (and OkHttp's) say it, so the message can say so as curl does.
bool isConnectTimeout(std::string_view message) {
  std::string lower(message);
  for (char& c : lower) {
    c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return lower.find("connect timed out") != std::string::npos;
}

// CertificatePinner's message for a chain without a pinned key.
constexpr std::string_view kPinningFailure = "Certificate pinning failure!";

// True if the handshake failed because of the server's certificate: a CertificateException
// nested inside, as tern's TLS layer reports untrusted, expired and not-yet-valid certificates.
bool isCertificateProblem(const SSLHandshakeException& e) {
  try {
    std::rethrow_if_nested(e);
  } catch (const CertificateException&) {
    return true;
  } catch (...) {
    return false;
  }
  return false;
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// What ended an HTTP/2 connection or stream (or a TLS stream early), told apart as curl 7.88 on
// nghttp2 tells them; the messages are tern's (http2_connection.cc, http2_stream.cc,
// tls_failure.cc). Returns kExitOk if `e` is none of these.
TransferError http2Failure(const IOException& e, const FailureContext& context) {
  std::string_view message = e.what();
  if (const auto* reset = dynamic_cast<const StreamResetException*>(&e)) {
    if (reset->errorCode() == 7 && contains(message, "GOAWAY")) {
      return {kExitHttp2, "Error in the HTTP2 framing layer: " + std::string(message)};
    }
    if (reset->errorCode() == 7) return {kExitRecvError, std::string(message)};  // Retried.
    if (reset->errorCode() == 0) return {kExitGotNothing, "Empty reply from server"};
    std::string_view code = message;
    if (code.starts_with("stream was reset: ")) code.remove_prefix(18);
    return {kExitHttp2Stream, "HTTP/2 stream was not closed cleanly: " + std::string(code)};
  }
  if (contains(message, "closed without a TLS close_notify")) {
    return {kExitPartialFile, std::string(message)};  // On any protocol.
  }
  if (message.starts_with("unexpected end of stream on HTTP/2 connection")) {
    return {kExitPartialFile,
            "HTTP/2 stream was not closed cleanly before end of the "
            "underlying stream: " +
                std::string(message)};
  }
  if (!dynamic_cast<const ProtocolException*>(&e)) return {kExitOk, ""};
  if (message.starts_with("HTTP/2 protocol error from") && message.ends_with(" sent)")) {
    // The client answered the peer's connection error with GOAWAY.
    if (context.bytesReceived > 0) return {kExitPartialFile, std::string(message)};
    return {kExitGotNothing, "Empty reply from server: " + std::string(message)};
  }
  if (message.starts_with("HTTP/2 protocol error from") ||
      message.starts_with("HTTP/2 header list from") || contains(message, "on HTTP/2 stream")) {
    // nghttp2 refused the input (a flood), or tern refused a stream's headers.
    return {kExitRecvError, std::string(message)};
  }
  return {kExitOk, ""};
}

// A write to the server failed (SocketWriteException), told apart as curl 7.88 tells a failed
// send (55, "Send failure") from a failed read (56, "Recv failure"): by which of its system calls
// sees the connection's end first. curl reads the response while it sends the request, so
// - over HTTP/1.1 a reset while the request goes out is seen by its read (56), and its send
//   fails first only once its read has seen the server close its side (FIN) and stopped
//   reading: then the reset that follows fails the send (55, "Broken pipe"). tern sends an
//   HTTP/1.1 request before it reads, so its write sees both, and the write's error tells which:
//   EPIPE once the server had closed its side, ECONNRESET for a reset of an open connection;
// - over HTTP/2 both clients read on their own while they write, and whichever call sees the
//   failure first reports it: a write's is 55 (tern's reader thread, had it seen it first, would
//   have failed the stream with its read's error instead).
TransferError sendFailure(const SocketWriteException& e, const FailureContext& context) {
  bool http2 =
      context.protocol == Protocol::HTTP_2 || context.protocol == Protocol::H2_PRIOR_KNOWLEDGE;
  if (!http2 && e.errorNumber() != EPIPE) return {kExitRecvError, e.what()};
  return {kExitSendError, std::string("Send failure: ") + e.what()};
}

// tern's TLS layer says "TLS handshake with <peer> failed: ..." for every handshake failure; the
// ones that are the socket's (a reset) are plain IOExceptions, as Java's SocketException. curl
// counts every failed handshake as 35.
bool isHandshakeFailure(const IOException& e) {
  return std::string_view(e.what()).starts_with("TLS handshake with ");
}

std::string milliseconds(const FailureContext& context) {
  return std::to_string(context.elapsed.count());
}

}  // namespace

TooManyRedirectsException::TooManyRedirectsException(int64_t maxRedirects)
    : ProtocolException("Maximum (" + std::to_string(maxRedirects) + ") redirects followed"),
      maxRedirects_(maxRedirects) {}

TransferError classifyFailure(const std::exception_ptr& failure, const FailureContext& context) {
  try {
    std::rethrow_exception(failure);
  } catch (const ToolException& e) {
    return {e.exitCode(), e.what()};
  } catch (const TooManyRedirectsException& e) {
    return {kExitTooManyRedirects, e.what()};
  } catch (const UnknownHostException&) {
    return {kExitCouldntResolveHost, "Could not resolve host: " + context.host};
  } catch (const ConnectException&) {
    return {kExitCouldntConnect, "Failed to connect to " + context.host + " port " +
                                     std::to_string(context.port) + " after " +
                                     milliseconds(context) + " ms: Couldn't connect to server"};
  } catch (const InterruptedIOException& e) {
    if (isConnectTimeout(e.what())) {
      return {kExitOperationTimedOut, "Failed to connect to " + context.host + " port " +
                                          std::to_string(context.port) + " after " +
                                          milliseconds(context) + " ms: Timeout was reached"};
    }
    return {kExitOperationTimedOut, "Operation timed out after " + milliseconds(context) +
                                        " milliseconds with " +
                                        std::to_string(context.bytesReceived) + " bytes received"};
  } catch (const SSLHandshakeException& e) {
    if (isCertificateProblem(e)) {
      return {kExitPeerFailedVerification, std::string("SSL certificate problem: ") + e.what()};
    }
    return {kExitSslConnectError, std::string("SSL connect error: ") + e.what()};
  } catch (const SSLPeerUnverifiedException& e) {
    if (std::string_view(e.what()).starts_with(kPinningFailure)) {
      return {kExitSslPinnedPubKeyNotMatch,
              std::string("SSL: public key does not match pinned public key: ") + e.what()};
    }
    if (std::string_view(e.what()).starts_with("SSL: public key does not match")) {
      return {kExitSslPinnedPubKeyNotMatch, e.what()};
    }
    if (std::string_view(e.what()).starts_with("Hostname ")) {
      return {kExitPeerFailedVerification,
              "SSL: no alternative certificate subject name matches target host name '" +
                  context.host + "': " + e.what()};
    }
    return {kExitPeerFailedVerification,
            std::string("SSL peer certificate or SSH remote key was not OK: ") + e.what()};
  } catch (const EOFException& e) {
    return {kExitPartialFile, e.what()};
  } catch (const SocketWriteException& e) {
    return sendFailure(e, context);
  } catch (const IOException& e) {
    if (isHandshakeFailure(e)) {
      return {kExitSslConnectError, std::string("SSL connect error: ") + e.what()};
    }
    TransferError http2 = http2Failure(e, context);
    if (http2.exitCode != kExitOk) return http2;
    try {
      throw;
    } catch (const ProtocolException& protocol) {
      if (std::string_view(protocol.what()).starts_with(kTooManyFollowUps)) {
        return {kExitTooManyRedirects,
                "Maximum (" + std::to_string(context.clientMaxRedirects) + ") redirects followed"};
      }
      return {kExitWeirdServerReply, protocol.what()};
    } catch (const IOException& io) {
      return {kExitRecvError, io.what()};
    }
  } catch (const std::exception& e) {
    return {kExitFailedInit, e.what()};
  } catch (...) {
    return {kExitFailedInit, "unknown failure"};
  }
}

}  // namespace tern::tool
