// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/http_syntax.h"

#include <array>
#include <cstdint>
#include <stdexcept>

#include "tern/exceptions.h"

namespace tern::internal {
namespace {

constexpr std::array<bool, 256> makeTokenTable() {
  std::array<bool, 256> table{};
  for (int c = '0'; c <= '9'; ++c) {
    table[c] = true;
  }
  for (int c = 'a'; c <= 'z'; ++c) {
    table[c] = true;
  }
  for (int c = 'A'; c <= 'Z'; ++c) {
    table[c] = true;
  }
  for (char c : std::string_view("!#$%&'*+-.^_`|~")) {
    table[static_cast<unsigned char>(c)] = true;
  }
  return table;
}

constexpr std::array<bool, 256> kTokenTable = makeTokenTable();

constexpr bool isAsciiLetterOrDigit(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

std::string hex(uint32_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string digits;
  do {
    digits.insert(digits.begin(), kDigits[value & 0xf]);
    value >>= 4;
  } while (value != 0);
  if (digits.size() < 2) {
    digits.insert(digits.begin(), '0');
  }
  return "0x" + digits;
}

// Decodes one well-formed UTF-8 sequence at s[index] (no overlongs, no surrogates), or nullopt.
std::optional<uint32_t> decodeUtf8(std::string_view s, std::size_t index) {
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char lead = byte(index);
  std::size_t length;
  uint32_t codePoint;
  uint32_t minimum;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2, codePoint = lead & 0x1f, minimum = 0x80;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3, codePoint = lead & 0x0f, minimum = 0x800;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4, codePoint = lead & 0x07, minimum = 0x10000;
  } else {
    return std::nullopt;
  }
  if (s.size() - index < length) {
    return std::nullopt;
  }
  for (std::size_t i = 1; i < length; ++i) {
    unsigned char b = byte(index + i);
    if ((b & 0xc0) != 0x80) {
      return std::nullopt;
    }
    codePoint = (codePoint << 6) | (b & 0x3f);
  }
  if (codePoint < minimum || codePoint > 0x10ffff) {
    return std::nullopt;
  }
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) {
    return std::nullopt;
  }
  return codePoint;
}

}  // namespace

bool isTokenChar(char c) noexcept { return kTokenTable[static_cast<unsigned char>(c)]; }

bool isToken(std::string_view s) noexcept {
  if (s.empty()) {
    return false;
  }
  for (char c : s) {
    if (!isTokenChar(c)) {
      return false;
    }
  }
  return true;
}

std::string_view trimAsciiWhitespace(std::string_view s) noexcept {
  std::size_t begin = 0;
  std::size_t end = s.size();
  while (begin < end && isAsciiWhitespace(s[begin])) {
    ++begin;
  }
  while (end > begin && isAsciiWhitespace(s[end - 1])) {
    --end;
  }
  return s.substr(begin, end - begin);
}

std::size_t skipHttpWhitespace(std::string_view s, std::size_t pos) noexcept {
  while (pos < s.size() && isHttpWhitespace(s[pos])) {
    ++pos;
  }
  return pos;
}

std::size_t indexOfAny(std::string_view s, std::string_view chars, std::size_t pos) noexcept {
  if (pos >= s.size()) {
    return s.size();
  }
  std::size_t found = s.find_first_of(chars, pos);
  return found == std::string_view::npos ? s.size() : found;
}

std::optional<std::string> readQuotedString(std::string_view s, std::size_t& pos) {
  if (pos >= s.size() || s[pos] != '"') {
    return std::nullopt;
  }
  std::string result;
  for (std::size_t i = pos + 1; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {
      pos = i + 1;
      return result;
    }
    if (c == '\\') {
      if (i + 1 == s.size()) {
        return std::nullopt;  // Dangling escape.
      }
      ++i;
      c = s[i];
    }
    result.push_back(c);
  }
  return std::nullopt;  // Unterminated.
}

bool isSensitiveHeader(std::string_view name) noexcept {
  return equalsIgnoreCase(name, "Authorization") || equalsIgnoreCase(name, "Cookie") ||
         equalsIgnoreCase(name, "Proxy-Authorization") || equalsIgnoreCase(name, "Set-Cookie");
}

bool isLegalCharsetName(std::string_view name) noexcept {
  if (name.empty() || !isAsciiLetterOrDigit(name[0])) {
    return false;
  }
  for (char c : name) {
    if (!isAsciiLetterOrDigit(c) && c != '-' && c != '+' && c != ':' && c != '_' && c != '.') {
      return false;
    }
  }
  return true;
}

std::string describeCharAt(std::string_view s, std::size_t index) {
  if (index >= s.size()) {
    return "end of input";
  }
  auto byte = static_cast<unsigned char>(s[index]);
  if (byte < 0x80) {
    return hex(byte);
  }
  std::optional<uint32_t> codePoint = decodeUtf8(s, index);
  return hex(codePoint ? *codePoint : byte);
}

void checkHeaderName(std::string_view name) {
  if (name.empty()) {
    throw std::invalid_argument("header name is empty");
  }
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!isTokenChar(name[i])) {
      throw std::invalid_argument("Unexpected char " + describeCharAt(name, i) + " at " +
                                  std::to_string(i) + " in header name: " + escapeForMessage(name));
    }
  }
}

void checkHeaderValue(std::string_view value, std::string_view name, bool allowNonAscii) {
  for (std::size_t i = 0; i < value.size(); ++i) {
    auto c = static_cast<unsigned char>(value[i]);
    bool allowed = c == '\t' || (c >= 0x20 && c < 0x7f) || (allowNonAscii && c >= 0x80);
    if (allowed) {
      continue;
    }
    std::string message = "Unexpected char " + describeCharAt(value, i) + " at " +
                          std::to_string(i) + " in " + escapeForMessage(name) + " value";
    if (!isSensitiveHeader(name)) {
      message += ": " + escapeForMessage(value);
    }
    throw std::invalid_argument(message);
  }
}

void checkReceivedFieldValue(std::string_view name, std::string_view value) {
  std::size_t bad = value.find_first_of(std::string_view("\0\r\n", 3));
  if (bad == std::string_view::npos) {
    return;
  }
  std::string message = "Unexpected char " + describeCharAt(value, bad) + " at " +
                        std::to_string(bad) + " in received header " + escapeForMessage(name);
  if (!isSensitiveHeader(name)) {
    message += ": " + escapeForMessage(value);
  }
  throw ProtocolException(message);
}

std::vector<std::string> listTokens(std::string_view value) {
  std::vector<std::string> result;
  while (!value.empty()) {
    size_t comma = value.find(',');
    std::string_view item = value.substr(0, comma);
    item = item.substr(0, item.find(';'));
    size_t first = item.find_first_not_of(" \t");
    if (first != std::string_view::npos) {
      size_t last = item.find_last_not_of(" \t");
      result.emplace_back(item.substr(first, last - first + 1));
    }
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return result;
}

}  // namespace tern::internal
