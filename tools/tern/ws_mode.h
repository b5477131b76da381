// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "options.h"

namespace tern::tool {

// `tern --ws URL` (tern's own; docs/tool.md, "WebSockets"): opens URL (ws://, wss://, http://
// or https://) as a WebSocket (tern/web_socket.h) through the client a transfer would use (so
// -H, -A, -u, -k, --cacert, --connect-timeout, --resolve, --connect-to, -4/-6 and the proxy
// options apply to the handshake), then
//  - sends each line read from the descriptor `input` as a text message, without its "\n" or
//    "\r\n" (a last line without one is sent too), once the socket is open;
//  - writes each message received to `out`, followed by "\n", and flushes: text as it is, a
//    binary message as its raw bytes;
//  - at the end of `input` (a closed or empty stdin included) closes with 1000 and returns 0
//    once the server has answered (the close handshake is done).
// If the server closes first, the tool answers with the same code and returns 0 for 1000, 1001
// and a close frame without a code (1005), else 56 naming the code and reason.
//
// Failures return curl's codes with "tern: (N) message" on `err` (unless -s without -S): the
// connection's as a transfer's (classifyFailure: 6, 7, 28, 35, 60, ...); a handshake the server
// refused with a status other than 101 is 22 ("WebSocket handshake refused: HTTP 403
// Forbidden", as curl 8 returns 22 for a refused upgrade); a 101 that breaks the handshake's
// rules and a protocol error from the server are 8; -m/--max-time passing (it bounds the whole
// session) is 28; a line that is not UTF-8 is 43; a line over the socket's 16 MiB queue is 55;
// `out` that cannot be written is 23.
//
// -v shows the handshake (curl's "> " and "< " lines) and a "* ws: " line for each message sent
// or received, each close frame and the end: the library does not report frames, so these are
// what the tool sends and what its listener hears (a message, not its fragments; no pings).
// --ws-no-compress offers no permessage-deflate. Throws ToolException for a client the options
// cannot set up (an unreadable --cacert), as TransferRunner's constructor does.
int runWebSocket(const Options& options, int input, std::ostream& out, std::ostream& err);

// The URL with ws:// made http:// and wss:// made https:// (the scheme matched in any case), so
// it reads as a transfer's; any other URL as it is.
std::string webSocketHttpUrl(std::string_view url);

}  // namespace tern::tool
