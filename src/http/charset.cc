// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/charset.h"

#include <iconv.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <memory>

#include "io/ascii.h"

namespace tern::internal {
namespace {

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD in UTF-8.

struct IconvCloser {
  void operator()(void* cd) const { iconv_close(static_cast<iconv_t>(cd)); }
};
using IconvHandle = std::unique_ptr<void, IconvCloser>;

bool startsWith(std::string_view bytes, std::string_view prefix) {
  return bytes.substr(0, prefix.size()) == prefix;
}

bool isUtf8Name(const std::string& name) { return name == "utf-8" || name == "utf8"; }

// The number of input bytes that make one character in `charset`, for skipping one that cannot
// be converted: fixed for UTF-16/32, the sequence length for UTF-8, one byte otherwise.
size_t unitLength(const std::string& charset, std::string_view in) {
  if (charset == "utf-8") {
    auto lead = static_cast<unsigned char>(in.front());
    size_t n = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return std::min(n, in.size());
  }
  if (charset.find("32") != std::string::npos) return std::min<size_t>(4, in.size());
  if (charset.find("16") != std::string::npos) return std::min<size_t>(2, in.size());
  return 1;
}

// Converts `bytes` from one charset to another with iconv, replacing each character it cannot
// convert by `replacement` and going on, so a few bad bytes never lose the rest. Returns nullopt
// if iconv does not know either charset.
std::optional<std::string> convert(std::string_view bytes, const std::string& from,
                                   const std::string& to, std::string_view replacement) {
  iconv_t raw = iconv_open(to.c_str(), from.c_str());
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
    // EILSEQ (bad or unrepresentable) or EINVAL (truncated at the end): replace one character.
    out.append(replacement);
    size_t skip = unitLength(from, std::string_view(in, inLeft));
    in += skip;
    inLeft -= skip;
    iconv(raw, nullptr, nullptr, nullptr, nullptr);  // Reset the shift state after it.
  }
  return out;
}

}  // namespace

std::string decodeToUtf8(std::string_view bytes, const std::optional<std::string>& charset) {
  // Byte-order marks, longest first: a UTF-32LE mark begins with the UTF-16LE one.
  struct Bom {
    std::string_view mark;
    const char* charset;
  };
  static constexpr Bom kBoms[] = {
      {{"\xEF\xBB\xBF", 3}, "utf-8"},        {{"\x00\x00\xFE\xFF", 4}, "utf-32be"},
      {{"\xFF\xFE\x00\x00", 4}, "utf-32le"}, {{"\xFE\xFF", 2}, "utf-16be"},
      {{"\xFF\xFE", 2}, "utf-16le"},
  };
  std::string name = charset ? toLowerAscii(*charset) : "utf-8";
  for (const Bom& bom : kBoms) {
    if (startsWith(bytes, bom.mark)) {
      bytes.remove_prefix(bom.mark.size());
      name = bom.charset;
      break;
    }
  }
  if (isUtf8Name(name)) return std::string(bytes);
  return convert(bytes, name, "utf-8", kReplacementCharacter).value_or(std::string(bytes));
}

std::string encodeFromUtf8(std::string_view text, const std::string& charset) {
  std::string name = toLowerAscii(charset);
  if (isUtf8Name(name)) return std::string(text);
  return convert(text, "utf-8", name, "?").value_or(std::string(text));
}

void encodeTextContent(std::string& text, std::optional<MediaType>& contentType) {
  if (!contentType) return;
  if (std::optional<std::string> charset = contentType->charset()) {
    text = encodeFromUtf8(text, *charset);
  } else {
    contentType = MediaType::parse(contentType->toString() + "; charset=utf-8");
  }
}

}  // namespace tern::internal
