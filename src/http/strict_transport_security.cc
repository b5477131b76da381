// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include <optional>
#include <string>
#include <string_view>

#include "http/http_syntax.h"
#include "io/ascii.h"
#include "tern/hsts.h"

namespace tern {
namespace {

// delta-seconds (RFC 9111 §1.2.2, which RFC 6797 §6.1.1 refers to): digits only; a value past the
// cap is the cap, however many digits it has (no overflow).
std::optional<int64_t> parseDeltaSeconds(std::string_view s) {
  if (s.empty()) return std::nullopt;
  int64_t value = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    if (value <= StrictTransportSecurity::kMaxAgeCapSeconds) value = value * 10 + (c - '0');
  }
  return value < StrictTransportSecurity::kMaxAgeCapSeconds
             ? value
             : StrictTransportSecurity::kMaxAgeCapSeconds;
}

}  // namespace

// RFC 6797 §6.1:
//   Strict-Transport-Security = "Strict-Transport-Security" ":"
//                               [ directive ]  *( ";" [ directive ] )
//   directive = directive-name [ "=" directive-value ]
//   directive-name = token
//   directive-value = token | quoted-string
// with optional whitespace around each part (§6.1's implied *LWS).
std::optional<StrictTransportSecurity> StrictTransportSecurity::parse(std::string_view value) {
  using internal::equalsIgnoreCase;
  using internal::isTokenChar;
  using internal::skipHttpWhitespace;

  std::optional<int64_t> maxAge;
  bool includeSubDomains = false;
  size_t pos = 0;
  while (true) {
    pos = skipHttpWhitespace(value, pos);
    size_t nameStart = pos;
    while (pos < value.size() && isTokenChar(value[pos])) ++pos;
    std::string_view name = value.substr(nameStart, pos - nameStart);
    pos = skipHttpWhitespace(value, pos);

    std::optional<std::string> directiveValue;
    if (pos < value.size() && value[pos] == '=') {
      if (name.empty()) return std::nullopt;
      pos = skipHttpWhitespace(value, pos + 1);
      if (pos < value.size() && value[pos] == '"') {
        directiveValue = internal::readQuotedString(value, pos);
        if (!directiveValue) return std::nullopt;
      } else {
        size_t valueStart = pos;
        while (pos < value.size() && isTokenChar(value[pos])) ++pos;
        if (pos == valueStart) return std::nullopt;
        directiveValue.emplace(value.substr(valueStart, pos - valueStart));
      }
      pos = skipHttpWhitespace(value, pos);
    }

    // "All directives MUST appear only once" (§6.1): a repeated one makes the header invalid.
    if (equalsIgnoreCase(name, "max-age")) {
      if (maxAge || !directiveValue) return std::nullopt;
      maxAge = parseDeltaSeconds(*directiveValue);
      if (!maxAge) return std::nullopt;
    } else if (equalsIgnoreCase(name, "includeSubDomains")) {
      // A valueless directive (§6.1.2); one with a value is not it, and is malformed.
      if (includeSubDomains || directiveValue) return std::nullopt;
      includeSubDomains = true;
    }
    // Any other directive is ignored (§6.1), as long as it is well-formed.

    if (pos == value.size()) break;
    if (value[pos] != ';') return std::nullopt;
    ++pos;
  }
  if (!maxAge) return std::nullopt;  // max-age is required (§6.1.1).
  return StrictTransportSecurity{*maxAge, includeSubDomains};
}

}  // namespace tern
