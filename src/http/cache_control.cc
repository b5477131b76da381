// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/cache_control.h"

#include <climits>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "http/http_syntax.h"

namespace tern {
namespace {

using internal::equalsIgnoreCase;
using internal::indexOfAny;
using internal::trimAsciiWhitespace;

// A delta-seconds value (RFC 9111 §1.2.2) as OkHttp reads it: an optionally signed decimal
// integer. Negative values become 0 and values past INT_MAX become INT_MAX; anything else (absent,
// empty, not a number) yields `defaultValue`.
int toNonNegativeInt(const std::optional<std::string_view>& text, int defaultValue) {
  if (!text || text->empty()) {
    return defaultValue;
  }
  std::string_view digits = *text;
  bool negative = false;
  if (digits[0] == '+' || digits[0] == '-') {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty()) {
    return defaultValue;
  }
  int64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') {
      return defaultValue;
    }
    if (value <= INT_MAX) {
      value = value * 10 + (c - '0');  // Saturates well before overflow.
    }
  }
  if (negative) {
    return 0;
  }
  return value > INT_MAX ? INT_MAX : static_cast<int>(value);
}

}  // namespace

CacheControl CacheControl::parse(const Headers& headers) {
  CacheControl result;
  bool canUseHeaderValue = true;
  std::optional<std::string_view> headerValue;

  for (const auto& [name, value] : headers) {
    if (equalsIgnoreCase(name, "Cache-Control")) {
      if (headerValue) {
        canUseHeaderValue = false;  // Several Cache-Control fields: no single raw value.
      } else {
        headerValue = value;
      }
    } else if (equalsIgnoreCase(name, "Pragma")) {
      canUseHeaderValue = false;  // Pragma may add directives; the raw value would miss them.
    } else {
      continue;
    }

    std::string_view v = value;
    std::size_t pos = 0;
    while (pos < v.size()) {
      std::size_t tokenStart = pos;
      pos = indexOfAny(v, "=,;", pos);
      std::string_view directive = trimAsciiWhitespace(v.substr(tokenStart, pos - tokenStart));
      std::optional<std::string_view> parameter;

      if (pos == v.size() || v[pos] == ',' || v[pos] == ';') {
        ++pos;  // Consume ',' or ';' (if any).
      } else {
        pos = internal::skipHttpWhitespace(v, pos + 1);  // Consume '='.
        if (pos < v.size() && v[pos] == '"') {
          std::size_t parameterStart = pos + 1;
          std::size_t close = v.find('"', parameterStart);
          if (close == std::string_view::npos) {
            close = v.size();  // Unterminated: take the rest.
          }
          parameter = v.substr(parameterStart, close - parameterStart);
          pos = close + 1;
        } else {
          std::size_t parameterStart = pos;
          pos = indexOfAny(v, ",;", pos);
          parameter = trimAsciiWhitespace(v.substr(parameterStart, pos - parameterStart));
        }
      }

      if (equalsIgnoreCase(directive, "no-cache")) {
        result.noCache_ = true;
      } else if (equalsIgnoreCase(directive, "no-store")) {
        result.noStore_ = true;
      } else if (equalsIgnoreCase(directive, "max-age")) {
        result.maxAgeSeconds_ = toNonNegativeInt(parameter, -1);
      } else if (equalsIgnoreCase(directive, "s-maxage")) {
        result.sMaxAgeSeconds_ = toNonNegativeInt(parameter, -1);
      } else if (equalsIgnoreCase(directive, "private")) {
        result.isPrivate_ = true;
      } else if (equalsIgnoreCase(directive, "public")) {
        result.isPublic_ = true;
      } else if (equalsIgnoreCase(directive, "must-revalidate")) {
        result.mustRevalidate_ = true;
      } else if (equalsIgnoreCase(directive, "max-stale")) {
        // RFC 9111 §5.2.1.2: max-stale without a value accepts a response of any staleness.
        result.maxStaleSeconds_ = toNonNegativeInt(parameter, INT_MAX);
      } else if (equalsIgnoreCase(directive, "min-fresh")) {
        result.minFreshSeconds_ = toNonNegativeInt(parameter, -1);
      } else if (equalsIgnoreCase(directive, "only-if-cached")) {
        result.onlyIfCached_ = true;
      } else if (equalsIgnoreCase(directive, "no-transform")) {
        result.noTransform_ = true;
      } else if (equalsIgnoreCase(directive, "immutable")) {
        result.immutable_ = true;
      } else if (equalsIgnoreCase(directive, "stale-while-revalidate")) {
        result.staleWhileRevalidateSeconds_ = toNonNegativeInt(parameter, -1);
      } else if (equalsIgnoreCase(directive, "stale-if-error")) {
        result.staleIfErrorSeconds_ = toNonNegativeInt(parameter, -1);
      }
    }
  }

  result.headerValue_ =
      canUseHeaderValue && headerValue ? std::string(*headerValue) : result.canonicalHeaderValue();
  return result;
}

const CacheControl& CacheControl::forceNetwork() {
  static const CacheControl kForceNetwork = Builder().noCache().build();
  return kForceNetwork;
}

const CacheControl& CacheControl::forceCache() {
  static const CacheControl kForceCache =
      Builder().onlyIfCached().maxStale(std::chrono::seconds(INT_MAX)).build();
  return kForceCache;
}

std::string CacheControl::canonicalHeaderValue() const {
  std::string result;
  auto append = [&](bool present, std::string_view directive) {
    if (!present) {
      return;
    }
    if (!result.empty()) {
      result += ", ";
    }
    result += directive;
  };
  auto appendSeconds = [&](int seconds, std::string_view directive) {
    if (seconds == -1) {
      return;
    }
    append(true, std::string(directive) + "=" + std::to_string(seconds));
  };
  append(noCache_, "no-cache");
  append(noStore_, "no-store");
  appendSeconds(maxAgeSeconds_, "max-age");
  appendSeconds(sMaxAgeSeconds_, "s-maxage");
  append(isPrivate_, "private");
  append(isPublic_, "public");
  append(mustRevalidate_, "must-revalidate");
  appendSeconds(maxStaleSeconds_, "max-stale");
  appendSeconds(minFreshSeconds_, "min-fresh");
  append(onlyIfCached_, "only-if-cached");
  append(noTransform_, "no-transform");
  append(immutable_, "immutable");
  appendSeconds(staleWhileRevalidateSeconds_, "stale-while-revalidate");
  appendSeconds(staleIfErrorSeconds_, "stale-if-error");
  return result;
}

CacheControl::Builder& CacheControl::Builder::noCache() {
  noCache_ = true;
  return *this;
}

CacheControl::Builder& CacheControl::Builder::noStore() {
  noStore_ = true;
  return *this;
}

CacheControl::Builder& CacheControl::Builder::onlyIfCached() {
  onlyIfCached_ = true;
  return *this;
}

CacheControl::Builder& CacheControl::Builder::noTransform() {
  noTransform_ = true;
  return *this;
}

CacheControl::Builder& CacheControl::Builder::immutable() {
  immutable_ = true;
  return *this;
}

int CacheControl::Builder::checkedSeconds(const char* what, int64_t seconds) {
  if (seconds < 0) {
    throw std::invalid_argument(std::string(what) + " < 0: " + std::to_string(seconds));
  }
  return seconds > INT_MAX ? INT_MAX : static_cast<int>(seconds);
}

CacheControl CacheControl::Builder::build() const {
  CacheControl result;
  result.noCache_ = noCache_;
  result.noStore_ = noStore_;
  result.maxAgeSeconds_ = maxAgeSeconds_;
  result.maxStaleSeconds_ = maxStaleSeconds_;
  result.minFreshSeconds_ = minFreshSeconds_;
  result.onlyIfCached_ = onlyIfCached_;
  result.noTransform_ = noTransform_;
  result.immutable_ = immutable_;
  result.headerValue_ = result.canonicalHeaderValue();
  return result;
}

}  // namespace tern
