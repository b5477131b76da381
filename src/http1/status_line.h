// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

#include "tern/protocol.h"

namespace tern::internal {

// An HTTP/1 response status line such as "HTTP/1.1 200 OK" (RFC 9112 §4), as OkHttp's StatusLine.
// A plain value; safe to copy.
struct StatusLine {
  Protocol protocol = Protocol::HTTP_1_1;
  int code = 0;
  std::string message;  // The reason phrase; may be empty.

  // Parses `line` (without its CRLF): "HTTP/1.0" or "HTTP/1.1" (or Shoutcast's "ICY"), a space,
  // exactly three digits, then optionally a space and the reason phrase, which may be empty or
  // hold any bytes but CR, LF and NUL. Throws ProtocolException("Unexpected status line: <line>")
  // for anything else, with control bytes of the line escaped so the message stays one line.
  static StatusLine parse(std::string_view line);

  // "HTTP/1.1 200 OK": HTTP/1.0 for an HTTP/1.0 protocol, HTTP/1.1 otherwise.
  std::string toString() const;

  bool operator==(const StatusLine&) const = default;
};

}  // namespace tern::internal
