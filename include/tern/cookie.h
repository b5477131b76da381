// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tern/export.h"
#include "tern/headers.h"
#include "tern/http_url.h"

namespace tern {

// An HTTP cookie (RFC 6265), as OkHttp's Cookie: a name=value pair with the attributes that say
// where and until when it is sent back. An immutable value, cheap to copy.
//
// Parsing follows RFC 6265 §5.2 leniently, as browsers and OkHttp do: unknown attributes and
// attributes with invalid values are ignored, and a cookie whose Domain does not match the URL
// (or is a public suffix) is rejected.
class TERN_API Cookie {
 public:
  class Builder;

  // The latest expiry a cookie can have: 9999-12-31T23:59:59.999Z, in milliseconds since the
  // epoch (what a session cookie's expiresAt() returns).
  static constexpr int64_t kMaxDate = 253402300799999;

  const std::string& name() const noexcept { return name_; }
  const std::string& value() const noexcept { return value_; }

  // True if the cookie has an Expires or Max-Age attribute (it outlives the session).
  bool persistent() const noexcept { return persistent_; }

  // When the cookie expires, in milliseconds since the epoch: kMaxDate for a session cookie,
  // INT64_MIN for one that has already expired (Max-Age=0 or negative).
  int64_t expiresAt() const noexcept { return expiresAt_; }

  // True if the cookie has no Domain attribute: it is sent only to the exact host that set it.
  bool hostOnly() const noexcept { return hostOnly_; }

  // The host that set a host-only cookie, or the Domain attribute's domain (without a leading
  // dot, canonical) for the others.
  const std::string& domain() const noexcept { return domain_; }

  // The path prefix the cookie is sent for: the Path attribute, or the default path of the URL
  // that set it (RFC 6265 §5.1.4).
  const std::string& path() const noexcept { return path_; }

  // True if the cookie is only sent over https.
  bool secure() const noexcept { return secure_; }

  // True if the cookie is hidden from scripts (meaningless to an HTTP client, kept for jars).
  bool httpOnly() const noexcept { return httpOnly_; }

  // The SameSite attribute's value ("Strict", "Lax", "None"), or std::nullopt.
  const std::optional<std::string>& sameSite() const noexcept { return sameSite_; }

  // True if this cookie should be sent with a request to `url`: the domain and path match
  // (RFC 6265 §5.1.3, §5.1.4) and, for a secure cookie, the URL is https. Expiry is not checked.
  bool matches(const HttpUrl& url) const;

  // Parses one Set-Cookie header value received from `url`, at the current time. std::nullopt
  // if it is not a valid cookie for that URL.
  static std::optional<Cookie> parse(const HttpUrl& url, std::string_view setCookie);

  // As parse(url, setCookie), with Max-Age measured from `currentTimeMillis`.
  static std::optional<Cookie> parse(int64_t currentTimeMillis, const HttpUrl& url,
                                     std::string_view setCookie);

  // Every valid cookie in the Set-Cookie fields of `headers`, in order.
  static std::vector<Cookie> parseAll(const HttpUrl& url, const Headers& headers);

  // The Set-Cookie form: "name=value; expires=Thu, 01 Jan 1970 00:00:00 GMT; domain=example.com;
  // path=/; secure; httponly; samesite=Lax" (only the attributes that apply; max-age=0 for an
  // expired cookie).
  std::string toString() const;

  // A builder holding this cookie's fields.
  Builder newBuilder() const;

  bool operator==(const Cookie& other) const = default;

 private:
  Cookie() = default;

  std::string name_;
  std::string value_;
  int64_t expiresAt_ = kMaxDate;
  std::string domain_;
  std::string path_ = "/";
  bool secure_ = false;
  bool httpOnly_ = false;
  bool persistent_ = false;
  bool hostOnly_ = false;
  std::optional<std::string> sameSite_;
};

// Builds a Cookie. name, value and a domain are required.
class TERN_API Cookie::Builder {
 public:
  Builder() = default;

  // Throws std::invalid_argument if `name` is empty, has surrounding whitespace or a control
  // character.
  Builder& name(std::string_view name);
  // Throws std::invalid_argument if `value` has surrounding whitespace or a control character.
  Builder& value(std::string_view value);
  // Makes the cookie persistent, expiring at `expiresAt` (clamped to [INT64_MIN, kMaxDate]; 0
  // or less means already expired).
  Builder& expiresAt(int64_t expiresAt);
  // A cookie for `domain` and its subdomains. Throws std::invalid_argument if it is not a valid
  // host.
  Builder& domain(std::string_view domain);
  // A cookie for exactly the host `domain`.
  Builder& hostOnlyDomain(std::string_view domain);
  // Throws std::invalid_argument unless `path` starts with "/".
  Builder& path(std::string_view path);
  Builder& secure();
  Builder& httpOnly();
  Builder& sameSite(std::string_view sameSite);

  // Throws std::logic_error naming the missing field.
  Cookie build() const;

 private:
  friend class Cookie;
  Builder& setDomain(std::string_view domain, bool hostOnly);

  std::optional<std::string> name_;
  std::optional<std::string> value_;
  int64_t expiresAt_ = kMaxDate;
  std::optional<std::string> domain_;
  std::string path_ = "/";
  bool secure_ = false;
  bool httpOnly_ = false;
  bool persistent_ = false;
  bool hostOnly_ = false;
  std::optional<std::string> sameSite_;
};

}  // namespace tern
