// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "dnsoverhttps/dns_record_codec.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "tern/exceptions.h"
#include "tern/inet_address.h"

namespace tern::internal {
namespace {

constexpr uint16_t kClassIn = 1;
constexpr size_t kHeaderSize = 12;
constexpr size_t kMaxNameLength = 255;  // RFC 1035 §2.3.4, in wire form.
constexpr int kMaxCnameLinks = 16;

// "app.test." and "App.Test" are the same name (RFC 4343): compared as lowercase without the
// root's dot.
std::string canonicalName(std::string_view name) {
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);
  std::string result(name);
  for (char& c : result) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return result;
}

std::string rcodeName(int rcode) {
  switch (rcode) {
    case 1:
      return "FORMERR";
    case 2:
      return "SERVFAIL";
    case 3:
      return "NXDOMAIN";
    case 4:
      return "NOTIMP";
    case 5:
      return "REFUSED";
    default:
      return "RCODE " + std::to_string(rcode);
  }
}

// Reads a DNS message front to back; every read checks the bounds.
class MessageReader {
 public:
  MessageReader(std::string_view hostname, std::span<const uint8_t> message)
      : hostname_(hostname), message_(message) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw IOException("malformed DNS response for " + std::string(hostname_) + ": " + what);
  }

  void require(size_t count) const {
    if (message_.size() - position_ < count) {
      fail("truncated at byte " + std::to_string(position_) + " of " +
           std::to_string(message_.size()));
    }
  }

  uint16_t readShort() {
    require(2);
    uint16_t value = static_cast<uint16_t>(message_[position_] << 8 | message_[position_ + 1]);
    position_ += 2;
    return value;
  }

  uint32_t readInt() {
    uint32_t high = readShort();
    return high << 16 | readShort();
  }

  std::span<const uint8_t> readBytes(size_t count) {
    require(count);
    std::span<const uint8_t> bytes = message_.subspan(position_, count);
    position_ += count;
    return bytes;
  }

  size_t position() const { return position_; }
  void seek(size_t position) { position_ = position; }

  // A name (RFC 1035 §3.1) in canonical form, following compression pointers (§4.1.4). Each
  // pointer must point before the label that holds it, so every jump goes backwards and the walk
  // ends; the name's length is bounded too.
  std::string readName() {
    std::string name;
    size_t wireLength = 0;
    size_t at = position_;
    std::optional<size_t> resumeAt;  // Where the reader goes on after the first pointer.
    while (true) {
      if (at >= message_.size()) {
        position_ = at;
        require(1);
      }
      uint8_t length = message_[at];
      if ((length & 0xc0) == 0xc0) {
        if (at + 1 >= message_.size()) {
          position_ = at;
          require(2);
        }
        size_t target = static_cast<size_t>(length & 0x3f) << 8 | message_[at + 1];
        if (target >= at) {
          fail("compression pointer at byte " + std::to_string(at) + " does not point back (to " +
               std::to_string(target) + ")");
        }
        if (!resumeAt) resumeAt = at + 2;
        at = target;
        continue;
      }
      if ((length & 0xc0) != 0) {
        fail("unsupported label type at byte " + std::to_string(at));
      }
      wireLength += 1 + length;
      if (wireLength > kMaxNameLength) fail("name longer than 255 bytes");
      if (length == 0) {
        position_ = resumeAt.value_or(at + 1);
        return canonicalName(name);
      }
      if (message_.size() - at - 1 < length) {
        position_ = at;
        require(1 + static_cast<size_t>(length));
      }
      if (!name.empty()) name += '.';
      for (size_t i = 0; i < length; ++i) {
        char c = static_cast<char>(message_[at + 1 + i]);
        // A dot inside a label would make two names look alike; no host name has one.
        if (c == '.') fail("label with a '.' at byte " + std::to_string(at));
        name += c;
      }
      at += 1 + length;
    }
  }

 private:
  std::string_view hostname_;
  std::span<const uint8_t> message_;
  size_t position_ = 0;
};

struct Record {
  std::string name;
  uint16_t type;
  uint16_t rrClass;
  uint32_t ttl;
  std::span<const uint8_t> data;
  std::string cnameTarget;  // For CNAME records.
};

}  // namespace

std::vector<uint8_t> encodeDnsQuery(std::string_view hostname, uint16_t type) {
  auto invalid = [&](const std::string& why) {
    return UnknownHostException("Unable to resolve host \"" + std::string(hostname) +
                                "\": not a valid DNS name (" + why + ")");
  };
  std::string_view name = hostname;
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);
  if (name.empty()) throw invalid("empty");
  if (name.size() > 253) throw invalid("longer than 253 bytes");

  std::vector<uint8_t> query = {0, 0,  // ID 0.
                                1, 0,  // RD.
                                0, 1,  // QDCOUNT.
                                0, 0, 0, 0, 0, 0};
  size_t start = 0;
  while (start <= name.size()) {
    size_t dot = std::min(name.find('.', start), name.size());
    size_t length = dot - start;
    if (length == 0) throw invalid("empty label");
    if (length > 63) throw invalid("label longer than 63 bytes");
    query.push_back(static_cast<uint8_t>(length));
    query.insert(query.end(), name.begin() + static_cast<ptrdiff_t>(start),
                 name.begin() + static_cast<ptrdiff_t>(dot));
    start = dot + 1;
  }
  query.push_back(0);
  query.insert(query.end(), {static_cast<uint8_t>(type >> 8), static_cast<uint8_t>(type & 0xff), 0,
                             static_cast<uint8_t>(kClassIn)});
  return query;
}

DnsAnswer decodeDnsAnswers(std::string_view hostname, uint16_t type,
                           std::span<const uint8_t> message) {
  MessageReader reader(hostname, message);
  if (message.size() < kHeaderSize) {
    reader.fail("shorter than a header (" + std::to_string(message.size()) + " bytes)");
  }
  uint16_t id = reader.readShort();
  uint16_t flags = reader.readShort();
  uint16_t questions = reader.readShort();
  uint16_t answers = reader.readShort();
  reader.readShort();  // NSCOUNT and ARCOUNT: those sections are not needed.
  reader.readShort();
  if (id != 0) reader.fail("ID " + std::to_string(id) + " instead of 0");
  if ((flags & 0x8000) == 0) reader.fail("not a response (QR is 0)");
  if (((flags >> 11) & 0xf) != 0) reader.fail("opcode " + std::to_string((flags >> 11) & 0xf));
  if ((flags & 0x0200) != 0) reader.fail("truncated (TC is set)");
  if (questions != 1) reader.fail(std::to_string(questions) + " questions instead of 1");

  const std::string queried = canonicalName(hostname);
  std::string questionName = reader.readName();
  uint16_t questionType = reader.readShort();
  uint16_t questionClass = reader.readShort();
  if (questionName != queried || questionType != type || questionClass != kClassIn) {
    reader.fail("the question is for " + questionName + " type " + std::to_string(questionType) +
                " class " + std::to_string(questionClass) + ", not " + queried + " type " +
                std::to_string(type));
  }

  // RFC 1035 §4.1.1; checked after the question so that the failure is surely ours.
  if (int rcode = flags & 0xf; rcode != 0) {
    throw UnknownHostException(std::string(hostname) + ": " + rcodeName(rcode));
  }

  std::vector<Record> records;
  for (int i = 0; i < answers; ++i) {
    Record record;
    record.name = reader.readName();
    record.type = reader.readShort();
    record.rrClass = reader.readShort();
    record.ttl = reader.readInt();
    uint16_t length = reader.readShort();
    size_t dataStart = reader.position();
    record.data = reader.readBytes(length);
    if (record.rrClass == kClassIn && record.type == kDnsTypeCname) {
      reader.seek(dataStart);
      record.cnameTarget = reader.readName();
      if (reader.position() != dataStart + length) {
        reader.fail("CNAME data of " + std::to_string(length) + " bytes holds a name of " +
                    std::to_string(reader.position() - dataStart));
      }
    }
    records.push_back(std::move(record));
  }

  // RFC 2181 §8: a TTL is 31 bits; one with the top bit set is taken as 0.
  auto ttlOf = [](const Record& r) { return std::chrono::seconds(r.ttl > 0x7fffffff ? 0 : r.ttl); };

  // Follows the CNAME chain from the question's name; the addresses belong to its last name.
  std::string current = queried;
  std::optional<std::chrono::seconds> ttl;
  std::set<std::string> seen = {current};
  for (int links = 0;; ++links) {
    auto cname = std::find_if(records.begin(), records.end(), [&](const Record& r) {
      return r.rrClass == kClassIn && r.type == kDnsTypeCname && r.name == current;
    });
    if (cname == records.end()) break;
    if (links == kMaxCnameLinks) reader.fail("CNAME chain longer than 16");
    if (!seen.insert(cname->cnameTarget).second) {
      reader.fail("CNAME loop at " + cname->cnameTarget);
    }
    ttl = ttl ? std::min(*ttl, ttlOf(*cname)) : ttlOf(*cname);
    current = cname->cnameTarget;
  }

  DnsAnswer result;
  const size_t addressLength = type == kDnsTypeA ? 4 : 16;
  for (const Record& record : records) {
    if (record.rrClass != kClassIn || record.type != type || record.name != current) continue;
    if (record.data.size() != addressLength) {
      reader.fail((type == kDnsTypeA ? "A" : "AAAA") + std::string(" record of ") +
                  std::to_string(record.data.size()) + " bytes");
    }
    InetAddress address = InetAddress::fromBytes(record.data, std::string(hostname));
    if (std::find(result.addresses.begin(), result.addresses.end(), address) ==
        result.addresses.end()) {
      result.addresses.push_back(std::move(address));
    }
    ttl = ttl ? std::min(*ttl, ttlOf(record)) : ttlOf(record);
  }
  if (!result.addresses.empty()) result.ttl = ttl;
  return result;
}

}  // namespace tern::internal
