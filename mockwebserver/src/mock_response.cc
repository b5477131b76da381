// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/mockwebserver/mock_response.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string>
#include <utility>

namespace tern::mockwebserver {

struct MockResponse::Data {
  std::string status;
  Headers headers;
  Headers trailers;
  std::shared_ptr<const std::string> body;  // Null when there is no body.
  std::vector<MockResponse> informationalResponses;
  int64_t throttleBytesPerPeriod;
  std::chrono::nanoseconds throttlePeriod;
  std::chrono::nanoseconds headersDelay;
  std::chrono::nanoseconds bodyDelay;
  SocketPolicy socketPolicy;
  Http2Settings settings;
  bool inTunnel = false;
  std::shared_ptr<WebSocketListener> webSocketListener;
};

namespace {

// The status line's code and the rest after it: "HTTP/1.1 200 OK" gives (200, "OK").
std::pair<int, std::string> parseStatus(const std::string& status) {
  const size_t codeStart = status.find(' ');
  if (codeStart == std::string::npos) {
    throw std::invalid_argument("Unexpected status: " + status);
  }
  size_t codeEnd = status.find(' ', codeStart + 1);
  if (codeEnd == std::string::npos) codeEnd = status.size();
  int code = 0;
  const char* first = status.data() + codeStart + 1;
  const char* last = status.data() + codeEnd;
  auto [end, error] = std::from_chars(first, last, code);
  if (first == last || error != std::errc() || end != last) {
    throw std::invalid_argument("Unexpected status: " + status);
  }
  std::string message = codeEnd < status.size() ? status.substr(codeEnd + 1) : std::string();
  return {code, std::move(message)};
}

void requireNonNegative(std::chrono::nanoseconds duration, const char* what) {
  if (duration.count() < 0) {
    throw std::invalid_argument(std::string("MockResponse::Builder::") + what +
                                ": negative duration " + std::to_string(duration.count()) + "ns");
  }
}

}  // namespace

MockResponse::MockResponse() : MockResponse(Builder().build()) {}

MockResponse::MockResponse(int code, const Headers& headers, std::string_view body,
                           SocketPolicy socketPolicy)
    : MockResponse(Builder()
                       .code(code)
                       .headers(headers)
                       .body(body)
                       .socketPolicy(std::move(socketPolicy))
                       .build()) {}

MockResponse::MockResponse(std::shared_ptr<const Data> data) : data_(std::move(data)) {}

const std::string& MockResponse::status() const noexcept { return data_->status; }

int MockResponse::code() const { return parseStatus(data_->status).first; }

std::string MockResponse::message() const { return parseStatus(data_->status).second; }

const Headers& MockResponse::headers() const noexcept { return data_->headers; }

const Headers& MockResponse::trailers() const noexcept { return data_->trailers; }

const Http2Settings& MockResponse::settings() const noexcept { return data_->settings; }

bool MockResponse::hasBody() const noexcept { return data_->body != nullptr; }

Buffer MockResponse::body() const {
  Buffer result;
  if (data_->body) result.writeUtf8(*data_->body);
  return result;
}

int64_t MockResponse::bodySize() const noexcept {
  return data_->body ? static_cast<int64_t>(data_->body->size()) : 0;
}

const std::vector<MockResponse>& MockResponse::informationalResponses() const noexcept {
  return data_->informationalResponses;
}

int64_t MockResponse::throttleBytesPerPeriod() const noexcept {
  return data_->throttleBytesPerPeriod;
}

std::chrono::nanoseconds MockResponse::throttlePeriod() const noexcept {
  return data_->throttlePeriod;
}

std::chrono::nanoseconds MockResponse::headersDelay() const noexcept { return data_->headersDelay; }

std::chrono::nanoseconds MockResponse::bodyDelay() const noexcept { return data_->bodyDelay; }

const SocketPolicy& MockResponse::socketPolicy() const noexcept { return data_->socketPolicy; }

bool MockResponse::inTunnel() const noexcept { return data_->inTunnel; }

const std::shared_ptr<WebSocketListener>& MockResponse::webSocketListener() const noexcept {
  return data_->webSocketListener;
}

MockResponse::Builder MockResponse::newBuilder() const {
  Builder builder;
  builder.status_ = data_->status;
  builder.headers_ = data_->headers.newBuilder();
  builder.trailers_ = data_->trailers.newBuilder();
  builder.body_ = data_->body;
  builder.informationalResponses_ = data_->informationalResponses;
  builder.throttleBytesPerPeriod_ = data_->throttleBytesPerPeriod;
  builder.throttlePeriod_ = data_->throttlePeriod;
  builder.headersDelay_ = data_->headersDelay;
  builder.bodyDelay_ = data_->bodyDelay;
  builder.socketPolicy_ = data_->socketPolicy;
  builder.settings_ = data_->settings;
  builder.inTunnel_ = data_->inTunnel;
  builder.webSocketListener_ = data_->webSocketListener;
  return builder;
}

// Builder -----------------------------------------------------------------------------------------

MockResponse::Builder::Builder() { headers_.add("Content-Length", "0"); }

MockResponse::Builder& MockResponse::Builder::code(int code) {
  if (code < 0) {
    throw std::invalid_argument("MockResponse::Builder::code: negative code " +
                                std::to_string(code));
  }
  const char* reason = "Mock Response";
  if (code >= 100 && code < 200) {
    reason = "Informational";
  } else if (code >= 200 && code < 300) {
    reason = "OK";
  } else if (code >= 300 && code < 400) {
    reason = "Redirection";
  } else if (code >= 400 && code < 500) {
    reason = "Client Error";
  } else if (code >= 500 && code < 600) {
    reason = "Server Error";
  }
  status_ = "HTTP/1.1 " + std::to_string(code) + " " + reason;
  return *this;
}

MockResponse::Builder& MockResponse::Builder::status(std::string status) {
  status_ = std::move(status);
  return *this;
}

MockResponse::Builder& MockResponse::Builder::headers(const Headers& headers) {
  headers_ = headers.newBuilder();
  return *this;
}

MockResponse::Builder& MockResponse::Builder::clearHeaders() {
  headers_ = Headers::Builder();
  return *this;
}

MockResponse::Builder& MockResponse::Builder::addHeader(std::string_view line) {
  headers_.add(line);
  return *this;
}

MockResponse::Builder& MockResponse::Builder::addHeader(std::string_view name,
                                                        std::string_view value) {
  headers_.add(name, value);
  return *this;
}

MockResponse::Builder& MockResponse::Builder::addHeaderLenient(std::string_view name,
                                                               std::string_view value) {
  headers_.addLenient(name, value);
  return *this;
}

MockResponse::Builder& MockResponse::Builder::setHeader(std::string_view name,
                                                        std::string_view value) {
  headers_.set(name, value);
  return *this;
}

MockResponse::Builder& MockResponse::Builder::removeHeader(std::string_view name) {
  headers_.removeAll(name);
  return *this;
}

MockResponse::Builder& MockResponse::Builder::body(std::string_view body) {
  headers_.set("Content-Length", std::to_string(body.size()));
  body_ = std::make_shared<const std::string>(body);
  return *this;
}

MockResponse::Builder& MockResponse::Builder::body(std::span<const std::byte> body) {
  return this->body(std::string_view(reinterpret_cast<const char*>(body.data()), body.size()));
}

MockResponse::Builder& MockResponse::Builder::body(const Buffer& body) {
  Buffer copy = body.copy();
  return this->body(copy.readUtf8());
}

MockResponse::Builder& MockResponse::Builder::chunkedBody(std::string_view body,
                                                          int64_t maxChunkSize) {
  if (maxChunkSize < 1) {
    throw std::invalid_argument("MockResponse::Builder::chunkedBody: maxChunkSize " +
                                std::to_string(maxChunkSize) + " < 1");
  }
  headers_.removeAll("Content-Length");
  headers_.add("Transfer-encoding", "chunked");

  // RFC 9112 §7.1: chunk = chunk-size CRLF chunk-data CRLF, then last-chunk "0" CRLF. The
  // trailer section and its final CRLF are written by the server after the body.
  Buffer out;
  size_t offset = 0;
  while (offset < body.size()) {
    const size_t chunkSize = std::min(body.size() - offset, static_cast<size_t>(maxChunkSize));
    out.writeHexadecimalUnsignedLong(chunkSize);
    out.writeUtf8("\r\n");
    out.writeUtf8(body.substr(offset, chunkSize));
    out.writeUtf8("\r\n");
    offset += chunkSize;
  }
  out.writeUtf8("0\r\n");
  body_ = std::make_shared<const std::string>(out.readUtf8());
  return *this;
}

MockResponse::Builder& MockResponse::Builder::chunkedBody(const Buffer& body,
                                                          int64_t maxChunkSize) {
  Buffer copy = body.copy();
  return chunkedBody(copy.readUtf8(), maxChunkSize);
}

MockResponse::Builder& MockResponse::Builder::trailers(const Headers& trailers) {
  trailers_ = trailers.newBuilder();
  return *this;
}

MockResponse::Builder& MockResponse::Builder::settings(Http2Settings settings) {
  settings_ = settings;
  return *this;
}

MockResponse::Builder& MockResponse::Builder::inTunnel() {
  inTunnel_ = true;
  return *this;
}

MockResponse::Builder& MockResponse::Builder::webSocketUpgrade(
    std::shared_ptr<WebSocketListener> listener) {
  if (!listener) throw std::invalid_argument("listener == null");
  status_ = "HTTP/1.1 101 Switching Protocols";
  webSocketListener_ = std::move(listener);
  return *this;
}

MockResponse::Builder& MockResponse::Builder::socketPolicy(SocketPolicy socketPolicy) {
  socketPolicy_ = std::move(socketPolicy);
  return *this;
}

MockResponse::Builder& MockResponse::Builder::throttleBody(int64_t bytesPerPeriod,
                                                           std::chrono::nanoseconds period) {
  if (bytesPerPeriod < 1) {
    throw std::invalid_argument("MockResponse::Builder::throttleBody: bytesPerPeriod " +
                                std::to_string(bytesPerPeriod) + " < 1");
  }
  requireNonNegative(period, "throttleBody");
  throttleBytesPerPeriod_ = bytesPerPeriod;
  throttlePeriod_ = period;
  return *this;
}

MockResponse::Builder& MockResponse::Builder::headersDelay(std::chrono::nanoseconds delay) {
  requireNonNegative(delay, "headersDelay");
  headersDelay_ = delay;
  return *this;
}

MockResponse::Builder& MockResponse::Builder::bodyDelay(std::chrono::nanoseconds delay) {
  requireNonNegative(delay, "bodyDelay");
  bodyDelay_ = delay;
  return *this;
}

MockResponse::Builder& MockResponse::Builder::addInformationalResponse(MockResponse response) {
  informationalResponses_.push_back(std::move(response));
  return *this;
}

MockResponse::Builder& MockResponse::Builder::add100Continue() {
  return addInformationalResponse(Builder().code(100).status("HTTP/1.1 100 Continue").build());
}

MockResponse MockResponse::Builder::build() const& { return Builder(*this).build(); }

MockResponse MockResponse::Builder::build() && {
  auto data = std::make_shared<Data>();
  data->status = std::move(status_);
  data->headers = std::move(headers_).build();
  data->trailers = std::move(trailers_).build();
  data->body = std::move(body_);
  data->informationalResponses = std::move(informationalResponses_);
  data->throttleBytesPerPeriod = throttleBytesPerPeriod_;
  data->throttlePeriod = throttlePeriod_;
  data->headersDelay = headersDelay_;
  data->bodyDelay = bodyDelay_;
  data->socketPolicy = std::move(socketPolicy_);
  data->settings = settings_;
  data->inTunnel = inTunnel_;
  data->webSocketListener = std::move(webSocketListener_);
  return MockResponse(std::move(data));
}

}  // namespace tern::mockwebserver
