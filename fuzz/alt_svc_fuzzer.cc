// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Reads arbitrary bytes as an Alt-Svc field value, whole and split at each LF into field lines,
// and checks what a client will rely on: nothing throws (a bad alt-value is skipped); `clear`
// holds no alternatives; at most kMaxAlternatives are kept; each has a protocol ID of 1 to 255
// bytes, a canonical host (empty, or one the parser reads back the same), a port in 1–65535 and
// a max-age in [0, the cap]; every alternative, written out again, parses back to itself; and a
// bounded AltSvcCache fed the fields stays within its bound and serves only fresh alternatives
// with a host.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "http/alt_svc.h"
#include "http/alt_svc_cache.h"
#include "http/http_syntax.h"

namespace {

using tern::internal::AltService;
using tern::internal::AltSvcCache;
using tern::internal::AltSvcField;
using tern::internal::AltSvcOrigin;

void check(bool condition) {
  if (!condition) std::abort();
}

// `service` as an alt-value: the protocol ID percent-encoded where it is not a token character
// (and '%'), the authority quoted, an IPv6 host in brackets.
std::string format(const AltService& service) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : service.protocolId) {
    if (tern::internal::isTokenChar(c) && c != '%') {
      out.push_back(c);
    } else {
      auto byte = static_cast<unsigned char>(c);
      out += {'%', kHex[byte >> 4], kHex[byte & 0xf]};
    }
  }
  bool ipv6 = service.host.find(':') != std::string::npos;
  out += ipv6 ? "=\"[" + service.host + "]:" : "=\"" + service.host + ":";
  out += std::to_string(service.port) + "\"; ma=" + std::to_string(service.maxAge.count());
  if (service.persist) out += "; persist=1";
  return out;
}

void checkField(const AltSvcField& field) {
  if (field.clear) check(field.alternatives.empty());
  check(field.alternatives.size() <= AltSvcField::kMaxAlternatives);
  for (const AltService& service : field.alternatives) {
    check(!service.protocolId.empty() && service.protocolId.size() <= 255);
    check(service.port >= 1 && service.port <= 65535);
    check(service.maxAge.count() >= 0 && service.maxAge <= AltService::kMaxAgeCap);
    check(service.host.find_first_of("[]\"\\ ") == std::string::npos);
    AltSvcField again = AltSvcField::parse(format(service));
    check(!again.clear && again.alternatives.size() == 1 && again.alternatives[0] == service);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);

  AltSvcField whole = AltSvcField::parse(text);
  checkField(whole);

  std::vector<std::string> lines;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  AltSvcField split = AltSvcField::parse(lines);
  checkField(split);
  // Without a line break the input is one line: both ways read it the same.
  if (lines.size() == 1) {
    check(split.clear == whole.clear && split.alternatives == whole.alternatives);
  }

  // A small cache, the field put for a few origins at a few times.
  static const AltSvcCache::TimePoint kStart =
      std::chrono::sys_days(std::chrono::year(2026) / 1 / 1) + std::chrono::seconds(0);
  AltSvcCache cache(2);
  const AltSvcOrigin origins[] = {
      {"https", "example.com", 443}, {"https", "a.example.com", 443}, {"http", "::1", 8080}};
  for (size_t i = 0; i < 3; ++i) {
    AltSvcCache::TimePoint now = kStart + std::chrono::seconds(1000 * i);
    bool took = i == 1 ? cache.put(origins[i], lines, now) : cache.put(origins[i], text, now);
    check(took == !(i == 1 ? split : whole).empty());
    check(cache.size() <= 2);
  }
  for (const AltSvcOrigin& origin : origins) {
    for (AltSvcCache::TimePoint now :
         {kStart + std::chrono::seconds(2000), kStart + std::chrono::hours(24),
          kStart + AltService::kMaxAgeCap + std::chrono::hours(24)}) {
      std::vector<AltSvcCache::Entry> entries = cache.lookup(origin, now);
      check(entries.size() <= AltSvcField::kMaxAlternatives);
      for (const AltSvcCache::Entry& entry : entries) {
        check(entry.expiresAt > now);
        check(!entry.service.host.empty());
      }
    }
  }
  return 0;
}
