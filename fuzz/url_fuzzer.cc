// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Fuzzes HttpUrl: parsing, resolving against a base, and the Builder, checking that every URL that
// comes out is canonical (its toString() parses back to an equal URL) and survives a builder round
// trip. Seed corpus: fuzz/corpus/url_fuzzer/.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tern/http_url.h"

namespace {

using tern::HttpUrl;

[[noreturn]] void fail(const char* what, const HttpUrl& url) {
  std::fprintf(stderr, "url_fuzzer invariant broken: %s\n  url: %s\n", what,
               url.toString().c_str());
  std::abort();
}

void check(bool condition, const char* what, const HttpUrl& url) {
  if (!condition) fail(what, url);
}

void checkInvariants(const HttpUrl& url) {
  const std::string& href = url.toString();
  for (const char c : href) check(static_cast<unsigned char>(c) < 0x80, "href is ASCII", url);

  const std::optional<HttpUrl> reparsed = HttpUrl::parse(href);
  check(reparsed.has_value(), "href parses", url);
  check(*reparsed == url, "href parses to an equal URL", url);
  check(reparsed->toString() == href, "href is idempotent", url);
  check(url.newBuilder().build() == url, "builder round trip", url);
  check(url.newBuilder().toString() == href, "builder toString", url);
  check(url.resolve(href) == url, "resolving its own href", url);

  check(!url.host().empty(), "host is not empty", url);
  check(url.port() >= 0 && url.port() <= 65535, "port in range", url);
  check(url.pathSize() >= 1, "path has a segment", url);
  check(url.pathSize() == url.encodedPathSegments().size(), "pathSize", url);
  check(url.pathSegments().size() == url.pathSize(), "pathSegments", url);
  check(url.encodedPath().front() == '/', "path starts with '/'", url);
  check((url.querySize() == 0) == !url.encodedQuery().has_value(), "querySize", url);
  check(url.queryParameterNames().size() <= url.querySize(), "distinct names", url);
  for (size_t i = 0; i < url.querySize() && i < 64; ++i) {
    (void)url.queryParameterName(i);
    (void)url.queryParameterValue(i);
  }
  (void)url.username();
  (void)url.password();
  (void)url.query();
  (void)url.fragment();
  (void)url.topPrivateDomain();

  const std::optional<HttpUrl> redacted = HttpUrl::parse(url.redact());
  check(redacted.has_value(), "redact() parses", url);
  check(redacted->host() == url.host(), "redact() keeps the host", url);
}

// get() must throw std::invalid_argument exactly when parse() fails.
void checkGetAgreesWithParse(std::string_view input, const std::optional<HttpUrl>& parsed) {
  try {
    const HttpUrl url = HttpUrl::get(input);
    if (!parsed || url != *parsed) std::abort();
  } catch (const std::invalid_argument&) {
    if (parsed) std::abort();
  }
}

void fuzzBuilder(std::string_view input) {
  HttpUrl::Builder builder;
  builder.scheme("https").host("example.com");
  try {
    builder.host(input);
  } catch (const std::invalid_argument&) {
    // Most inputs are not hosts; the builder keeps its previous host.
  }
  builder.username(input)
      .encodedPassword(input)
      .addPathSegment(input)
      .addEncodedPathSegments(input)
      .addQueryParameter(input, input)
      .addEncodedQueryParameter(input, std::nullopt)
      .encodedFragment(input);
  const HttpUrl built = builder.build();
  checkInvariants(built);
  // The builder writes canonical components, so parsing what it wrote changes nothing.
  check(builder.toString() == built.toString(), "builder output is canonical", built);
  const HttpUrl plain =
      HttpUrl::Builder().scheme("http").host("h").query(input).fragment(input).build();
  checkInvariants(plain);
  if (!plain.query() || !plain.fragment()) fail("query and fragment are kept", plain);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  static const HttpUrl base = HttpUrl::get("https://user:pass@example.com:8443/a/b/c?q=1#f");

  const std::optional<HttpUrl> parsed = HttpUrl::parse(input);
  if (parsed) checkInvariants(*parsed);
  checkGetAgreesWithParse(input, parsed);

  const std::optional<HttpUrl> resolved = base.resolve(input);
  if (resolved) checkInvariants(*resolved);

  if (size <= 4096) fuzzBuilder(input);
  return 0;
}
