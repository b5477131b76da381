// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/media_type.h"

#include <stdexcept>

#include "http/http_syntax.h"

namespace tern {
namespace {

using internal::isTokenChar;

// Returns the end of the token starting at `pos` (== pos when there is none).
std::size_t tokenEnd(std::string_view s, std::size_t pos) {
  while (pos < s.size() && isTokenChar(s[pos])) {
    ++pos;
  }
  return pos;
}

// Matches one "; name=value" at `pos`, as OkHttp's PARAMETER regex
// `;\s*(?:TOKEN=(?:TOKEN|QUOTED))?`. Returns false if there is no ';'. On success `pos` is past
// what matched; name is empty when only the ";" and its whitespace matched. A single-quoted
// token value ('utf-8') is invalid, but Chrome strips the quotes and so do we; a double-quoted
// value is taken as it is.
bool readParameter(std::string_view s, std::size_t& pos, std::string_view& name,
                   std::string_view& value) {
  if (pos >= s.size() || s[pos] != ';') {
    return false;
  }
  std::size_t p = pos + 1;
  while (p < s.size() && internal::isAsciiWhitespace(s[p])) {
    ++p;
  }
  pos = p;
  name = {};
  value = {};

  std::size_t nameEnd = tokenEnd(s, p);
  if (nameEnd == p || nameEnd >= s.size() || s[nameEnd] != '=') {
    return true;
  }
  std::size_t valueStart = nameEnd + 1;
  std::size_t valueEnd = tokenEnd(s, valueStart);
  if (valueEnd > valueStart) {
    value = s.substr(valueStart, valueEnd - valueStart);
    if (value.size() > 2 && value.front() == '\'' && value.back() == '\'') {
      value = value.substr(1, value.size() - 2);
    }
  } else if (valueStart < s.size() && s[valueStart] == '"') {
    std::size_t close = s.find('"', valueStart + 1);
    if (close == std::string_view::npos) {
      return true;
    }
    value = s.substr(valueStart + 1, close - valueStart - 1);
    valueEnd = close + 1;
  } else {
    return true;
  }
  name = s.substr(p, nameEnd - p);
  pos = valueEnd;
  return true;
}

std::string quote(std::string_view s) { return "\"" + internal::escapeForMessage(s) + "\""; }

}  // namespace

MediaType MediaType::get(std::string_view text) {
  std::size_t typeEnd = tokenEnd(text, 0);
  std::size_t subtypeStart = typeEnd + 1;
  std::size_t subtypeEnd = typeEnd < text.size() ? tokenEnd(text, subtypeStart) : typeEnd;
  if (typeEnd == 0 || typeEnd >= text.size() || text[typeEnd] != '/' ||
      subtypeEnd == subtypeStart) {
    throw std::invalid_argument("No subtype found for: " + quote(text));
  }

  MediaType result;
  result.mediaType_ = std::string(text);
  result.type_ = internal::toLowerAscii(text.substr(0, typeEnd));
  result.subtype_ = internal::toLowerAscii(text.substr(subtypeStart, subtypeEnd - subtypeStart));

  std::size_t pos = subtypeEnd;
  while (pos < text.size()) {
    std::string_view name;
    std::string_view value;
    if (!readParameter(text, pos, name, value)) {
      throw std::invalid_argument("Parameter is not formatted correctly: " +
                                  quote(text.substr(pos)) + " for: " + quote(text));
    }
    if (name.empty()) {
      continue;  // A bare ';'.
    }
    result.parameters_.emplace_back(std::string(name), std::string(value));
  }
  return result;
}

std::optional<MediaType> MediaType::parse(std::string_view text) {
  try {
    return get(text);
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // parse() is the non-throwing form of get(); the message is not needed.
  }
}

std::optional<std::string> MediaType::charset() const {
  std::optional<std::string> charset = parameter("charset");
  if (!charset || !internal::isLegalCharsetName(*charset)) {
    return std::nullopt;
  }
  return charset;
}

std::optional<std::string> MediaType::parameter(std::string_view name) const {
  for (const auto& [parameterName, value] : parameters_) {
    if (internal::equalsIgnoreCase(parameterName, name)) {
      return value;
    }
  }
  return std::nullopt;
}

}  // namespace tern
