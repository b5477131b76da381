// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tern/dns.h"

namespace tern::internal {

// The DNS wire format (RFC 1035 §4) as DNS over HTTPS carries it (RFC 8484): one question for an
// A or AAAA record, and the answer to it. Pure functions; thread-safe.

inline constexpr uint16_t kDnsTypeA = 1;
inline constexpr uint16_t kDnsTypeAaaa = 28;
inline constexpr uint16_t kDnsTypeCname = 5;

// The query message for `hostname`'s records of `type`: ID 0 (RFC 8484 §4.1, so that HTTP caches
// can share answers), recursion desired, one question of class IN. Throws UnknownHostException
// naming the host if it is not a valid DNS name (an empty label, a label over 63 bytes, a name
// over 253).
std::vector<uint8_t> encodeDnsQuery(std::string_view hostname, uint16_t type);

// The A (or AAAA) addresses answering encodeDnsQuery(hostname, type), each carrying `hostname`,
// in the message's order, and their TTL: the smallest TTL among them and the CNAME records that
// led to them (RFC 2181 §8: a TTL with the top bit set counts as 0). CNAME chains are followed
// from the question's name (at most 16 links); records for other names are ignored. An answer
// with no addresses (NODATA) is an empty list with no TTL.
//
// The message is checked strictly: a response (QR) to a standard query with ID 0, no truncation
// (TC), exactly one question that echoes ours (name, type, class), names at most 255 bytes with
// compression pointers that point backwards only (so no loop), record data inside the message
// and of the right length. Throws UnknownHostException("app.test: NXDOMAIN") for a non-zero
// RCODE (NXDOMAIN, SERVFAIL, REFUSED, ...), and IOException naming the host and what is wrong
// ("malformed DNS response for app.test: truncated at byte 12 of 40") otherwise.
DnsAnswer decodeDnsAnswers(std::string_view hostname, uint16_t type,
                           std::span<const uint8_t> message);

}  // namespace tern::internal
