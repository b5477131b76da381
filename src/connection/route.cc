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
    : Route(std::move(address), Proxy::direct(), std::move(socketAddress)) {}

Route::Route(Address address, Proxy proxy, InetSocketAddress socketAddress)
    : address_(std::move(address)),
      proxy_(std::move(proxy)),
      socketAddress_(std::move(socketAddress)) {}

bool Route::requiresTunnel() const noexcept {
  if (proxy_.type() != Proxy::Type::HTTP && proxy_.type() != Proxy::Type::HTTPS) return false;
  if (address_.sslContext()) return true;
  // A connect-to rule sends the connection elsewhere than the URL says: only a tunnel reaches
  // there (curl tunnels then too; an absolute-form request would name the URL's origin).
  if (address_.connectTarget() !=
      std::pair<std::string, int>(address_.url().host(), address_.url().port())) {
    return true;
  }
  const std::vector<Protocol>& protocols = address_.protocols();
  return protocols.size() == 1 && protocols[0] == Protocol::H2_PRIOR_KNOWLEDGE;
}

bool Route::operator==(const Route& other) const noexcept {
  return address_ == other.address_ && proxy_ == other.proxy_ &&
         socketAddress_ == other.socketAddress_;
}

std::string Route::toString() const {
  const std::string& addressHost = address_.url().host();
  std::string socketHost = socketAddress_.address().hostAddress();
  std::string result =
      "Route{" + bracketed(addressHost) + ":" + std::to_string(address_.url().port());
  if (!proxy_.isDirect()) result += " via " + proxy_.toString();
  if (socketAddress_.isUnixDomain()) {
    result += " at " + socketAddress_.toString();
  } else if (addressHost != socketHost || !proxy_.isDirect()) {
    result += " at " + bracketed(socketHost) + ":" + std::to_string(socketAddress_.port());
  }
  return result + "}";
}

}  // namespace tern
