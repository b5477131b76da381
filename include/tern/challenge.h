// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tern/export.h"
#include "tern/headers.h"

namespace tern {

// An authentication challenge from a WWW-Authenticate or Proxy-Authenticate header (RFC 9110
// §11.3): a scheme such as "Basic" and its auth parameters. Immutable value.
class TERN_API Challenge {
 public:
  // `authParams` keys are lower-cased (they compare ignoring case). A challenge in token68 form
  // ("Negotiate abc==") holds the token under the empty key "" (OkHttp uses a null key).
  Challenge(std::string scheme, const std::map<std::string, std::string>& authParams);

  // A challenge with just a realm: Challenge("Basic", "protected area").
  Challenge(std::string scheme, std::string realm);

  // The authentication scheme as sent, like "Basic" or "Digest" (compare ignoring case).
  const std::string& scheme() const noexcept { return scheme_; }

  // The auth parameters by lower-cased name, including realm and charset when present.
  const std::map<std::string, std::string>& authParams() const noexcept { return authParams_; }

  // The protection space, or nullopt if the challenge names none.
  std::optional<std::string> realm() const;

  // The charset the credentials should be encoded in (RFC 7617 §2.1): the "charset" parameter if
  // it is a legal charset name, else "ISO-8859-1" as OkHttp defaults.
  std::string charset() const;

  // A copy of this challenge that asks for credentials encoded with `charset`.
  Challenge withCharset(std::string_view charset) const;

  bool operator==(const Challenge& other) const = default;

  // "Basic authParams={realm=protected area}", for debugging.
  std::string toString() const;

 private:
  std::string scheme_;
  std::map<std::string, std::string> authParams_;
};

// Parses every challenge in the fields named `headerName` ("WWW-Authenticate" for a 401,
// "Proxy-Authenticate" for a 407), in order, as OkHttp's HttpHeaders.parseChallenges. A field may
// hold several comma-separated challenges; each is a scheme followed by nothing, a token68, or
// "name=value" parameters whose values are tokens or quoted strings with backslash escapes. When a
// field turns malformed (an unterminated quote, a repeated parameter, stray '='), the challenges
// read before that point are kept and the rest of that field is skipped. Never throws on any
// bytes.
TERN_API std::vector<Challenge> parseChallenges(const Headers& headers,
                                                std::string_view headerName);

}  // namespace tern
