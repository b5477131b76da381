// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tern::internal {

// A set of ASCII characters to percent-encode. Every percent-encode set also holds the C0 controls,
// DEL and every byte >= 0x80 (so non-ASCII text is written as its UTF-8 bytes, percent-encoded).
class EncodeSet {
 public:
  // The C0 control percent-encode set plus each character in `extra`.
  consteval explicit EncodeSet(std::string_view extra) {
    for (const char c : extra) {
      add(static_cast<unsigned char>(c));
    }
  }

  constexpr bool contains(unsigned char c) const noexcept {
    if (c < 0x20 || c >= 0x7F) {
      return true;
    }
    return ((c < 64 ? low_ : high_) >> (c % 64)) & 1;
  }

  // This set plus the characters in `extra`.
  consteval EncodeSet plus(std::string_view extra) const {
    EncodeSet result = *this;
    for (const char c : extra) {
      result.add(static_cast<unsigned char>(c));
    }
    return result;
  }

 private:
  constexpr void add(unsigned char c) { (c < 64 ? low_ : high_) |= uint64_t{1} << (c % 64); }
  uint64_t low_ = 0;
  uint64_t high_ = 0;
};

// The WHATWG URL Standard's percent-encode sets (§1.3), used by the parser.
inline constexpr EncodeSet kC0ControlEncodeSet{""};
inline constexpr EncodeSet kFragmentEncodeSet = kC0ControlEncodeSet.plus(" \"<>`");
inline constexpr EncodeSet kQueryEncodeSet = kC0ControlEncodeSet.plus(" \"#<>");
inline constexpr EncodeSet kSpecialQueryEncodeSet = kQueryEncodeSet.plus("'");
inline constexpr EncodeSet kPathEncodeSet = kQueryEncodeSet.plus("?^`{}");
inline constexpr EncodeSet kUserinfoEncodeSet = kPathEncodeSet.plus("/:;=@[\\]|");

// OkHttp's encode sets, used by HttpUrl::Builder. Each is a superset of the WHATWG set for the same
// component, so what the builder writes parses back unchanged.
inline constexpr EncodeSet kUsernameEncodeSet{" \"':;<=>@[]^`{}|/\\?#"};
inline constexpr EncodeSet kPasswordEncodeSet = kUsernameEncodeSet;
inline constexpr EncodeSet kPathSegmentEncodeSet{" \"<>^`{}|/\\?#"};
inline constexpr EncodeSet kBuilderQueryEncodeSet{" \"'<>#"};
inline constexpr EncodeSet kQueryComponentReencodeSet{" \"'<>#&="};
inline constexpr EncodeSet kQueryComponentEncodeSet{" !\"#$&'(),/:;<=>?@[]\\^`{|}~"};

// Appends `in` to `out`, percent-encoding each byte in `set` (UTF-8 percent-encode, WHATWG §1.3).
void percentEncode(std::string& out, std::string_view in, const EncodeSet& set);

// OkHttp's canonicalize: percent-encodes the bytes of `in` that are in `set`. With alreadyEncoded,
// a "%" is kept as is and tabs, newlines, form feeds and carriage returns are dropped; without it,
// "%" becomes "%25". With plusIsSpace, a "+" is kept if alreadyEncoded and written "%2B" otherwise,
// since a literal "+" in a query means a space.
std::string canonicalize(std::string_view in, const EncodeSet& set, bool alreadyEncoded,
                         bool plusIsSpace = false);

// Decodes each valid "%XX" escape (and "+" as a space if plusIsSpace); an invalid escape is kept
// literally. Bytes that do not form valid UTF-8 become U+FFFD, so the result is always valid UTF-8.
std::string percentDecode(std::string_view in, bool plusIsSpace = false);

// Like percentDecode but returns the raw bytes, which may be ill-formed UTF-8.
std::string percentDecodeBytes(std::string_view in, bool plusIsSpace = false);

// The value of an ASCII hex digit, or -1.
constexpr int hexValue(char c) noexcept {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

}  // namespace tern::internal
