// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/dns.h"

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "net/error_message.h"
#include "tern/exceptions.h"

namespace tern {
namespace {

struct AddrinfoDeleter {
  void operator()(addrinfo* list) const noexcept { freeaddrinfo(list); }
};

[[noreturn]] void throwUnknownHost(const std::string& hostname, const std::string& reason) {
  throw UnknownHostException("Unable to resolve host \"" + hostname + "\": " + reason);
}

// Java's InetAddress.getAllByName over getaddrinfo, as OkHttp's Dns.SYSTEM uses it.
class SystemDns final : public Dns {
 public:
  std::vector<InetAddress> lookup(const std::string& hostname) override {
    if (std::optional<InetAddress> literal = InetAddress::parse(hostname)) {
      return {*literal};
    }
    if (hostname.empty()) {
      throwUnknownHost(hostname, "empty host name");
    }
    // getaddrinfo() would read only up to the first NUL and answer for a different name.
    if (hostname.find('\0') != std::string::npos) {
      throwUnknownHost(hostname, "NUL in host name");
    }

    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* raw = nullptr;
    const int status = getaddrinfo(hostname.c_str(), nullptr, &hints, &raw);
    std::unique_ptr<addrinfo, AddrinfoDeleter> list(raw);
    if (status != 0) {
      // EAI_SYSTEM puts the reason in errno; gai_strerror would only say "System error".
      const int error = errno;
      throwUnknownHost(hostname, status == EAI_SYSTEM ? internal::errorMessage(error)
                                                      : std::string(gai_strerror(status)));
    }

    std::vector<InetAddress> result;
    for (const addrinfo* entry = list.get(); entry != nullptr; entry = entry->ai_next) {
      std::optional<InetAddress> address;
      if (entry->ai_family == AF_INET && entry->ai_addrlen >= sizeof(sockaddr_in)) {
        const auto* in = reinterpret_cast<const sockaddr_in*>(entry->ai_addr);
        address = InetAddress::fromBytes(
            std::span(reinterpret_cast<const uint8_t*>(&in->sin_addr), 4), hostname);
      } else if (entry->ai_family == AF_INET6 && entry->ai_addrlen >= sizeof(sockaddr_in6)) {
        const auto* in6 = reinterpret_cast<const sockaddr_in6*>(entry->ai_addr);
        address = InetAddress::fromBytes(
            std::span(reinterpret_cast<const uint8_t*>(&in6->sin6_addr), 16), hostname);
      }
      // The resolver's order is RFC 6724's preference; keep it, dropping repeats (one per
      // protocol on some systems).
      if (address && std::find(result.begin(), result.end(), *address) == result.end()) {
        result.push_back(std::move(*address));
      }
    }
    if (result.empty()) {
      throwUnknownHost(hostname, "no IPv4 or IPv6 addresses");
    }
    return result;
  }
};

class LambdaDns final : public Dns {
 public:
  explicit LambdaDns(std::function<std::vector<InetAddress>(const std::string&)> lookup)
      : lookup_(std::move(lookup)) {}

  std::vector<InetAddress> lookup(const std::string& hostname) override {
    return lookup_(hostname);
  }

 private:
  const std::function<std::vector<InetAddress>(const std::string&)> lookup_;
};

}  // namespace

std::shared_ptr<Dns> Dns::system() {
  static const std::shared_ptr<Dns> instance = std::make_shared<SystemDns>();
  return instance;
}

std::shared_ptr<Dns> Dns::of(
    std::function<std::vector<InetAddress>(const std::string& hostname)> lookup) {
  if (!lookup) {
    throw std::invalid_argument("Dns::of: lookup is empty");
  }
  return std::make_shared<LambdaDns>(std::move(lookup));
}

}  // namespace tern
