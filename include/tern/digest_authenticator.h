// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "tern/authenticator.h"
#include "tern/export.h"
#include "tern/request.h"
#include "tern/response.h"
#include "tern/route.h"

namespace tern {

// Answers Digest challenges (RFC 7616) with a username and a password: a 401's WWW-Authenticate
// with an Authorization header, a 407's Proxy-Authenticate with a Proxy-Authorization header.
//
//   Client client = Client::Builder()
//       .authenticator(std::make_shared<DigestAuthenticator>("Mufasa", "Circle of Life"))
//       .build();
//
// It meets a challenge whose algorithm is MD5, SHA-256 or SHA-512-256 (or their "-sess" forms)
// and whose qop offers "auth" (or that has no qop, RFC 2069's form); auth-int and unknown
// algorithms are declined. Of several Digest challenges it answers the strongest algorithm's
// (SHA-512-256, then SHA-256, then MD5). It hashes the username when the server asks
// (userhash=true), sends a fresh random cnonce each time, and counts its uses of each nonce (nc),
// across calls, so a server that keeps a nonce sees 00000001, 00000002, ...
//
// It gives up (returns std::nullopt, and the caller gets the 401 or 407) when the server rejects
// an answer to the same nonce (wrong credentials), or a second time after a stale=true retry.
// Like every Authenticator it is reactive: each call first goes without credentials.
// Thread-safe: one instance may serve many concurrent calls.
class TERN_API DigestAuthenticator final : public Authenticator {
 public:
  DigestAuthenticator(std::string username, std::string password);
  ~DigestAuthenticator() override;
  DigestAuthenticator(const DigestAuthenticator&) = delete;
  DigestAuthenticator& operator=(const DigestAuthenticator&) = delete;

  std::optional<Request> authenticate(const Route* route, const Response& response) override;

 private:
  struct State;
  std::string username_;
  std::string password_;
  std::unique_ptr<State> state_;  // The nonce counts.
};

}  // namespace tern
