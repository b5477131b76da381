// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/request.h"

#include <stdexcept>
#include <utility>

#include "http/http_method.h"
#include "http/http_syntax.h"

namespace tern {

Request::Request(const Builder& builder)
    : url_(*builder.url_),
      method_(builder.method_),
      headers_(builder.headers_.build()),
      body_(builder.body_),
      tags_(builder.tags_),
      cacheUrlOverride_(builder.cacheUrlOverride_) {}

Request::Request(Builder&& builder)
    : url_(std::move(*builder.url_)),
      method_(std::move(builder.method_)),
      headers_(std::move(builder.headers_).build()),
      body_(std::move(builder.body_)),
      tags_(std::move(builder.tags_)),
      cacheUrlOverride_(std::move(builder.cacheUrlOverride_)) {}

Request::Builder Request::newBuilder() const {
  Builder builder;
  builder.url_ = url_;
  builder.method_ = method_;
  builder.headers_ = headers_.newBuilder();
  builder.body_ = body_;
  builder.tags_ = tags_;
  builder.cacheUrlOverride_ = cacheUrlOverride_;
  return builder;
}

std::string Request::toString() const {
  std::string out = "Request{method=" + method_ + ", url=" + url_.toString();
  if (!headers_.empty()) {
    out += ", headers=[";
    std::string listed = headers_.toString();  // "Name: value\n" lines, sensitive ones redacted.
    for (size_t start = 0, i = 0; start < listed.size(); start = listed.find('\n', start) + 1) {
      size_t end = listed.find('\n', start);
      if (i++ > 0) out += ", ";
      out += listed.substr(start, end - start);
      if (end == std::string::npos) break;
    }
    out += "]";
  }
  if (!tags_.empty()) out += ", tags=" + std::to_string(tags_.size());
  out += "}";
  return out;
}

Request::Builder& Request::Builder::url(HttpUrl url) {
  url_ = std::move(url);
  return *this;
}

Request::Builder& Request::Builder::url(std::string_view url) {
  // WebSocket URLs name the same origin as their HTTP forms (RFC 6455 §3).
  std::string mapped(url);
  if (internal::startsWithIgnoreCase(url, "ws:")) {
    mapped = "http:" + std::string(url.substr(3));
  } else if (internal::startsWithIgnoreCase(url, "wss:")) {
    mapped = "https:" + std::string(url.substr(4));
  }
  url_ = HttpUrl::get(mapped);
  return *this;
}

Request::Builder& Request::Builder::header(std::string_view name, std::string_view value) {
  headers_.set(name, value);
  return *this;
}

Request::Builder& Request::Builder::addHeader(std::string_view name, std::string_view value) {
  headers_.add(name, value);
  return *this;
}

Request::Builder& Request::Builder::removeHeader(std::string_view name) {
  headers_.removeAll(name);
  return *this;
}

Request::Builder& Request::Builder::headers(const Headers& headers) {
  headers_ = headers.newBuilder();
  return *this;
}

Request::Builder& Request::Builder::cacheControl(const CacheControl& cacheControl) {
  const std::string& value = cacheControl.toString();
  if (value.empty()) return removeHeader("Cache-Control");
  return header("Cache-Control", value);
}

Request::Builder& Request::Builder::get() { return method("GET", nullptr); }

Request::Builder& Request::Builder::head() { return method("HEAD", nullptr); }

Request::Builder& Request::Builder::post(std::shared_ptr<RequestBody> body) {
  return method("POST", std::move(body));
}

Request::Builder& Request::Builder::delete_(std::shared_ptr<RequestBody> body) {
  return method("DELETE", std::move(body));
}

Request::Builder& Request::Builder::put(std::shared_ptr<RequestBody> body) {
  return method("PUT", std::move(body));
}

Request::Builder& Request::Builder::patch(std::shared_ptr<RequestBody> body) {
  return method("PATCH", std::move(body));
}

Request::Builder& Request::Builder::method(std::string_view method,
                                           std::shared_ptr<RequestBody> body) {
  if (method.empty()) throw std::invalid_argument("method is empty");
  if (!internal::isToken(method)) {
    throw std::invalid_argument("method \"" + std::string(method) + "\" is not a token");
  }
  if (!body && internal::requiresRequestBody(method)) {
    throw std::invalid_argument("method " + std::string(method) + " must have a request body.");
  }
  if (body && !internal::permitsRequestBody(method)) {
    throw std::invalid_argument("method " + std::string(method) + " must not have a request body.");
  }
  method_ = method;
  body_ = std::move(body);
  return *this;
}

Request::Builder& Request::Builder::cacheUrlOverride(std::optional<HttpUrl> url) {
  cacheUrlOverride_ = std::move(url);
  return *this;
}

Request Request::Builder::build() const& {
  if (!url_) throw std::logic_error("Request::Builder::build: url is not set");
  return Request(*this);
}

Request Request::Builder::build() && {
  if (!url_) throw std::logic_error("Request::Builder::build: url is not set");
  return Request(std::move(*this));
}

}  // namespace tern
