// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/response.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "tern/buffer.h"

namespace tern {
namespace {

// Stores a supporting response (network, cache or prior), which must not hold a body: only the
// final response streams one.
std::shared_ptr<const Response> supporting(std::optional<Response> response, const char* name) {
  if (!response) return nullptr;
  if (response->body() != nullptr) {
    throw std::invalid_argument(std::string(name) + ".body != null");
  }
  return std::make_shared<const Response>(std::move(*response));
}

}  // namespace

Response::Response(Builder& builder)
    : request_(*builder.request_),
      protocol_(*builder.protocol_),
      code_(builder.code_),
      message_(*builder.message_),
      handshake_(builder.handshake_),
      headers_(builder.headers_.build()),
      body_(std::move(builder.body_)),
      networkResponse_(std::move(builder.networkResponse_)),
      cacheResponse_(std::move(builder.cacheResponse_)),
      priorResponse_(std::move(builder.priorResponse_)),
      sentRequestAtMillis_(builder.sentRequestAtMillis_),
      receivedResponseAtMillis_(builder.receivedResponseAtMillis_),
      trailersSource_(std::move(builder.trailersSource_)),
      socket_(std::move(builder.socket_)) {}

Headers Response::trailers() const { return trailersSource_ ? trailersSource_() : Headers(); }

bool Response::isRedirect() const noexcept {
  switch (code_) {
    case 300:
    case 301:
    case 302:
    case 303:
    case 307:
    case 308:
      return true;
    default:
      return false;
  }
}

std::string Response::header(std::string_view name, std::string_view defaultValue) const {
  std::optional<std::string> value = headers_.get(name);
  return value ? *value : std::string(defaultValue);
}

ResponseBody Response::peekBody(int64_t byteCount) {
  if (!body_) throw std::logic_error("peekBody: the response has no body");
  if (byteCount < 0)
    throw std::invalid_argument("peekBody: byteCount < 0: " + std::to_string(byteCount));
  std::unique_ptr<BufferedSource> peeked = body_->source().peek();
  peeked->request(byteCount);
  int64_t available = std::min(byteCount, peeked->buffer().size());
  return ResponseBody::create(peeked->readByteArray(available), body_->contentType());
}

std::vector<Challenge> Response::challenges() const {
  if (code_ == 401) return parseChallenges(headers_, "WWW-Authenticate");
  if (code_ == 407) return parseChallenges(headers_, "Proxy-Authenticate");
  return {};
}

Response::Builder Response::newBuilder() && {
  Builder builder;
  builder.request_ = request_;
  builder.protocol_ = protocol_;
  builder.code_ = code_;
  builder.message_ = message_;
  builder.handshake_ = handshake_;
  builder.headers_ = headers_.newBuilder();
  builder.body_ = std::move(body_);
  builder.networkResponse_ = networkResponse_;
  builder.cacheResponse_ = cacheResponse_;
  builder.priorResponse_ = priorResponse_;
  builder.sentRequestAtMillis_ = sentRequestAtMillis_;
  builder.receivedResponseAtMillis_ = receivedResponseAtMillis_;
  builder.trailersSource_ = std::move(trailersSource_);
  builder.socket_ = std::move(socket_);
  return builder;
}

std::string Response::toString() const {
  return "Response{protocol=" + std::string(tern::toString(protocol_)) +
         ", code=" + std::to_string(code_) + ", message=" + message_ +
         ", url=" + request_.url().toString() + "}";
}

Response::Builder& Response::Builder::request(Request request) {
  request_ = std::move(request);
  return *this;
}

Response::Builder& Response::Builder::handshake(std::optional<Handshake> handshake) {
  handshake_ = std::move(handshake);
  return *this;
}

Response::Builder& Response::Builder::protocol(Protocol protocol) {
  protocol_ = protocol;
  return *this;
}

Response::Builder& Response::Builder::code(int code) {
  code_ = code;
  return *this;
}

Response::Builder& Response::Builder::message(std::string message) {
  message_ = std::move(message);
  return *this;
}

Response::Builder& Response::Builder::header(std::string_view name, std::string_view value) {
  headers_.set(name, value);
  return *this;
}

Response::Builder& Response::Builder::addHeader(std::string_view name, std::string_view value) {
  headers_.add(name, value);
  return *this;
}

Response::Builder& Response::Builder::removeHeader(std::string_view name) {
  headers_.removeAll(name);
  return *this;
}

Response::Builder& Response::Builder::headers(const Headers& headers) {
  headers_ = headers.newBuilder();
  return *this;
}

Response::Builder& Response::Builder::body(std::optional<ResponseBody> body) {
  body_ = body ? std::make_unique<ResponseBody>(std::move(*body)) : nullptr;
  return *this;
}

Response::Builder& Response::Builder::networkResponse(std::optional<Response> response) {
  networkResponse_ = supporting(std::move(response), "networkResponse");
  return *this;
}

Response::Builder& Response::Builder::cacheResponse(std::optional<Response> response) {
  cacheResponse_ = supporting(std::move(response), "cacheResponse");
  return *this;
}

Response::Builder& Response::Builder::priorResponse(std::optional<Response> response) {
  priorResponse_ = supporting(std::move(response), "priorResponse");
  return *this;
}

Response::Builder& Response::Builder::sentRequestAtMillis(int64_t millis) {
  sentRequestAtMillis_ = millis;
  return *this;
}

Response::Builder& Response::Builder::receivedResponseAtMillis(int64_t millis) {
  receivedResponseAtMillis_ = millis;
  return *this;
}

Response::Builder& Response::Builder::trailers(std::function<Headers()> trailersSource) {
  trailersSource_ = std::move(trailersSource);
  return *this;
}

Response::Builder& Response::Builder::socket(std::shared_ptr<UpgradedSocket> socket) {
  socket_ = std::move(socket);
  return *this;
}

Response Response::Builder::build() {
  if (code_ < 0) throw std::logic_error("code < 0: " + std::to_string(code_));
  if (!request_) throw std::logic_error("request == null");
  if (!protocol_) throw std::logic_error("protocol == null");
  if (!message_) throw std::logic_error("message == null");
  return Response(*this);
}

}  // namespace tern
