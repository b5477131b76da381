// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "url/idna.h"

#include <idn2.h>

#include <memory>
#include <vector>

#include "url/punycode.h"
#include "url/url_syntax.h"
#include "url/utf8.h"

namespace tern::internal {
namespace {

struct Idn2Deleter {
  void operator()(char* p) const noexcept { idn2_free(p); }
};
using Idn2String = std::unique_ptr<char, Idn2Deleter>;

// Limits on non-ASCII domains, far above DNS's (63 and 253) but bounding the work per host: labels
// longer than this (in code points) are rejected rather than risk quadratic Punycode work, and so
// are domains longer than this (in bytes), each of whose labels costs a call into libidn2.
constexpr size_t kMaxLabelCodePoints = 1024;
constexpr size_t kMaxUnicodeDomainBytes = 16384;

bool isLabelSeparator(char32_t c) {
  // UTS #46 maps these to U+002E FULL STOP before splitting into labels.
  return c == 0x2E || c == 0x3002 || c == 0xFF0E || c == 0xFF61;
}

// libidn2's UTS #46 processing (idn2_lookup_u8) of `label`; on success `out` is the ASCII result.
int idn2Lookup(const std::u32string& label, int flags, std::string& out) {
  std::string utf8;
  for (const char32_t c : label) {
    appendUtf8(utf8, c);
  }
  char* raw = nullptr;
  const int rc = idn2_lookup_u8(reinterpret_cast<const uint8_t*>(utf8.c_str()),
                                reinterpret_cast<uint8_t**>(&raw), flags);
  const Idn2String result(raw);
  if (rc == IDN2_OK) {
    out = result.get();
  }
  return rc;
}

// The code points of an ASCII domain from libidn2, with its "xn--" labels decoded.
std::optional<std::u32string> decodeLabels(std::string_view ascii) {
  std::u32string out;
  size_t start = 0;
  while (true) {
    size_t dot = ascii.find('.', start);
    if (dot == std::string_view::npos) {
      dot = ascii.size();
    }
    const std::string_view label = ascii.substr(start, dot - start);
    if (label.starts_with("xn--")) {
      const std::optional<std::u32string> decoded = punycodeDecode(label.substr(4));
      if (!decoded) {
        return std::nullopt;
      }
      out.append(*decoded);
    } else {
      out.append(label.begin(), label.end());
    }
    if (dot == ascii.size()) {
      return out;
    }
    out.push_back('.');
    start = dot + 1;
  }
}

bool isDeviation(char32_t c) { return c == 0xDF || c == 0x3C2 || c == 0x200C || c == 0x200D; }

// True for code points in the blocks of right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, NKo
// and their extensions and presentation forms, and the supplementary RTL ranges), which hold every
// code point whose Bidi_Class is R, AL or AN that a domain label can contain.
bool isInRtlBlock(char32_t c) {
  return (c >= 0x0590 && c <= 0x08FF) || (c >= 0xFB1D && c <= 0xFDFF) ||
         (c >= 0xFE70 && c <= 0xFEFF) || (c >= 0x10800 && c <= 0x10FFF) ||
         (c >= 0x1E800 && c <= 0x1EFFF);
}

// A label processed in pieces or in transitional mode escaped libidn2's Bidi check, so it is only
// accepted if it holds no right-to-left text, for which the Bidi rule could not pass or fail.
std::optional<std::u32string> unlessRightToLeft(std::optional<std::u32string> mapped) {
  if (mapped) {
    for (const char32_t c : *mapped) {
      if (isInRtlBlock(c)) {
        return std::nullopt;
      }
    }
  }
  return mapped;
}

bool isHyphenError(int rc) { return rc == IDN2_2HYPHEN || rc == IDN2_HYPHEN_STARTEND; }

bool isLengthError(int rc) {
  return rc == IDN2_TOO_BIG_LABEL || rc == IDN2_TOO_BIG_DOMAIN || rc == IDN2_PUNYCODE_BIG_OUTPUT;
}

std::optional<std::u32string> mapLabel(const std::u32string& label);

// Maps each part of `label` separately and joins the results. Only valid where UTS #46 processing
// cannot span the cut: see the callers.
std::optional<std::u32string> mapParts(const std::vector<std::u32string>& parts,
                                       std::u32string_view separator) {
  std::u32string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out.append(separator);
    }
    const std::optional<std::u32string> mapped = mapLabel(parts[i]);
    if (!mapped) {
      return std::nullopt;
    }
    out.append(*mapped);
  }
  return out;
}

// UTS #46 processing (map, normalize, validate) of one label, as code points: the label as it will
// be Punycode-encoded. It may contain '.' where mapping produced one ("⒈" maps to "1.").
//
// libidn2 implements IDNA2008 with UTS #46 mapping in front, which is stricter than the URL
// Standard's UTS #46 settings in three ways this works around:
//  - IDNA2008 disallows symbols and punctuation UTS #46 allows (☃, ♥, †). libidn2's transitional
//    mode skips the IDNA2008 tests, and maps exactly as nontransitional mode does unless the label
//    holds one of the four deviation characters (ß, ς, ZWJ, ZWNJ), so it is used then.
//  - It always checks hyphens (CheckHyphens). A hyphen-minus maps to itself and never combines
//    under NFC, so the parts between hyphens are processed alone and joined with hyphens.
//  - It limits lengths to DNS's (VerifyDnsLength). Long labels are cut before ASCII characters,
//    where NFC cannot combine across the cut (no ASCII character is a second element of a
//    canonical composition), and the pieces processed alone.
// What remains: a label processed in pieces, or through transitional mode, cannot be checked
// against the Bidi rule (RFC 5893), so it is rejected if it holds right-to-left text (UTS #46 would
// accept some such labels); and libidn2's Unicode tables are older than the URL Standard's, so code
// points whose UTS #46 status changed since (ẞ, U+04C0, U+180E ...) follow the old tables.
std::optional<std::u32string> mapLabel(const std::u32string& label) {
  bool ascii = true;
  bool deviation = false;
  for (const char32_t c : label) {
    ascii = ascii && c < 0x80;
    deviation = deviation || isDeviation(c);
  }
  if (ascii) {
    std::u32string lower = label;
    for (char32_t& c : lower) {
      if (c >= 'A' && c <= 'Z') {
        c += 'a' - 'A';
      }
    }
    return lower;
  }
  std::string out;
  int rc = idn2Lookup(label, IDN2_NONTRANSITIONAL | IDN2_NFC_INPUT, out);
  if (rc == IDN2_OK) {
    return decodeLabels(out);
  }
  if (rc == IDN2_DISALLOWED && !deviation) {
    rc = idn2Lookup(label, IDN2_TRANSITIONAL, out);
    if (rc == IDN2_OK) {
      return unlessRightToLeft(decodeLabels(out));
    }
  }
  if (isHyphenError(rc) && label.find('-') != std::u32string::npos) {
    std::vector<std::u32string> parts;
    size_t start = 0;
    for (size_t i = 0; i <= label.size(); ++i) {
      if (i == label.size() || label[i] == '-') {
        parts.push_back(label.substr(start, i - start));
        start = i + 1;
      }
    }
    return unlessRightToLeft(mapParts(parts, U"-"));
  }
  if (isLengthError(rc)) {
    std::vector<std::u32string> parts;
    size_t start = 0;
    for (size_t i = 1; i <= label.size(); ++i) {
      if (i == label.size() || label[i] < 0x80) {
        parts.push_back(label.substr(start, i - start));
        start = i;
      }
    }
    if (parts.size() > 1) {
      return unlessRightToLeft(mapParts(parts, U""));
    }
  }
  return std::nullopt;
}

// The ASCII form of one label (from a non-ASCII domain): each label of its mapping,
// Punycode-encoded with "xn--" if it is not ASCII.
std::optional<std::string> labelToAscii(const std::u32string& label) {
  if (label.size() > kMaxLabelCodePoints) {
    return std::nullopt;
  }
  const std::optional<std::u32string> mapped = mapLabel(label);
  if (!mapped) {
    return std::nullopt;
  }
  std::string out;
  size_t start = 0;
  while (true) {
    size_t dot = mapped->find('.', start);
    if (dot == std::u32string::npos) {
      dot = mapped->size();
    }
    const std::u32string_view part = std::u32string_view(*mapped).substr(start, dot - start);
    // Real A-labels were decoded by now; a label that still starts with "xn--" would be encoded
    // twice (UTS #46 §4.1: with CheckHyphens false, a label must not begin with "xn--").
    if (part.starts_with(U"xn--")) {
      return std::nullopt;
    }
    bool ascii = true;
    for (const char32_t c : part) {
      ascii = ascii && c < 0x80;
    }
    if (ascii) {
      out.append(part.begin(), part.end());
    } else {
      const std::optional<std::string> encoded = punycodeEncode(part);
      if (!encoded) {
        return std::nullopt;
      }
      out.append("xn--").append(*encoded);
    }
    if (dot == mapped->size()) {
      return out;
    }
    out.push_back('.');
    start = dot + 1;
  }
}

// An ASCII label starting with "xn--" in a domain that is not all ASCII must decode to a non-ASCII
// label that UTS #46 leaves unchanged (UTS #46 §4 step 4), so it encodes back to itself.
bool isValidALabel(const std::string& label) {
  const std::optional<std::u32string> decoded = punycodeDecode(std::string_view(label).substr(4));
  if (!decoded || decoded->empty()) {
    return false;
  }
  bool ascii = true;
  for (const char32_t c : *decoded) {
    ascii = ascii && c < 0x80;
  }
  if (ascii) {
    return false;
  }
  const std::optional<std::string> encoded = labelToAscii(*decoded);
  return encoded && *encoded == label;
}

}  // namespace

bool isForbiddenDomainCodePoint(unsigned char c) noexcept {
  switch (c) {
    case ' ':
    case '#':
    case '/':
    case ':':
    case '<':
    case '>':
    case '?':
    case '@':
    case '[':
    case '\\':
    case ']':
    case '^':
    case '|':
    case '%':
      return true;
    default:
      return c <= 0x1F || c == 0x7F;
  }
}

std::optional<std::string> domainToAscii(std::string_view domain) {
  std::string result;
  if (isAscii(domain)) {
    result = toLowerAscii(domain);
  } else {
    if (domain.size() > kMaxUnicodeDomainBytes) {
      return std::nullopt;
    }
    std::u32string codePoints;
    if (!decodeUtf8(domain, codePoints)) {
      return std::nullopt;
    }
    size_t start = 0;
    for (size_t i = 0; i <= codePoints.size(); ++i) {
      if (i < codePoints.size() && !isLabelSeparator(codePoints[i])) {
        continue;
      }
      if (start != 0) {
        result.push_back('.');
      }
      const std::u32string label = codePoints.substr(start, i - start);
      bool ascii = true;
      for (const char32_t c : label) {
        ascii = ascii && c < 0x80;
      }
      if (ascii) {
        const std::string lower = toLowerAscii(std::string(label.begin(), label.end()));
        if (lower.starts_with("xn--") && !isValidALabel(lower)) {
          return std::nullopt;
        }
        result.append(lower);
      } else {
        const std::optional<std::string> encoded = labelToAscii(label);
        if (!encoded) {
          return std::nullopt;
        }
        result.append(*encoded);
      }
      start = i + 1;
    }
  }
  if (result.empty()) {
    return std::nullopt;
  }
  for (const char c : result) {
    if (isForbiddenDomainCodePoint(static_cast<unsigned char>(c))) {
      return std::nullopt;
    }
  }
  return result;
}

}  // namespace tern::internal
