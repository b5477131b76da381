// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/cookie.h"

#include <array>
#include <chrono>
#include <climits>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "http/civil_time.h"
#include "http/cookie_rules.h"
#include "io/ascii.h"
#include "url/host_parser.h"
#include "url/public_suffix.h"

namespace tern {

namespace internal {

// True if `urlHost` domain-matches `domain` (RFC 6265 §5.1.3).
bool cookieDomainMatch(std::string_view urlHost, std::string_view domain) {
  if (urlHost == domain) return true;
  return urlHost.size() > domain.size() && urlHost.ends_with(domain) &&
         urlHost[urlHost.size() - domain.size() - 1] == '.' && !isIpAddressHost(urlHost);
}

// True if `path` path-matches the cookie path `cookiePath` (RFC 6265 §5.1.4).
bool cookiePathMatch(std::string_view urlPath, std::string_view cookiePath) {
  if (urlPath == cookiePath) return true;
  if (!urlPath.starts_with(cookiePath)) return false;
  return cookiePath.ends_with('/') || urlPath[cookiePath.size()] == '/';
}

}  // namespace internal

namespace {

using internal::cookieDomainMatch;
using internal::cookiePathMatch;

using internal::equalsIgnoreCase;

bool isAsciiDigit(char c) noexcept { return c >= '0' && c <= '9'; }

// The offset of the first `delimiter` in s[pos, limit), or `limit`.
size_t delimiterOffset(std::string_view s, char delimiter, size_t pos, size_t limit) noexcept {
  for (size_t i = pos; i < limit; ++i) {
    if (s[i] == delimiter) return i;
  }
  return limit;
}

// s[pos, limit) without leading and trailing ASCII whitespace, as OkHttp's trimSubstring.
std::string_view trimSubstring(std::string_view s, size_t pos, size_t limit) noexcept {
  while (pos < limit &&
         (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\n' || s[pos] == '\f' || s[pos] == '\r')) {
    ++pos;
  }
  while (limit > pos && (s[limit - 1] == ' ' || s[limit - 1] == '\t' || s[limit - 1] == '\n' ||
                         s[limit - 1] == '\f' || s[limit - 1] == '\r')) {
    --limit;
  }
  return s.substr(pos, limit - pos);
}

// True if `s` has a control character (other than tab) or a non-ASCII byte: not allowed in a
// cookie name or value (RFC 6265 §4.1.1 is stricter; OkHttp allows the rest).
bool hasControlOrNonAscii(std::string_view s) noexcept {
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if ((u <= 0x1f && c != '\t') || u >= 0x7f) return true;
  }
  return false;
}

// RFC 6265 §5.1.1's delimiter test: true for the characters a date token is made of.
bool isDateCharacter(char c) noexcept {
  auto u = static_cast<unsigned char>(c);
  return (u < ' ' && c != '\t') || u >= 0x7f || isAsciiDigit(c) || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z') || c == ':';
}

// The offset of the first date character (or, with `invert`, delimiter) in s[pos, limit).
size_t dateCharacterOffset(std::string_view s, size_t pos, size_t limit, bool invert) noexcept {
  for (size_t i = pos; i < limit; ++i) {
    if (isDateCharacter(s[i]) != invert) return i;
  }
  return limit;
}

// Reads 1..maxDigits digits at the start of `token`, then requires the rest to hold no digit
// (the "[^\d]*" tail of RFC 6265's grammar). Returns the number of digits read, or 0.
size_t readDigits(std::string_view token, size_t minDigits, size_t maxDigits, int& value) {
  size_t n = 0;
  value = 0;
  while (n < token.size() && isAsciiDigit(token[n])) {
    if (n == maxDigits) return 0;
    value = value * 10 + (token[n] - '0');
    ++n;
  }
  if (n < minDigits) return 0;
  for (size_t i = n; i < token.size(); ++i) {
    if (isAsciiDigit(token[i])) return 0;
  }
  return n;
}

// "hh:mm:ss" with 1 or 2 digits each, then no digit.
bool parseTime(std::string_view token, int& hour, int& minute, int& second) {
  std::array<int*, 3> fields{&hour, &minute, &second};
  size_t pos = 0;
  for (size_t f = 0; f < fields.size(); ++f) {
    size_t digits = 0;
    int value = 0;
    while (pos < token.size() && isAsciiDigit(token[pos]) && digits < 3) {
      value = value * 10 + (token[pos] - '0');
      ++pos;
      ++digits;
    }
    if (digits < 1 || digits > 2) return false;
    *fields[f] = value;
    if (f < 2) {
      if (pos >= token.size() || token[pos] != ':') return false;
      ++pos;
    }
  }
  for (size_t i = pos; i < token.size(); ++i) {
    if (isAsciiDigit(token[i])) return false;
  }
  return true;
}

// A month name's index 0..11 if `token` starts with its first three letters (any case).
int parseMonth(std::string_view token) {
  static constexpr std::array<std::string_view, 12> kMonths = {
      "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
  if (token.size() < 3) return -1;
  for (size_t i = 0; i < kMonths.size(); ++i) {
    if (equalsIgnoreCase(token.substr(0, 3), kMonths[i])) return static_cast<int>(i);
  }
  return -1;
}

// Parses an Expires value by RFC 6265 §5.1.1's lenient cookie-date algorithm. Returns
// milliseconds since the epoch, or std::nullopt if a field is missing or out of range.
std::optional<int64_t> parseExpires(std::string_view s) {
  size_t limit = s.size();
  size_t pos = dateCharacterOffset(s, 0, limit, false);
  int hour = -1, minute = -1, second = -1, dayOfMonth = -1, month = -1, year = -1;
  while (pos < limit) {
    size_t end = dateCharacterOffset(s, pos + 1, limit, true);
    std::string_view token = s.substr(pos, end - pos);
    int value = 0;
    int h = 0, m = 0, sec = 0;
    if (hour == -1 && parseTime(token, h, m, sec)) {
      hour = h;
      minute = m;
      second = sec;
    } else if (dayOfMonth == -1 && readDigits(token, 1, 2, value) != 0) {
      dayOfMonth = value;
    } else if (month == -1 && parseMonth(token) != -1) {
      month = parseMonth(token);
    } else if (year == -1 && readDigits(token, 2, 4, value) != 0) {
      year = value;
    }
    pos = dateCharacterOffset(s, end + 1 > limit ? limit : end + 1, limit, false);
  }
  // Two-digit years: 70..99 are 1970..1999, 0..69 are 2000..2069 (RFC 6265 §5.1.1 step 3, 4).
  if (year >= 70 && year <= 99) year += 1900;
  if (year >= 0 && year <= 69) year += 2000;
  if (year < 1601 || month == -1 || dayOfMonth < 1 || dayOfMonth > 31 || hour < 0 || hour > 23 ||
      minute < 0 || minute > 59 || second < 0 || second > 59) {
    return std::nullopt;
  }
  // Day 31 of a 30-day month rolls into the next month, as Java's lenient calendar does.
  int64_t days = internal::daysFromCivil(year, month + 1, 1) + (dayOfMonth - 1);
  return ((days * 24 + hour) * 60 + minute) * 60 * 1000 + (second * 1000LL);
}

// Max-Age in seconds: INT64_MIN for zero or negative (already expired), INT64_MAX when too big.
// std::nullopt if it is not an integer.
std::optional<int64_t> parseMaxAge(std::string_view s) {
  bool negative = !s.empty() && s[0] == '-';
  std::string_view digits = negative ? s.substr(1) : s;
  if (digits.empty()) return std::nullopt;
  int64_t value = 0;
  bool overflow = false;
  for (char c : digits) {
    if (!isAsciiDigit(c)) return std::nullopt;
    if (value > (INT64_MAX - (c - '0')) / 10) {
      overflow = true;
    } else if (!overflow) {
      value = value * 10 + (c - '0');
    }
  }
  if (negative) return INT64_MIN;
  if (overflow) return INT64_MAX;
  return value <= 0 ? INT64_MIN : value;
}

// A Domain attribute's value as a canonical host (without a leading dot), or std::nullopt if it
// is not a valid host.
std::optional<std::string> canonicalDomain(std::string_view s) {
  if (s.ends_with('.')) return std::nullopt;
  if (s.starts_with('.')) s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  std::optional<std::string> host = internal::parseHost(s);
  // What parseHost() made must be a domain again: IDNA mapping may drop code points, and the
  // fuzzer found inputs that left ".example.mcom" or "fffff.", which this refuses as input (a
  // cookie's domain() is given to builders again, as a jar making a cookie host-only does).
  if (!host || host->empty() || host->starts_with('.') || host->ends_with('.')) return std::nullopt;
  if (host->size() > 2 && host->front() == '[') return host->substr(1, host->size() - 2);
  return host;
}

int64_t currentTimeMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Formats milliseconds since the epoch as an IMF-fixdate, for any year 0..9999.
std::string formatCookieDate(int64_t millis) {
  static constexpr std::array<const char*, 7> kDays = {"Thu", "Fri", "Sat", "Sun",
                                                       "Mon", "Tue", "Wed"};
  static constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  int64_t seconds = millis >= 0 ? millis / 1000 : -((-millis + 999) / 1000);
  int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
  int64_t secondOfDay = seconds - days * 86400;
  auto [year, month, day] = internal::civilFromDays(days);
  char text[64];
  std::snprintf(text, sizeof(text), "%s, %02d %s %04d %02d:%02d:%02d GMT",
                kDays[static_cast<size_t>(((days % 7) + 7) % 7)], day, kMonths[month - 1],
                static_cast<int>(year), static_cast<int>(secondOfDay / 3600),
                static_cast<int>(secondOfDay / 60 % 60), static_cast<int>(secondOfDay % 60));
  return text;
}

}  // namespace

bool Cookie::matches(const HttpUrl& url) const {
  bool domainMatches = hostOnly_ ? url.host() == domain_ : cookieDomainMatch(url.host(), domain_);
  if (!domainMatches) return false;
  if (!cookiePathMatch(url.encodedPath(), path_)) return false;
  return !secure_ || url.isHttps();
}

std::optional<Cookie> Cookie::parse(const HttpUrl& url, std::string_view setCookie) {
  return parse(currentTimeMillis(), url, setCookie);
}

std::optional<Cookie> Cookie::parse(int64_t currentTimeMillis, const HttpUrl& url,
                                    std::string_view setCookie) {
  size_t limit = setCookie.size();
  size_t cookiePairEnd = delimiterOffset(setCookie, ';', 0, limit);
  size_t pairEqualsSign = delimiterOffset(setCookie, '=', 0, cookiePairEnd);
  if (pairEqualsSign == cookiePairEnd) return std::nullopt;

  std::string_view cookieName = trimSubstring(setCookie, 0, pairEqualsSign);
  if (cookieName.empty() || hasControlOrNonAscii(cookieName)) return std::nullopt;
  std::string_view cookieValue = trimSubstring(setCookie, pairEqualsSign + 1, cookiePairEnd);
  if (hasControlOrNonAscii(cookieValue)) return std::nullopt;

  int64_t expiresAt = kMaxDate;
  std::optional<int64_t> deltaSeconds;
  std::optional<std::string> domain;
  std::optional<std::string> path;
  bool secureOnly = false;
  bool httpOnly = false;
  bool hostOnly = true;
  bool persistent = false;
  std::optional<std::string> sameSite;

  size_t pos = cookiePairEnd + 1;
  while (pos < limit) {
    size_t attributePairEnd = delimiterOffset(setCookie, ';', pos, limit);
    size_t attributeEqualsSign = delimiterOffset(setCookie, '=', pos, attributePairEnd);
    std::string_view attributeName = trimSubstring(setCookie, pos, attributeEqualsSign);
    std::string_view attributeValue =
        attributeEqualsSign < attributePairEnd
            ? trimSubstring(setCookie, attributeEqualsSign + 1, attributePairEnd)
            : std::string_view();

    if (equalsIgnoreCase(attributeName, "expires")) {
      if (std::optional<int64_t> parsed = parseExpires(attributeValue)) {
        expiresAt = *parsed;
        persistent = true;
      }
    } else if (equalsIgnoreCase(attributeName, "max-age")) {
      if (std::optional<int64_t> parsed = parseMaxAge(attributeValue)) {
        deltaSeconds = parsed;
        persistent = true;
      }
    } else if (equalsIgnoreCase(attributeName, "domain")) {
      if (std::optional<std::string> parsed = canonicalDomain(attributeValue)) {
        domain = std::move(parsed);
        hostOnly = false;
      }
    } else if (equalsIgnoreCase(attributeName, "path")) {
      path = std::string(attributeValue);
    } else if (equalsIgnoreCase(attributeName, "secure")) {
      secureOnly = true;
    } else if (equalsIgnoreCase(attributeName, "httponly")) {
      httpOnly = true;
    } else if (equalsIgnoreCase(attributeName, "samesite")) {
      sameSite = std::string(attributeValue);
    }
    pos = attributePairEnd + 1;
  }

  // Max-Age wins over Expires (RFC 6265 §5.3 step 3), and is measured from now.
  if (deltaSeconds == INT64_MIN) {
    expiresAt = INT64_MIN;
  } else if (deltaSeconds) {
    int64_t deltaMillis = *deltaSeconds <= INT64_MAX / 1000 ? *deltaSeconds * 1000 : INT64_MAX;
    expiresAt =
        deltaMillis > INT64_MAX - currentTimeMillis ? kMaxDate : currentTimeMillis + deltaMillis;
    if (expiresAt < currentTimeMillis || expiresAt > kMaxDate) expiresAt = kMaxDate;
  }

  const std::string& urlHost = url.host();
  if (!domain) {
    domain = urlHost;
  } else if (!cookieDomainMatch(urlHost, *domain)) {
    return std::nullopt;  // A cookie for another domain: a mistake, or an attack.
  }
  // A cookie for a parent domain must not be for a public suffix ("co.uk"), which would reach
  // every site under it (RFC 6265 §5.3 step 5).
  if (urlHost.size() != domain->size() && !internal::registrableDomain(*domain)) {
    return std::nullopt;
  }

  // Without a Path attribute (or with one that is not absolute), the default path is the URL's
  // directory (RFC 6265 §5.1.4).
  if (!path || !path->starts_with('/')) {
    std::string encodedPath = url.encodedPath();
    size_t lastSlash = encodedPath.rfind('/');
    path = lastSlash != 0 && lastSlash != std::string::npos ? encodedPath.substr(0, lastSlash)
                                                            : std::string("/");
  }

  Cookie cookie;
  cookie.name_ = cookieName;
  cookie.value_ = cookieValue;
  cookie.expiresAt_ = expiresAt;
  cookie.domain_ = std::move(*domain);
  cookie.path_ = std::move(*path);
  cookie.secure_ = secureOnly;
  cookie.httpOnly_ = httpOnly;
  cookie.persistent_ = persistent;
  cookie.hostOnly_ = hostOnly;
  cookie.sameSite_ = std::move(sameSite);
  return cookie;
}

std::vector<Cookie> Cookie::parseAll(const HttpUrl& url, const Headers& headers) {
  std::vector<Cookie> cookies;
  int64_t now = currentTimeMillis();
  for (const std::string& setCookie : headers.values("Set-Cookie")) {
    if (std::optional<Cookie> cookie = parse(now, url, setCookie)) {
      cookies.push_back(std::move(*cookie));
    }
  }
  return cookies;
}

std::string Cookie::toString() const {
  std::string result = name_ + "=" + value_;
  if (persistent_) {
    if (expiresAt_ == INT64_MIN) {
      result += "; max-age=0";
    } else {
      result += "; expires=" + formatCookieDate(expiresAt_);
    }
  }
  if (!hostOnly_) result += "; domain=" + domain_;
  result += "; path=" + path_;
  if (secure_) result += "; secure";
  if (httpOnly_) result += "; httponly";
  if (sameSite_) result += "; samesite=" + *sameSite_;
  return result;
}

Cookie::Builder Cookie::newBuilder() const {
  Builder builder;
  builder.name_ = name_;
  builder.value_ = value_;
  builder.expiresAt_ = expiresAt_;
  builder.domain_ = domain_;
  builder.path_ = path_;
  builder.secure_ = secure_;
  builder.httpOnly_ = httpOnly_;
  builder.persistent_ = persistent_;
  builder.hostOnly_ = hostOnly_;
  builder.sameSite_ = sameSite_;
  return builder;
}

Cookie::Builder& Cookie::Builder::name(std::string_view name) {
  if (name.empty() || trimSubstring(name, 0, name.size()).size() != name.size() ||
      hasControlOrNonAscii(name)) {
    throw std::invalid_argument("Cookie name is not valid: \"" + std::string(name) + "\"");
  }
  name_ = std::string(name);
  return *this;
}

Cookie::Builder& Cookie::Builder::value(std::string_view value) {
  if (trimSubstring(value, 0, value.size()).size() != value.size() || hasControlOrNonAscii(value)) {
    throw std::invalid_argument("Cookie value is not valid: \"" + std::string(value) + "\"");
  }
  value_ = std::string(value);
  return *this;
}

Cookie::Builder& Cookie::Builder::expiresAt(int64_t expiresAt) {
  if (expiresAt <= 0) expiresAt = INT64_MIN;
  if (expiresAt > kMaxDate) expiresAt = kMaxDate;
  expiresAt_ = expiresAt;
  persistent_ = true;
  return *this;
}

Cookie::Builder& Cookie::Builder::setDomain(std::string_view domain, bool hostOnly) {
  // An IPv6 address as domain() holds it, bare ("::1"), is taken too, so a cookie's domain can
  // be given to a builder again (a jar making a cookie host-only does).
  std::optional<std::string> canonical =
      domain.find(':') != std::string_view::npos && !domain.starts_with('[')
          ? canonicalDomain("[" + std::string(domain) + "]")
          : canonicalDomain(domain);
  if (!canonical || domain.starts_with('.')) {
    throw std::invalid_argument("Cookie domain is not a valid host: \"" + std::string(domain) +
                                "\"");
  }
  domain_ = std::move(canonical);
  hostOnly_ = hostOnly;
  return *this;
}

Cookie::Builder& Cookie::Builder::domain(std::string_view domain) {
  return setDomain(domain, false);
}

Cookie::Builder& Cookie::Builder::hostOnlyDomain(std::string_view domain) {
  return setDomain(domain, true);
}

Cookie::Builder& Cookie::Builder::path(std::string_view path) {
  if (!path.starts_with('/')) {
    throw std::invalid_argument("Cookie path must start with '/': \"" + std::string(path) + "\"");
  }
  path_ = std::string(path);
  return *this;
}

Cookie::Builder& Cookie::Builder::secure() {
  secure_ = true;
  return *this;
}

Cookie::Builder& Cookie::Builder::httpOnly() {
  httpOnly_ = true;
  return *this;
}

Cookie::Builder& Cookie::Builder::sameSite(std::string_view sameSite) {
  if (trimSubstring(sameSite, 0, sameSite.size()).size() != sameSite.size() ||
      hasControlOrNonAscii(sameSite)) {
    throw std::invalid_argument("Cookie sameSite is not valid: \"" + std::string(sameSite) + "\"");
  }
  sameSite_ = std::string(sameSite);
  return *this;
}

Cookie Cookie::Builder::build() const {
  if (!name_) throw std::logic_error("Cookie.Builder: name == null");
  if (!value_) throw std::logic_error("Cookie.Builder: value == null");
  if (!domain_) throw std::logic_error("Cookie.Builder: domain == null");
  Cookie cookie;
  cookie.name_ = *name_;
  cookie.value_ = *value_;
  cookie.expiresAt_ = expiresAt_;
  cookie.domain_ = *domain_;
  cookie.path_ = path_;
  cookie.secure_ = secure_;
  cookie.httpOnly_ = httpOnly_;
  cookie.persistent_ = persistent_;
  cookie.hostOnly_ = hostOnly_;
  cookie.sameSite_ = sameSite_;
  return cookie;
}

}  // namespace tern
