// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/proxy.h"

#include <charconv>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "io/ascii.h"
#include "url/percent_encoding.h"

namespace tern {
namespace {

std::string bracketed(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

[[noreturn]] void badSpec(std::string_view spec, const std::string& why) {
  throw std::invalid_argument("Invalid proxy \"" + std::string(spec) + "\": " + why);
}

}  // namespace

Proxy Proxy::socks5h(std::string host, int port) {
  Proxy proxy(Type::SOCKS, std::move(host), port);
  proxy.remoteDns_ = true;
  return proxy;
}

Proxy::Proxy(Type type, std::string host, int port)
    : type_(type), host_(std::move(host)), port_(port) {
  if (type == Type::DIRECT) throw std::invalid_argument("Proxy: use Proxy::direct() for DIRECT");
  if (host_.size() >= 2 && host_.front() == '[' && host_.back() == ']') {
    host_ = host_.substr(1, host_.size() - 2);
  }
  if (host_.empty()) throw std::invalid_argument("Proxy: empty host");
  if (port < 1 || port > 65535) {
    throw std::invalid_argument("Proxy: port out of range: " + std::to_string(port));
  }
}

Proxy Proxy::parse(std::string_view spec) {
  std::string_view rest = spec;
  std::string scheme = "http";
  if (size_t colon = rest.find("://"); colon != std::string_view::npos) {
    scheme = internal::toLowerAscii(rest.substr(0, colon));
    rest.remove_prefix(colon + 3);
  }
  Type type;
  bool remoteDns = false;
  int port = 1080;
  if (scheme == "http") {
    type = Type::HTTP;
  } else if (scheme == "https") {
    type = Type::HTTPS;
    port = 443;
  } else if (scheme == "socks5" || scheme == "socks") {
    type = Type::SOCKS;
  } else if (scheme == "socks5h") {
    type = Type::SOCKS;
    remoteDns = true;
  } else {
    badSpec(spec, "unsupported scheme " + scheme + " (http, https, socks5 and socks5h are)");
  }
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.find('/') != std::string_view::npos) badSpec(spec, "a proxy has no path");

  std::string username;
  std::string password;
  bool hasCredentials = false;
  if (size_t at = rest.rfind('@'); at != std::string_view::npos) {
    std::string_view userinfo = rest.substr(0, at);
    rest.remove_prefix(at + 1);
    size_t colon = userinfo.find(':');
    username = internal::percentDecode(userinfo.substr(0, colon));
    if (colon != std::string_view::npos) {
      password = internal::percentDecode(userinfo.substr(colon + 1));
    }
    hasCredentials = true;
  }

  std::string host;
  std::string_view portText;
  if (!rest.empty() && rest.front() == '[') {
    size_t close = rest.find(']');
    if (close == std::string_view::npos) badSpec(spec, "unclosed [");
    host = std::string(rest.substr(1, close - 1));
    rest.remove_prefix(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') badSpec(spec, "expected :port after ]");
      portText = rest.substr(1);
    }
  } else {
    size_t colon = rest.rfind(':');
    host = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) portText = rest.substr(colon + 1);
  }
  if (host.empty()) badSpec(spec, "no host");
  if (host.find(':') != std::string::npos && spec.find('[') == std::string_view::npos) {
    badSpec(spec, "an IPv6 address needs brackets");
  }
  if (!portText.empty()) {
    int parsed = 0;
    auto [end, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), parsed);
    if (ec != std::errc() || end != portText.data() + portText.size() || parsed < 1 ||
        parsed > 65535) {
      badSpec(spec, "bad port \"" + std::string(portText) + "\"");
    }
    port = parsed;
  }
  Proxy proxy(type, internal::toLowerAscii(host), port);
  proxy.remoteDns_ = remoteDns;
  if (hasCredentials) proxy = proxy.withCredentials(std::move(username), std::move(password));
  return proxy;
}

Proxy Proxy::withCredentials(std::string username, std::string password) const {
  if (type_ == Type::DIRECT) throw std::invalid_argument("Proxy: DIRECT takes no credentials");
  Proxy copy = *this;
  copy.hasCredentials_ = true;
  copy.username_ = std::move(username);
  copy.password_ = std::move(password);
  return copy;
}

std::string Proxy::toString() const {
  if (type_ == Type::DIRECT) return "DIRECT";
  std::ostringstream out;
  out << type_ << " @ " << bracketed(host_) << ":" << port_;
  return out.str();
}

std::ostream& operator<<(std::ostream& out, Proxy::Type type) {
  switch (type) {
    case Proxy::Type::DIRECT:
      return out << "DIRECT";
    case Proxy::Type::HTTP:
      return out << "HTTP";
    case Proxy::Type::HTTPS:
      return out << "HTTPS";
    case Proxy::Type::SOCKS:
      return out << "SOCKS";
  }
  return out << "UNKNOWN";
}

std::ostream& operator<<(std::ostream& out, const Proxy& proxy) { return out << proxy.toString(); }

}  // namespace tern
