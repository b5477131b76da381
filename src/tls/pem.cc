// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tls/pem.h"

#include <stdexcept>

#include "io/base64.h"

namespace tern::internal {
namespace {

constexpr std::string_view kBegin = "-----BEGIN ";
constexpr std::string_view kEnd = "-----END ";
constexpr std::string_view kDashes = "-----";
constexpr size_t kMaxLabelLength = 64;  // Real labels are short ("ENCRYPTED PRIVATE KEY").

// RFC 7468 §3: label characters are printable ASCII except "-", plus spaces and hyphens between
// words. We accept printable ASCII except a leading/trailing hyphen-run ("-----" ends the label).
bool isLabelChar(char c) { return c >= 0x20 && c <= 0x7e; }

}  // namespace

std::vector<PemBlock> decodePemBlocks(std::string_view text) {
  std::vector<PemBlock> result;
  size_t position = 0;
  while (true) {
    size_t begin = text.find(kBegin, position);
    if (begin == std::string_view::npos) break;
    size_t labelStart = begin + kBegin.size();
    size_t labelEnd = text.find(kDashes, labelStart);
    if (labelEnd == std::string_view::npos || labelEnd - labelStart > kMaxLabelLength) {
      throw std::invalid_argument("malformed PEM BEGIN line");
    }
    std::string_view label = text.substr(labelStart, labelEnd - labelStart);
    for (char c : label) {
      if (!isLabelChar(c)) throw std::invalid_argument("malformed PEM BEGIN line");
    }
    size_t bodyStart = labelEnd + kDashes.size();
    // The body ends at the next "-----", which must start this block's END line.
    size_t bodyEnd = text.find(kDashes, bodyStart);
    std::string endLine = std::string(kEnd) + std::string(label) + std::string(kDashes);
    if (bodyEnd == std::string_view::npos || text.substr(bodyEnd, endLine.size()) != endLine) {
      throw std::invalid_argument("unterminated PEM block " + std::string(label));
    }
    std::string_view body = text.substr(bodyStart, bodyEnd - bodyStart);
    if (body.find(':') != std::string_view::npos) {
      // RFC 1421 headers ("Proc-Type: 4,ENCRYPTED") mark a legacy encrypted key.
      throw std::invalid_argument("PEM block " + std::string(label) +
                                  " has headers (an encrypted key?); not supported");
    }
    auto der = decodeBase64(body);
    if (!der) throw std::invalid_argument("PEM block " + std::string(label) + " is not base64");
    result.push_back(PemBlock{std::string(label), std::move(*der)});
    position = bodyEnd + endLine.size();
  }
  return result;
}

std::string encodePem(std::string_view label, std::span<const uint8_t> der) {
  std::string base64 = encodeBase64(der);
  std::string result;
  result.reserve(base64.size() + base64.size() / 64 + 2 * label.size() + 40);
  result.append(kBegin).append(label).append(kDashes).append("\n");
  for (size_t i = 0; i < base64.size(); i += 64) {
    result.append(base64, i, 64).append("\n");
  }
  result.append(kEnd).append(label).append(kDashes).append("\n");
  return result;
}

}  // namespace tern::internal
