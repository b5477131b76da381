// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "url/ip_address.h"

#include <string>

#include "url/percent_encoding.h"

namespace tern::internal {
namespace {

// Anything at or above this cannot be part of a valid IPv4 address, so parsing saturates here.
constexpr uint64_t kIpv4NumberLimit = uint64_t{1} << 32;

bool isDigit(char c) noexcept { return c >= '0' && c <= '9'; }

// The WHATWG IPv4 number parser: the value (saturated at kIpv4NumberLimit), or std::nullopt.
std::optional<uint64_t> parseIpv4Number(std::string_view input) noexcept {
  if (input.empty()) {
    return std::nullopt;
  }
  int radix = 10;
  if (input.size() >= 2 && input[0] == '0' && (input[1] == 'x' || input[1] == 'X')) {
    input.remove_prefix(2);
    radix = 16;
  } else if (input.size() >= 2 && input[0] == '0') {
    input.remove_prefix(1);
    radix = 8;
  }
  if (input.empty()) {
    return 0;
  }
  uint64_t value = 0;
  for (const char c : input) {
    const int digit = hexValue(c);
    if (digit < 0 || digit >= radix) {
      return std::nullopt;
    }
    value = value * radix + digit;
    if (value >= kIpv4NumberLimit) {
      value = kIpv4NumberLimit;
    }
  }
  return value;
}

}  // namespace

bool endsInANumber(std::string_view domain) noexcept {
  if (!domain.empty() && domain.back() == '.') {
    domain.remove_suffix(1);
    if (domain.empty()) {
      return false;
    }
  }
  const size_t dot = domain.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? domain : domain.substr(dot + 1);
  if (last.empty()) {
    return false;
  }
  bool allDigits = true;
  for (const char c : last) {
    allDigits = allDigits && isDigit(c);
  }
  if (allDigits) {
    return true;
  }
  if (last.size() >= 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X')) {
    for (const char c : last.substr(2)) {
      if (hexValue(c) < 0) {
        return false;
      }
    }
    return true;
  }
  return false;
}

std::optional<uint32_t> parseIpv4(std::string_view input) noexcept {
  if (!input.empty() && input.back() == '.' && input.size() > 1) {
    input.remove_suffix(1);
  }
  // At most four parts: count dots before splitting so a huge input stays cheap.
  size_t dots = 0;
  for (const char c : input) {
    dots += c == '.';
  }
  if (dots > 3) {
    return std::nullopt;
  }
  // Strictly split on '.' (empty parts kept, as the Infra standard says): at most four parts.
  uint64_t numbers[4];
  size_t count = 0;
  for (size_t start = 0;;) {
    const size_t dot = input.find('.', start);
    const std::string_view part =
        input.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    const std::optional<uint64_t> number = parseIpv4Number(part);
    if (!number) {
      return std::nullopt;
    }
    numbers[count++] = *number;
    if (dot == std::string_view::npos) {
      break;
    }
    start = dot + 1;
  }
  for (size_t i = 0; i + 1 < count; ++i) {
    if (numbers[i] > 255) {
      return std::nullopt;
    }
  }
  const uint64_t limit = uint64_t{1} << (8 * (5 - count));
  if (numbers[count - 1] >= limit) {
    return std::nullopt;
  }
  uint64_t address = numbers[count - 1];
  for (size_t i = 0; i + 1 < count; ++i) {
    address += numbers[i] << (8 * (3 - i));
  }
  return static_cast<uint32_t>(address);
}

std::string serializeIpv4(uint32_t address) {
  char out[16];  // "255.255.255.255" fits, so the result stays in the string's own storage.
  size_t length = 0;
  for (int shift = 24; shift >= 0; shift -= 8) {
    const unsigned octet = (address >> shift) & 0xFF;
    if (octet >= 100) out[length++] = static_cast<char>('0' + octet / 100);
    if (octet >= 10) out[length++] = static_cast<char>('0' + octet / 10 % 10);
    out[length++] = static_cast<char>('0' + octet % 10);
    if (shift != 0) {
      out[length++] = '.';
    }
  }
  return std::string(out, length);
}

std::optional<Ipv6Address> parseIpv6(std::string_view input) noexcept {
  Ipv6Address address{};
  size_t pieceIndex = 0;
  std::optional<size_t> compress;
  size_t pointer = 0;
  const auto c = [&]() -> int {
    return pointer < input.size() ? static_cast<unsigned char>(input[pointer]) : -1;
  };
  if (c() == ':') {
    if (pointer + 1 >= input.size() || input[pointer + 1] != ':') {
      return std::nullopt;
    }
    pointer += 2;
    compress = ++pieceIndex;
  }
  while (c() != -1) {
    if (pieceIndex == 8) {
      return std::nullopt;
    }
    if (c() == ':') {
      if (compress) {
        return std::nullopt;
      }
      ++pointer;
      compress = ++pieceIndex;
      continue;
    }
    uint32_t value = 0;
    size_t length = 0;
    while (length < 4 && c() != -1 && hexValue(static_cast<char>(c())) >= 0) {
      value = value * 16 + hexValue(static_cast<char>(c()));
      ++pointer;
      ++length;
    }
    if (c() == '.') {
      // An embedded IPv4 address fills the last two pieces.
      if (length == 0) {
        return std::nullopt;
      }
      pointer -= length;
      if (pieceIndex > 6) {
        return std::nullopt;
      }
      int numbersSeen = 0;
      while (c() != -1) {
        int ipv4Piece = -1;
        if (numbersSeen > 0) {
          if (c() == '.' && numbersSeen < 4) {
            ++pointer;
          } else {
            return std::nullopt;
          }
        }
        if (c() == -1 || !isDigit(static_cast<char>(c()))) {
          return std::nullopt;
        }
        while (c() != -1 && isDigit(static_cast<char>(c()))) {
          const int number = c() - '0';
          if (ipv4Piece == -1) {
            ipv4Piece = number;
          } else if (ipv4Piece == 0) {
            return std::nullopt;  // Leading zeros are not allowed.
          } else {
            ipv4Piece = ipv4Piece * 10 + number;
          }
          if (ipv4Piece > 255) {
            return std::nullopt;
          }
          ++pointer;
        }
        address[pieceIndex] = static_cast<uint16_t>(address[pieceIndex] * 0x100 + ipv4Piece);
        ++numbersSeen;
        if (numbersSeen == 2 || numbersSeen == 4) {
          ++pieceIndex;
        }
      }
      if (numbersSeen != 4) {
        return std::nullopt;
      }
      break;
    }
    if (c() == ':') {
      ++pointer;
      if (c() == -1) {
        return std::nullopt;
      }
    } else if (c() != -1) {
      return std::nullopt;
    }
    address[pieceIndex] = static_cast<uint16_t>(value);
    ++pieceIndex;
  }
  if (compress) {
    size_t swaps = pieceIndex - *compress;
    pieceIndex = 7;
    while (pieceIndex != 0 && swaps > 0) {
      std::swap(address[pieceIndex], address[*compress + swaps - 1]);
      --pieceIndex;
      --swaps;
    }
  } else if (pieceIndex != 8) {
    return std::nullopt;
  }
  return address;
}

std::string serializeIpv6(const Ipv6Address& address) {
  // Find the first longest run of at least two zero pieces.
  std::optional<size_t> compress;
  size_t longest = 1;
  for (size_t i = 0; i < 8;) {
    if (address[i] != 0) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < 8 && address[end] == 0) {
      ++end;
    }
    if (end - i > longest) {
      longest = end - i;
      compress = i;
    }
    i = end;
  }
  std::string out;
  static constexpr char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < 8; ++i) {
    if (compress && i == *compress) {
      out.append(i == 0 ? "::" : ":");
      i += longest - 1;
      continue;
    }
    const uint16_t piece = address[i];
    bool started = false;
    for (int shift = 12; shift >= 0; shift -= 4) {
      const int digit = (piece >> shift) & 0xF;
      if (digit != 0 || started || shift == 0) {
        out.push_back(kHex[digit]);
        started = true;
      }
    }
    if (i != 7) {
      out.push_back(':');
    }
  }
  return out;
}

}  // namespace tern::internal
