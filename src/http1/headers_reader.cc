// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http1/headers_reader.h"

#include <algorithm>
#include <span>
#include <string>

#include "http/http_syntax.h"
#include "io/hex.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

// RFC 9110 §5.5 and RFC 9112 §2.2: a NUL or a bare CR in a field line rejects the message (a LF
// always ends the line). The name is what precedes the first ':', as addLenient splits it.
void checkFieldLine(std::string_view line) {
  if (line.find_first_of(std::string_view("\0\r", 2)) == std::string_view::npos) return;
  std::size_t colon = line.size() > 1 ? line.find(':', 1) : std::string_view::npos;
  if (colon == std::string_view::npos) colon = 0;
  checkReceivedFieldValue(line.substr(0, colon),
                          trimAsciiWhitespace(line.substr(colon == 0 ? 0 : colon + 1)));
}

}  // namespace

std::string_view HeadersReader::readLine() {
  // As readUtf8LineStrict(headerLimit_): the '\n' must come within the budget + 1 bytes, or one
  // byte later after a '\r' that ends a line of exactly the budget.
  Buffer& buffer = source_.buffer();
  int64_t scanLength = headerLimit_ + 1;
  int64_t newline = source_.indexOf(std::byte{'\n'}, 0, scanLength);
  if (newline == -1 && source_.request(scanLength) &&
      buffer.getByte(scanLength - 1) == std::byte{'\r'} && source_.request(scanLength + 1) &&
      buffer.getByte(scanLength) == std::byte{'\n'}) {
    newline = scanLength;
  }
  if (newline == -1) {
    // Bytes buffered past the budget mean the line is too long; a lone trailing '\r' at the
    // limit could still have been a terminator cut short, so that is an early end.
    int64_t size = buffer.size();
    bool crAtLimit = size == headerLimit_ + 1 && buffer.getByte(headerLimit_) == std::byte{'\r'};
    if (size > headerLimit_ && !crAtLimit) {
      throw ProtocolException("HTTP header line exceeds the " + std::to_string(kHeaderLimit) +
                              " byte limit (" + std::to_string(headerLimit_) + " bytes left)");
    }
    Buffer shown;
    buffer.copyTo(shown, 0, std::min<int64_t>(32, size));
    throw EOFException("\\n not found: limit=" + std::to_string(std::min(size, headerLimit_)) +
                       " content=" + hex(shown) + "\u2026");
  }
  auto length = static_cast<size_t>(newline + 1);
  char* out = inline_;
  if (length > kInlineLine) {
    line_.resize(length);
    out = line_.data();
  }
  source_.readFully(std::as_writable_bytes(std::span(out, length)));
  std::string_view line(out, length - 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  headerLimit_ -= static_cast<int64_t>(line.size());
  return line;
}

bool HeadersReader::nextLineIsFolded() {
  if (!source_.request(1)) return false;  // readLine() will report the early end.
  std::byte next = source_.buffer().getByte(0);
  return next == std::byte{' '} || next == std::byte{'\t'};
}

Headers HeadersReader::readHeaders() {
  Headers::Builder result;
  for (std::string_view line = readLine(); !line.empty(); line = readLine()) {
    if (isHttpWhitespace(line[0])) {
      continue;  // Whitespace before the first field (RFC 9112 §2.2): consumed, not processed.
    }
    checkFieldLine(line);
    if (!nextLineIsFolded()) {
      result.addLenient(line);
      continue;
    }
    // RFC 9112 §5.2: replace each obs-fold with one space. Rare, so the field is copied.
    std::string field(line);
    while (nextLineIsFolded()) {
      std::string_view continuation = readLine();
      while (!field.empty() && isHttpWhitespace(field.back())) field.pop_back();
      field += ' ';
      field += trimAsciiWhitespace(continuation);
      checkFieldLine(field);
    }
    result.addLenient(field);
  }
  return std::move(result).build();
}

}  // namespace tern::internal
