// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <typeindex>
#include <utility>
#include <vector>

#include "tern/cache_control.h"
#include "tern/export.h"
#include "tern/headers.h"
#include "tern/http_url.h"
#include "tern/request_body.h"

namespace tern {

// An HTTP request: a URL, a method, headers, an optional body and tags, as OkHttp's Request.
// Immutable and cheap to copy (copies share the body). Build one with Request::Builder.
class TERN_API Request final {
 public:
  class Builder;

  const HttpUrl& url() const noexcept { return url_; }
  const std::string& method() const noexcept { return method_; }
  const Headers& headers() const noexcept { return headers_; }
  // The last value of header `name`, or nullopt.
  std::optional<std::string> header(std::string_view name) const { return headers_.get(name); }
  // Every value of header `name`, in order.
  std::vector<std::string> headers(std::string_view name) const { return headers_.values(name); }
  // The body, or null for none.
  const std::shared_ptr<RequestBody>& body() const noexcept { return body_; }
  bool isHttps() const noexcept { return url_.isHttps(); }

  // The request's cache directives, parsed from its Cache-Control (and Pragma) headers.
  CacheControl cacheControl() const { return CacheControl::parse(headers_); }

  // The URL the response cache files this request under instead of url(), or nullopt (see
  // Builder::cacheUrlOverride).
  const std::optional<HttpUrl>& cacheUrlOverride() const noexcept { return cacheUrlOverride_; }

  // The tag of type T attached with Builder::tag<T>(), or null. Tags carry the caller's data
  // (a trace id, an account) to interceptors and event listeners; tern never reads them.
  template <typename T>
  const T* tag() const {
    auto it = tags_.find(std::type_index(typeid(T)));
    return it == tags_.end() ? nullptr : static_cast<const T*>(it->second.get());
  }

  // The tag of `type`, or null: tag<T>() for code that has only the type's index (Call's tags).
  std::shared_ptr<const void> tagFor(std::type_index type) const {
    auto it = tags_.find(type);
    return it == tags_.end() ? nullptr : it->second;
  }

  // A builder that starts from this request.
  Builder newBuilder() const;

  // "Request{method=GET, url=https://example.com/}", plus headers (sensitive values redacted)
  // and tags' count when there are any.
  std::string toString() const;

 private:
  using Tags = std::map<std::type_index, std::shared_ptr<const void>>;
  explicit Request(const Builder& builder);
  explicit Request(Builder&& builder);

  HttpUrl url_;
  std::string method_;
  Headers headers_;
  std::shared_ptr<RequestBody> body_;
  Tags tags_;
  std::optional<HttpUrl> cacheUrlOverride_;
};

// Builds a Request. Starts as a GET with no URL; build() throws std::logic_error until url() is
// set.
class TERN_API Request::Builder {
 public:
  Builder() = default;

  Builder& url(HttpUrl url);
  // Parses `url`, turning "ws:" and "wss:" (any case) into "http:" and "https:" as OkHttp does, so
  // a WebSocket URL can be used as is. Throws std::invalid_argument naming the URL if it is not a
  // valid http, https, ws or wss URL.
  Builder& url(std::string_view url);

  // Sets header `name` to `value`, replacing any values it had. Throws std::invalid_argument on an
  // invalid name or value (see Headers::Builder).
  Builder& header(std::string_view name, std::string_view value);
  // Adds a value for header `name`, keeping the values it had.
  Builder& addHeader(std::string_view name, std::string_view value);
  Builder& removeHeader(std::string_view name);
  // Replaces every header.
  Builder& headers(const Headers& headers);

  // Sets the Cache-Control header to `cacheControl`, or removes it if the directives are empty.
  Builder& cacheControl(const CacheControl& cacheControl);

  // Files the response in the cache (Client::Builder::cache) under `url` instead of the
  // request's URL, as OkHttp 5's cacheUrlOverride: a GET, QUERY or POST with an override is
  // looked up, stored and validated as a GET of `url`, so a POST whose body says what it asks
  // (a GraphQL query, a DNS-over-HTTPS message) can be cached under a URL that encodes it. A POST
  // with an override does not invalidate the cache. Other methods ignore it. nullopt: none.
  Builder& cacheUrlOverride(std::optional<HttpUrl> url);

  Builder& get();
  Builder& head();
  Builder& post(std::shared_ptr<RequestBody> body);
  // DELETE, with an optional body (`delete` is a C++ keyword).
  Builder& delete_(std::shared_ptr<RequestBody> body = nullptr);
  Builder& put(std::shared_ptr<RequestBody> body);
  Builder& patch(std::shared_ptr<RequestBody> body);

  // Sets the method and body. Throws std::invalid_argument if `method` is empty or not a token,
  // if it requires a body and `body` is null (POST, PUT, PATCH, PROPPATCH, REPORT), or if it is
  // GET or HEAD and `body` is not null.
  Builder& method(std::string_view method, std::shared_ptr<RequestBody> body);

  // Attaches `value` as the tag of type T, replacing any earlier tag of that type.
  template <typename T>
  Builder& tag(T value) {
    tags_[std::type_index(typeid(T))] = std::make_shared<const T>(std::move(value));
    return *this;
  }
  // Removes the tag of type T.
  template <typename T>
  Builder& removeTag() {
    tags_.erase(std::type_index(typeid(T)));
    return *this;
  }

  // Throws std::logic_error if no URL was set. The rvalue form moves the fields out.
  Request build() const&;
  Request build() &&;

 private:
  friend class Request;
  std::optional<HttpUrl> url_;
  std::string method_ = "GET";
  Headers::Builder headers_;
  std::shared_ptr<RequestBody> body_;
  Tags tags_;
  std::optional<HttpUrl> cacheUrlOverride_;
};

}  // namespace tern
