// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <string>

#include "server_socket.h"
#include "tern/buffered_sink.h"
#include "tern/buffered_source.h"
#include "tern/headers.h"
#include "tern/mockwebserver/mock_response.h"
#include "tern/mockwebserver/recorded_request.h"
#include "tern/protocol.h"
#include "tern/response.h"
#include "tern/upgraded_socket.h"

namespace tern::mockwebserver::internal {

// Serves the server's side of a WebSocket (RFC 6455 §4.2.2) on an HTTP/1.1 connection whose
// `request` was answered with `response` (MockResponse::Builder::webSocketUpgrade()): writes the
// 101 with the handshake's headers, then runs the WebSocket (runWebSocket()) over the
// connection until the socket closes or fails (or the server closes). `source` and `sink` are
// the connection's streams over `socket`. Throws IOException if the 101 cannot be written.
void serveWebSocket(ConnectionSocket& socket, BufferedSource& source, BufferedSink& sink,
                    const RecordedRequest& request, const MockResponse& response);

// The Response a server-side WebSocket's listener gets in onOpen: `request`'s URL and headers
// (pseudo-headers left out), answered with `code`, `message` and `headers` over `protocol`.
Response webSocketHandshake(const RecordedRequest& request, Protocol protocol, int code,
                            std::string message, const Headers& headers);

// Runs tern's WebSocket engine in server mode over `socket`, once the handshake's answer
// (`opened`) is out, for any transport: an HTTP/1.1 connection after its 101, an HTTP/2 stream
// after its 200 (RFC 8441 §5). Extensions are negotiated from `opened`'s Sec-WebSocket-Extensions.
// Reports to `response`'s listener on this thread, onOpen first, and returns once the socket
// closed or failed and the final callback was delivered. Before it returns, `socket` is
// detached: the WebSocket may outlive this call (a cancel() from a test, a late failure from
// its writer), but from here on every use of the socket is refused, so the caller may free
// what `socket` refers to.
void runWebSocket(std::unique_ptr<UpgradedSocket> socket, const Response& opened,
                  const MockResponse& response);

}  // namespace tern::mockwebserver::internal
