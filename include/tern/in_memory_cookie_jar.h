// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "tern/cookie.h"
#include "tern/cookie_jar.h"
#include "tern/export.h"
#include "tern/http_url.h"

namespace tern {

// A CookieJar that keeps cookies in memory by the storage model of RFC 6265bis
// (draft-ietf-httpbis-rfc6265bis-12 §5.6, the rules a browser follows), for the life of the jar:
// - host-only cookies go back to the exact host that set them, domain cookies to the domain and
//   its subdomains; a Domain that is a public suffix is rejected unless it is the host itself,
//   which makes the cookie host-only (§5.6);
// - a cookie goes to URLs whose path path-matches its Path (or default path);
// - a Secure cookie is accepted only from https and sent only over https; a cookie from http
//   cannot replace or shadow a Secure cookie of the same name (§5.6); the __Secure- and
//   __Host- name prefixes are enforced (§4.1.3);
// - a cookie with the same name, domain, host-only flag and path replaces the stored one and
//   keeps its creation time; one that has expired (Max-Age ≤ 0, an Expires in the past) deletes
//   it instead. Max-Age wins over Expires (Cookie::parse);
// - limits: a cookie whose name and value together exceed maxCookieSize bytes is rejected
//   (4096); beyond maxCookiesPerDomain for one registrable domain or maxCookies in
//   all, expired cookies go first, then the least recently used (§5.6's "excess cookies");
// - the Cookie header lists longer paths first, then earlier creation times (§5.7.3).
// HttpOnly and SameSite are kept as attributes; an HTTP client sends cookies regardless.
//
//   auto jar = std::make_shared<tern::InMemoryCookieJar>();
//   tern::Client client = tern::Client::Builder().cookieJar(jar).build();
//
// Thread-safe: calls on any number of threads may save and load at once.
class TERN_API InMemoryCookieJar : public CookieJar {
 public:
  // The jar's bounds. The defaults are Chromium's, above RFC 6265bis's minimums (50 a domain,
  // 3000 in all, 4096 bytes a cookie).
  struct Limits {
    size_t maxCookieSize = 4096;       // Bytes of name plus value.
    size_t maxCookiesPerDomain = 180;  // Per registrable domain ("example.co.uk").
    size_t maxCookies = 3000;
  };

  // The time now, in milliseconds since the epoch. Tests pass a fake one.
  using Clock = std::function<int64_t()>;

  // An empty jar with the default limits, on the system clock.
  InMemoryCookieJar();
  // Throws std::invalid_argument if a limit is 0. An empty `clock` is the system clock.
  explicit InMemoryCookieJar(Limits limits, Clock clock = {});
  ~InMemoryCookieJar() override;
  InMemoryCookieJar(const InMemoryCookieJar&) = delete;
  InMemoryCookieJar& operator=(const InMemoryCookieJar&) = delete;

  // Stores each cookie the rules above accept for a response from `url`; drops the others.
  void saveFromResponse(const HttpUrl& url, const std::vector<Cookie>& cookies) override;

  // The unexpired cookies for `url`, in Cookie header order; marks them used now.
  std::vector<Cookie> loadForRequest(const HttpUrl& url) override;

  // Stores `cookie` as a cookie store loaded from disk does: replacement, expiry and limits
  // apply, but no origin check (there is no response it came from). An expired cookie deletes
  // its stored namesake. `creationTime` (milliseconds since the epoch) orders it among the
  // others; by default, now.
  void add(const Cookie& cookie, std::optional<int64_t> creationTime = std::nullopt);

  // Every unexpired cookie, oldest creation first (what a persistent jar writes).
  std::vector<Cookie> cookies();

  // Drops the session cookies (those without Expires or Max-Age), as a browser does when it
  // closes and curl's --junk-session-cookies.
  void clearSession();

  // Drops every cookie.
  void clear();

  // The current time by the jar's clock.
  int64_t now() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace tern
