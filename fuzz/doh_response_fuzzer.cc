// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Reads arbitrary bytes as a DNS over HTTPS answer (RFC 8484's application/dns-message body) to
// an A and to an AAAA query for app.test, and checks what DnsOverHttps relies on: only
// IOException (UnknownHostException for an error RCODE) is thrown, never a crash or a loop;
// every address is of the family asked for and carries the host name; a TTL comes with
// addresses and only with them. The bytes are also tried as a host name to encode.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

#include "dnsoverhttps/dns_record_codec.h"
#include "tern/exceptions.h"

namespace {

void decode(uint16_t type, std::span<const uint8_t> message) {
  try {
    tern::DnsAnswer answer = tern::internal::decodeDnsAnswers("app.test", type, message);
    for (const tern::InetAddress& address : answer.addresses) {
      if (address.isIpv6() != (type == tern::internal::kDnsTypeAaaa)) std::abort();
      if (address.hostName() != "app.test") std::abort();
    }
    if (answer.ttl.has_value() == answer.addresses.empty()) std::abort();
    if (answer.ttl && (answer.ttl->count() < 0 || answer.ttl->count() > 0x7fffffff)) std::abort();
  } catch (const tern::IOException&) {
    // Expected for malformed input and error RCODEs.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const uint8_t> message(data, size);
  decode(tern::internal::kDnsTypeA, message);
  decode(tern::internal::kDnsTypeAaaa, message);

  std::string hostname(reinterpret_cast<const char*>(data), std::min<size_t>(size, 300));
  try {
    std::vector<uint8_t> query = tern::internal::encodeDnsQuery(hostname, 1);
    if (query.size() < 17 || query.size() > 12 + 255 + 4) std::abort();
  } catch (const tern::UnknownHostException&) {
    // Not a name DNS can carry.
  }
  return 0;
}
