// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "url/percent_encoding.h"

#include "url/utf8.h"

namespace tern::internal {
namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

void appendEscape(std::string& out, unsigned char byte) {
  out.push_back('%');
  out.push_back(kHexDigits[byte >> 4]);
  out.push_back(kHexDigits[byte & 0xF]);
}

}  // namespace

void percentEncode(std::string& out, std::string_view in, const EncodeSet& set) {
  for (const char c : in) {
    const auto byte = static_cast<unsigned char>(c);
    if (set.contains(byte)) {
      appendEscape(out, byte);
    } else {
      out.push_back(c);
    }
  }
}

std::string canonicalize(std::string_view in, const EncodeSet& set, bool alreadyEncoded,
                         bool plusIsSpace) {
  std::string out;
  out.reserve(in.size());
  for (const char c : in) {
    const auto byte = static_cast<unsigned char>(c);
    if (alreadyEncoded && (c == '\t' || c == '\n' || c == '\f' || c == '\r')) {
      continue;
    }
    if (c == '+' && plusIsSpace) {
      out.append(alreadyEncoded ? "+" : "%2B");
    } else if (set.contains(byte) || (c == '%' && !alreadyEncoded)) {
      appendEscape(out, byte);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string percentDecodeBytes(std::string_view in, bool plusIsSpace) {
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '%' && i + 2 < in.size() && hexValue(in[i + 1]) >= 0 && hexValue(in[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hexValue(in[i + 1]) * 16 + hexValue(in[i + 2])));
      i += 2;
    } else if (in[i] == '+' && plusIsSpace) {
      out.push_back(' ');
    } else {
      out.push_back(in[i]);
    }
  }
  return out;
}

std::string percentDecode(std::string_view in, bool plusIsSpace) {
  return sanitizeUtf8(percentDecodeBytes(in, plusIsSpace));
}

}  // namespace tern::internal
