// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "url/url_record.h"

namespace tern::internal {

// The outcome of parsing: a URL, or a message saying what is wrong and where.
struct UrlParseResult {
  std::optional<UrlRecord> url;
  std::string error;  // Set when url is empty, in OkHttp's words ("Invalid URL host: ...").
};

// The WHATWG URL Standard's basic URL parser (§4.4) for URLs whose result has an http, https, ws or
// wss scheme, with `base` (which may be null) as the base URL. Any other scheme is a failure, since
// such a URL cannot be an HttpUrl. Takes arbitrary bytes: ill-formed UTF-8 is read as U+FFFD. Runs
// in time linear in the input (apart from IDNA on non-ASCII hosts, which is bounded).
UrlParseResult parseUrl(std::string_view input, const UrlRecord* base);

}  // namespace tern::internal
