// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/http_url.h"

#include <stdexcept>
#include <unordered_set>
#include <utility>

#include "url/host_parser.h"
#include "url/http_url_data.h"
#include "url/percent_encoding.h"
#include "url/public_suffix.h"
#include "url/url_parser.h"
#include "url/url_syntax.h"

namespace tern::internal {

HttpUrl HttpUrlAccess::fromRecord(const UrlRecord& record) {
  auto data = std::make_shared<HttpUrl::Data>();
  std::string& out = data->url;
  out.append(record.scheme).append("://");
  if (!record.username.empty() || !record.password.empty()) {
    data->usernameBegin = out.size();
    out.append(record.username);
    data->usernameEnd = out.size();
    if (!record.password.empty()) {
      out.push_back(':');
      data->passwordBegin = out.size();
      out.append(record.password);
      data->passwordEnd = out.size();
    }
    out.push_back('@');
  }
  out.append(record.host);
  if (record.port) {
    out.append(":").append(std::to_string(*record.port));
  }
  data->pathBegin = out.size();
  if (record.path.empty()) {
    out.push_back('/');
  }
  for (const std::string& segment : record.path) {
    out.append("/").append(segment);
  }
  data->pathEnd = out.size();
  if (record.query) {
    out.push_back('?');
    data->hasQuery = true;
    data->queryBegin = out.size();
    out.append(*record.query);
    data->queryEnd = out.size();
  }
  if (record.fragment) {
    out.push_back('#');
    data->hasFragment = true;
    data->fragmentBegin = out.size();
    out.append(*record.fragment);
  }
  data->scheme = record.scheme;
  const bool ipv6 = !record.host.empty() && record.host.front() == '[';
  data->host = ipv6 ? record.host.substr(1, record.host.size() - 2) : record.host;
  data->port = record.port ? *record.port : defaultPortForScheme(record.scheme);
  return HttpUrl(std::move(data));
}

HttpUrl HttpUrlAccess::origin(const HttpUrl& url) {
  const HttpUrl::Data& data = *url.data_;
  if (data.usernameEnd == data.usernameBegin && data.passwordEnd == data.passwordBegin &&
      data.pathEnd - data.pathBegin == 1 && !data.hasQuery && !data.hasFragment) {
    return url;  // Already "scheme://host[:port]/".
  }
  auto result = std::make_shared<HttpUrl::Data>();
  std::string& out = result->url;
  const bool ipv6 = data.host.find(':') != std::string::npos;
  out.reserve(data.scheme.size() + data.host.size() + 16);
  out.append(data.scheme).append("://");
  if (ipv6) out.push_back('[');
  out.append(data.host);
  if (ipv6) out.push_back(']');
  if (data.port != defaultPortForScheme(data.scheme)) {
    out.push_back(':');
    out.append(std::to_string(data.port));
  }
  result->pathBegin = out.size();
  out.push_back('/');
  result->pathEnd = out.size();
  result->scheme = data.scheme;
  result->host = data.host;
  result->port = data.port;
  return HttpUrl(std::move(result));
}

UrlRecord HttpUrlAccess::toRecord(const HttpUrl& url) {
  const HttpUrl::Data& data = *url.data_;
  UrlRecord record;
  record.scheme = data.scheme;
  record.username = url.encodedUsername();
  record.password = url.encodedPassword();
  record.host = data.host.find(':') != std::string::npos ? "[" + data.host + "]" : data.host;
  if (data.port != defaultPortForScheme(data.scheme)) {
    record.port = static_cast<uint16_t>(data.port);
  }
  record.path = url.encodedPathSegments();
  record.query = url.encodedQuery();
  record.fragment = url.encodedFragment();
  return record;
}

}  // namespace tern::internal

namespace tern {
namespace {

using internal::percentDecode;

// Decoded (name, value) pairs of the query; empty if there is no query.
std::vector<std::pair<std::string, std::optional<std::string>>> decodedQuery(
    const std::optional<std::string>& encodedQuery) {
  std::vector<std::pair<std::string, std::optional<std::string>>> result;
  if (!encodedQuery) {
    return result;
  }
  for (const auto& [name, value] : internal::splitQuery(*encodedQuery)) {
    std::optional<std::string> decodedValue;
    if (value) {
      decodedValue = percentDecode(*value, /*plusIsSpace=*/true);
    }
    result.emplace_back(percentDecode(name, /*plusIsSpace=*/true), std::move(decodedValue));
  }
  return result;
}

}  // namespace

HttpUrl::HttpUrl(std::shared_ptr<const Data> data) noexcept : data_(std::move(data)) {}

std::optional<HttpUrl> HttpUrl::parse(std::string_view url) {
  internal::UrlParseResult result = internal::parseUrl(url, nullptr);
  if (!result.url) {
    return std::nullopt;
  }
  return internal::HttpUrlAccess::fromRecord(*result.url);
}

HttpUrl HttpUrl::get(std::string_view url) {
  internal::UrlParseResult result = internal::parseUrl(url, nullptr);
  if (!result.url) {
    throw std::invalid_argument(result.error);
  }
  return internal::HttpUrlAccess::fromRecord(*result.url);
}

int HttpUrl::defaultPort(std::string_view scheme) noexcept {
  return internal::defaultPortForScheme(scheme);
}

const std::string& HttpUrl::scheme() const noexcept { return data_->scheme; }

bool HttpUrl::isHttps() const noexcept {
  return data_->scheme == "https" || data_->scheme == "wss";
}

std::string HttpUrl::encodedUsername() const {
  return std::string(data_->slice(data_->usernameBegin, data_->usernameEnd));
}

std::string HttpUrl::username() const { return percentDecode(encodedUsername()); }

std::string HttpUrl::encodedPassword() const {
  return std::string(data_->slice(data_->passwordBegin, data_->passwordEnd));
}

std::string HttpUrl::password() const { return percentDecode(encodedPassword()); }

const std::string& HttpUrl::host() const noexcept { return data_->host; }

int HttpUrl::port() const noexcept { return data_->port; }

size_t HttpUrl::pathSize() const {
  size_t size = 0;
  for (const char c : data_->slice(data_->pathBegin, data_->pathEnd)) {
    size += c == '/';
  }
  return size;
}

std::string HttpUrl::encodedPath() const {
  return std::string(data_->slice(data_->pathBegin, data_->pathEnd));
}

std::vector<std::string> HttpUrl::encodedPathSegments() const {
  std::vector<std::string> segments;
  const std::string_view path = data_->slice(data_->pathBegin, data_->pathEnd);
  size_t pos = 1;  // After the leading '/'.
  while (true) {
    const size_t slash = path.find('/', pos);
    if (slash == std::string_view::npos) {
      segments.emplace_back(path.substr(pos));
      return segments;
    }
    segments.emplace_back(path.substr(pos, slash - pos));
    pos = slash + 1;
  }
}

std::vector<std::string> HttpUrl::pathSegments() const {
  std::vector<std::string> segments = encodedPathSegments();
  for (std::string& segment : segments) {
    segment = percentDecode(segment);
  }
  return segments;
}

std::optional<std::string> HttpUrl::encodedQuery() const {
  if (!data_->hasQuery) {
    return std::nullopt;
  }
  return std::string(data_->slice(data_->queryBegin, data_->queryEnd));
}

std::optional<std::string> HttpUrl::query() const {
  if (!data_->hasQuery) {
    return std::nullopt;
  }
  std::string result;
  bool first = true;
  for (const auto& [name, value] : decodedQuery(encodedQuery())) {
    if (!first) {
      result.push_back('&');
    }
    first = false;
    result.append(name);
    if (value) {
      result.append("=").append(*value);
    }
  }
  return result;
}

size_t HttpUrl::querySize() const {
  if (!data_->hasQuery) {
    return 0;
  }
  size_t size = 1;
  for (const char c : data_->slice(data_->queryBegin, data_->queryEnd)) {
    size += c == '&';
  }
  return size;
}

std::optional<std::string> HttpUrl::queryParameter(std::string_view name) const {
  for (auto& [parameterName, value] : decodedQuery(encodedQuery())) {
    if (parameterName == name) {
      return std::move(value);
    }
  }
  return std::nullopt;
}

std::vector<std::string> HttpUrl::queryParameterNames() const {
  std::vector<std::string> names;
  std::unordered_set<std::string> seen;
  for (auto& [name, value] : decodedQuery(encodedQuery())) {
    if (seen.insert(name).second) {
      names.push_back(std::move(name));
    }
  }
  return names;
}

std::vector<std::optional<std::string>> HttpUrl::queryParameterValues(std::string_view name) const {
  std::vector<std::optional<std::string>> values;
  for (auto& [parameterName, value] : decodedQuery(encodedQuery())) {
    if (parameterName == name) {
      values.push_back(std::move(value));
    }
  }
  return values;
}

std::string HttpUrl::queryParameterName(size_t index) const {
  auto parameters = decodedQuery(encodedQuery());
  if (index >= parameters.size()) {
    throw std::out_of_range("query parameter index " + std::to_string(index) +
                            " >= " + std::to_string(parameters.size()) + " in " + data_->url);
  }
  return std::move(parameters[index].first);
}

std::optional<std::string> HttpUrl::queryParameterValue(size_t index) const {
  auto parameters = decodedQuery(encodedQuery());
  if (index >= parameters.size()) {
    throw std::out_of_range("query parameter index " + std::to_string(index) +
                            " >= " + std::to_string(parameters.size()) + " in " + data_->url);
  }
  return std::move(parameters[index].second);
}

std::optional<std::string> HttpUrl::encodedFragment() const {
  if (!data_->hasFragment) {
    return std::nullopt;
  }
  return data_->url.substr(data_->fragmentBegin);
}

std::optional<std::string> HttpUrl::fragment() const {
  if (!data_->hasFragment) {
    return std::nullopt;
  }
  return percentDecode(std::string_view(data_->url).substr(data_->fragmentBegin));
}

const std::string& HttpUrl::toString() const noexcept { return data_->url; }

std::string HttpUrl::redact() const {
  internal::UrlRecord record = internal::HttpUrlAccess::toRecord(*this);
  record.username.clear();
  record.password.clear();
  record.path = {"..."};
  record.query.reset();
  record.fragment.reset();
  return internal::HttpUrlAccess::fromRecord(record).toString();
}

std::optional<std::string> HttpUrl::topPrivateDomain() const {
  if (internal::isIpAddressHost(data_->host)) {
    return std::nullopt;
  }
  return internal::registrableDomain(data_->host);
}

std::optional<HttpUrl> HttpUrl::resolve(std::string_view link) const {
  const internal::UrlRecord base = internal::HttpUrlAccess::toRecord(*this);
  internal::UrlParseResult result = internal::parseUrl(link, &base);
  if (!result.url) {
    return std::nullopt;
  }
  return internal::HttpUrlAccess::fromRecord(*result.url);
}

std::optional<HttpUrl::Builder> HttpUrl::newBuilder(std::string_view link) const {
  std::optional<HttpUrl> resolved = resolve(link);
  if (!resolved) {
    return std::nullopt;
  }
  return resolved->newBuilder();
}

bool HttpUrl::operator==(const HttpUrl& other) const noexcept {
  return data_ == other.data_ || data_->url == other.data_->url;
}

std::ostream& operator<<(std::ostream& out, const HttpUrl& url) { return out << url.toString(); }

}  // namespace tern
