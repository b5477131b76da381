// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Reads arbitrary bytes as a Strict-Transport-Security value and as an HSTS cache file (curl's
// --hsts FILE), and checks what the client relies on: nothing throws out of the parsers (a bad
// header is ignored, a bad line skipped); a parsed max-age is within [0, the cap]; every file
// entry read, written again, reads back the same (format() is parse()'s inverse); and the entries
// go into a store that then upgrades http URLs to their hosts and nothing else.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "tern/hsts.h"
#include "tern/http_url.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);

  if (std::optional<tern::StrictTransportSecurity> sts =
          tern::StrictTransportSecurity::parse(text)) {
    if (sts->maxAgeSeconds < 0 ||
        sts->maxAgeSeconds > tern::StrictTransportSecurity::kMaxAgeCapSeconds) {
      std::abort();
    }
  }

  std::vector<tern::HstsEntry> all = tern::FileHsts::parse(text);
  std::vector<tern::HstsEntry> once = tern::FileHsts::parse(tern::FileHsts::format(all));
  std::vector<tern::HstsEntry> twice = tern::FileHsts::parse(tern::FileHsts::format(once));
  if (once != twice) std::abort();

  // A fixed clock before every date a file can hold, so no entry has expired.
  tern::Hsts hsts([] { return std::chrono::system_clock::time_point{}; });
  for (const tern::HstsEntry& entry : all) {
    try {
      hsts.add(entry);
    } catch (const std::invalid_argument&) {
      continue;  // Not a host name: FileHsts skips it the same way.
    }
  }
  for (const tern::HstsEntry& entry : hsts.entries()) {
    if (!hsts.isKnownHost(entry.host)) std::abort();
    std::optional<tern::HttpUrl> url = tern::HttpUrl::parse("http://" + entry.host + "/");
    if (url && url->host() == entry.host && !hsts.upgrade(*url).isHttps()) std::abort();
  }
  static const tern::HttpUrl kOther = tern::HttpUrl::get("http://203.0.113.7/");
  if (hsts.upgrade(kOther).isHttps()) std::abort();  // An IP address never is a known host.
  (void)tern::FileHsts::format(hsts.entries());
  return 0;
}
