// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// DNS messages made by hand (RFC 1035 §4) for the DNS over HTTPS tests: byte by byte, so that a
// test shows exactly what the server sent, including what a good server never sends.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tern::testing {

using DnsBytes = std::vector<uint8_t>;

inline void putShort(DnsBytes& out, uint16_t value) {
  out.push_back(static_cast<uint8_t>(value >> 8));
  out.push_back(static_cast<uint8_t>(value));
}

inline void putInt(DnsBytes& out, uint32_t value) {
  putShort(out, static_cast<uint16_t>(value >> 16));
  putShort(out, static_cast<uint16_t>(value));
}

// `name` as labels ending in the root: "app.test" is 3 a p p 4 t e s t 0.
inline DnsBytes dnsName(std::string_view name) {
  DnsBytes out;
  size_t start = 0;
  while (start < name.size()) {
    size_t dot = name.find('.', start);
    if (dot == std::string_view::npos) dot = name.size();
    out.push_back(static_cast<uint8_t>(dot - start));
    out.insert(out.end(), name.begin() + static_cast<ptrdiff_t>(start),
               name.begin() + static_cast<ptrdiff_t>(dot));
    start = dot + 1;
  }
  out.push_back(0);
  return out;
}

// A pointer to the name at `offset` (RFC 1035 §4.1.4); 12 is the question's name.
inline DnsBytes dnsPointer(uint16_t offset) {
  return {static_cast<uint8_t>(0xc0 | offset >> 8), static_cast<uint8_t>(offset)};
}

struct DnsRecord {
  DnsBytes name;  // dnsName(...) or dnsPointer(...).
  uint16_t type;
  uint32_t ttl;
  DnsBytes data;
  uint16_t rrClass = 1;
};

inline DnsRecord aRecord(DnsBytes name, std::vector<uint8_t> address, uint32_t ttl = 300) {
  return {std::move(name), 1, ttl, std::move(address)};
}

inline DnsRecord aaaaRecord(DnsBytes name, std::vector<uint8_t> address, uint32_t ttl = 300) {
  return {std::move(name), 28, ttl, std::move(address)};
}

inline DnsRecord cnameRecord(DnsBytes name, DnsBytes target, uint32_t ttl = 300) {
  return {std::move(name), 5, ttl, std::move(target)};
}

// A response to a query for `name`'s `type` records: ID 0, QR RD RA, `rcode`, the question,
// then `answers`.
inline DnsBytes dnsResponse(std::string_view name, uint16_t type,
                            const std::vector<DnsRecord>& answers, int rcode = 0,
                            uint16_t flags = 0x8180) {
  DnsBytes out;
  putShort(out, 0);
  putShort(out, static_cast<uint16_t>(flags | rcode));
  putShort(out, 1);
  putShort(out, static_cast<uint16_t>(answers.size()));
  putShort(out, 0);
  putShort(out, 0);
  DnsBytes question = dnsName(name);
  out.insert(out.end(), question.begin(), question.end());
  putShort(out, type);
  putShort(out, 1);
  for (const DnsRecord& record : answers) {
    out.insert(out.end(), record.name.begin(), record.name.end());
    putShort(out, record.type);
    putShort(out, record.rrClass);
    putInt(out, record.ttl);
    putShort(out, static_cast<uint16_t>(record.data.size()));
    out.insert(out.end(), record.data.begin(), record.data.end());
  }
  return out;
}

// The question of a query tern sent (no compression in queries): its name and type, or nullopt
// if `query` is not one.
inline std::optional<std::pair<std::string, uint16_t>> dnsQuestion(const DnsBytes& query) {
  if (query.size() < 17) return std::nullopt;
  std::string name;
  size_t at = 12;
  while (at < query.size() && query[at] != 0) {
    size_t length = query[at];
    if (at + 1 + length > query.size()) return std::nullopt;
    if (!name.empty()) name += '.';
    name.append(query.begin() + static_cast<ptrdiff_t>(at + 1),
                query.begin() + static_cast<ptrdiff_t>(at + 1 + length));
    at += 1 + length;
  }
  if (at + 5 > query.size()) return std::nullopt;
  return std::pair{name, static_cast<uint16_t>(query[at + 1] << 8 | query[at + 2])};
}

}  // namespace tern::testing
