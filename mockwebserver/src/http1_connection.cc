// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http1_connection.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <utility>

#include "http/http_syntax.h"
#include "http2_server_connection.h"
#include "io/ascii.h"
#include "tern/exceptions.h"
#include "web_socket_server.h"

namespace tern::mockwebserver::internal {
namespace {

using tern::internal::equalsIgnoreCase;
using tern::internal::trimAsciiWhitespace;

// Content-Length = 1*DIGIT (RFC 9110 §8.6). At most 18 digits, so it fits in int64_t.
int64_t parseContentLength(std::string_view value) {
  std::string_view digits = trimAsciiWhitespace(value);
  if (digits.empty() || digits.size() > 18 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    throw ProtocolException("MockWebServer: invalid Content-Length: \"" + std::string(value) +
                            "\"");
  }
  int64_t result = 0;
  for (char c : digits) result = result * 10 + (c - '0');
  return result;
}

// chunk-size [ chunk-ext ] (RFC 9112 §7.1): hex digits, optionally followed by ";ext".
int64_t parseChunkSize(std::string_view line) {
  std::string_view hex = trimAsciiWhitespace(line.substr(0, line.find(';')));
  int64_t result = 0;
  bool valid = !hex.empty() && hex.size() <= 15;
  for (char c : hex) {
    int digit = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
    if (digit < 0) valid = false;
    result = result * 16 + std::max(digit, 0);
  }
  if (!valid) {
    throw ProtocolException("MockWebServer: invalid chunk size line: \"" + std::string(line) +
                            "\"");
  }
  return result;
}

// The URL a request was for (OkHttp's RecordedRequestFactory): an absolute-form target as it is;
// for CONNECT the authority; otherwise the Host header (or the server's address) and the target.
HttpUrl requestUrl(const ServerState& server, std::string_view method, std::string_view target,
                   const Headers& headers) {
  std::optional<HttpUrl> result;
  if (method == "CONNECT") {
    result = HttpUrl::parse(server.scheme() + "://" + std::string(target) + "/");
  } else if (!target.starts_with('/')) {
    result = HttpUrl::parse(target);
  }
  if (!result) {
    std::optional<std::string> host = headers.get("Host");
    std::string authority =
        host ? *host : server.hostAddress() + ":" + std::to_string(server.port());
    std::string path = target.starts_with('/') ? std::string(target) : "/";
    result = HttpUrl::parse(server.scheme() + "://" + authority + path);
  }
  return result ? *result : server.rootUrl();
}

}  // namespace

Http1Connection::Http1Connection(ServerState& server, FileDescriptor fd, int connectionIndex)
    : server_(server),
      socket_(std::move(fd), server.closing()),
      source_(tern::buffer(socket_.source())),
      sink_(tern::buffer(socket_.sink())),
      connectionIndex_(connectionIndex) {}

void Http1Connection::serve() noexcept {
  try {
    if (server_.dispatcher()->peek().inTunnel() && !processTunnelRequests()) {
      socket_.close();
      return;
    }
    if (const ServerTls* tls = server_.tls()) {
      if (server_.dispatcher()->peek().socketPolicy().is<SocketPolicy::FailHandshake>()) {
        server_.dispatchBookkeepingRequest(sequenceNumber_, connectionIndex_);
        ServerTls::failHandshake(socket_);
        return;
      }
      socket_.startTls(tls->context());
      SSL* ssl = socket_.tls()->ssl();
      handshake_ = ServerTls::handshakeOf(ssl);
      if (const char* name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name)) {
        handshakeServerNames_.emplace_back(name);
      }
      if (socket_.tls()->selectedAlpnProtocol() == "h2") {
        // ALPN chose HTTP/2: the connection is served as such (and closed) from here on.
        Http2ServerConnection(server_, socket_, connectionIndex_, handshake_, handshakeServerNames_)
            .serve();
        return;
      }
    }
    if (server_.dispatcher()->peek().socketPolicy().is<SocketPolicy::StallSocketAtStart>()) {
      server_.dispatchBookkeepingRequest(sequenceNumber_, connectionIndex_);
      server_.closing().awaitClose();  // Ignore the socket until the server closes.
    }
    while (processOneRequest()) {
    }
  } catch (const IOException&) {
    // The client went away, or the server is closing (ServerClosedException): ending the
    // connection is the right response to both. Failures reading a request were recorded on it.
  } catch (const std::exception& e) {
    std::fprintf(stderr, "MockWebServer[%d] connection %d failed: %s\n", server_.port(),
                 connectionIndex_, e.what());
  } catch (...) {
    std::fprintf(stderr, "MockWebServer[%d] connection %d failed\n", server_.port(),
                 connectionIndex_);
  }
  socket_.close();
}

bool Http1Connection::processTunnelRequests() {
  while (server_.dispatcher()->peek().inTunnel()) {
    if (!processOneRequest()) return false;
    if (tunnelOpened_) return true;
  }
  return true;
}

bool Http1Connection::processOneRequest() {
  if (source_->exhausted()) return false;  // The client closed the connection between requests.

  bool bodyUnread = false;
  bool disconnected = false;
  RecordedRequest request = readRequest(bodyUnread, disconnected);
  if (disconnected) {
    // DisconnectDuringRequestBody consumes the response it was peeked from, so a script of
    // responses stays in step with the requests made (dispatched first, as bookkeeping requests
    // are: once a test takes the request, the next connection sees the next response).
    server_.dispatcher()->dispatch(request);
    server_.record(std::move(request));
    return false;
  }
  server_.record(request);
  if (request.failure()) return false;  // Nothing to respond to.

  MockResponse response = server_.dispatch(request);
  if (server_.closing().fired()) throw ServerClosedException();  // Dispatcher released by close.

  const SocketPolicy& policy = response.socketPolicy();
  if (policy.is<SocketPolicy::DisconnectAfterRequest>()) {
    socket_.close();
    return false;
  }
  if (policy.is<SocketPolicy::HalfCloseAfterRequest>()) {
    socket_.shutdownOutput();
    return false;
  }
  if (policy.is<SocketPolicy::NoResponse>()) {
    // Wait for the client to give up and close; nothing else should arrive.
    if (source_->exhausted()) return false;
    throw ProtocolException("MockWebServer: unexpected data after a NoResponse request");
  }

  // The request is read: shut the input before the response goes out, so no next request on the
  // connection can arrive before the shutdown (the client sends it only after the response).
  if (policy.is<SocketPolicy::ShutdownInputAtEnd>()) socket_.shutdownInput();

  if (response.webSocketListener()) {
    // The connection is a WebSocket from here on, and ends with it.
    serveWebSocket(socket_, *source_, *sink_, request, response);
    return false;
  }
  if (!writeResponse(response)) return false;
  try {
    tunnelOpened_ = response.inTunnel() && response.code() >= 200 && response.code() < 300;
  } catch (const std::invalid_argument&) {
    tunnelOpened_ = false;  // A malformed status line opens nothing.
  }

  // See SocketPolicy's note on the races these policies cause with a client's next request.
  // A shut input reads as end of stream (as Java's does), so the connection ends here. Linux
  // would still hand over bytes that arrived before the shutdown: never read them.
  if (policy.is<SocketPolicy::DisconnectAtEnd>() ||
      policy.is<SocketPolicy::DoNotReadRequestBody>() ||
      policy.is<SocketPolicy::ShutdownInputAtEnd>() || bodyUnread) {
    socket_.close();
    return false;
  }
  if (policy.is<SocketPolicy::ShutdownOutputAtEnd>()) socket_.shutdownOutput();
  if (policy.is<SocketPolicy::ShutdownServerAfterResponse>()) {
    server_.beginShutdown();
    return false;
  }
  ++sequenceNumber_;
  return true;
}

RecordedRequest Http1Connection::readRequest(bool& bodyUnread, bool& disconnected) {
  std::string requestLine;
  Headers::Builder headers;
  std::vector<int64_t> chunkSizes;
  TruncatingSink body(server_.bodyLimit());
  std::exception_ptr failure;
  std::string method;
  std::string target;

  try {
    requestLine = readLine(kMaxRequestLineBytes, "request line");
    // request-line = method SP request-target SP HTTP-version (RFC 9112 §3).
    const size_t methodEnd = requestLine.find(' ');
    const size_t targetEnd =
        methodEnd == std::string::npos ? std::string::npos : requestLine.find(' ', methodEnd + 1);
    if (methodEnd == 0 || targetEnd == std::string::npos || targetEnd == methodEnd + 1) {
      throw ProtocolException("MockWebServer: unexpected request line: \"" + requestLine + "\"");
    }
    method = requestLine.substr(0, methodEnd);
    target = requestLine.substr(methodEnd + 1, targetEnd - methodEnd - 1);

    int64_t headerBytes = 0;
    int64_t contentLength = -1;
    bool chunked = false;
    while (true) {
      std::string line = readLine(kMaxHeaderBytes - headerBytes, "request headers");
      if (line.empty()) break;
      headerBytes += static_cast<int64_t>(line.size()) + 2;
      headers.addLenient(line);
    }
    const Headers received = headers.build();
    // Chunked framing wins over Content-Length (RFC 9112 §6.3).
    if (std::optional<std::string> encoding = received.get("Transfer-Encoding")) {
      chunked = equalsIgnoreCase(trimAsciiWhitespace(*encoding), "chunked");
    }
    std::vector<std::string> lengths = received.values("Content-Length");
    if (!chunked && !lengths.empty()) contentLength = parseContentLength(lengths.front());

    MockResponse peek = server_.dispatcher()->peek();
    bool continueSent = false;
    for (const MockResponse& informational : peek.informationalResponses()) {
      writeInformationalResponse(informational);
      try {
        continueSent = continueSent || informational.code() == 100;
      } catch (const std::invalid_argument&) {
        // A deliberately malformed status line is not a 100 Continue.
      }
    }

    const bool hasBody = chunked || contentLength > 0;
    std::optional<std::string> expect = received.get("Expect");
    const bool awaitingContinue =
        expect && equalsIgnoreCase(trimAsciiWhitespace(*expect), "100-continue") && !continueSent;
    if (hasBody &&
        (awaitingContinue || peek.socketPolicy().is<SocketPolicy::DoNotReadRequestBody>())) {
      // The client waits for 100 Continue before sending the body (RFC 9110 §10.1.1), or the
      // policy says to ignore it: either way it stays unread and the connection ends after the
      // response.
      bodyUnread = true;
    } else if (hasBody) {
      const bool disconnectHalfway =
          peek.socketPolicy().is<SocketPolicy::DisconnectDuringRequestBody>();
      BodyTransfer transfer(socket_, server_.closing(), peek.throttleBytesPerPeriod(),
                            peek.throttlePeriod(), BodyTransfer::kNever);
      bool completed = false;
      if (chunked) {
        completed = readChunkedBody(transfer, body, chunkSizes, disconnectHalfway);
      } else {
        if (disconnectHalfway) transfer.disconnectAfter(contentLength / 2);
        completed = transfer.transfer(*source_, body, contentLength);
      }
      if (!completed) {
        disconnected = true;
        throw IOException("MockWebServer: disconnected during the request body");
      }
    }
  } catch (const ServerClosedException&) {
    throw;
  } catch (const IOException&) {
    failure = std::current_exception();
  }

  Headers recordedHeaders = headers.build();
  HttpUrl url = requestUrl(server_, method, target, recordedHeaders);
  const int64_t bodySize = body.receivedByteCount();
  return RecordedRequest(std::move(requestLine), std::move(recordedHeaders), std::move(chunkSizes),
                         bodySize, body.kept().readUtf8(), sequenceNumber_, connectionIndex_, url,
                         failure, handshake_, handshakeServerNames_);
}

bool Http1Connection::readChunkedBody(BodyTransfer& transfer, TruncatingSink& body,
                                      std::vector<int64_t>& chunkSizes, bool disconnectHalfway) {
  int64_t trailerBytes = 0;
  while (true) {
    const int64_t chunkSize = parseChunkSize(readLine(kMaxRequestLineBytes, "chunk size"));
    if (chunkSize == 0) break;
    chunkSizes.push_back(chunkSize);
    // DisconnectDuringRequestBody: a chunked body's length is unknown, so the server disconnects
    // halfway through its first chunk.
    if (disconnectHalfway && chunkSizes.size() == 1) transfer.disconnectAfter(chunkSize / 2);
    if (!transfer.transfer(*source_, body, chunkSize)) return false;
    if (!readLine(0, "chunk terminator").empty()) {
      throw ProtocolException("MockWebServer: expected CRLF after chunk data");
    }
  }
  // The trailer section, ended by an empty line (RFC 9112 §7.1.2). Trailers are not recorded.
  while (true) {
    std::string line = readLine(kMaxHeaderBytes - trailerBytes, "trailers");
    if (line.empty()) return true;
    trailerBytes += static_cast<int64_t>(line.size()) + 2;
  }
}

bool Http1Connection::writeResponse(const MockResponse& response) {
  server_.closing().sleep(response.headersDelay());
  sink_->writeUtf8(response.status()).writeUtf8("\r\n");
  writeHeaders(response.headers(), false);
  if (!response.hasBody()) return true;

  server_.closing().sleep(response.bodyDelay());
  Buffer body = response.body();
  const int64_t byteCount = body.size();
  const int64_t disconnectAfter =
      response.socketPolicy().is<SocketPolicy::DisconnectDuringResponseBody>()
          ? byteCount / 2
          : BodyTransfer::kNever;
  BodyTransfer transfer(socket_, server_.closing(), response.throttleBytesPerPeriod(),
                        response.throttlePeriod(), disconnectAfter);
  if (!transfer.transfer(body, *sink_, byteCount)) return false;
  sink_->flush();

  std::optional<std::string> encoding = response.headers().get("Transfer-Encoding");
  if (encoding && equalsIgnoreCase(*encoding, "chunked")) {
    writeHeaders(response.trailers(), false);  // The trailer section after the last chunk.
  }
  return true;
}

void Http1Connection::writeInformationalResponse(const MockResponse& response) {
  server_.closing().sleep(response.headersDelay());
  sink_->writeUtf8(response.status()).writeUtf8("\r\n");
  writeHeaders(response.headers(), true);
}

void Http1Connection::writeHeaders(const Headers& headers, bool skipFramingHeaders) {
  for (const auto& [name, value] : headers) {
    if (skipFramingHeaders &&
        (equalsIgnoreCase(name, "Content-Length") || equalsIgnoreCase(name, "Transfer-Encoding"))) {
      continue;
    }
    sink_->writeUtf8(name).writeUtf8(": ").writeUtf8(value).writeUtf8("\r\n");
  }
  sink_->writeUtf8("\r\n");
  sink_->flush();
}

std::string Http1Connection::readLine(int64_t limit, const char* what) {
  const int64_t newline = source_->indexOf(std::byte{'\n'}, 0, limit + 2);
  if (newline == -1) {
    if (source_->buffer().size() >= limit + 2) {
      throw ProtocolException(std::string("MockWebServer: ") + what + " longer than " +
                              std::to_string(limit) + " bytes");
    }
    throw EOFException(std::string("MockWebServer: stream ended reading the ") + what);
  }
  std::string line = source_->readUtf8(newline + 1);
  line.pop_back();
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (static_cast<int64_t>(line.size()) > limit) {
    throw ProtocolException(std::string("MockWebServer: ") + what + " longer than " +
                            std::to_string(limit) + " bytes");
  }
  return line;
}

}  // namespace tern::mockwebserver::internal
