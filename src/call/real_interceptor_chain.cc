// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "call/real_interceptor_chain.h"

#include <climits>
#include <stdexcept>
#include <string>
#include <utility>

#include "call/client_access.h"
#include "call/real_call.h"
#include "connection/exchange.h"
#include "connection/exchange_finder.h"
#include "connection/real_connection.h"

namespace tern::internal {
namespace {

// Names the interceptor at `index` (its position in the whole chain) in contract-violation
// messages.
std::string describe(size_t index) { return "network interceptor #" + std::to_string(index); }

}  // namespace

std::chrono::milliseconds checkDuration(const char* name, std::chrono::nanoseconds duration) {
  using std::chrono::milliseconds;
  if (duration < std::chrono::nanoseconds(0))
    throw std::invalid_argument(std::string(name) + " < 0");
  auto millis = std::chrono::duration_cast<milliseconds>(duration);
  if (millis > milliseconds(INT_MAX)) throw std::invalid_argument(std::string(name) + " too large");
  if (millis == milliseconds(0) && duration > std::chrono::nanoseconds(0)) {
    throw std::invalid_argument(std::string(name) + " too small");
  }
  return millis;
}

RealInterceptorChain::RealInterceptorChain(RealCall& call, Client client, size_t index,
                                           std::shared_ptr<Exchange> exchange, Request request,
                                           std::chrono::milliseconds connectTimeout,
                                           std::chrono::milliseconds readTimeout,
                                           std::chrono::milliseconds writeTimeout)
    : call_(call),
      client_(std::move(client)),
      interceptors_(&ClientAccess::callInterceptors(client_)),
      index_(index),
      exchange_(std::move(exchange)),
      request_(std::move(request)),
      connectTimeout_(connectTimeout),
      readTimeout_(readTimeout),
      writeTimeout_(writeTimeout) {}

RealInterceptorChain RealInterceptorChain::copy(size_t index, const Request& request) const {
  return RealInterceptorChain(call_, client_, index, exchange_, request, connectTimeout_,
                              readTimeout_, writeTimeout_);
}

RealInterceptorChain RealInterceptorChain::withExchange(std::shared_ptr<Exchange> exchange) const {
  RealInterceptorChain result = copy(index_, request_);
  result.exchange_ = std::move(exchange);
  return result;
}

Response RealInterceptorChain::proceed(const Request& request) {
  if (index_ >= interceptors_->size()) {
    throw std::logic_error("Interceptor::Chain::proceed() called past the end of the chain");
  }
  ++calls_;
  if (exchange_) {
    if (!exchange_->finder()->sameHostAndPort(request.url())) {
      throw std::logic_error(describe(index_ - 1) + " must retain the same host and port");
    }
    if (calls_ > 1) {
      throw std::logic_error(describe(index_ - 1) + " must call proceed() exactly once");
    }
  }

  RealInterceptorChain next = copy(index_ + 1, request);
  Response response = (*interceptors_)[index_]->intercept(next);

  if (exchange_ && index_ + 1 < interceptors_->size() && next.calls_ != 1) {
    throw std::logic_error(describe(index_) + " must call proceed() exactly once");
  }
  // Callers read response.body() without checking: every response in the chain has one.
  if (!response.body()) {
    throw std::logic_error("interceptor #" + std::to_string(index_) +
                           " returned a response with no body");
  }
  return response;
}

Connection* RealInterceptorChain::connection() const {
  return exchange_ ? &exchange_->connection() : nullptr;
}

Call& RealInterceptorChain::call() const { return call_; }

std::unique_ptr<Interceptor::Chain> RealInterceptorChain::withConnectTimeout(
    std::chrono::nanoseconds timeout) {
  if (exchange_) throw std::logic_error("Timeouts can't be adjusted in a network interceptor");
  auto result = std::make_unique<RealInterceptorChain>(copy(index_, request_));
  result->connectTimeout_ = checkDuration("connectTimeout", timeout);
  return result;
}

std::unique_ptr<Interceptor::Chain> RealInterceptorChain::withClient(
    const std::function<Client(const Client&)>& derive, const char* what) {
  if (exchange_) {
    throw std::logic_error(std::string(what) + " can't be overridden in a network interceptor");
  }
  // The derived client has the same application interceptors (newBuilder() keeps them), so this
  // position means the same link in its list.
  auto result =
      std::make_unique<RealInterceptorChain>(call_, derive(client_), index_, nullptr, request_,
                                             connectTimeout_, readTimeout_, writeTimeout_);
  return result;
}

std::unique_ptr<Interceptor::Chain> RealInterceptorChain::withReadTimeout(
    std::chrono::nanoseconds timeout) {
  if (exchange_) throw std::logic_error("Timeouts can't be adjusted in a network interceptor");
  auto result = std::make_unique<RealInterceptorChain>(copy(index_, request_));
  result->readTimeout_ = checkDuration("readTimeout", timeout);
  return result;
}

std::unique_ptr<Interceptor::Chain> RealInterceptorChain::withWriteTimeout(
    std::chrono::nanoseconds timeout) {
  if (exchange_) throw std::logic_error("Timeouts can't be adjusted in a network interceptor");
  auto result = std::make_unique<RealInterceptorChain>(copy(index_, request_));
  result->writeTimeout_ = checkDuration("writeTimeout", timeout);
  return result;
}

}  // namespace tern::internal
