// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "cache/disk_lru_cache.h"
#include "tern/handshake.h"
#include "tern/headers.h"
#include "tern/http_url.h"
#include "tern/request.h"
#include "tern/response.h"
#include "tern/sink.h"
#include "tern/source.h"

namespace tern::internal {

// The DiskLruCache value indices of a cache entry, as OkHttp's Cache.
inline constexpr int kEntryMetadata = 0;
inline constexpr int kEntryBody = 1;
inline constexpr int kEntryCount = 2;

// The key of the cache entry for `url`: the lowercase hex MD5 of its string form (OkHttp's
// Cache.key(url)), so OkHttp and tern find each other's entries.
std::string cacheKey(const HttpUrl& url);

// The field names a response's Vary headers list, lowercased and trimmed; "*" among them if any
// value lists it. Empty names ("Vary: a,,b") are skipped.
std::set<std::string> varyFields(const Headers& responseHeaders);
// True if the response varies on everything (Vary: *): it is never served from the cache.
bool hasVaryAll(const Headers& responseHeaders);
// The request headers named by `responseHeaders`' Vary, from `requestHeaders`, in order.
Headers varyHeaders(const Headers& requestHeaders, const Headers& responseHeaders);
// True if `newRequest` has the same values as `cachedRequest` for every field the cached
// response's Vary names (OkHttp's varyMatches).
bool varyMatches(const Headers& cachedResponseHeaders, const Headers& cachedRequestHeaders,
                 const Request& newRequest);

// One cached response's metadata (value 0 of its DiskLruCache entry), as OkHttp's Cache.Entry,
// in OkHttp's format, line by line (docs/cache.md): the URL, the request method, the Vary'd
// request headers (a count, then lines), the status line, the response headers (a count, then
// lines, ending with OkHttp-Sent-Millis and OkHttp-Received-Millis), and for https a blank line,
// the cipher suite, the peer and local certificates (a count, then base64 DER lines) and the TLS
// version. The body is value 1, as received (still gzip'd if it came so).
class CacheEntry final {
 public:
  // The entry to store for `response`: its request's URL and method (the URL is
  // `cacheUrl`, the request's cacheUrlOverride when it has one), the request headers its Vary
  // names (from response.request(), the request as sent), its status, headers, times and
  // handshake.
  CacheEntry(const HttpUrl& cacheUrl, const Response& response);

  // Reads metadata written by writeTo() or by OkHttp (any version OkHttp reads: before 3.0 an
  // https entry had no TLS version line, read as SSL_3_0). Throws IOException naming what is
  // wrong ("cache entry: bad status line ...") for anything malformed: truncation, a line longer
  // than kMaxLineLength, bad counts or numbers (a count above kMaxCount too), a certificate that
  // does not decode, an https URL without a handshake, a URL that is not http or https, a request
  // method that is not a token, a status code below 100 (OkHttp writes it unpadded, so it could
  // not be read back). A count is never used to allocate: one larger than the lines that follow
  // is truncation. Bytes after the entry are ignored, as OkHttp ignores them. Does not close
  // `source`.
  static CacheEntry readFrom(Source& source);

  // Writes the metadata in OkHttp's format, then flushes `sink` (it stays open). Sink errors
  // propagate. Throws IOException before writing anything for what could not be read back: an
  // https entry without a handshake (OkHttp could not write one either), a status code outside
  // 100-999, a field holding "\n" or ending in "\r" (possible only in a Response built in code).
  void writeTo(Sink& sink) const;

  // True if this entry answers `request` with `response`'s kind: same URL (cacheUrl), same
  // method, and the Vary'd headers match (OkHttp's Entry.matches).
  bool matches(const Request& request, const HttpUrl& cacheUrl) const;

  // The stored response, with a body streaming value 1 of `snapshot` (Content-Type and
  // Content-Length from the stored headers; -1 if absent or not a length); the body owns the
  // snapshot and closes it. Its request is made of the stored URL, method and Vary'd headers (and
  // an empty body for a method that needs one, as a POST stored under a cacheUrlOverride).
  Response response(std::unique_ptr<DiskLruCache::Snapshot> snapshot) const;

  // The stored response with `body` (the stored body, held in memory) as its body.
  Response response(const std::vector<std::byte>& body) const;

  // The stored response without a body (to compute a strategy, or to update after a 304).
  Response responseWithoutBody() const;

  const HttpUrl& url() const { return url_; }
  const std::string& requestMethod() const { return requestMethod_; }
  const Headers& varyHeaders() const { return varyHeaders_; }
  const Headers& responseHeaders() const { return responseHeaders_; }
  int code() const { return code_; }
  int64_t sentRequestMillis() const { return sentRequestMillis_; }
  int64_t receivedResponseMillis() const { return receivedResponseMillis_; }
  // As stored: an HTTP/2 response reads back as HTTP/1.1 (the status line OkHttp writes).
  Protocol protocol() const { return protocol_; }
  const std::string& message() const { return message_; }
  const std::optional<Handshake>& handshake() const { return handshake_; }

  // Every field equal.
  bool operator==(const CacheEntry&) const = default;

  // The longest line readFrom() accepts, terminator excluded: far above what an entry holds (a
  // header line is at most 256 KiB on the wire, a certificate's base64 a few KiB).
  static constexpr int64_t kMaxLineLength = 1 << 20;
  // The most lines a count may announce (headers, certificates). OkHttp allows Int.MAX_VALUE;
  // this bounds what a corrupt file of small lines can make a reader hold (each line becomes a
  // header of ~100 bytes in memory) while staying far above what tern or OkHttp can store: 256 KiB
  // of headers on the wire is at most 65,536 fields.
  static constexpr int kMaxCount = 1 << 17;

 private:
  explicit CacheEntry(HttpUrl url) : url_(std::move(url)) {}

  HttpUrl url_;
  std::string requestMethod_;
  Headers varyHeaders_;
  Protocol protocol_ = Protocol::HTTP_1_1;
  int code_ = 0;
  std::string message_;
  Headers responseHeaders_;
  std::optional<Handshake> handshake_;
  int64_t sentRequestMillis_ = 0;
  int64_t receivedResponseMillis_ = 0;
};

}  // namespace tern::internal
