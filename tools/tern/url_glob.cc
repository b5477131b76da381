// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "url_glob.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace tern::tool {
namespace {

// curl refuses patterns with more pieces than this ("too many {} sets").
constexpr size_t kMaxPieces = 255;
// The largest number of expansions: curl counts them in a signed 64-bit curl_off_t.
constexpr uint64_t kMaxExpansions = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
// An IPv6 literal in brackets is at most this long, brackets included (curl's MAX_IP6LEN).
constexpr size_t kMaxIpv6Literal = 128;

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isHexDigit(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

std::string describe(const std::string& reason, size_t position, std::string_view pattern) {
  if (position == 0) {
    return reason;
  }
  return reason + " in URL position " + std::to_string(position) + ":\n" + std::string(pattern) +
         "\n" + std::string(position - 1, ' ') + "^";
}

// Multiplies `total` by `count`, or returns false if the product passes kMaxExpansions.
bool multiplyExpansions(uint64_t& total, uint64_t count) {
  if (count != 0 && total > kMaxExpansions / count) {
    return false;
  }
  total *= count;
  return true;
}

// If `text` starts with an IPv6 literal in brackets ("[::1]", "[fe80::1%25eth0]"), its length
// with the brackets; otherwise 0. A literal has only hex digits, colons and dots (then an optional
// zone after '%') and at least two colons, so it can never be mistaken for a range, which needs a
// '-' and at most one ':'.
size_t ipv6LiteralLength(std::string_view text) {
  size_t close = text.find(']');
  if (close == std::string_view::npos || close + 1 >= kMaxIpv6Literal) {
    return 0;
  }
  std::string_view inside = text.substr(1, close - 1);
  size_t zone = inside.find('%');
  std::string_view address = inside.substr(0, zone);
  int colons = 0;
  for (char c : address) {
    if (c == ':') {
      ++colons;
    } else if (!isHexDigit(c) && c != '.') {
      return 0;
    }
  }
  if (zone != std::string_view::npos) {
    std::string_view zoneId = inside.substr(zone + 1);
    if (zoneId.empty()) {
      return 0;
    }
    for (char c : zoneId) {
      if (!isAlpha(c) && !isDigit(c) && c != '.' && c != '_' && c != '~' && c != '-' && c != '%') {
        return 0;
      }
    }
  }
  return colons >= 2 ? close + 1 : 0;
}

// Reads a decimal number at `text[i]`, advancing `i` past its digits. nullopt, with `i` past the
// digits, if there are none or it overflows 64 bits.
std::optional<uint64_t> readNumber(std::string_view text, size_t& i) {
  size_t start = i;
  uint64_t value = 0;
  bool overflow = false;
  while (i < text.size() && isDigit(text[i])) {
    uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) {
      overflow = true;
    }
    value = value * 10 + digit;
    ++i;
  }
  if (i == start || overflow) {
    return std::nullopt;
  }
  return value;
}

// The parser's state: the pattern, the read index, and curl's 1-based position for messages.
class GlobParser {
 public:
  explicit GlobParser(std::string_view pattern) : pattern_(pattern) {}

  [[noreturn]] void fail(const std::string& reason, size_t position) const {
    throw GlobException(reason, position, pattern_);
  }

  bool atEnd() const { return i_ >= pattern_.size(); }
  char peek(size_t ahead = 0) const {
    return i_ + ahead < pattern_.size() ? pattern_[i_ + ahead] : '\0';
  }

  std::string_view pattern_;
  size_t i_ = 0;
  size_t position_ = 1;
};

}  // namespace

GlobException::GlobException(std::string reason, size_t position, std::string_view pattern)
    : std::runtime_error(describe(reason, position, pattern)),
      reason_(std::move(reason)),
      position_(position) {}

std::string UrlGlob::Piece::value(uint64_t index) const {
  switch (kind) {
    case Kind::kText:
    case Kind::kSet:
      return elements[index];
    case Kind::kLetters:
      return std::string(1, static_cast<char>(first + static_cast<int64_t>(index) * step));
    case Kind::kNumbers: {
      // Values are at most INT64_MAX: the range's bounds were checked when it was parsed.
      uint64_t number = static_cast<uint64_t>(first) + index * static_cast<uint64_t>(step);
      std::string digits = std::to_string(number);
      if (digits.size() < width) {
        digits.insert(0, width - digits.size(), '0');
      }
      return digits;
    }
  }
  return {};
}

UrlGlob UrlGlob::literal(std::string_view url) {
  UrlGlob glob;
  Piece text;
  text.elements.emplace_back(url);
  glob.pieces_.push_back(std::move(text));
  return glob;
}

UrlGlob UrlGlob::parse(std::string_view pattern) {
  UrlGlob glob;
  GlobParser p(pattern);

  auto addPiece = [&](Piece piece) {
    if (!multiplyExpansions(glob.size_, piece.count)) {
      p.fail("range overflow", piece.kind == Piece::Kind::kSet ? 0 : p.position_);
    }
    glob.pieces_.push_back(std::move(piece));
    if (glob.pieces_.size() >= kMaxPieces) {
      p.fail("too many {} sets", p.position_);
    }
  };

  while (!p.atEnd()) {
    // Literal text up to the next glob.
    std::string text;
    while (!p.atEnd() && p.peek() != '{') {
      if (p.peek() == '[') {
        size_t skip = ipv6LiteralLength(pattern.substr(p.i_));
        if (skip == 0 && p.peek(1) == ']') {
          skip = 2;  // "[]" is text, as curl keeps it.
        }
        if (skip == 0) {
          break;
        }
        text.append(pattern.substr(p.i_, skip));
        p.i_ += skip;
        continue;
      }
      if (p.peek() == '}' || p.peek() == ']') {
        p.fail("unmatched close brace/bracket", p.position_);
      }
      char next = p.peek(1);
      if (p.peek() == '\\' && (next == '{' || next == '[' || next == '}' || next == ']')) {
        ++p.i_;
        ++p.position_;
      }
      text.push_back(p.peek());
      ++p.i_;
      ++p.position_;
    }
    if (!text.empty()) {
      Piece piece;
      piece.elements.push_back(std::move(text));
      addPiece(std::move(piece));
      continue;
    }
    if (p.atEnd()) {
      break;
    }

    bool isSet = p.peek() == '{';
    ++p.i_;
    ++p.position_;
    Piece piece;
    if (isSet) {
      // "{a,b,c}": elements up to the closing brace; a backslash escapes any character.
      piece.kind = Piece::Kind::kSet;
      size_t openPosition = p.position_ - 1;
      size_t start = p.i_;
      std::string element;
      bool done = false;
      while (!done) {
        if (p.atEnd()) {
          p.fail("unmatched brace", openPosition);
        }
        char c = p.peek();
        if (c == '{' || c == '[') {
          p.fail("nested brace", p.position_);
        } else if (c == ']') {
          p.fail("unexpected close bracket", p.position_);
        } else if (c == '}' || c == ',') {
          if (c == '}' && p.i_ == start) {
            p.fail("empty string within braces", p.position_);
          }
          piece.elements.push_back(std::move(element));
          element.clear();
          ++p.i_;
          done = c == '}';
          if (!done) {
            ++p.position_;
          }
        } else {
          if (c == '\\' && p.i_ + 1 < pattern.size()) {
            ++p.i_;
            ++p.position_;
          }
          element.push_back(p.peek());
          ++p.i_;
          ++p.position_;
        }
      }
      piece.count = piece.elements.size();
    } else if (isAlpha(p.peek())) {
      // "[a-z]" or "[a-z:3]": letters from min to max (at most 26 of them) by step.
      piece.kind = Piece::Kind::kLetters;
      size_t start = p.i_;
      bool wellFormed = false;
      uint64_t step = 1;
      char min = p.peek();
      char max = p.peek(2);
      if (p.peek(1) == '-' && p.peek(2) != '\0' && p.peek(3) != '\0') {
        wellFormed = true;
        if (p.peek(3) == ':') {
          size_t i = p.i_ + 4;
          std::optional<uint64_t> number = readNumber(pattern, i);
          if (number && i < pattern.size() && pattern[i] == ']') {
            step = *number;
            p.i_ = i + 1;
          } else {
            step = 0;
          }
        } else if (p.peek(3) == ']') {
          p.i_ += 4;
        } else {
          wellFormed = false;
        }
      }
      p.position_ += p.i_ - start;
      int span = static_cast<unsigned char>(max) - static_cast<unsigned char>(min);
      if (!wellFormed || step == 0 || (min == max && step != 1) ||
          (min != max && (span < 0 || step > static_cast<uint64_t>(span) || span > 'z' - 'a'))) {
        p.fail("bad range", p.position_);
      }
      piece.first = static_cast<unsigned char>(min);
      piece.step = static_cast<int64_t>(step);
      piece.count = static_cast<uint64_t>(span) / step + 1;
    } else if (isDigit(p.peek())) {
      // "[1-100]", "[001-100]" (zero padding to the width of min), "[1-100:10]".
      piece.kind = Piece::Kind::kNumbers;
      if (p.peek() == '0') {
        for (size_t i = p.i_; i < pattern.size() && isDigit(pattern[i]); ++i) {
          ++piece.width;
        }
      }
      size_t start = p.i_;
      std::optional<uint64_t> min = readNumber(pattern, p.i_);
      std::optional<uint64_t> max;
      std::optional<uint64_t> step;
      if (!min || p.peek() != '-') {
        p.i_ = start;  // curl reports the position right after '['.
      } else {
        ++p.i_;
        while (p.peek() == ' ' || p.peek() == '\t') {
          ++p.i_;
        }
        size_t maxStart = p.i_;
        max = readNumber(pattern, p.i_);
        if (!max) {
          p.i_ = maxStart;
        } else if (p.peek() == ']') {
          step = 1;
          ++p.i_;
        } else if (p.peek() == ':') {
          ++p.i_;
          size_t stepStart = p.i_;
          step = readNumber(pattern, p.i_);
          if (step && p.peek() == ']') {
            ++p.i_;
          } else {
            step.reset();
            p.i_ = stepStart;
          }
        } else {
          max.reset();
          p.i_ = maxStart;
        }
      }
      p.position_ += p.i_ - start;
      if (!step || *step == 0 || (*min == *max && *step != 1) ||
          (*min != *max && (*min > *max || *step > *max - *min)) || *max > kMaxExpansions - *step) {
        p.fail("bad range", p.position_);
      }
      piece.first = static_cast<int64_t>(*min);
      piece.step = static_cast<int64_t>(*step);
      piece.count = (*max - *min) / *step + 1;
    } else {
      p.fail("bad range specification", p.position_);
    }
    addPiece(std::move(piece));
  }
  return glob;
}

GlobExpansion UrlGlob::at(uint64_t index) const {
  if (index >= size_) {
    throw std::out_of_range("UrlGlob::at: index " + std::to_string(index) + " is not below size " +
                            std::to_string(size_));
  }
  // A mixed-radix counter whose rightmost digit is the last piece, as curl steps its globs.
  std::vector<std::string> parts(pieces_.size());
  for (size_t i = pieces_.size(); i-- > 0;) {
    const Piece& piece = pieces_[i];
    parts[i] = piece.value(index % piece.count);
    index /= piece.count;
  }
  GlobExpansion expansion;
  for (size_t i = 0; i < pieces_.size(); ++i) {
    expansion.url += parts[i];
    if (pieces_[i].kind != Piece::Kind::kText) {
      expansion.values.push_back(std::move(parts[i]));
    }
  }
  return expansion;
}

std::vector<GlobExpansion> UrlGlob::expandAll() const {
  std::vector<GlobExpansion> all;
  for (uint64_t i = 0; i < size_; ++i) {
    all.push_back(at(i));
  }
  return all;
}

std::string substituteGlobValues(std::string_view name, const std::vector<std::string>& values) {
  std::string result;
  size_t i = 0;
  while (i < name.size()) {
    if (name[i] == '#' && i + 1 < name.size() && isDigit(name[i + 1])) {
      size_t end = i + 1;
      std::optional<uint64_t> number = readNumber(name, end);
      if (number && *number >= 1 && *number <= values.size()) {
        result += values[*number - 1];
        i = end;
        continue;
      }
    }
    result.push_back(name[i]);
    ++i;
  }
  return result;
}

}  // namespace tern::tool
