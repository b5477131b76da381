// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "body_transfer.h"
#include "server_socket.h"
#include "server_state.h"
#include "tern/buffered_sink.h"
#include "tern/buffered_source.h"
#include "tern/mockwebserver/mock_response.h"
#include "tern/mockwebserver/recorded_request.h"

namespace tern::mockwebserver::internal {

// Serves HTTP/1.1 (RFC 9112) on one accepted connection (over TLS first when the server uses
// https), request after request, until the client closes it, a socket policy ends it, a request
// is malformed, or the server closes.
// Runs on the connection's own thread; not thread-safe.
class Http1Connection {
 public:
  // Longest request line, and most bytes of header (or trailer) lines, the server reads before
  // recording the request as failed: as large as the client accepts (256 KiB of headers).
  static constexpr int64_t kMaxRequestLineBytes = 64 * 1024;
  static constexpr int64_t kMaxHeaderBytes = 256 * 1024;

  Http1Connection(ServerState& server, FileDescriptor fd, int connectionIndex);

  // Serves the connection, then closes it. Never throws: a client that goes away ends the
  // connection quietly; other failures (a throwing dispatcher) are reported on stderr.
  void serve() noexcept;

 private:
  // Reads one request, records it and writes its response. Returns true if another request may
  // follow on this connection.
  bool processOneRequest();
  // Answers CONNECTs while the next response is in a tunnel (MockResponse::Builder::inTunnel()),
  // until one is a 2xx. False if the connection ended instead.
  bool processTunnelRequests();

  // Reads the request line, headers and body (sending the informational responses of
  // `dispatcher.peek()` after the headers). Failures to read are recorded in the result, not
  // thrown; only ServerClosedException propagates. Sets `bodyUnread` if the body was left on the
  // socket (so the connection cannot carry another request).
  RecordedRequest readRequest(bool& bodyUnread, bool& disconnected);

  // Reads a chunked request body (RFC 9112 §7.1) into `body` through `transfer`, noting each
  // chunk's size. With `disconnectHalfway`, closes the socket halfway through the first chunk
  // (DisconnectDuringRequestBody) and returns false.
  bool readChunkedBody(BodyTransfer& transfer, TruncatingSink& body,
                       std::vector<int64_t>& chunkSizes, bool disconnectHalfway);

  // Writes `response` (status, headers, body, trailers). Returns false if the socket was closed
  // halfway through the body (DisconnectDuringResponseBody).
  bool writeResponse(const MockResponse& response);

  // Writes a 1xx response: status and headers only, without framing headers (RFC 9110 §15.2).
  void writeInformationalResponse(const MockResponse& response);

  // Writes "Name: value\r\n" per field, then "\r\n", and flushes.
  void writeHeaders(const Headers& headers, bool skipFramingHeaders);

  // Removes a line of at most `limit` bytes (terminator excluded) and returns it without its
  // "\n" or "\r\n". Throws ProtocolException if the line is longer, EOFException if the stream
  // ends first. `what` names the line in messages.
  std::string readLine(int64_t limit, const char* what);

  ServerState& server_;
  ConnectionSocket socket_;
  std::unique_ptr<BufferedSource> source_;
  std::unique_ptr<BufferedSink> sink_;
  int connectionIndex_;
  int sequenceNumber_ = 0;
  bool tunnelOpened_ = false;           // The last response written was a 2xx in a tunnel.
  std::optional<Handshake> handshake_;  // Over TLS, once the handshake is done.
  std::vector<std::string> handshakeServerNames_;
};

}  // namespace tern::mockwebserver::internal
