// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tern::internal {

// The hash algorithms of HTTP Digest access authentication (RFC 7616 §3.4.1 and §6.1). Ranked:
// a higher value is a stronger algorithm, so a client prefers it when a server offers several.
enum class DigestAlgorithm { kMd5 = 0, kSha256 = 1, kSha512_256 = 2 };

// An algorithm parameter's value ("MD5", "SHA-256-sess", ..., compared ignoring case) as the
// algorithm and whether it is a session ("-sess") form, or nullopt for an unknown one. An absent
// parameter means MD5 (RFC 7616 §3.3).
struct DigestAlgorithmName {
  DigestAlgorithm algorithm = DigestAlgorithm::kMd5;
  bool session = false;
};
std::optional<DigestAlgorithmName> parseDigestAlgorithm(std::string_view name);

// The parameter's spelling for `name`, as RFC 7616 §6.1 registers it: "SHA-256-sess".
std::string digestAlgorithmName(DigestAlgorithmName name);

// The lower-case hex of `algorithm`'s hash of `data` (RFC 7616 §3.4: H(data)).
std::string digestHash(DigestAlgorithm algorithm, std::string_view data);

// What goes into a Digest response (RFC 7616 §3.4.1). `qop` empty means the server sent no qop
// (RFC 2069 compatibility): then nc and cnonce are not used.
struct DigestInput {
  DigestAlgorithmName algorithm;
  std::string username;
  std::string password;
  std::string realm;
  std::string nonce;
  std::string cnonce;
  std::string nc;   // Eight hex digits, "00000001".
  std::string qop;  // "auth" or empty.
  std::string method;
  std::string uri;  // The request-target, as sent.
};

// The "response" parameter: KD(H(A1), nonce:nc:cnonce:qop:H(A2)) with A1 and A2 of §3.4.2 and
// §3.4.3 (A1 of a -sess algorithm is H(user:realm:password):nonce:cnonce).
std::string digestResponse(const DigestInput& input);

// The userhash form of the username (RFC 7616 §3.4.4): H(username:realm).
std::string digestUserhash(DigestAlgorithm algorithm, std::string_view username,
                           std::string_view realm);

// `value` as a quoted-string (RFC 9110 §5.6.4): in double quotes, '"' and '\' escaped.
std::string quoteDigestValue(std::string_view value);

// `length` random bytes from OpenSSL's CSPRNG as lower-case hex: a client nonce.
std::string randomDigestCnonce(size_t length = 16);

}  // namespace tern::internal
