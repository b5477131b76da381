// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/charset.h"

#include <iconv.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <memory>

namespace tern::internal {
namespace {

struct IconvCloser {
  void operator()(void* cd) const { iconv_close(static_cast<iconv_t>(cd)); }
};
using IconvHandle = std::unique_ptr<void, IconvCloser>;

std::string lowerAscii(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool startsWith(std::string_view bytes, std::string_view prefix) {
  return bytes.substr(0, prefix.size()) == prefix;
}

bool isUtf8Name(const std::string& name) { return name == "utf-8" || name == "utf8"; }

// Converts with iconv, replacing each unconvertible input sequence by U+FFFD and going on, so a
// body with a few bad bytes still reads. Returns nullopt if iconv doesn't know `from`.
std::optional<std::string> convert(std::string_view bytes, const std::string& from,
                                   size_t unitSize) {
  iconv_t raw = iconv_open("UTF-8", from.c_str());
  if (raw == reinterpret_cast<iconv_t>(-1)) return std::nullopt;
  IconvHandle cd(raw);

  std::string out;
  out.reserve(bytes.size() + bytes.size() / 2);
  char* in = const_cast<char*>(bytes.data());  // iconv's signature; it does not write input.
  size_t inLeft = bytes.size();
  char chunk[4096];
  while (inLeft > 0) {
    char* outPtr = chunk;
    size_t outLeft = sizeof(chunk);
    size_t rc = iconv(raw, &in, &inLeft, &outPtr, &outLeft);
    out.append(chunk, static_cast<size_t>(outPtr - chunk));
    if (rc != static_cast<size_t>(-1)) break;
    if (errno == E2BIG) continue;
    // EILSEQ (bad sequence) or EINVAL (truncated at the end): emit U+FFFD and skip one unit.
    out.append("\xEF\xBF\xBD");
    size_t skip = std::min(unitSize, inLeft);
    in += skip;
    inLeft -= skip;
    iconv(raw, nullptr, nullptr, nullptr, nullptr);  // Reset shift state after the bad unit.
  }
  return out;
}

size_t unitSizeOf(const std::string& name) {
  if (name.find("32") != std::string::npos) return 4;
  if (name.find("16") != std::string::npos || name == "ucs-2") return 2;
  return 1;
}

}  // namespace

std::string decodeToUtf8(std::string_view bytes, const std::optional<std::string>& charset) {
  // Byte-order marks, longest first: a UTF-32LE mark begins with the UTF-16LE one.
  if (startsWith(bytes, "\xEF\xBB\xBF")) return std::string(bytes.substr(3));
  if (startsWith(bytes, std::string_view("\x00\x00\xFE\xFF", 4))) {
    return convert(bytes.substr(4), "UTF-32BE", 4).value_or(std::string());
  }
  if (startsWith(bytes, std::string_view("\xFF\xFE\x00\x00", 4))) {
    return convert(bytes.substr(4), "UTF-32LE", 4).value_or(std::string());
  }
  if (startsWith(bytes, "\xFE\xFF")) return convert(bytes.substr(2), "UTF-16BE", 2).value_or("");
  if (startsWith(bytes, "\xFF\xFE")) return convert(bytes.substr(2), "UTF-16LE", 2).value_or("");

  if (!charset) return std::string(bytes);
  std::string name = lowerAscii(*charset);
  if (isUtf8Name(name)) return std::string(bytes);
  if (auto converted = convert(bytes, name, unitSizeOf(name))) return *converted;
  return std::string(bytes);
}

}  // namespace tern::internal
