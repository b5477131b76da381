// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tern::tool {

// A URL pattern that is not well formed: an unmatched brace, a bad range. what() is curl's text,
// "bad range in URL position 13:\n<pattern>\n<spaces>^", so the tool prints it after "tern: (3) ".
class GlobException : public std::runtime_error {
 public:
  // `position` is 1-based in `pattern`; 0 when the failure has no position (an overflow).
  GlobException(std::string reason, size_t position, std::string_view pattern);

  const std::string& reason() const noexcept { return reason_; }
  size_t position() const noexcept { return position_; }

 private:
  std::string reason_;
  size_t position_;
};

// One URL a pattern expands to, and the text each of the pattern's globs took in it (values()[0]
// is what "#1" names in an output file name).
struct GlobExpansion {
  std::string url;
  std::vector<std::string> values;
};

// curl's URL globbing: "{a,b,c}" sets, "[1-100]" and "[a-z]" ranges, "[001-100]" zero padding,
// "[1-100:10]" and "[a-z:2]" steps. A pattern with several globs expands to every combination,
// the rightmost glob varying fastest, as curl does. A backslash escapes a brace or bracket; "[]"
// and an IPv6 literal such as "[::1]" are kept as they are. Errors and their positions match
// curl's (exit code 3). Immutable; expansions are computed on demand, so "[1-1000000000]" costs
// no memory.
class UrlGlob {
 public:
  // Parses `pattern`. Throws GlobException as curl reports a bad glob.
  static UrlGlob parse(std::string_view pattern);

  // A pattern taken literally (curl's -g / --globoff): one expansion, no values.
  static UrlGlob literal(std::string_view url);

  // The number of URLs the pattern expands to (at least 1).
  uint64_t size() const noexcept { return size_; }

  // The `index`th expansion, in curl's order. Throws std::out_of_range unless index < size().
  GlobExpansion at(uint64_t index) const;

  // Every expansion, in order. Meant for tests and small patterns.
  std::vector<GlobExpansion> expandAll() const;

 private:
  // A piece of the pattern: literal text (one element, not a glob), a set, or a range. Ranges
  // keep their bounds and step rather than their elements.
  struct Piece {
    enum class Kind { kText, kSet, kNumbers, kLetters };
    Kind kind = Kind::kText;
    std::vector<std::string> elements;  // kText (one element) and kSet.
    int64_t first = 0;                  // kNumbers and kLetters: the first value, ...
    int64_t step = 1;                   // ... the step, ...
    uint64_t count = 1;                 // ... and the number of values.
    size_t width = 0;                   // kNumbers: zero-padded width (0 = no padding).

    std::string value(uint64_t index) const;
  };

  UrlGlob() = default;

  std::vector<Piece> pieces_;
  uint64_t size_ = 1;
};

// An output file name with curl's "#N" references replaced by values[N-1] (N from 1). A '#' not
// followed by the number of an existing glob stays as it is.
std::string substituteGlobValues(std::string_view name, const std::vector<std::string>& values);

}  // namespace tern::tool
