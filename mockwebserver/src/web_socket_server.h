// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include "server_socket.h"
#include "tern/buffered_sink.h"
#include "tern/buffered_source.h"
#include "tern/mockwebserver/mock_response.h"
#include "tern/mockwebserver/recorded_request.h"

namespace tern::mockwebserver::internal {

// Serves the server's side of a WebSocket (RFC 6455 §4.2.2) on an HTTP/1.1 connection whose
// `request` was answered with `response` (MockResponse::Builder::webSocketUpgrade()): writes the
// 101 with the handshake's headers, then runs tern's WebSocket engine in server mode over the
// connection, reporting to the response's listener on this thread, until the socket closes or
// fails (or the server closes). `source` and `sink` are the connection's streams over `socket`.
// Throws IOException if the 101 cannot be written.
void serveWebSocket(ConnectionSocket& socket, BufferedSource& source, BufferedSink& sink,
                    const RecordedRequest& request, const MockResponse& response);

}  // namespace tern::mockwebserver::internal
