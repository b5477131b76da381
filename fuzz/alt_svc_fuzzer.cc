// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Reads arbitrary bytes two ways and checks what a client will rely on.
//
// As an Alt-Svc field value, whole and split at each LF into field lines: nothing throws (a bad
// alt-value is skipped); `clear` holds no alternatives; at most kMaxAlternatives are kept; each
// has a protocol ID of 1 to 255 bytes, a canonical host (empty, or one the parser reads back the
// same), a port in 1–65535 and a max-age in [0, the cap]; every alternative, written out again,
// parses back to itself; and a bounded AltSvcCache fed the fields stays within its bound and
// serves only fresh alternatives with a host.
//
// As curl's alt-svc cache file (AltSvcCache::parseFile), at a whole second and between two:
// nothing throws (a bad line is skipped); every alternative read is fresh and expires at most the
// cap after `now`, with that remaining time as its maxAge; its origin is https, and both its hosts
// are ones an HttpUrl has, so a lookup can find it; ports are in 1–65535 and protocol IDs
// non-empty; what formatFile() writes, parseFile() reads back as the same records; and loading
// the records into a bounded AltSvcCache, as load() does, stays within its bounds and saves to a
// file that loads into the same cache.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/alt_svc.h"
#include "http/alt_svc_cache.h"
#include "http/http_syntax.h"
#include "tern/http_url.h"

namespace {

using tern::internal::AltService;
using tern::internal::AltSvcCache;
using tern::internal::AltSvcField;
using tern::internal::AltSvcOrigin;
using TimePoint = AltSvcCache::TimePoint;

// 2026-01-01T00:00:00Z.
constexpr TimePoint kStart =
    std::chrono::sys_days(std::chrono::year(2026) / 1 / 1) + std::chrono::seconds(0);

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

// Whether `host` is what HttpUrl::host() gives for it, so an AltSvcOrigin::of(url) can match it.
bool isUrlHost(const std::string& host) {
  bool ipv6 = host.find(':') != std::string::npos;
  std::optional<tern::HttpUrl> url =
      tern::HttpUrl::parse(ipv6 ? "https://[" + host + "]/" : "https://" + host + "/");
  return url && url->host() == host;
}

// `text` as curl's alt-svc file read at `now`.
void checkFile(std::string_view text, TimePoint now) {
  std::vector<AltSvcCache::Record> records = AltSvcCache::parseFile(text, now);
  for (size_t i = 0; i < records.size(); ++i) {
    const AltSvcCache::Record& record = records[i];
    // An origin's consecutive lines make one record.
    check(i == 0 || !(records[i - 1].origin == record.origin));
    check(record.origin.scheme == "https" && isUrlHost(record.origin.host));
    check(record.origin.port >= 1 && record.origin.port <= 65535);
    check(!record.entries.empty());
    for (const AltSvcCache::Entry& entry : record.entries) {
      const AltService& service = entry.service;
      check(entry.expiresAt > now && entry.expiresAt - now <= AltService::kMaxAgeCap);
      check(service.maxAge == std::chrono::ceil<std::chrono::seconds>(entry.expiresAt - now));
      check(!service.protocolId.empty() && service.protocolId.size() <= 255);
      check(isUrlHost(service.host));
      check(service.port >= 1 && service.port <= 65535);
    }
  }
  // What tern writes reads back as itself, expiries included (capped ones are whole seconds
  // after `now`'s second, so the file's truncation to seconds loses nothing).
  check(AltSvcCache::parseFile(AltSvcCache::formatFile(records), now) == records);

  // load(): the records added in file order to a small cache, which stays within its bounds.
  constexpr size_t kMaxOrigins = 2;
  AltSvcCache cache(kMaxOrigins);
  for (const AltSvcCache::Record& record : records) {
    for (const AltSvcCache::Entry& entry : record.entries) {
      cache.add(record.origin, entry, now);
      check(cache.size() <= kMaxOrigins);
    }
  }
  std::vector<AltSvcCache::Record> kept = cache.records(now);
  check(kept.size() <= kMaxOrigins);
  for (const AltSvcCache::Record& record : kept) {
    check(!record.entries.empty() && record.entries.size() <= AltSvcField::kMaxAlternatives);
  }
  // save() then load() gives the same cache.
  std::vector<AltSvcCache::Record> saved =
      AltSvcCache::parseFile(AltSvcCache::formatFile(kept), now);
  check(saved == kept);
  AltSvcCache reloaded(kMaxOrigins);
  for (const AltSvcCache::Record& record : saved) {
    for (const AltSvcCache::Entry& entry : record.entries) reloaded.add(record.origin, entry, now);
  }
  check(reloaded.records(now) == kept);
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
  AltSvcCache cache(2);
  const AltSvcOrigin origins[] = {
      {"https", "example.com", 443}, {"https", "a.example.com", 443}, {"http", "::1", 8080}};
  for (size_t i = 0; i < 3; ++i) {
    TimePoint now = kStart + std::chrono::seconds(1000 * i);
    bool took = i == 1 ? cache.put(origins[i], lines, now) : cache.put(origins[i], text, now);
    check(took == !(i == 1 ? split : whole).empty());
    check(cache.size() <= 2);
  }
  for (const AltSvcOrigin& origin : origins) {
    for (TimePoint now : {kStart + std::chrono::seconds(2000), kStart + std::chrono::hours(24),
                          kStart + AltService::kMaxAgeCap + std::chrono::hours(24)}) {
      std::vector<AltSvcCache::Entry> entries = cache.lookup(origin, now);
      check(entries.size() <= AltSvcField::kMaxAlternatives);
      for (const AltSvcCache::Entry& entry : entries) {
        check(entry.expiresAt > now);
        check(!entry.service.host.empty());
      }
    }
  }

  // The same bytes as a cache file, read at a whole second and, as a wall clock gives, between
  // two.
  checkFile(text, kStart);
  checkFile(text, kStart + std::chrono::hours(12) + std::chrono::milliseconds(250));
  return 0;
}
