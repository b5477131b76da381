// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/message_framing.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include "http/http_syntax.h"
#include "io/hex.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

// Calls `f` with each trimmed element of the comma-separated list `value`, until `f` returns true.
// Returns whether it did.
template <typename F>
bool anyListElement(std::string_view value, F f) {
  while (true) {
    size_t comma = value.find(',');
    if (f(trimAsciiWhitespace(value.substr(0, comma)))) {
      return true;
    }
    if (comma == std::string_view::npos) {
      return false;
    }
    value.remove_prefix(comma + 1);
  }
}

// 1*DIGIT as a non-negative int64_t, or -1 if `s` is not that.
int64_t parseDigits(std::string_view s) {
  if (s.empty()) {
    return -1;
  }
  int64_t result = 0;
  for (char c : s) {
    if (c < '0' || c > '9') {
      return -1;
    }
    int digit = c - '0';
    if (result > (std::numeric_limits<int64_t>::max() - digit) / 10) {
      return -1;  // Overflow.
    }
    result = result * 10 + digit;
  }
  return result;
}

}  // namespace

bool hasToken(const Headers& headers, std::string_view name, std::string_view token) {
  for (const std::string& value : headers.values(name)) {
    if (anyListElement(value, [&](std::string_view e) { return equalsIgnoreCase(e, token); })) {
      return true;
    }
  }
  return false;
}

bool isChunked(const Headers& headers) {
  std::optional<std::string> value = headers.get("Transfer-Encoding");
  if (!value) {
    return false;
  }
  std::string_view codings = *value;
  size_t comma = codings.rfind(',');
  std::string_view last = comma == std::string_view::npos ? codings : codings.substr(comma + 1);
  return equalsIgnoreCase(trimAsciiWhitespace(last), "chunked");
}

int64_t contentLength(const Headers& headers) {
  int64_t result = -1;
  for (const std::string& value : headers.values("Content-Length")) {
    bool invalid = anyListElement(value, [&](std::string_view element) {
      int64_t length = parseDigits(element);
      if (length == -1 || (result != -1 && result != length)) {
        return true;
      }
      result = length;
      return false;
    });
    if (invalid) {
      throw ProtocolException("Invalid Content-Length: \"" + escapeForMessage(value) + "\"");
    }
  }
  return result;
}

bool promisesBody(const Response& response) {
  const std::string& method = response.request().method();
  int code = response.code();
  if (method == "HEAD" || (code >= 100 && code < 200) || code == 304) {
    return false;
  }
  // After a 2xx to CONNECT the connection is a tunnel.
  if (method == "CONNECT" && code >= 200 && code < 300) {
    return false;
  }
  if (code == 204) {
    // Framed by its headers only if they announce bytes, so a caller can reject them; a 204
    // with "Content-Length: 0" has no body, as any 204.
    std::optional<std::string> length = response.headers().get("Content-Length");
    return (length && length->find_first_not_of("0 \t") != std::string::npos) ||
           isChunked(response.headers());
  }
  return true;
}

int64_t parseChunkSize(std::string_view line) {
  size_t digits = 0;
  uint64_t size = 0;
  for (; digits < line.size(); ++digits) {
    int value = hexDigitValue(static_cast<std::byte>(line[digits]));
    if (value < 0) {
      break;
    }
    if (size > (static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) >> 4)) {
      throw ProtocolException("Chunk size too large: \"" + escapeForMessage(line) + "\"");
    }
    size = size << 4 | static_cast<uint64_t>(value);
  }
  std::string_view extensions = trimAsciiWhitespace(line.substr(digits));
  if (digits == 0 || (!extensions.empty() && extensions[0] != ';')) {
    throw ProtocolException("Expected a hex chunk size but was \"" + escapeForMessage(line) + "\"");
  }
  return static_cast<int64_t>(size);
}

bool isConnectionSpecificField(std::string_view lowerName) noexcept {
  static constexpr std::string_view kFields[] = {"connection",       "host",   "keep-alive",
                                                 "proxy-connection", "te",     "transfer-encoding",
                                                 "encoding",         "upgrade"};
  return std::find(std::begin(kFields), std::end(kFields), lowerName) != std::end(kFields);
}

}  // namespace tern::internal
