// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http1/status_line.h"

#include <string>

#include "http/http_syntax.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

[[noreturn]] void unexpected(std::string_view line) {
  throw ProtocolException("Unexpected status line: " + escapeForMessage(line));
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// RFC 9112 §4: reason-phrase = 1*( HTAB / SP / VCHAR / obs-text ). We also accept it empty.
bool isReasonPhrase(std::string_view s) {
  for (char c : s) {
    auto b = static_cast<unsigned char>(c);
    if ((b < 0x20 && c != '\t') || b == 0x7f) {
      return false;
    }
  }
  return true;
}

}  // namespace

StatusLine StatusLine::parse(std::string_view line) {
  // "HTTP/1.1 200 OK": the version, a space, three digits, then an optional space and reason.
  StatusLine result;
  size_t codeStart;
  if (line.starts_with("HTTP/1.")) {
    if (line.size() < 9 || line[8] != ' ') {
      unexpected(line);
    }
    if (line[7] == '0') {
      result.protocol = Protocol::HTTP_1_0;
    } else if (line[7] == '1') {
      result.protocol = Protocol::HTTP_1_1;
    } else {
      unexpected(line);
    }
    codeStart = 9;
  } else if (line.starts_with("ICY ")) {
    // Shoutcast's servers answer "ICY 200 OK" instead of "HTTP/1.0 200 OK".
    result.protocol = Protocol::HTTP_1_0;
    codeStart = 4;
  } else {
    unexpected(line);
  }

  if (line.size() < codeStart + 3) {
    unexpected(line);
  }
  int code = 0;
  for (size_t i = codeStart; i < codeStart + 3; ++i) {
    if (!isDigit(line[i])) {
      unexpected(line);
    }
    code = code * 10 + (line[i] - '0');
  }
  result.code = code;

  if (line.size() > codeStart + 3) {
    if (line[codeStart + 3] != ' ') {
      unexpected(line);
    }
    std::string_view message = line.substr(codeStart + 4);
    if (!isReasonPhrase(message)) {
      unexpected(line);
    }
    result.message = std::string(message);
  }
  return result;
}

std::string StatusLine::toString() const {
  std::string result = protocol == Protocol::HTTP_1_0 ? "HTTP/1.0 " : "HTTP/1.1 ";
  result += std::to_string(code);
  result += ' ';
  result += message;
  return result;
}

}  // namespace tern::internal
