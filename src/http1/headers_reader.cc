// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http1/headers_reader.h"

#include <string>
#include <vector>

#include "http/http_syntax.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {

std::string HeadersReader::readLine() {
  try {
    std::string line = source_.readUtf8LineStrict(headerLimit_);
    headerLimit_ -= static_cast<int64_t>(line.size());
    return line;
  } catch (const EOFException&) {
    // readUtf8LineStrict reports both "too long" and "ended early" as EOF. Bytes buffered past
    // the budget mean the line is too long; a lone trailing '\r' at the limit could still have
    // been a terminator cut short, so that is an early end.
    Buffer& buffer = source_.buffer();
    int64_t size = buffer.size();
    bool crAtLimit = size == headerLimit_ + 1 && buffer.getByte(headerLimit_) == std::byte{'\r'};
    if (size > headerLimit_ && !crAtLimit) {
      throw ProtocolException("HTTP header line exceeds the " + std::to_string(kHeaderLimit) +
                              " byte limit (" + std::to_string(headerLimit_) + " bytes left)");
    }
    throw;
  }
}

Headers HeadersReader::readHeaders() {
  // Collect the fields first so that folded continuation lines can join the value before them.
  std::vector<std::string> lines;
  for (std::string line = readLine(); !line.empty(); line = readLine()) {
    if (isHttpWhitespace(line[0])) {
      // RFC 9112 §5.2: replace an obs-fold with a space. Whitespace before the first field
      // (§2.2) is a line we consume without further processing.
      if (!lines.empty()) {
        std::string& previous = lines.back();
        while (!previous.empty() && isHttpWhitespace(previous.back())) {
          previous.pop_back();
        }
        previous += ' ';
        previous += trimAsciiWhitespace(line);
      }
      continue;
    }
    lines.push_back(std::move(line));
  }
  Headers::Builder result;
  for (const std::string& line : lines) {
    result.addLenient(line);
  }
  return std::move(result).build();
}

}  // namespace tern::internal
