// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "debug_output.h"
#include "options.h"
#include "tern/cookie_jar.h"
#include "tern/in_memory_cookie_jar.h"
#include "tern/interceptor.h"

namespace tern::tool {

// curl's cookie engine for the tool's client, over an InMemoryCookieJar:
// - it is on with -b FILE (each file read at the start; a missing or unreadable one is no
//   cookies, silently, as curl; -j leaves out their session cookies) or -c FILE;
// - the jar's cookies go out in curl 7.88's order (cookie_sort(): longer paths first, then
//   longer domains, longer names, and the newest first), not RFC 6265bis's, so the Cookie
//   header is curl's byte for byte;
// - -b's data ("name=value; n2=v2", several -b joined with ';') goes after the jar's cookies in
//   the same header, as it is, on every request (redirects to other hosts too, as curl sends it),
//   unless a -H gave a Cookie header;
// - at the end, -c writes every cookie to its file (a header-only file when there are none, as
//   curl), atomically; "-" is stdout. A failure is shown with -v only, as curl's warning.
// Thread-safe (the jar is), so -Z's transfers share it.
class CookieEngine final : public CookieJar {
 public:
  // The engine for `options`, or null if they name no cookie option.
  static std::shared_ptr<CookieEngine> forOptions(const Options& options);

  // The engine for `options` (forOptions() when none may be needed).
  explicit CookieEngine(const Options& options);

  void saveFromResponse(const HttpUrl& url, const std::vector<Cookie>& cookies) override;
  std::vector<Cookie> loadForRequest(const HttpUrl& url) override;

  // The network interceptor that adds -b's data, or null without any.
  std::shared_ptr<Interceptor> dataInterceptor() const;

  // -c: writes the jar to its file, or to `out` for "-". `debug` (may be null) is told of a
  // failure.
  void writeJar(std::ostream& out, DebugOutput* debug);

 private:
  std::shared_ptr<InMemoryCookieJar> jar_;  // Null when only -b data was given.
  std::string data_;                        // -b's data, joined; "" without.
  std::optional<std::string> jarFile_;      // -c's file.
};

}  // namespace tern::tool
