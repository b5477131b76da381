// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/ascii.h"
#include "tern/export.h"

namespace tern::internal {

// The one place that says which bytes HTTP allows where (RFC 9110 §5.5, §5.6). Every parser in
// the http layer lexes with these, so "token", "whitespace" and "quoted-string" mean the same
// thing everywhere. All functions take arbitrary bytes and never read past the view they are given.

// RFC 9110 §5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_"
// / "`" / "|" / "~" / DIGIT / ALPHA.
bool isTokenChar(char c) noexcept;

// True if `s` is a non-empty RFC 9110 token (one or more tchar).
bool isToken(std::string_view s) noexcept;

// RFC 9110 §5.6.3 OWS: a space or a horizontal tab.
constexpr bool isHttpWhitespace(char c) noexcept { return c == ' ' || c == '\t'; }

// ASCII whitespace as Kotlin's trim() sees it in header text: SP, HTAB, LF, VT, FF, CR.
constexpr bool isAsciiWhitespace(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// `s` without leading and trailing ASCII whitespace (as OkHttp trims header names and values).
TERN_INTERNAL_API std::string_view trimAsciiWhitespace(std::string_view s) noexcept;

// Returns the index of the first byte at or after `pos` that is not SP or HTAB, or s.size().
std::size_t skipHttpWhitespace(std::string_view s, std::size_t pos) noexcept;

// Returns the index of the first byte at or after `pos` that is one of `chars`, or s.size().
std::size_t indexOfAny(std::string_view s, std::string_view chars, std::size_t pos) noexcept;

// Reads an RFC 9110 §5.6.4 quoted-string starting at s[pos], which must be '"'. Backslash escapes
// (quoted-pair) are unescaped to the byte that follows. On success returns the unescaped text and
// moves `pos` past the closing quote. Returns nullopt, leaving `pos` alone, when the string is
// unterminated or ends in a dangling backslash.
std::optional<std::string> readQuotedString(std::string_view s, std::size_t& pos);

// Headers whose values are credentials: toString() and error messages never show their values.
// Authorization, Cookie, Proxy-Authorization and Set-Cookie, compared ignoring case (as OkHttp).
bool isSensitiveHeader(std::string_view name) noexcept;

// A charset name Java's Charset.forName would accept syntactically (RFC 2978 mime-charset
// characters): starts with a letter or digit, then letters, digits, '-', '+', ':', '_' or '.'.
bool isLegalCharsetName(std::string_view name) noexcept;

// Describes the character starting at s[index] for an error message as "0x" + hex code point:
// a well-formed UTF-8 sequence is reported as its code point (é → 0xe9, as OkHttp reports the
// UTF-16 char), anything else as the single byte.
std::string describeCharAt(std::string_view s, std::size_t index);

// Validates a header name for Headers::Builder::add: a non-empty RFC 9110 token. Throws
// std::invalid_argument naming the name and the first bad character with its position.
void checkHeaderName(std::string_view name);

// Validates a header value (RFC 9110 §5.5): no control characters except HTAB, no DEL, and, unless
// `allowNonAscii`, no bytes >= 0x80. CR, LF and NUL are always rejected so a value can never split
// a header line. Throws std::invalid_argument naming the header, the character and its byte
// position; the value is only echoed when the header is not sensitive.
void checkHeaderValue(std::string_view value, std::string_view name, bool allowNonAscii);

// Checks a field value received from a peer (RFC 9110 §5.5): a recipient must either reject a
// value holding CR, LF or NUL or replace each with SP. tern rejects, as curl does ("Nul byte in
// header"), the same for HTTP/1.1 and HTTP/2 headers and trailers, so a value can never smuggle a
// line break or cut a C string short in the caller's hands. Throws ProtocolException naming the
// field, the character and its position; the value, escaped, only when the field is not sensitive.
void checkReceivedFieldValue(std::string_view name, std::string_view value);

// The items of a comma-separated header value ("br, zstd;q=0.5, gzip"), each without its
// parameters and surrounding whitespace; empty items are skipped.
std::vector<std::string> listTokens(std::string_view value);

}  // namespace tern::internal
