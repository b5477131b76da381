// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tern::internal {

// A WHATWG URL record (§4.1) restricted to what an HttpUrl can be: a special scheme with a host and
// a list path (never an opaque path). Every string is in its serialized, percent-encoded form.
struct UrlRecord {
  std::string scheme;                // "http", "https", "ws" or "wss".
  std::string username;              // Percent-encoded; empty if none.
  std::string password;              // Percent-encoded; empty if none.
  std::string host;                  // Serialized: a domain, dotted-decimal IPv4, or "[...]" IPv6.
  std::optional<uint16_t> port;      // Absent when not given or equal to the scheme's default.
  std::vector<std::string> path;     // Percent-encoded segments.
  std::optional<std::string> query;  // Without "?".
  std::optional<std::string> fragment;  // Without "#".
};

// 80 for http and ws, 443 for https and wss, -1 otherwise.
int defaultPortForScheme(std::string_view scheme) noexcept;

// True for the schemes an HttpUrl may have: http, https, ws and wss.
bool isHttpUrlScheme(std::string_view scheme) noexcept;

}  // namespace tern::internal
