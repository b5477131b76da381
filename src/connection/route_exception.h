// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <exception>
#include <stdexcept>

namespace tern::internal {

// A failure to connect on a route, as OkHttp's RouteException: thrown by ExchangeFinder so that
// RetryAndFollowUpInterceptor can tell "no request was sent" apart from failures mid-exchange,
// and retry on another route. Never leaves the call: the interceptor rethrows the IOException
// inside (`lastConnectException`) when it gives up. Not an IOException, so that interceptors
// between Connect and RetryAndFollowUp (there are none) could not mistake it for one.
class RouteException : public std::runtime_error {
 public:
  explicit RouteException(std::exception_ptr lastConnectException)
      : std::runtime_error("route failed"), lastConnectException_(lastConnectException) {}

  // The IOException that failed the connection.
  std::exception_ptr lastConnectException() const noexcept { return lastConnectException_; }

 private:
  std::exception_ptr lastConnectException_;
};

}  // namespace tern::internal
