// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/alt_svc.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "http/http_syntax.h"
#include "io/ascii.h"
#include "url/host_parser.h"
#include "url/percent_encoding.h"

namespace tern::internal {
namespace {

// RFC 7301 §3.1: a protocol name is 1 to 255 bytes; a DNS name at most 253 characters (255 with
// room for a trailing dot), an IPv6 literal far less.
constexpr std::size_t kMaxProtocolIdLength = 255;
constexpr std::size_t kMaxHostLength = 255;

// protocol-id (§3): a token whose '%' starts a two-hex-digit escape. Octets that are token
// characters other than '%' must not be encoded, but decoding them anyway is harmless.
std::optional<std::string> decodeProtocolId(std::string_view token) {
  std::string result;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] != '%') {
      result.push_back(token[i]);
      continue;
    }
    if (token.size() - i < 3) return std::nullopt;
    int high = hexValue(token[i + 1]);
    int low = hexValue(token[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    result.push_back(static_cast<char>(high * 16 + low));
    i += 2;
  }
  if (result.empty() || result.size() > kMaxProtocolIdLength) return std::nullopt;
  return result;
}

// port (RFC 3986 §3.2.3): digits only, here 1 to 65535; never overflows, whatever its length.
std::optional<int> parsePort(std::string_view digits) {
  if (digits.empty()) return std::nullopt;
  int port = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    port = port * 10 + (c - '0');
    if (port > 65535) return std::nullopt;
  }
  if (port == 0) return std::nullopt;
  return port;
}

// uri-host (RFC 3986 §3.2.2) as the URL parser canonicalizes it, so an alternative's host
// compares equal to HttpUrl::host(). Only unreserved characters (and brackets around an IPv6
// literal) are let through: a server names its alternative in ASCII, and refusing '%' keeps the
// URL parser's percent-decoding out of it.
std::optional<std::string> canonicalHost(std::string_view host) {
  if (host.size() > kMaxHostLength) return std::nullopt;
  if (host.starts_with('[')) {
    if (host.size() < 3 || !host.ends_with(']')) return std::nullopt;
    std::optional<std::string> ipv6 = parseHost(host);
    if (!ipv6 || !ipv6->starts_with('[')) return std::nullopt;
    return ipv6->substr(1, ipv6->size() - 2);  // Without brackets, as HttpUrl::host().
  }
  for (char c : host) {
    bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_' || c == '~';
    if (!unreserved) return std::nullopt;
  }
  std::optional<std::string> canonical = parseHost(host);
  if (!canonical || canonical->empty() || canonical->starts_with('[')) return std::nullopt;
  return canonical;
}

// alt-authority's content (§3): [ uri-host ] ":" port.
bool parseAuthority(std::string_view authority, AltService& service) {
  std::size_t colon = authority.rfind(':');
  if (colon == std::string_view::npos) return false;
  std::string_view host = authority.substr(0, colon);
  std::optional<int> port = parsePort(authority.substr(colon + 1));
  if (!port) return false;
  if (!host.empty()) {
    std::optional<std::string> canonical = canonicalHost(host);
    if (!canonical) return false;
    service.host = std::move(*canonical);
  }
  service.port = *port;
  return true;
}

// delta-seconds (RFC 9111 §1.2.2): digits only; past the cap is the cap, however many digits.
std::optional<std::chrono::seconds> parseMaxAge(std::string_view digits) {
  if (digits.empty()) return std::nullopt;
  const int64_t cap = AltService::kMaxAgeCap.count();
  int64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    if (value <= cap) value = value * 10 + (c - '0');
  }
  return std::chrono::seconds(value < cap ? value : cap);
}

// A token at `pos` (possibly empty); moves `pos` past it.
std::string_view readToken(std::string_view s, std::size_t& pos) {
  std::size_t start = pos;
  while (pos < s.size() && isTokenChar(s[pos])) ++pos;
  return s.substr(start, pos - start);
}

// Skips the list element starting at `pos` to its end: the next ',' outside a quoted-string,
// or the end of `s` (an unterminated quote runs to it).
std::size_t endOfElement(std::string_view s, std::size_t pos) {
  while (pos < s.size() && s[pos] != ',') {
    if (s[pos] == '"') {
      ++pos;
      while (pos < s.size() && s[pos] != '"') pos += s[pos] == '\\' ? 2 : 1;
      if (pos >= s.size()) return s.size();
    }
    ++pos;
  }
  return pos;
}

// One alt-value at `pos`, which starts at something other than OWS or ','. On success moves
// `pos` to the ',' that ends it, or to the end; std::nullopt, `pos` anywhere, when it is
// malformed.
std::optional<AltService> parseAltValue(std::string_view s, std::size_t& pos) {
  AltService service;
  std::optional<std::string> protocolId = decodeProtocolId(readToken(s, pos));
  if (!protocolId) return std::nullopt;
  service.protocolId = std::move(*protocolId);

  pos = skipHttpWhitespace(s, pos);
  if (pos == s.size() || s[pos] != '=') return std::nullopt;
  pos = skipHttpWhitespace(s, pos + 1);
  std::optional<std::string> authority = readQuotedString(s, pos);
  if (!authority || !parseAuthority(*authority, service)) return std::nullopt;

  bool sawMaxAge = false;
  bool sawPersist = false;
  while (true) {
    pos = skipHttpWhitespace(s, pos);
    if (pos == s.size() || s[pos] == ',') return service;
    if (s[pos] != ';') return std::nullopt;  // Trailing garbage.
    pos = skipHttpWhitespace(s, pos + 1);
    std::string_view name = readToken(s, pos);
    if (name.empty()) continue;  // An empty parameter: ";;" or a trailing ';'.
    pos = skipHttpWhitespace(s, pos);
    if (pos == s.size() || s[pos] != '=') return std::nullopt;
    pos = skipHttpWhitespace(s, pos + 1);
    std::string value;
    if (pos < s.size() && s[pos] == '"') {
      std::optional<std::string> quoted = readQuotedString(s, pos);
      if (!quoted) return std::nullopt;
      value = std::move(*quoted);
    } else {
      std::string_view token = readToken(s, pos);
      if (token.empty()) return std::nullopt;
      value = token;
    }

    if (equalsIgnoreCase(name, "ma")) {
      // Not delta-seconds: how long the server meant is unknown, so the alternative is not used.
      std::optional<std::chrono::seconds> maxAge = parseMaxAge(value);
      if (!maxAge) return std::nullopt;
      if (!sawMaxAge) service.maxAge = *maxAge;
      sawMaxAge = true;
    } else if (equalsIgnoreCase(name, "persist")) {
      // §3.1: values other than "1" are ignored.
      if (!sawPersist) service.persist = value == "1";
      sawPersist = true;
    }
    // Other parameters are ignored (§3: new ones may be defined).
  }
}

// Appends the alt-values of one field value (one line, or lines joined with ',') to `field`,
// up to the bound. Returns whether the value was exactly `clear` (with OWS around it).
bool parseInto(std::string_view value, AltSvcField& field) {
  std::size_t first = skipHttpWhitespace(value, 0);
  std::size_t last = value.find_last_not_of(" \t");
  if (first < value.size() && value.substr(first, last - first + 1) == "clear") return true;

  std::size_t pos = 0;
  while (field.alternatives.size() < AltSvcField::kMaxAlternatives) {
    pos = skipHttpWhitespace(value, pos);
    if (pos == value.size()) break;
    if (value[pos] == ',') {
      ++pos;  // An empty list element (RFC 9110 §5.6.1).
      continue;
    }
    std::size_t start = pos;
    if (std::optional<AltService> service = parseAltValue(value, pos)) {
      field.alternatives.push_back(std::move(*service));
    } else {
      pos = endOfElement(value, start);  // Skip it; the next ones may be good.
    }
  }
  return false;
}

}  // namespace

AltSvcField AltSvcField::parse(std::string_view value) {
  AltSvcField field;
  field.clear = parseInto(value, field);
  return field;
}

AltSvcField AltSvcField::parse(const std::vector<std::string>& fieldLines) {
  AltSvcField field;
  bool sawClear = false;
  for (const std::string& line : fieldLines) {
    if (parseInto(line, field)) sawClear = true;
  }
  field.clear = sawClear && field.alternatives.empty();
  return field;
}

}  // namespace tern::internal
