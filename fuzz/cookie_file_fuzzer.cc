// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Reads arbitrary bytes as a Netscape cookie file (curl's -b FILE), with and without
// --junk-session-cookies, and checks what a FileCookieJar relies on: nothing throws (a bad line
// is skipped); junking only drops cookies; every cookie read, written again, reads back the same
// (format() is parse()'s inverse); and the cookies go into a jar and back out for a request.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "tern/cookie.h"
#include "tern/file_cookie_jar.h"
#include "tern/http_url.h"
#include "tern/in_memory_cookie_jar.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<tern::Cookie> all = tern::FileCookieJar::parse(text);
  std::vector<tern::Cookie> persistent = tern::FileCookieJar::parse(text, true);
  if (persistent.size() > all.size()) std::abort();
  for (const tern::Cookie& cookie : persistent) {
    if (!cookie.persistent()) std::abort();
  }

  // Expiry is kept to the second in the file, so compare after one round trip.
  std::vector<tern::Cookie> once = tern::FileCookieJar::parse(tern::FileCookieJar::format(all));
  std::vector<tern::Cookie> twice = tern::FileCookieJar::parse(tern::FileCookieJar::format(once));
  if (once != twice) std::abort();

  tern::InMemoryCookieJar jar(tern::InMemoryCookieJar::Limits{}, [] { return int64_t{0}; });
  for (const tern::Cookie& cookie : all) jar.add(cookie);
  static const tern::HttpUrl kUrl = tern::HttpUrl::get("https://www.example.com/a/b");
  for (const tern::Cookie& cookie : jar.loadForRequest(kUrl)) {
    if (!cookie.matches(kUrl)) std::abort();
  }
  (void)tern::FileCookieJar::format(jar.cookies());
  return 0;
}
