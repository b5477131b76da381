// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "url/host_parser.h"

#include "url/idna.h"
#include "url/ip_address.h"
#include "url/percent_encoding.h"
#include "url/utf8.h"

namespace tern::internal {

std::optional<std::string> parseHost(std::string_view input) {
  if (input.empty()) {
    return std::nullopt;
  }
  if (input.front() == '[') {
    if (input.size() < 2 || input.back() != ']') {
      return std::nullopt;
    }
    const std::optional<Ipv6Address> address = parseIpv6(input.substr(1, input.size() - 2));
    if (!address) {
      return std::nullopt;
    }
    return "[" + serializeIpv6(*address) + "]";
  }
  // A host that is not UTF-8 once decoded would become U+FFFD, which domain to ASCII rejects.
  const std::string domain = percentDecodeBytes(input);
  if (!isValidUtf8(domain)) {
    return std::nullopt;
  }
  std::optional<std::string> asciiDomain = domainToAscii(domain);
  if (!asciiDomain) {
    return std::nullopt;
  }
  if (endsInANumber(*asciiDomain)) {
    const std::optional<uint32_t> address = parseIpv4(*asciiDomain);
    if (!address) {
      return std::nullopt;
    }
    return serializeIpv4(*address);
  }
  return asciiDomain;
}

bool isIpAddressHost(std::string_view host) noexcept {
  if (host.empty()) {
    return false;
  }
  if (host.front() == '[' || host.find(':') != std::string_view::npos) {
    return true;
  }
  // A canonical domain never ends in a number, so one that does is an IPv4 address.
  return endsInANumber(host);
}

}  // namespace tern::internal
