// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Parses arbitrary bytes as a Set-Cookie value, for three URLs, and exercises what a jar does with
// the result (matching, formatting). Nothing may throw: a bad header is no cookie.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "tern/cookie.h"
#include "tern/http_url.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const tern::HttpUrl kUrls[] = {tern::HttpUrl::get("https://www.example.co.uk/a/b"),
                                        tern::HttpUrl::get("http://127.0.0.1:8080/"),
                                        tern::HttpUrl::get("http://[::1]/x/")};
  std::string_view setCookie(reinterpret_cast<const char*>(data), size);
  for (const tern::HttpUrl& url : kUrls) {
    std::optional<tern::Cookie> cookie = tern::Cookie::parse(0, url, setCookie);
    if (!cookie) continue;
    (void)cookie->matches(url);
    (void)cookie->toString();
  }
  return 0;
}
