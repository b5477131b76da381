// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "tern/export.h"

namespace tern {

// Parses an HTTP date (RFC 9110 §5.6.7), as OkHttp does. Accepts the three formats the RFC asks
// recipients to accept:
//   IMF-fixdate  "Sun, 06 Nov 1994 08:49:37 GMT"
//   RFC 850      "Sunday, 06-Nov-94 08:49:37 GMT"
//   asctime      "Sun Nov  6 08:49:37 1994"          (always GMT; a zone after it is ignored)
// and the lenient variants browsers accept: any time zone ("GMT-01:00", "+0200", "UTC", "PST"),
// '-' between date or time fields, numeric months ("Thu, 01-01-1970 ..."), missing comma or
// space after the weekday, and JavaScript's "Thu Jan 01 1970 00:00:00 GMT+0000". Names of days,
// months and zones ignore case; the weekday is not checked against the date. Text after a
// complete date is ignored. A two-digit year is placed between 80 years ago and 19 years ahead (as
// OkHttp, via Java), which keeps RFC 9110 §5.6.7's rule that one more than 50 years ahead is past.
//
// Returns nullopt for anything else, including out-of-range fields (31 Feb, 25:00:00) and a missing
// time zone outside asctime. Instants outside what system_clock can hold (about 1678–2262 with
// libstdc++) are clamped to the nearest representable second, so the common "never expires"
// value "Fri, 31 Dec 9999 23:59:59 GMT" reads as the far future rather than failing.
//
// Thread-safe; depends on neither the locale nor the local time zone.
TERN_API std::optional<std::chrono::system_clock::time_point> parseHttpDate(std::string_view text);

// Formats `instant` as an IMF-fixdate in GMT, "Sun, 06 Nov 1994 08:49:37 GMT" (RFC 9110 §5.6.7),
// dropping fractions of a second (rounding toward the past). Thread-safe.
TERN_API std::string formatHttpDate(std::chrono::system_clock::time_point instant);

}  // namespace tern
