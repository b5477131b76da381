// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/base64.h"

namespace tern::internal {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int digitValue(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

bool isWhitespace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

std::string encodeBase64(std::span<const uint8_t> bytes) {
  std::string result;
  result.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t group = (uint32_t{bytes[i]} << 16) | (uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    result += kAlphabet[(group >> 18) & 63];
    result += kAlphabet[(group >> 12) & 63];
    result += kAlphabet[(group >> 6) & 63];
    result += kAlphabet[group & 63];
  }
  size_t left = bytes.size() - i;
  if (left > 0) {
    uint32_t group = uint32_t{bytes[i]} << 16;
    if (left == 2) group |= uint32_t{bytes[i + 1]} << 8;
    result += kAlphabet[(group >> 18) & 63];
    result += kAlphabet[(group >> 12) & 63];
    result += left == 2 ? kAlphabet[(group >> 6) & 63] : '=';
    result += '=';
  }
  return result;
}

std::optional<std::vector<uint8_t>> decodeBase64(std::string_view text) {
  std::vector<uint8_t> result;
  result.reserve(text.size() / 4 * 3);
  uint32_t group = 0;
  int digits = 0;
  bool padding = false;
  for (char c : text) {
    if (isWhitespace(c)) continue;
    if (c == '=') {
      padding = true;
      continue;
    }
    int value = digitValue(c);
    if (value < 0 || padding) return std::nullopt;  // Data after padding is not base64.
    group = (group << 6) | static_cast<uint32_t>(value);
    if (++digits == 4) {
      result.push_back(static_cast<uint8_t>(group >> 16));
      result.push_back(static_cast<uint8_t>(group >> 8));
      result.push_back(static_cast<uint8_t>(group));
      group = 0;
      digits = 0;
    }
  }
  switch (digits) {
    case 0:
      break;
    case 1:
      return std::nullopt;  // 6 bits cannot make a byte.
    case 2:
      result.push_back(static_cast<uint8_t>(group >> 4));
      break;
    case 3:
      result.push_back(static_cast<uint8_t>(group >> 10));
      result.push_back(static_cast<uint8_t>(group >> 2));
      break;
  }
  return result;
}

}  // namespace tern::internal
