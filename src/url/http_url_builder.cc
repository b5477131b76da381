// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include <stdexcept>
#include <utility>

#include "tern/http_url.h"
#include "url/host_parser.h"
#include "url/http_url_data.h"
#include "url/percent_encoding.h"
#include "url/url_parser.h"
#include "url/url_syntax.h"

namespace tern {
namespace {

using internal::canonicalize;
using internal::equalsIgnoreCase;
using internal::isDoubleDotSegment;
using internal::isSingleDotSegment;

// An encoded query as alternating names and values, as OkHttp's toQueryNamesAndValues.
std::vector<std::optional<std::string>> toQueryNamesAndValues(std::string_view query) {
  std::vector<std::optional<std::string>> result;
  for (const auto& [name, value] : internal::splitQuery(query)) {
    result.emplace_back(std::string(name));
    result.emplace_back(value ? std::optional<std::string>(*value) : std::nullopt);
  }
  return result;
}

void checkIndex(size_t index, size_t size) {
  if (index >= size) {
    throw std::out_of_range("path segment index " + std::to_string(index) +
                            " >= " + std::to_string(size));
  }
}

}  // namespace

HttpUrl::Builder::Builder() = default;

HttpUrl::Builder HttpUrl::newBuilder() const {
  Builder builder;
  builder.scheme_ = data_->scheme;
  builder.encodedUsername_ = encodedUsername();
  builder.encodedPassword_ = encodedPassword();
  builder.host_ = data_->host;
  // A default port is left unset so that changing the scheme changes the port with it.
  builder.port_ = data_->port != defaultPort(data_->scheme) ? data_->port : -1;
  builder.encodedPathSegments_ = encodedPathSegments();
  if (data_->hasQuery) {
    builder.encodedQueryNamesAndValues_ = toQueryNamesAndValues(*encodedQuery());
  }
  builder.encodedFragment_ = encodedFragment();
  return builder;
}

HttpUrl::Builder& HttpUrl::Builder::scheme(std::string_view scheme) {
  for (const char* candidate : {"http", "https", "ws", "wss"}) {
    if (equalsIgnoreCase(scheme, candidate)) {
      scheme_ = candidate;
      return *this;
    }
  }
  throw std::invalid_argument("unexpected scheme: " + std::string(scheme));
}

HttpUrl::Builder& HttpUrl::Builder::username(std::string_view username) {
  encodedUsername_ = canonicalize(username, internal::kUsernameEncodeSet, false);
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::encodedUsername(std::string_view encodedUsername) {
  encodedUsername_ = canonicalize(encodedUsername, internal::kUsernameEncodeSet, true);
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::password(std::string_view password) {
  encodedPassword_ = canonicalize(password, internal::kPasswordEncodeSet, false);
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::encodedPassword(std::string_view encodedPassword) {
  encodedPassword_ = canonicalize(encodedPassword, internal::kPasswordEncodeSet, true);
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::host(std::string_view host) {
  // OkHttp accepts IPv6 literals with or without brackets.
  const bool bareIpv6 = !host.empty() && host.front() != '[' && host.find(':') != std::string::npos;
  std::optional<std::string> canonical =
      internal::parseHost(bareIpv6 ? "[" + std::string(host) + "]" : std::string(host));
  if (!canonical) {
    throw std::invalid_argument("unexpected host: " + std::string(host));
  }
  if (canonical->front() == '[') {
    *canonical = canonical->substr(1, canonical->size() - 2);
  }
  host_ = std::move(*canonical);
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::port(int port) {
  if (port < 1 || port > 65535) {
    throw std::invalid_argument("unexpected port: " + std::to_string(port));
  }
  port_ = port;
  return *this;
}

void HttpUrl::Builder::push(std::string_view input, bool addTrailingSlash, bool alreadyEncoded) {
  std::string segment = canonicalize(input, internal::kPathSegmentEncodeSet, alreadyEncoded);
  if (isSingleDotSegment(segment)) {
    return;
  }
  if (isDoubleDotSegment(segment)) {
    // Pop a segment, leaving the path ending in "/": "/a/b/c" and "/a/b/c/" both become "/a/b/".
    const std::string removed = std::move(encodedPathSegments_.back());
    encodedPathSegments_.pop_back();
    if (removed.empty() && !encodedPathSegments_.empty()) {
      encodedPathSegments_.back().clear();
    } else {
      encodedPathSegments_.emplace_back();
    }
    return;
  }
  if (encodedPathSegments_.back().empty()) {
    encodedPathSegments_.back() = std::move(segment);
  } else {
    encodedPathSegments_.push_back(std::move(segment));
  }
  if (addTrailingSlash) {
    encodedPathSegments_.emplace_back();
  }
}

void HttpUrl::Builder::addSegments(std::string_view segments, bool alreadyEncoded) {
  size_t offset = 0;
  while (true) {
    size_t end = segments.find_first_of("/\\", offset);
    if (end == std::string_view::npos) {
      end = segments.size();
    }
    const bool addTrailingSlash = end < segments.size();
    push(segments.substr(offset, end - offset), addTrailingSlash, alreadyEncoded);
    if (end == segments.size()) {
      return;
    }
    offset = end + 1;
  }
}

HttpUrl::Builder& HttpUrl::Builder::addPathSegment(std::string_view pathSegment) {
  push(pathSegment, false, false);
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::addEncodedPathSegment(std::string_view encodedPathSegment) {
  push(encodedPathSegment, false, true);
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::addPathSegments(std::string_view pathSegments) {
  addSegments(pathSegments, false);
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::addEncodedPathSegments(std::string_view encodedPathSegments) {
  addSegments(encodedPathSegments, true);
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::setPathSegment(size_t index, std::string_view pathSegment) {
  checkIndex(index, encodedPathSegments_.size());
  std::string segment = canonicalize(pathSegment, internal::kPathSegmentEncodeSet, false);
  if (isSingleDotSegment(segment) || isDoubleDotSegment(segment)) {
    throw std::invalid_argument("unexpected path segment: " + std::string(pathSegment));
  }
  encodedPathSegments_[index] = std::move(segment);
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::setEncodedPathSegment(size_t index,
                                                          std::string_view encodedPathSegment) {
  checkIndex(index, encodedPathSegments_.size());
  std::string segment = canonicalize(encodedPathSegment, internal::kPathSegmentEncodeSet, true);
  if (isSingleDotSegment(segment) || isDoubleDotSegment(segment)) {
    throw std::invalid_argument("unexpected path segment: " + std::string(encodedPathSegment));
  }
  encodedPathSegments_[index] = std::move(segment);
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::removePathSegment(size_t index) {
  checkIndex(index, encodedPathSegments_.size());
  encodedPathSegments_.erase(encodedPathSegments_.begin() + static_cast<ptrdiff_t>(index));
  if (encodedPathSegments_.empty()) {
    encodedPathSegments_.emplace_back();  // Keep at least "/".
  }
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::encodedPath(std::string_view encodedPath) {
  if (encodedPath.empty() || encodedPath.front() != '/') {
    throw std::invalid_argument("unexpected encodedPath: " + std::string(encodedPath));
  }
  encodedPathSegments_ = {""};
  addSegments(encodedPath.substr(1), true);
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::query(std::optional<std::string_view> query) {
  if (!query) {
    encodedQueryNamesAndValues_.reset();
  } else {
    encodedQueryNamesAndValues_ = toQueryNamesAndValues(
        canonicalize(*query, internal::kBuilderQueryEncodeSet, false, /*plusIsSpace=*/true));
  }
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::encodedQuery(std::optional<std::string_view> encodedQuery) {
  if (!encodedQuery) {
    encodedQueryNamesAndValues_.reset();
  } else {
    encodedQueryNamesAndValues_ = toQueryNamesAndValues(
        canonicalize(*encodedQuery, internal::kBuilderQueryEncodeSet, true, /*plusIsSpace=*/true));
  }
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::addQueryParameter(std::string_view name,
                                                      std::optional<std::string_view> value) {
  if (!encodedQueryNamesAndValues_) {
    encodedQueryNamesAndValues_.emplace();
  }
  encodedQueryNamesAndValues_->emplace_back(
      canonicalize(name, internal::kQueryComponentEncodeSet, false, true));
  if (value) {
    encodedQueryNamesAndValues_->emplace_back(
        canonicalize(*value, internal::kQueryComponentEncodeSet, false, true));
  } else {
    encodedQueryNamesAndValues_->emplace_back(std::nullopt);
  }
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::addEncodedQueryParameter(
    std::string_view encodedName, std::optional<std::string_view> encodedValue) {
  if (!encodedQueryNamesAndValues_) {
    encodedQueryNamesAndValues_.emplace();
  }
  encodedQueryNamesAndValues_->emplace_back(
      canonicalize(encodedName, internal::kQueryComponentReencodeSet, true, true));
  if (encodedValue) {
    encodedQueryNamesAndValues_->emplace_back(
        canonicalize(*encodedValue, internal::kQueryComponentReencodeSet, true, true));
  } else {
    encodedQueryNamesAndValues_->emplace_back(std::nullopt);
  }
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::setQueryParameter(std::string_view name,
                                                      std::optional<std::string_view> value) {
  removeAllQueryParameters(name);
  return addQueryParameter(name, value);
}

HttpUrl::Builder& HttpUrl::Builder::setEncodedQueryParameter(
    std::string_view encodedName, std::optional<std::string_view> encodedValue) {
  removeAllEncodedQueryParameters(encodedName);
  return addEncodedQueryParameter(encodedName, encodedValue);
}

HttpUrl::Builder& HttpUrl::Builder::removeAllQueryParameters(std::string_view name) {
  if (encodedQueryNamesAndValues_) {
    removeAllCanonicalQueryParameters(
        canonicalize(name, internal::kQueryComponentEncodeSet, false, true));
  }
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::removeAllEncodedQueryParameters(std::string_view encodedName) {
  if (encodedQueryNamesAndValues_) {
    removeAllCanonicalQueryParameters(
        canonicalize(encodedName, internal::kQueryComponentReencodeSet, true, true));
  }
  return *this;
}

void HttpUrl::Builder::removeAllCanonicalQueryParameters(const std::string& canonicalName) {
  std::vector<std::optional<std::string>>& namesAndValues = *encodedQueryNamesAndValues_;
  // Compacts the kept pairs in place: nothing is moved out unless its pair is dropped, so a
  // name that is absent leaves the query exactly as it was.
  size_t out = 0;
  for (size_t i = 0; i + 1 < namesAndValues.size(); i += 2) {
    if (namesAndValues[i] == canonicalName) {
      continue;
    }
    if (out != i) {
      namesAndValues[out] = std::move(namesAndValues[i]);
      namesAndValues[out + 1] = std::move(namesAndValues[i + 1]);
    }
    out += 2;
  }
  if (out == namesAndValues.size()) {
    return;
  }
  // Removing the last parameter removes the query, as OkHttp does.
  if (out == 0) {
    encodedQueryNamesAndValues_.reset();
  } else {
    namesAndValues.resize(out);
  }
}

HttpUrl::Builder& HttpUrl::Builder::fragment(std::optional<std::string_view> fragment) {
  if (!fragment) {
    encodedFragment_.reset();
  } else {
    encodedFragment_ = canonicalize(*fragment, internal::kFragmentEncodeSet, false);
  }
  return *this;
}

HttpUrl::Builder& HttpUrl::Builder::encodedFragment(
    std::optional<std::string_view> encodedFragment) {
  if (!encodedFragment) {
    encodedFragment_.reset();
  } else {
    encodedFragment_ = canonicalize(*encodedFragment, internal::kFragmentEncodeSet, true);
  }
  return *this;
}

int HttpUrl::Builder::effectivePort() const {
  return port_ != -1 ? port_ : HttpUrl::defaultPort(scheme_.value_or(""));
}

std::string HttpUrl::Builder::toString() const {
  std::string out;
  if (scheme_) {
    out.append(*scheme_).append("://");
  } else {
    out.append("//");
  }
  if (!encodedUsername_.empty() || !encodedPassword_.empty()) {
    out.append(encodedUsername_);
    if (!encodedPassword_.empty()) {
      out.append(":").append(encodedPassword_);
    }
    out.push_back('@');
  }
  if (host_) {
    if (host_->find(':') != std::string::npos) {
      out.append("[").append(*host_).append("]");
    } else {
      out.append(*host_);
    }
  }
  if (port_ != -1 || scheme_) {
    const int port = effectivePort();
    if (!scheme_ || port != HttpUrl::defaultPort(*scheme_)) {
      out.append(":").append(std::to_string(port));
    }
  }
  for (const std::string& segment : encodedPathSegments_) {
    out.append("/").append(segment);
  }
  if (encodedQueryNamesAndValues_) {
    out.push_back('?');
    const auto& namesAndValues = *encodedQueryNamesAndValues_;
    for (size_t i = 0; i + 1 < namesAndValues.size(); i += 2) {
      if (i > 0) {
        out.push_back('&');
      }
      out.append(*namesAndValues[i]);
      if (namesAndValues[i + 1]) {
        out.append("=").append(*namesAndValues[i + 1]);
      }
    }
  }
  if (encodedFragment_) {
    out.append("#").append(*encodedFragment_);
  }
  return out;
}

HttpUrl HttpUrl::Builder::build() const {
  if (!scheme_) {
    throw std::logic_error("HttpUrl::Builder: scheme is not set");
  }
  if (!host_) {
    throw std::logic_error("HttpUrl::Builder: host is not set");
  }
  // Every component is already canonical, so parsing the serialized form only fills in the
  // offsets; it cannot fail or change anything.
  internal::UrlParseResult result = internal::parseUrl(toString(), nullptr);
  if (!result.url) {
    throw std::invalid_argument(result.error);
  }
  return internal::HttpUrlAccess::fromRecord(*result.url);
}

}  // namespace tern
