// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tern::internal {

// One alternative service an origin advertised in its Alt-Svc field (RFC 7838 §3): "the same
// resources are also at `host`:`port` over `protocolId`", for `maxAge` from the response.
struct AltService {
  // The ALPN protocol ID, percent-decoded ("h3", "h3-29", "h2"; "w%3Dx%3Ay" is "w=x:y"): 1 to
  // 255 bytes, compared exactly (ALPN IDs are byte strings, RFC 7301 §3.1).
  std::string protocolId;
  // As HttpUrl::host() is: a lowercase ASCII domain, dotted-decimal IPv4, or IPv6 compressed
  // and without brackets. Empty: the origin's own host (§3).
  std::string host;
  int port = 0;  // 1 to 65535.
  // How long the alternative is fresh from when the response was received (§3.1, "ma"): 24 hours
  // when not given, at most kMaxAgeCap.
  std::chrono::seconds maxAge{kDefaultMaxAge};
  bool persist = false;  // "persist=1" (§3.1): keep it across network changes.

  // The freshness when a value has no "ma" (§3.1).
  static constexpr std::chrono::seconds kDefaultMaxAge{24 * 60 * 60};
  // The longest freshness honoured: one year, as Hsts caps max-age. A larger "ma" (however many
  // digits it has) is lowered to it, so one response cannot pin an alternative for decades and
  // received time + maxAge never overflows a clock.
  static constexpr std::chrono::seconds kMaxAgeCap{365 * 24 * 60 * 60};

  bool operator==(const AltService&) const = default;
};

// An Alt-Svc field as parsed: either `clear` (forget the origin's alternatives) or the list of
// alternatives, in the order the server gave them.
struct AltSvcField {
  // The most alternatives kept from one response; the rest are ignored, so a hostile server
  // cannot make one response hold an unbounded list.
  static constexpr std::size_t kMaxAlternatives = 64;

  bool clear = false;                    // The value was `clear`; alternatives is empty.
  std::vector<AltService> alternatives;  // At most kMaxAlternatives.

  // True when the field says nothing usable (not `clear`, no valid alternative): a cache then
  // keeps what it knew, as Chromium ignores a header it cannot parse.
  bool empty() const noexcept { return !clear && alternatives.empty(); }

  // Parses one Alt-Svc field value, or several field lines already joined with ',' (RFC 9110
  // §5.3). RFC 7838 §3:
  //   Alt-Svc       = clear / 1#alt-value
  //   clear         = %s"clear"; "clear", case-sensitive, and alone
  //   alt-value     = alternative *( OWS ";" OWS parameter )
  //   alternative   = protocol-id "=" alt-authority
  //   protocol-id   = token ; percent-encoded ALPN protocol name
  //   alt-authority = quoted-string ; containing [ uri-host ] ":" port
  //   parameter     = token "=" ( token / quoted-string )
  // Like a browser, it never throws and skips what it cannot read: an alt-value that is
  // malformed (a bad percent-escape, an unquoted or unterminated authority, a host that is not
  // one, a port outside 1–65535 or not all digits, an "ma" that is not delta-seconds, a
  // parameter without '=', anything after the value before the next ',') is dropped and the
  // rest kept. OWS is allowed around '=' and empty list elements and parameters are skipped.
  // Parameter names ignore case; unknown parameters are ignored; of repeated ones the first
  // counts. `clear` among other alt-values is one more malformed alt-value.
  static AltSvcField parse(std::string_view value);

  // Parses the Alt-Svc field lines of one response as one list, each line on its own, so an
  // unterminated quote on one line cannot swallow the next. The result is `clear` when no line
  // holds an alternative and one is `clear`.
  static AltSvcField parse(const std::vector<std::string>& fieldLines);
};

}  // namespace tern::internal
