// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "exit_code.h"

#include "io/content_decoding.h"

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
// - over HTTP/2 (and HTTP/3) both clients read on their own while they write, and whichever call
//   sees the failure first reports it: a write's is 55 (tern's reader thread, had it seen it
//   first, would have failed the stream with its read's error instead).
TransferError sendFailure(const SocketWriteException& e, const FailureContext& context) {
  bool multiplexed = context.protocol == Protocol::HTTP_2 ||
                     context.protocol == Protocol::H2_PRIOR_KNOWLEDGE ||
                     context.protocol == Protocol::HTTP_3;
  if (!multiplexed && e.errorNumber() != EPIPE) return {kExitRecvError, e.what()};
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

// "Failed to connect to HOST port N after T ms: Couldn't connect to server", naming the proxy
// when the transfer went through one, as curl's.
std::string connectFailure(const FailureContext& context, std::string_view why) {
  const bool proxied = !context.proxy.isDirect();
  return "Failed to connect to " + (proxied ? context.proxy.host() : context.host) + " port " +
         std::to_string(proxied ? context.proxy.port() : context.port) + " after " +
         milliseconds(context) + " ms: " + std::string(why);
}

// A SOCKS5 proxy's refusal (ProxyException with no response code; tern's messages are in
// net/socks5.cc), in curl 7.88's words (its lib/socks.c).
std::string socksRefusal(std::string_view message) {
  if (message.starts_with("SOCKS5 proxy accepts none of the offered authentication methods")) {
    return "No authentication method was acceptable.";
  }
  if (message.starts_with("SOCKS5 proxy refused the username and password")) {
    return "User was rejected by the SOCKS5 server: " + std::string(message);
  }
  // "SOCKS5 proxy could not connect: connection refused (5) (SOCKS @ p:1080 to host:80)":
  // curl's "Can't complete SOCKS5 connection to host. (5)".
  size_t where = message.rfind(" (SOCKS @ ");
  size_t to = message.rfind(" to ");
  size_t code = where == std::string_view::npos ? where : message.rfind('(', where - 1);
  if (!message.starts_with("SOCKS5 proxy could not connect: ") || where == std::string_view::npos ||
      to == std::string_view::npos || to < where || code == std::string_view::npos) {
    return std::string(message);
  }
  std::string_view target = message.substr(to + 4);
  target = target.substr(0, target.rfind(':'));  // Drops the port and the closing ')'.
  if (target.size() > 2 && target.front() == '[') target = target.substr(1, target.size() - 2);
  return "Can't complete SOCKS5 connection to " + std::string(target) + ". " +
         std::string(message.substr(code, where - code));
}

// True if `e` is a SOCKS5 proxy breaking its handshake (a ProtocolException of net/socks5.cc).
bool isSocksProtocolFailure(const IOException& e, const FailureContext& context) {
  std::string_view message = e.what();
  return context.proxy.type() == Proxy::Type::SOCKS &&
         dynamic_cast<const ProtocolException*>(&e) != nullptr &&
         (message.starts_with("SOCKS5 ") || message.starts_with("not a SOCKS5 "));
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
  } catch (const UnknownHostException& e) {
    const Proxy& proxy = context.proxy;
    if (!proxy.isDirect() &&
        std::string_view(e.what()).ends_with(" (the proxy " + proxy.toString() + ")")) {
      // curl 7.88: "Could not resolve proxy" for an HTTP proxy, but a SOCKS proxy's name is
      // "Could not resolve host" (6), as it resolves it as the connection's host.
      if (proxy.type() == Proxy::Type::SOCKS) {
        return {kExitCouldntResolveHost, "Could not resolve host: " + proxy.host()};
      }
      return {kExitCouldntResolveProxy, "Could not resolve proxy: " + proxy.host()};
    }
    if (proxy.type() == Proxy::Type::SOCKS) {
      // socks5://: the client resolves the origin for the proxy, and curl counts its failure
      // as the proxy handshake's.
      return {kExitProxy, "Could not resolve host: " + context.host};
    }
    return {kExitCouldntResolveHost, "Could not resolve host: " + context.host};
  } catch (const ConnectException&) {
    return {kExitCouldntConnect, connectFailure(context, "Couldn't connect to server")};

  } catch (const InterruptedIOException& e) {
    if (isConnectTimeout(e.what())) {
      return {kExitOperationTimedOut, connectFailure(context, "Timeout was reached")};
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
  } catch (const internal::ContentDecodingException& e) {
    return {kExitBadContentEncoding,
            std::string("Error while processing content unencoding: ") + e.what()};
  } catch (const EOFException& e) {
    return {kExitPartialFile, e.what()};
  } catch (const SocketWriteException& e) {
    return sendFailure(e, context);
  } catch (const ProxyException& e) {
    if (e.responseCode() != 0) {
      return {kExitRecvError,
              "CONNECT tunnel failed, response " + std::to_string(e.responseCode())};
    }
    return {kExitProxy, socksRefusal(e.what())};
  } catch (const IOException& e) {
    if (isSocksProtocolFailure(e, context)) return {kExitProxy, e.what()};
    // --http3-only with an http URL: curl's words and code for it.
    if (dynamic_cast<const UnknownServiceException*>(&e) &&
        std::string_view(e.what()).starts_with("HTTP/3 needs https")) {
      return {kExitUrlMalformed, "HTTP/3 requested for non-HTTPS URL"};
    }
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
