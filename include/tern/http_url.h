// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "tern/export.h"

namespace tern {

namespace internal {
struct HttpUrlAccess;
}  // namespace internal

// A URL with a scheme of http, https, ws or wss, as OkHttp's HttpUrl. Parsing follows the WHATWG
// URL Standard (https://url.spec.whatwg.org/) for these special schemes, so a string parses here
// exactly as a browser's `new URL(...)` parses it, and toString() is the standard's href. ws and
// wss are kept as parsed; Request maps them to http and https as OkHttp does.
//
// An HttpUrl is an immutable value: copies share one representation, so they are cheap, and it is
// safe to read from many threads. Every instance is well formed: it always has a scheme, a host and
// a path of at least "/". Two URLs are equal when their toString() is equal.
//
// Components are offered in two forms: encodedX() returns the component as it appears in the URL,
// percent-encoded; x() decodes it (as UTF-8; invalid sequences become U+FFFD).
//
//   URL:      https://user:pass@example.com:8443/a/b%20c?q=1&r#top
//   scheme    https                 encodedPath          /a/b%20c
//   username  user                  pathSegments         ["a", "b c"]
//   password  pass                  encodedQuery         q=1&r
//   host      example.com           queryParameter("q")  1
//   port      8443                  fragment             top
//
// Where the standard and OkHttp differ, this follows the standard: non-ASCII fragments are
// percent-encoded, IPv4-mapped IPv6 hosts stay IPv6, empty and over-long host labels are allowed,
// and port 0 parses. Hosts go through IDNA with libidn2, whose Unicode tables are older than the
// standard's (tests/data/wpt-url-deviations.txt lists the effect), and a non-ASCII host is limited
// to 16 KiB with labels of at most 1024 code points.
class TERN_API HttpUrl final {
 public:
  class Builder;

  // Parses `url` (absolute, with an http, https, ws or wss scheme). Returns std::nullopt if it is
  // not a valid URL or has another scheme. Accepts arbitrary bytes: invalid UTF-8 is read as
  // U+FFFD, surrounding C0 controls and spaces are trimmed and tabs and newlines are dropped, as
  // the WHATWG URL Standard's basic URL parser does.
  static std::optional<HttpUrl> parse(std::string_view url);

  // Like parse(), but throws std::invalid_argument with a message naming what is wrong and where,
  // as OkHttp does: `Invalid URL host: "a b"`, `Invalid URL port: "70000"`, `Expected URL scheme
  // 'http' or 'https' but was 'ftp'`, `Expected URL scheme 'http' or 'https' but no scheme was
  // found for /a/b/c...`.
  static HttpUrl get(std::string_view url);

  // 80 for http and ws, 443 for https and wss, -1 for any other scheme.
  static int defaultPort(std::string_view scheme) noexcept;

  // "http", "https", "ws" or "wss", always lowercase.
  const std::string& scheme() const noexcept;

  // True if this URL's scheme runs over TLS: https or wss.
  bool isHttps() const noexcept;

  // The username as it appears in the URL, percent-encoded; empty if none.
  std::string encodedUsername() const;

  // The percent-decoded username; empty if none.
  std::string username() const;

  // The password as it appears in the URL, percent-encoded; empty if none.
  std::string encodedPassword() const;

  // The percent-decoded password; empty if none.
  std::string password() const;

  // The host, canonical: a lowercase ASCII domain (internationalized names in their Punycode
  // "xn--" form), an IPv4 address in dotted decimal, or an IPv6 address compressed as RFC 5952
  // recommends and WITHOUT square brackets ("::1"), as OkHttp returns it.
  const std::string& host() const noexcept;

  // The explicit port, or the scheme's default port if the URL gives none (or gives the default).
  // Always a number: 0..65535 (the WHATWG standard allows port 0 in a parsed URL).
  int port() const noexcept;

  // The number of segments in the path, at least 1: 1 for "/", 3 for "/a/b/c", 4 for "/a/b/c/".
  size_t pathSize() const;

  // The path as it appears in the URL, starting with "/": "/a/b%20c".
  std::string encodedPath() const;

  // The path's segments, percent-encoded: ["a", "b%20c"] for "/a/b%20c", [""] for "/".
  std::vector<std::string> encodedPathSegments() const;

  // The path's segments, percent-decoded: ["a", "b c"] for "/a/b%20c".
  std::vector<std::string> pathSegments() const;

  // The query as it appears in the URL, without the "?". std::nullopt if the URL has no "?"; an
  // empty string if it has "?" with nothing after it.
  std::optional<std::string> encodedQuery() const;

  // The query with each name and value percent-decoded and "+" read as a space, rejoined with "&"
  // and "=". std::nullopt if the URL has no query.
  std::optional<std::string> query() const;

  // The number of "&"-separated query parameters: 0 with no query, 1 for "?" alone.
  size_t querySize() const;

  // The decoded value of the first query parameter whose decoded name is `name`. std::nullopt if
  // there is none, or if it has no "=" ("?a" has a parameter "a" with no value).
  std::optional<std::string> queryParameter(std::string_view name) const;

  // The distinct decoded parameter names, in order of first appearance.
  std::vector<std::string> queryParameterNames() const;

  // The decoded values of every parameter named `name`, in order; std::nullopt for one without "=".
  std::vector<std::optional<std::string>> queryParameterValues(std::string_view name) const;

  // The decoded name of the parameter at `index`. Throws std::out_of_range if index >= querySize().
  std::string queryParameterName(size_t index) const;

  // The decoded value of the parameter at `index`, std::nullopt if it has no "=". Throws
  // std::out_of_range if index >= querySize().
  std::optional<std::string> queryParameterValue(size_t index) const;

  // The fragment as it appears in the URL, without the "#". std::nullopt if the URL has no "#".
  std::optional<std::string> encodedFragment() const;

  // The percent-decoded fragment, std::nullopt if the URL has no "#".
  std::optional<std::string> fragment() const;

  // The whole URL, serialized as the WHATWG URL Standard's href: "https://example.com/".
  const std::string& toString() const noexcept;

  // This URL with username, password, query and fragment removed and the path replaced by "/...",
  // for logs: "https://example.com/..." for "https://user:pw@example.com/secret?token=1".
  std::string redact() const;

  // The domain one level beneath the public suffix of host() ("google.com" for "www.google.com",
  // "square.co.uk" for "square.co.uk"), from the Public Suffix List (libpsl: the system list if
  // installed, else libpsl's built-in copy). std::nullopt for IP addresses, for public suffixes
  // themselves ("co.uk") and for single-label hosts ("localhost").
  std::optional<std::string> topPrivateDomain() const;

  // The URL reached by following `link` from this URL (WHATWG parsing with this URL as the base):
  // "../c" from "http://h/a/b/" is "http://h/a/c". std::nullopt if the result is not a valid URL
  // or not http, https, ws or wss.
  std::optional<HttpUrl> resolve(std::string_view link) const;

  // A builder that starts with this URL's components.
  Builder newBuilder() const;

  // A builder for resolve(link); std::nullopt when resolve(link) would be.
  std::optional<Builder> newBuilder(std::string_view link) const;

  // Equal when the serialized URLs are equal.
  bool operator==(const HttpUrl& other) const noexcept;

 private:
  struct Data;
  explicit HttpUrl(std::shared_ptr<const Data> data) noexcept;
  friend class Builder;
  friend struct internal::HttpUrlAccess;  // Lets src/url build and read instances.

  std::shared_ptr<const Data> data_;  // Never null; shared by copies, never modified.
};

// Composes an HttpUrl component by component, as OkHttp's HttpUrl.Builder. Methods taking a plain
// value (username, addPathSegment, addQueryParameter, ...) percent-encode every character that
// cannot appear literally in that component, "%" included. Their encodedX counterparts take text
// that is already encoded: a "%" that starts a valid escape like "%2F" is kept, and only characters
// that cannot appear literally are encoded. The encode set of each component is OkHttp's; the
// fragment uses the WHATWG fragment set so that toString() stays a canonical href.
//
// A Builder is a plain mutable value; it is not safe to share between threads while changing it.
class TERN_API HttpUrl::Builder final {
 public:
  // An empty builder: no scheme, no host, the path "/", no query, no fragment.
  Builder();

  // "http", "https", "ws" or "wss", in any case. Throws std::invalid_argument otherwise
  // ("unexpected scheme: ftp").
  Builder& scheme(std::string_view scheme);

  Builder& username(std::string_view username);
  Builder& encodedUsername(std::string_view encodedUsername);
  Builder& password(std::string_view password);
  Builder& encodedPassword(std::string_view encodedPassword);

  // A domain (internationalized names are converted to Punycode; percent-escapes are decoded
  // first), an IPv4 address, or an IPv6 address with or without brackets. The host is stored in
  // canonical form. Throws std::invalid_argument if it is not a valid host ("unexpected host: a
  // b").
  Builder& host(std::string_view host);

  // 1..65535; throws std::invalid_argument otherwise ("unexpected port: 0"). Without a call to
  // port(), the URL uses its scheme's default port.
  Builder& port(int port);

  // Appends one segment; "." is ignored and ".." removes the last segment, as in a path.
  Builder& addPathSegment(std::string_view pathSegment);
  Builder& addEncodedPathSegment(std::string_view encodedPathSegment);

  // Appends segments separated by "/" or "\". A leading slash adds an empty segment first; a
  // trailing slash leaves the path ending with "/".
  Builder& addPathSegments(std::string_view pathSegments);
  Builder& addEncodedPathSegments(std::string_view encodedPathSegments);

  // Replaces the segment at `index`. Throws std::out_of_range for a bad index and
  // std::invalid_argument for "." or ".." ("unexpected path segment: ..").
  Builder& setPathSegment(size_t index, std::string_view pathSegment);
  Builder& setEncodedPathSegment(size_t index, std::string_view encodedPathSegment);

  // Removes the segment at `index` (the path stays at least "/"). Throws std::out_of_range.
  Builder& removePathSegment(size_t index);

  // Replaces the whole path; it must start with "/" (std::invalid_argument otherwise). Dot
  // segments are resolved.
  Builder& encodedPath(std::string_view encodedPath);

  // Replaces the whole query; std::nullopt removes it (no "?").
  Builder& query(std::optional<std::string_view> query);
  Builder& encodedQuery(std::optional<std::string_view> encodedQuery);

  // Appends "name=value" to the query ("name" alone when value is std::nullopt). A plain name or
  // value has "&", "=", "+" and other delimiters percent-encoded.
  Builder& addQueryParameter(std::string_view name, std::optional<std::string_view> value);
  Builder& addEncodedQueryParameter(std::string_view encodedName,
                                    std::optional<std::string_view> encodedValue);

  // Removes every parameter named `name`, then appends name=value.
  Builder& setQueryParameter(std::string_view name, std::optional<std::string_view> value);
  Builder& setEncodedQueryParameter(std::string_view encodedName,
                                    std::optional<std::string_view> encodedValue);

  // Removes every parameter named `name`. Removing the last one removes the query ("?") too.
  Builder& removeAllQueryParameters(std::string_view name);
  Builder& removeAllEncodedQueryParameters(std::string_view encodedName);

  // Replaces the fragment; std::nullopt removes it (no "#").
  Builder& fragment(std::optional<std::string_view> fragment);
  Builder& encodedFragment(std::optional<std::string_view> encodedFragment);

  // The URL. Throws std::logic_error if no scheme or no host was set.
  HttpUrl build() const;

  // The URL as built so far, as OkHttp's Builder.toString(): "//host/path" without a scheme.
  std::string toString() const;

 private:
  friend class HttpUrl;
  void push(std::string_view segment, bool addTrailingSlash, bool alreadyEncoded);
  void addSegments(std::string_view segments, bool alreadyEncoded);
  void removeAllCanonicalQueryParameters(const std::string& canonicalName);
  int effectivePort() const;

  std::optional<std::string> scheme_;
  std::string encodedUsername_;
  std::string encodedPassword_;
  std::optional<std::string> host_;  // Canonical, IPv6 without brackets.
  int port_ = -1;                    // -1: the scheme's default.
  std::vector<std::string> encodedPathSegments_{""};
  // Alternating names and values; a value is std::nullopt for a parameter without "=".
  std::optional<std::vector<std::optional<std::string>>> encodedQueryNamesAndValues_;
  std::optional<std::string> encodedFragment_;
};

// Writes url.toString(), so URLs print in test failures and logs.
TERN_API std::ostream& operator<<(std::ostream& out, const HttpUrl& url);

}  // namespace tern

// Hashes toString(), consistent with operator==, so an HttpUrl can key an unordered container.
template <>
struct std::hash<tern::HttpUrl> {
  size_t operator()(const tern::HttpUrl& url) const noexcept {
    return std::hash<std::string>()(url.toString());
  }
};
