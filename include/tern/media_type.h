// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tern/export.h"

namespace tern {

// A media type (RFC 9110 §8.3.1, RFC 2045), like "text/plain; charset=utf-8": what a Content-Type
// header says about a body. Immutable; cheap enough to copy; safe to share between threads.
//
// Parsing follows OkHttp: type and subtype are tokens, lower-cased; each parameter is
// "; name=value" where the value is a token or a double-quoted string (no escapes). Whitespace may
// follow a ';' but nothing may precede it, and empty parameters (";;") are allowed. A value in
// single quotes ('utf-8') has the quotes stripped, as Chrome does. toString() gives back the text
// exactly as parsed.
class TERN_API MediaType {
 public:
  // Parses `text`; nullopt if it is not a well-formed media type.
  static std::optional<MediaType> parse(std::string_view text);

  // Parses `text`; throws std::invalid_argument naming the input and the part that is wrong, e.g.
  // `No subtype found for: "text"`.
  static MediaType get(std::string_view text);

  // The top-level type, lower-cased: "text", "image", "application", ...
  const std::string& type() const noexcept { return type_; }

  // The subtype, lower-cased: "plain", "png", "json", ...
  const std::string& subtype() const noexcept { return subtype_; }

  // The first "charset" parameter's value, as written (e.g. "utf-8"), or nullopt if there is none
  // or it is not a legal charset name (as OkHttp gives null for a charset Java rejects). Callers
  // compare it ignoring case.
  std::optional<std::string> charset() const;

  // The value of the first parameter called `name` (ignoring case), or nullopt.
  std::optional<std::string> parameter(std::string_view name) const;

  // The media type exactly as it was parsed, for a Content-Type header.
  const std::string& toString() const noexcept { return mediaType_; }

  // Equal when the original strings are equal, as OkHttp.
  bool operator==(const MediaType& other) const noexcept { return mediaType_ == other.mediaType_; }

 private:
  MediaType() = default;

  std::string mediaType_;
  std::string type_;
  std::string subtype_;
  std::vector<std::pair<std::string, std::string>> parameters_;
};

}  // namespace tern
