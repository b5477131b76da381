// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include "tern/cookie.h"
#include "tern/export.h"
#include "tern/http_url.h"

namespace tern {

// Where the client keeps cookies between calls, as OkHttp's CookieJar. The client reads the
// Set-Cookie headers of every network response and hands the valid cookies to
// saveFromResponse(); before each network request it asks loadForRequest() which cookies to send
// in the Cookie header. The policy (which cookies to accept, how long to keep them, where to
// store them) is the jar's.
//
// Called from the threads that run calls, possibly concurrently: implementations must be
// thread-safe.
class TERN_API CookieJar {
 public:
  virtual ~CookieJar() = default;

  // Keeps `cookies` (each already validated against `url`), as the jar's policy decides.
  virtual void saveFromResponse(const HttpUrl& url, const std::vector<Cookie>& cookies) = 0;

  // The cookies to send to `url`. The jar should return only cookies that match the URL and
  // have not expired.
  virtual std::vector<Cookie> loadForRequest(const HttpUrl& url) = 0;

  // The jar that accepts no cookies and sends none (OkHttp's CookieJar.NO_COOKIES): the client's
  // default.
  static const std::shared_ptr<CookieJar>& noCookies();
};

}  // namespace tern
