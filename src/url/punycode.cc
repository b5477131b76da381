// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "url/punycode.h"

#include <cstdint>
#include <limits>

namespace tern::internal {
namespace {

// Bootstring parameters for Punycode (RFC 3492 §5).
constexpr uint32_t kBase = 36;
constexpr uint32_t kTMin = 1;
constexpr uint32_t kTMax = 26;
constexpr uint32_t kSkew = 38;
constexpr uint32_t kDamp = 700;
constexpr uint32_t kInitialBias = 72;
constexpr uint32_t kInitialN = 128;
constexpr uint32_t kMaxInt = std::numeric_limits<uint32_t>::max();

// RFC 3492 §6.1.
uint32_t adapt(uint32_t delta, uint32_t numPoints, bool firstTime) {
  delta = firstTime ? delta / kDamp : delta / 2;
  delta += delta / numPoints;
  uint32_t k = 0;
  while (delta > ((kBase - kTMin) * kTMax) / 2) {
    delta /= kBase - kTMin;
    k += kBase;
  }
  return k + (kBase - kTMin + 1) * delta / (delta + kSkew);
}

char encodeDigit(uint32_t d) { return static_cast<char>(d < 26 ? 'a' + d : '0' + (d - 26)); }

int decodeDigit(char c) {
  if (c >= 'a' && c <= 'z') {
    return c - 'a';
  }
  if (c >= 'A' && c <= 'Z') {
    return c - 'A';
  }
  if (c >= '0' && c <= '9') {
    return c - '0' + 26;
  }
  return -1;
}

uint32_t threshold(uint32_t k, uint32_t bias) {
  if (k <= bias) {
    return kTMin;
  }
  if (k >= bias + kTMax) {
    return kTMax;
  }
  return k - bias;
}

}  // namespace

std::optional<std::string> punycodeEncode(std::u32string_view input) {
  if (input.size() > kMaxPunycodeLength) {
    return std::nullopt;
  }
  std::string output;
  for (const char32_t c : input) {
    if (c < 0x80) {
      output.push_back(static_cast<char>(c));
    }
  }
  const auto basicCount = static_cast<uint32_t>(output.size());
  uint32_t handled = basicCount;
  if (basicCount > 0) {
    output.push_back('-');
  }
  uint32_t n = kInitialN;
  uint32_t delta = 0;
  uint32_t bias = kInitialBias;
  const auto length = static_cast<uint32_t>(input.size());
  while (handled < length) {
    uint32_t m = kMaxInt;
    for (const char32_t c : input) {
      if (c >= n && c < m) {
        m = c;
      }
    }
    if (m - n > (kMaxInt - delta) / (handled + 1)) {
      return std::nullopt;
    }
    delta += (m - n) * (handled + 1);
    n = m;
    for (const char32_t c : input) {
      if (c < n && ++delta == 0) {
        return std::nullopt;
      }
      if (c == n) {
        uint32_t q = delta;
        for (uint32_t k = kBase;; k += kBase) {
          const uint32_t t = threshold(k, bias);
          if (q < t) {
            break;
          }
          output.push_back(encodeDigit(t + (q - t) % (kBase - t)));
          q = (q - t) / (kBase - t);
        }
        output.push_back(encodeDigit(q));
        bias = adapt(delta, handled + 1, handled == basicCount);
        delta = 0;
        ++handled;
      }
    }
    ++delta;
    ++n;
  }
  return output;
}

std::optional<std::u32string> punycodeDecode(std::string_view input) {
  if (input.size() > kMaxPunycodeLength) {
    return std::nullopt;
  }
  std::u32string output;
  const size_t lastDelimiter = input.rfind('-');
  size_t pos = 0;
  if (lastDelimiter != std::string_view::npos) {
    for (size_t i = 0; i < lastDelimiter; ++i) {
      if (static_cast<unsigned char>(input[i]) >= 0x80) {
        return std::nullopt;
      }
      output.push_back(static_cast<unsigned char>(input[i]));
    }
    pos = lastDelimiter + 1;
  }
  uint32_t n = kInitialN;
  uint32_t i = 0;
  uint32_t bias = kInitialBias;
  while (pos < input.size()) {
    const uint32_t oldI = i;
    uint32_t w = 1;
    for (uint32_t k = kBase;; k += kBase) {
      if (pos >= input.size()) {
        return std::nullopt;
      }
      const int digit = decodeDigit(input[pos++]);
      if (digit < 0) {
        return std::nullopt;
      }
      const auto d = static_cast<uint32_t>(digit);
      if (d > (kMaxInt - i) / w) {
        return std::nullopt;
      }
      i += d * w;
      const uint32_t t = threshold(k, bias);
      if (d < t) {
        break;
      }
      if (w > kMaxInt / (kBase - t)) {
        return std::nullopt;
      }
      w *= kBase - t;
    }
    const auto count = static_cast<uint32_t>(output.size() + 1);
    bias = adapt(i - oldI, count, oldI == 0);
    if (i / count > kMaxInt - n) {
      return std::nullopt;
    }
    n += i / count;
    i %= count;
    if (n > 0x10FFFF || (n >= 0xD800 && n <= 0xDFFF)) {
      return std::nullopt;
    }
    output.insert(output.begin() + i, static_cast<char32_t>(n));
    ++i;
  }
  return output;
}

}  // namespace tern::internal
