// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/route.h"

#include <utility>

namespace tern {
namespace {

std::string bracketed(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

}  // namespace

Route::Route(Address address, InetSocketAddress socketAddress)
    : address_(std::move(address)), socketAddress_(std::move(socketAddress)) {}

bool Route::operator==(const Route& other) const noexcept {
  return address_ == other.address_ && socketAddress_ == other.socketAddress_;
}

std::string Route::toString() const {
  const std::string& addressHost = address_.url().host();
  std::string socketHost = socketAddress_.address().hostAddress();
  std::string result = "Route{" + bracketed(addressHost);
  if (address_.url().port() != socketAddress_.port() || addressHost != socketHost) {
    result += ":" + std::to_string(address_.url().port());
  }
  if (addressHost != socketHost) {
    result += " at " + bracketed(socketHost) + ":" + std::to_string(socketAddress_.port());
  }
  return result + "}";
}

}  // namespace tern
