// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "tern/http_url.h"
#include "url/url_record.h"

namespace tern {

// What an HttpUrl holds: its href and where each component sits in it. Immutable once built.
struct HttpUrl::Data {
  std::string url;     // The href.
  std::string scheme;  // Lowercase.
  std::string host;    // Canonical; IPv6 without brackets.
  int port = 0;        // Effective port: explicit, or the scheme's default.
  // [begin, end) of each component in `url`. The query and fragment offsets exclude "?" and "#";
  // hasQuery / hasFragment tell an empty component from an absent one.
  size_t usernameBegin = 0, usernameEnd = 0;
  size_t passwordBegin = 0, passwordEnd = 0;
  size_t pathBegin = 0, pathEnd = 0;
  size_t queryBegin = 0, queryEnd = 0;
  size_t fragmentBegin = 0;
  bool hasQuery = false;
  bool hasFragment = false;

  std::string_view slice(size_t begin, size_t end) const {
    return std::string_view(url).substr(begin, end - begin);
  }
};

}  // namespace tern

namespace tern::internal {

// The bridge between HttpUrl and the parser's URL records, for code in src/url.
struct HttpUrlAccess {
  // An HttpUrl for a parsed record.
  static HttpUrl fromRecord(const UrlRecord& record);

  // The record an HttpUrl was made from, to serve as a base URL.
  static UrlRecord toRecord(const HttpUrl& url);

  // "scheme://host[:port]/", the origin of `url`: `url` itself if it is one, else built from its
  // canonical parts without parsing again.
  static HttpUrl origin(const HttpUrl& url);
};

}  // namespace tern::internal
