// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Feeds arbitrary bytes to every parser of header values: Headers::Builder (strict and lenient),
// MediaType, CacheControl, parseChallenges and parseHttpDate. Beyond "no crash, no hang, no
// out-of-bounds read" it checks that what each parser accepts survives a round trip.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "http/http_syntax.h"
#include "tern/cache_control.h"
#include "tern/challenge.h"
#include "tern/headers.h"
#include "tern/http_date.h"
#include "tern/media_type.h"

namespace {

using namespace tern;

void check(bool condition) {
  if (!condition) std::abort();
}

// A line the strict builder accepts has a token name and a clean value, and reads back the same.
void fuzzHeaderLine(std::string_view line) {
  Headers::Builder lenient;
  lenient.addLenient(line);  // Must never throw.
  check(lenient.build().size() == 1);

  Headers headers;
  try {
    headers = Headers::Builder().add(line).build();
  } catch (const std::invalid_argument&) {
    return;
  }
  check(headers.size() == 1);
  const std::string& name = headers.name(0);
  const std::string& value = headers.value(0);
  check(internal::isToken(name));
  for (char c : value) {
    auto byte = static_cast<unsigned char>(c);
    check(byte == '\t' || (byte >= 0x20 && byte < 0x7f));
  }
  check(headers.get(name) == value);
  Headers again = Headers::Builder().add(name + ": " + value).build();
  check(again == headers);
  check(headers.byteCount() == static_cast<int64_t>(name.size() + value.size() + 4));
}

void fuzzMediaType(std::string_view text) {
  std::optional<MediaType> parsed = MediaType::parse(text);
  bool threw = false;
  try {
    MediaType::get(text);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  check(threw == !parsed.has_value());
  if (!parsed) return;
  check(!parsed->type().empty() && !parsed->subtype().empty());
  check(internal::toLowerAscii(parsed->type()) == parsed->type());
  std::optional<MediaType> reparsed = MediaType::parse(parsed->toString());
  check(reparsed == parsed);
  check(reparsed->charset() == parsed->charset());
}

bool sameDirectives(const CacheControl& a, const CacheControl& b) {
  return a.noCache() == b.noCache() && a.noStore() == b.noStore() &&
         a.maxAgeSeconds() == b.maxAgeSeconds() && a.sMaxAgeSeconds() == b.sMaxAgeSeconds() &&
         a.isPrivate() == b.isPrivate() && a.isPublic() == b.isPublic() &&
         a.mustRevalidate() == b.mustRevalidate() && a.maxStaleSeconds() == b.maxStaleSeconds() &&
         a.minFreshSeconds() == b.minFreshSeconds() && a.onlyIfCached() == b.onlyIfCached() &&
         a.noTransform() == b.noTransform() && a.immutable() == b.immutable();
}

void fuzzCacheControl(std::string_view value) {
  CacheControl single =
      CacheControl::parse(Headers::Builder().addLenient("Cache-Control", value).build());
  check(single.maxAgeSeconds() >= -1 && single.maxStaleSeconds() >= -1);
  // With Pragma too the value is recomputed; the canonical text must mean the same directives.
  CacheControl combined = CacheControl::parse(
      Headers::Builder().addLenient("Cache-Control", value).addLenient("Pragma", value).build());
  check(sameDirectives(single, combined));
  CacheControl reparsed =
      CacheControl::parse(Headers::Builder().add("Cache-Control", combined.toString()).build());
  check(sameDirectives(combined, reparsed));
}

void fuzzChallenges(std::string_view value) {
  Headers headers = Headers::Builder().addLenient("WWW-Authenticate", value).build();
  for (const Challenge& challenge : parseChallenges(headers, "WWW-Authenticate")) {
    check(!challenge.scheme().empty());
    check(challenge.scheme().find_first_of("\t ,=") == std::string::npos);
    check(!challenge.charset().empty());
  }
}

void fuzzDate(std::string_view text) {
  std::optional<std::chrono::system_clock::time_point> parsed = parseHttpDate(text);
  if (!parsed) return;
  std::string formatted = formatHttpDate(*parsed);
  check(formatted.size() == 29);
  check(parseHttpDate(formatted) == parsed);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  fuzzHeaderLine(input);
  fuzzMediaType(input);
  fuzzCacheControl(input);
  fuzzChallenges(input);
  fuzzDate(input);

  // A header block: each line goes through the parsers that its name selects.
  Headers::Builder block;
  std::size_t start = 0;
  while (start <= input.size()) {
    std::size_t end = input.find('\n', start);
    if (end == std::string_view::npos) end = input.size();
    std::string_view line = input.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    block.addLenient(line);
    start = end + 1;
  }
  Headers headers = block.build();
  CacheControl::parse(headers);
  parseChallenges(headers, "Proxy-Authenticate");
  if (std::optional<std::string> contentType = headers.get("Content-Type")) {
    fuzzMediaType(*contentType);
  }
  headers.getDate("Date");
  headers.toMultimap();
  headers.names();
  headers.toString();
  return 0;
}
