// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "ws/web_socket_extensions.h"

#include <string_view>
#include <vector>

#include "io/ascii.h"

namespace tern::internal {
namespace {

constexpr std::string_view kHeaderName = "Sec-WebSocket-Extensions";

std::string_view trimOws(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Splits on `delimiter` outside quoted strings (RFC 6455 §9.1 allows quoted-string values, which
// may hold ',' or ';'), trimming each part.
std::vector<std::string_view> split(std::string_view s, char delimiter) {
  std::vector<std::string_view> parts;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (quoted && s[i] == '\\') {
      ++i;  // quoted-pair
    } else if (s[i] == '"') {
      quoted = !quoted;
    } else if (!quoted && s[i] == delimiter) {
      parts.push_back(trimOws(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  parts.push_back(trimOws(s.substr(start)));
  return parts;
}

// A window-bits value: 1*DIGIT, maybe quoted (§7.1.2.1). Null if it is not a small number.
std::optional<int> parseWindowBits(std::string_view value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    value = value.substr(1, value.size() - 2);
  }
  if (value.empty() || value.size() > 2) return std::nullopt;
  int result = 0;
  for (char c : value) {
    if (c < '0' || c > '9') return std::nullopt;
    result = result * 10 + (c - '0');
  }
  return result;
}

}  // namespace

WebSocketExtensions WebSocketExtensions::parse(const Headers& responseHeaders) {
  // Names are compared case-insensitively, as OkHttp does; RFC 7692 does not say.
  WebSocketExtensions result;
  for (size_t i = 0; i < responseHeaders.size(); ++i) {
    if (!equalsIgnoreCase(responseHeaders.name(i), kHeaderName)) continue;
    const std::string& header = responseHeaders.value(i);
    if (trimOws(header).empty()) continue;  // An empty field value lists no extension.
    for (std::string_view extension : split(header, ',')) {
      std::vector<std::string_view> parts = split(extension, ';');
      if (!equalsIgnoreCase(parts[0], "permessage-deflate")) {
        result.unknownValues = true;  // Another extension, or an empty list element.
        continue;
      }
      if (result.perMessageDeflate) result.unknownValues = true;  // Repeated.
      result.perMessageDeflate = true;
      for (size_t p = 1; p < parts.size(); ++p) {
        if (parts[p].empty() && p == parts.size() - 1) continue;  // A trailing ';'.
        const size_t equals = parts[p].find('=');
        const std::string_view name = trimOws(parts[p].substr(0, equals));
        std::optional<std::string_view> value;
        if (equals != std::string_view::npos) value = trimOws(parts[p].substr(equals + 1));

        if (equalsIgnoreCase(name, "client_max_window_bits")) {
          // §7.1.2.2: an offer may carry it without a value, meaning "any up to 15".
          if (result.clientMaxWindowBits) result.unknownValues = true;
          result.clientMaxWindowBits = value ? parseWindowBits(*value) : 15;
          if (!result.clientMaxWindowBits) result.unknownValues = true;
        } else if (equalsIgnoreCase(name, "server_max_window_bits")) {
          // §7.1.2.1: always with a value.
          if (result.serverMaxWindowBits) result.unknownValues = true;
          result.serverMaxWindowBits = value ? parseWindowBits(*value) : std::nullopt;
          if (!result.serverMaxWindowBits) result.unknownValues = true;
        } else if (equalsIgnoreCase(name, "client_no_context_takeover")) {
          if (result.clientNoContextTakeover || value) result.unknownValues = true;
          result.clientNoContextTakeover = true;
        } else if (equalsIgnoreCase(name, "server_no_context_takeover")) {
          if (result.serverNoContextTakeover || value) result.unknownValues = true;
          result.serverNoContextTakeover = true;
        } else {
          result.unknownValues = true;
        }
      }
    }
  }
  return result;
}

std::optional<std::string> WebSocketExtensions::clientRejectionReason() const {
  // RFC 7692 §7.1: a client that cannot accept the server's answer fails the connection.
  if (unknownValues) {
    return "unexpected Sec-WebSocket-Extensions in response header";
  }
  if (clientMaxWindowBits) {
    // §7.1.2.2: the server may only send it if the client offered it, and we never do (zlib could
    // honour it, but a smaller window only costs compression).
    return "unexpected client_max_window_bits=" + std::to_string(*clientMaxWindowBits) +
           " in response header: not offered";
  }
  if (serverMaxWindowBits && (*serverMaxWindowBits < 8 || *serverMaxWindowBits > 15)) {
    // §7.1.2.1: the value is 8..15. Our inflater's 32 KiB window reads any of them.
    return "server_max_window_bits must be in 8..15: " + std::to_string(*serverMaxWindowBits);
  }
  return std::nullopt;
}

std::string WebSocketExtensions::toHeaderValue() const {
  if (!perMessageDeflate) return "";
  std::string value = "permessage-deflate";
  if (clientMaxWindowBits)
    value += "; client_max_window_bits=" + std::to_string(*clientMaxWindowBits);
  if (clientNoContextTakeover) value += "; client_no_context_takeover";
  if (serverMaxWindowBits)
    value += "; server_max_window_bits=" + std::to_string(*serverMaxWindowBits);
  if (serverNoContextTakeover) value += "; server_no_context_takeover";
  return value;
}

}  // namespace tern::internal
