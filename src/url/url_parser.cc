// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "url/url_parser.h"

#include <cstdint>

#include "io/ascii.h"
#include "url/host_parser.h"
#include "url/percent_encoding.h"
#include "url/url_syntax.h"
#include "url/utf8.h"

namespace tern::internal {
namespace {

constexpr int kEof = -1;

enum class State {
  kSchemeStart,
  kScheme,
  kNoScheme,
  kSpecialRelativeOrAuthority,
  kRelative,
  kRelativeSlash,
  kSpecialAuthoritySlashes,
  kSpecialAuthorityIgnoreSlashes,
  kAuthority,
  kHost,
  kPort,
  kPathStart,
  kPath,
  kQuery,
  kFragment,
};

bool isAsciiAlpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isAsciiDigit(int c) { return c >= '0' && c <= '9'; }

// Trims leading and trailing C0 controls and spaces, and removes every tab and newline (§4.4 steps
// 1-3).
std::string preprocess(std::string_view raw) {
  size_t begin = 0;
  size_t end = raw.size();
  while (begin < end && static_cast<unsigned char>(raw[begin]) <= 0x20) {
    ++begin;
  }
  while (end > begin && static_cast<unsigned char>(raw[end - 1]) <= 0x20) {
    --end;
  }
  std::string out;
  out.reserve(end - begin);
  for (size_t i = begin; i < end; ++i) {
    if (raw[i] != '\t' && raw[i] != '\n' && raw[i] != '\r') {
      out.push_back(raw[i]);
    }
  }
  return sanitizeUtf8(out);
}

class Parser {
 public:
  Parser(std::string input, const UrlRecord* base) : input_(std::move(input)), base_(base) {}

  UrlParseResult run();

 private:
  int at(ptrdiff_t i) const {
    return i >= 0 && i < size() ? static_cast<unsigned char>(input_[i]) : kEof;
  }
  ptrdiff_t size() const { return static_cast<ptrdiff_t>(input_.size()); }
  UrlParseResult fail(std::string message) { return {std::nullopt, std::move(message)}; }
  void copyAuthorityFromBase();
  void shortenPath() {
    if (!url_.path.empty()) {
      url_.path.pop_back();
    }
  }
  bool parseHostBuffer();
  std::string portText(ptrdiff_t from) const;

  const std::string input_;
  const UrlRecord* const base_;
  UrlRecord url_;
  std::string buffer_;
};

void Parser::copyAuthorityFromBase() {
  url_.username = base_->username;
  url_.password = base_->password;
  url_.host = base_->host;
  url_.port = base_->port;
}

bool Parser::parseHostBuffer() {
  std::optional<std::string> host = parseHost(buffer_);
  if (!host) {
    return false;
  }
  url_.host = std::move(*host);
  buffer_.clear();
  return true;
}

// The port's text from `from` up to the end of the authority, for an error message.
std::string Parser::portText(ptrdiff_t from) const {
  ptrdiff_t end = from;
  while (end < size() && input_[end] != '/' && input_[end] != '\\' && input_[end] != '?' &&
         input_[end] != '#') {
    ++end;
  }
  return input_.substr(from, end - from);
}

UrlParseResult Parser::run() {
  State state = State::kSchemeStart;
  bool atSignSeen = false;
  bool insideBrackets = false;
  bool passwordTokenSeen = false;
  ptrdiff_t portStart = 0;
  ptrdiff_t pointer = 0;
  while (true) {
    const int c = at(pointer);
    switch (state) {
      case State::kSchemeStart:
        if (isAsciiAlpha(c)) {
          buffer_.push_back(toLowerAscii(static_cast<char>(c)));
          state = State::kScheme;
        } else {
          state = State::kNoScheme;
          --pointer;
        }
        break;

      case State::kScheme:
        if (isAsciiAlpha(c) || isAsciiDigit(c) || c == '+' || c == '-' || c == '.') {
          buffer_.push_back(toLowerAscii(static_cast<char>(c)));
        } else if (c == ':') {
          if (!isHttpUrlScheme(buffer_)) {
            return fail("Expected URL scheme 'http' or 'https' but was '" +
                        input_.substr(0, pointer) + "'");
          }
          url_.scheme = std::move(buffer_);
          buffer_.clear();
          state = base_ != nullptr && base_->scheme == url_.scheme
                      ? State::kSpecialRelativeOrAuthority
                      : State::kSpecialAuthoritySlashes;
        } else {
          buffer_.clear();
          state = State::kNoScheme;
          pointer = -1;  // Start over from the first code point.
        }
        break;

      case State::kNoScheme:
        if (base_ == nullptr) {
          // The whole input (OkHttp cuts it to six characters, which hides the mistake), with
          // control bytes escaped so the message cannot be cut short or forge a line.
          return fail("Expected URL scheme 'http' or 'https' but no scheme was found for " +
                      escapeForMessage(input_));
        }
        state = State::kRelative;
        --pointer;
        break;

      case State::kSpecialRelativeOrAuthority:
        if (c == '/' && at(pointer + 1) == '/') {
          state = State::kSpecialAuthorityIgnoreSlashes;
          ++pointer;
        } else {
          state = State::kRelative;
          --pointer;
        }
        break;

      case State::kRelative:
        url_.scheme = base_->scheme;
        if (c == '/' || c == '\\') {
          state = State::kRelativeSlash;
        } else {
          copyAuthorityFromBase();
          url_.path = base_->path;
          url_.query = base_->query;
          if (c == '?') {
            url_.query = "";
            state = State::kQuery;
          } else if (c == '#') {
            url_.fragment = "";
            state = State::kFragment;
          } else if (c != kEof) {
            url_.query.reset();
            shortenPath();
            state = State::kPath;
            --pointer;
          }
        }
        break;

      case State::kRelativeSlash:
        if (c == '/' || c == '\\') {
          state = State::kSpecialAuthorityIgnoreSlashes;
        } else {
          copyAuthorityFromBase();
          state = State::kPath;
          --pointer;
        }
        break;

      case State::kSpecialAuthoritySlashes:
        state = State::kSpecialAuthorityIgnoreSlashes;
        if (c == '/' && at(pointer + 1) == '/') {
          ++pointer;
        } else {
          --pointer;
        }
        break;

      case State::kSpecialAuthorityIgnoreSlashes:
        if (c != '/' && c != '\\') {
          state = State::kAuthority;
          --pointer;
        }
        break;

      case State::kAuthority:
        if (c == '@') {
          if (atSignSeen) {
            buffer_.insert(0, "%40");
          }
          atSignSeen = true;
          for (const char ch : buffer_) {
            if (ch == ':' && !passwordTokenSeen) {
              passwordTokenSeen = true;
              continue;
            }
            percentEncode(passwordTokenSeen ? url_.password : url_.username,
                          std::string_view(&ch, 1), kUserinfoEncodeSet);
          }
          buffer_.clear();
        } else if (c == kEof || c == '/' || c == '?' || c == '#' || c == '\\') {
          if (atSignSeen && buffer_.empty()) {
            return fail("Invalid URL host: \"\"");
          }
          pointer -= static_cast<ptrdiff_t>(buffer_.size()) + 1;
          buffer_.clear();
          state = State::kHost;
        } else {
          buffer_.push_back(static_cast<char>(c));
        }
        break;

      case State::kHost:
        if (c == ':' && !insideBrackets) {
          if (buffer_.empty()) {
            return fail("Invalid URL host: \"\"");
          }
          if (!parseHostBuffer()) {
            return fail("Invalid URL host: \"" + escapeForMessage(buffer_) + "\"");
          }
          state = State::kPort;
          portStart = pointer + 1;
        } else if (c == kEof || c == '/' || c == '?' || c == '#' || c == '\\') {
          --pointer;
          if (buffer_.empty()) {
            return fail("Invalid URL host: \"\"");
          }
          if (!parseHostBuffer()) {
            return fail("Invalid URL host: \"" + escapeForMessage(buffer_) + "\"");
          }
          state = State::kPathStart;
        } else {
          if (c == '[') {
            insideBrackets = true;
          }
          if (c == ']') {
            insideBrackets = false;
          }
          buffer_.push_back(static_cast<char>(c));
        }
        break;

      case State::kPort:
        if (isAsciiDigit(c)) {
          buffer_.push_back(static_cast<char>(c));
        } else if (c == kEof || c == '/' || c == '?' || c == '#' || c == '\\') {
          if (!buffer_.empty()) {
            uint32_t port = 0;
            for (const char digit : buffer_) {
              port = port * 10 + (digit - '0');
              if (port > 65535) {
                return fail("Invalid URL port: \"" + escapeForMessage(buffer_) + "\"");
              }
            }
            if (static_cast<int>(port) == defaultPortForScheme(url_.scheme)) {
              url_.port.reset();
            } else {
              url_.port = static_cast<uint16_t>(port);
            }
            buffer_.clear();
          }
          state = State::kPathStart;
          --pointer;
        } else {
          return fail("Invalid URL port: \"" + escapeForMessage(portText(portStart)) + "\"");
        }
        break;

      case State::kPathStart:
        state = State::kPath;
        if (c != '/' && c != '\\') {
          --pointer;
        }
        break;

      case State::kPath:
        if (c == kEof || c == '/' || c == '\\' || c == '?' || c == '#') {
          const bool slash = c == '/' || c == '\\';
          if (isDoubleDotSegment(buffer_)) {
            shortenPath();
            if (!slash) {
              url_.path.emplace_back();
            }
          } else if (isSingleDotSegment(buffer_)) {
            if (!slash) {
              url_.path.emplace_back();
            }
          } else {
            url_.path.push_back(std::move(buffer_));
          }
          buffer_.clear();
          if (c == '?') {
            url_.query = "";
            state = State::kQuery;
          } else if (c == '#') {
            url_.fragment = "";
            state = State::kFragment;
          }
        } else {
          const char ch = static_cast<char>(c);
          percentEncode(buffer_, std::string_view(&ch, 1), kPathEncodeSet);
        }
        break;

      case State::kQuery:
        if (c == '#' || c == kEof) {
          percentEncode(*url_.query, buffer_, kSpecialQueryEncodeSet);
          buffer_.clear();
          if (c == '#') {
            url_.fragment = "";
            state = State::kFragment;
          }
        } else {
          buffer_.push_back(static_cast<char>(c));
        }
        break;

      case State::kFragment:
        if (c != kEof) {
          const char ch = static_cast<char>(c);
          percentEncode(*url_.fragment, std::string_view(&ch, 1), kFragmentEncodeSet);
        }
        break;
    }
    if (pointer >= size()) {
      break;
    }
    ++pointer;
  }
  if (url_.path.empty()) {
    url_.path.emplace_back();
  }
  return {std::move(url_), {}};
}

}  // namespace

UrlParseResult parseUrl(std::string_view input, const UrlRecord* base) {
  return Parser(preprocess(input), base).run();
}

}  // namespace tern::internal
