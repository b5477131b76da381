// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "tern/client.h"
#include "tern/interceptor.h"

namespace tern::internal {

class Exchange;
class RealCall;

// The concrete interceptor chain, as OkHttp's RealInterceptorChain: a position in the list of
// interceptors plus what the rest of the chain needs (the call, the exchange once connected, the
// timeouts). proceed() makes the next link and runs the interceptor at this position.
//
// It enforces the network interceptors' contract: each must call proceed() exactly once and keep
// the URL's host and port, since the connection is already chosen (std::logic_error otherwise).
// Owned by the caller on the stack; not thread-safe.
class RealInterceptorChain final : public Interceptor::Chain {
 public:
  // The chain of `client`'s interceptors (the call's client, or one a with*() override made of
  // it) from `index` on.
  RealInterceptorChain(RealCall& call, Client client, size_t index,
                       std::shared_ptr<Exchange> exchange, Request request,
                       std::chrono::milliseconds connectTimeout,
                       std::chrono::milliseconds readTimeout,
                       std::chrono::milliseconds writeTimeout);

  const Request& request() const override { return request_; }
  Response proceed(const Request& request) override;
  Connection* connection() const override;
  Call& call() const override;
  int connectTimeoutMillis() const override { return static_cast<int>(connectTimeout_.count()); }
  int readTimeoutMillis() const override { return static_cast<int>(readTimeout_.count()); }
  int writeTimeoutMillis() const override { return static_cast<int>(writeTimeout_.count()); }
  std::unique_ptr<Interceptor::Chain> withConnectTimeout(std::chrono::nanoseconds timeout) override;
  std::unique_ptr<Interceptor::Chain> withReadTimeout(std::chrono::nanoseconds timeout) override;
  std::unique_ptr<Interceptor::Chain> withWriteTimeout(std::chrono::nanoseconds timeout) override;
  const Client& client() const override { return client_; }

  RealCall& realCall() const noexcept { return call_; }
  // The exchange, once ConnectInterceptor opened it; null before.
  const std::shared_ptr<Exchange>& exchange() const noexcept { return exchange_; }
  std::chrono::milliseconds connectTimeout() const noexcept { return connectTimeout_; }
  std::chrono::milliseconds readTimeout() const noexcept { return readTimeout_; }
  std::chrono::milliseconds writeTimeout() const noexcept { return writeTimeout_; }

  // A copy of this chain at the same position with `exchange` (ConnectInterceptor's).
  RealInterceptorChain withExchange(std::shared_ptr<Exchange> exchange) const;

 protected:
  std::unique_ptr<Interceptor::Chain> withClient(const std::function<Client(const Client&)>& derive,
                                                 const char* what) override;

 private:
  RealInterceptorChain copy(size_t index, const Request& request) const;

  RealCall& call_;
  Client client_;  // Holds the interceptor list below.
  const std::vector<std::shared_ptr<Interceptor>>* interceptors_;
  size_t index_;
  std::shared_ptr<Exchange> exchange_;
  Request request_;
  std::chrono::milliseconds connectTimeout_;
  std::chrono::milliseconds readTimeout_;
  std::chrono::milliseconds writeTimeout_;
  int calls_ = 0;  // proceed() calls on this chain.
};

// Checks a timeout given to a builder or a chain: zero, or at least 1 ms. Throws
// std::invalid_argument("<name> < 0", "<name> too small", "<name> too large").
std::chrono::milliseconds checkDuration(const char* name, std::chrono::nanoseconds duration);

}  // namespace tern::internal
