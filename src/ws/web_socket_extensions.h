// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>

#include "tern/headers.h"

namespace tern::internal {

// The permessage-deflate parameters (RFC 7692 §7.1) of a Sec-WebSocket-Extensions header, as
// OkHttp's WebSocketExtensions. A client offers "permessage-deflate" (no parameters); the server
// answers with the parameters it wants.
struct TERN_INTERNAL_API WebSocketExtensions {
  bool perMessageDeflate = false;
  std::optional<int> clientMaxWindowBits;  // Present without a value: 15 (§7.1.2.2).
  bool clientNoContextTakeover = false;
  std::optional<int> serverMaxWindowBits;
  bool serverNoContextTakeover = false;
  // An extension other than permessage-deflate, a parameter it does not know, a repeated
  // parameter, or a value that is not valid (§7.1: "the client MUST _Fail the WebSocket
  // Connection_").
  bool unknownValues = false;

  // Parses every Sec-WebSocket-Extensions value of `responseHeaders` (comma-separated
  // extensions, ';'-separated parameters, quoted values allowed). Never throws.
  static WebSocketExtensions parse(const Headers& responseHeaders);

  // Whether the side that `isClient` names must reset its compression context after each message:
  // the client looks at client_no_context_takeover for what it sends, the server at
  // server_no_context_takeover.
  bool noContextTakeover(bool isClient) const {
    return isClient ? clientNoContextTakeover : serverNoContextTakeover;
  }

  // Null if a client that offered plain "permessage-deflate" may accept these; else the reason to
  // fail the handshake with (close code 1010): unknown values, client_max_window_bits (we did not
  // offer it), or server_max_window_bits outside 8..15.
  std::optional<std::string> clientRejectionReason() const;

  // The header value that states these parameters ("permessage-deflate;
  // server_no_context_takeover"), for a server's answer. Empty if !perMessageDeflate.
  std::string toHeaderValue() const;

  bool operator==(const WebSocketExtensions&) const = default;
};

}  // namespace tern::internal
