// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/challenge.h"

#include <set>
#include <utility>

#include "http/http_syntax.h"

namespace tern {
namespace {

// Reads the challenges of one header value (RFC 9110 §11.3), with OkHttp's look-ahead: whether a
// token after the scheme is a token68 or a parameter name is only known from what follows it.
//   WWW-Authenticate: Digest foo=bar     (a parameter)
//   WWW-Authenticate: Digest foo=        (a token68)
//   WWW-Authenticate: Digest ,foo=bar    (one challenge)
//   WWW-Authenticate: Digest ,foo        (two challenges)
class ChallengeReader {
 public:
  explicit ChallengeReader(std::string_view value) : s_(value) {}

  // Appends the challenges read to `result`, stopping quietly at the first malformed part.
  void read(std::vector<Challenge>& result) {
    std::optional<std::string> peek;
    while (true) {
      // Read a scheme name for this challenge if we don't have one already.
      if (!peek) {
        skipCommasAndWhitespace();
        peek = readToken();
        if (!peek) {
          return;
        }
      }
      std::string schemeName = std::move(*peek);

      // Read a token68, a sequence of parameters, or nothing.
      bool commaPrefixed = skipCommasAndWhitespace();
      peek = readToken();
      if (!peek) {
        if (!exhausted()) {
          return;  // Expected a token; got something else.
        }
        result.emplace_back(std::move(schemeName), std::map<std::string, std::string>{});
        return;
      }

      std::size_t eqCount = skipAll('=');
      bool commaSuffixed = skipCommasAndWhitespace();

      // It's a token68 because there isn't a value after it.
      if (!commaPrefixed && (commaSuffixed || exhausted())) {
        result.emplace_back(std::move(schemeName), std::map<std::string, std::string>{
                                                       {"", *peek + std::string(eqCount, '=')}});
        peek.reset();
        continue;
      }

      // It's a series of parameter names and values, in the order received.
      std::vector<std::pair<std::string, std::string>> parameters;
      std::set<std::string> seenNames;  // Compared exactly, as OkHttp does before lower-casing.
      eqCount += skipAll('=');
      while (true) {
        if (!peek) {
          peek = readToken();
          if (skipCommasAndWhitespace()) {
            break;  // We peeked a scheme name followed by ','.
          }
          eqCount = skipAll('=');
        }
        if (eqCount == 0) {
          break;  // We peeked a scheme name.
        }
        if (eqCount > 1) {
          return;  // Unexpected '=' characters.
        }
        if (skipCommasAndWhitespace()) {
          return;  // Unexpected ','.
        }

        std::optional<std::string> parameterValue =
            startsWith('"') ? internal::readQuotedString(s_, pos_) : readToken();
        if (!parameterValue) {
          return;  // Expected a value.
        }

        // A missing name (a value after a bare '=') keys as the token68 does, as OkHttp's null key.
        std::string parameterName = peek.value_or("");
        if (!seenNames.insert(parameterName).second) {
          return;  // Unexpected duplicate parameter.
        }
        parameters.emplace_back(std::move(parameterName), std::move(*parameterValue));
        peek.reset();
        if (!skipCommasAndWhitespace() && !exhausted()) {
          return;  // Expected ',' or the end.
        }
      }

      // Lower-case in received order so that, of names differing only in case, the last wins.
      std::map<std::string, std::string> authParams;
      for (auto& [name, value] : parameters) {
        authParams[internal::toLowerAscii(name)] = std::move(value);
      }
      result.emplace_back(std::move(schemeName), authParams);
    }
  }

 private:
  bool exhausted() const { return pos_ >= s_.size(); }

  bool startsWith(char c) const { return !exhausted() && s_[pos_] == c; }

  // Returns true if any commas were skipped.
  bool skipCommasAndWhitespace() {
    bool commaFound = false;
    while (!exhausted()) {
      if (s_[pos_] == ',') {
        commaFound = true;
      } else if (!internal::isHttpWhitespace(s_[pos_])) {
        break;
      }
      ++pos_;
    }
    return commaFound;
  }

  std::size_t skipAll(char c) {
    std::size_t count = 0;
    while (startsWith(c)) {
      ++pos_;
      ++count;
    }
    return count;
  }

  // A non-empty run of bytes up to a tab, space, ',' or '='; nullopt if there is none here.
  std::optional<std::string> readToken() {
    std::size_t end = internal::indexOfAny(s_, "\t ,=", pos_);
    if (end <= pos_) {
      return std::nullopt;
    }
    std::string token(s_.substr(pos_, end - pos_));
    pos_ = end;
    return token;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace

Challenge::Challenge(std::string scheme, const std::map<std::string, std::string>& authParams)
    : scheme_(std::move(scheme)) {
  for (const auto& [name, value] : authParams) {
    authParams_[internal::toLowerAscii(name)] = value;
  }
}

Challenge::Challenge(std::string scheme, std::string realm)
    : scheme_(std::move(scheme)), authParams_{{"realm", std::move(realm)}} {}

std::optional<std::string> Challenge::realm() const {
  auto it = authParams_.find("realm");
  if (it == authParams_.end()) {
    return std::nullopt;
  }
  return it->second;
}

std::string Challenge::charset() const {
  auto it = authParams_.find("charset");
  if (it != authParams_.end() && internal::isLegalCharsetName(it->second)) {
    return it->second;
  }
  return "ISO-8859-1";
}

Challenge Challenge::withCharset(std::string_view charset) const {
  Challenge result = *this;
  result.authParams_["charset"] = std::string(charset);
  return result;
}

std::string Challenge::toString() const {
  std::string result = scheme_ + " authParams={";
  bool first = true;
  for (const auto& [name, value] : authParams_) {
    if (!first) {
      result += ", ";
    }
    first = false;
    result.append(name).append("=").append(value);
  }
  return result + "}";
}

std::vector<Challenge> parseChallenges(const Headers& headers, std::string_view headerName) {
  std::vector<Challenge> result;
  for (const auto& [name, value] : headers) {
    if (internal::equalsIgnoreCase(name, headerName)) {
      ChallengeReader(value).read(result);
    }
  }
  return result;
}

}  // namespace tern
