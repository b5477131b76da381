// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "tern/http_url.h"
#include "tern/request.h"

namespace tern::internal {

// The request line of an HTTP/1.1 request without its CRLF, as OkHttp's RequestLine.get:
// "GET /path?query HTTP/1.1" in origin-form, or with the whole URL (fragment dropped) in
// absolute-form when the request goes to an HTTP proxy without a tunnel (RFC 9112 §3.2.1–2).
// HTTPS requests through a proxy use a CONNECT tunnel, so they always use origin-form.
std::string requestLine(const Request& request, bool usesHttpProxy);

// The origin-form request target of `url`: its encoded path, then "?" and the encoded query if
// it has one ("/" at least).
std::string requestPath(const HttpUrl& url);

}  // namespace tern::internal
