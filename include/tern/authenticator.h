// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "tern/export.h"
#include "tern/request.h"
#include "tern/response.h"
#include "tern/route.h"

namespace tern {

// Answers an authentication challenge from a server (401 Unauthorized) or a proxy (407 Proxy
// Authentication Required), as OkHttp's Authenticator (RFC 9110 §11). The client calls it with
// the challenging response; returning a request (usually the response's request with an
// Authorization or Proxy-Authorization header) makes the client send that request instead;
// returning std::nullopt gives the challenging response to the caller.
//
//   client.authenticator(Authenticator::of([](const Route*, const Response& response)
//       -> std::optional<Request> {
//     if (response.request().header("Authorization")) return std::nullopt;  // Already tried.
//     return response.request().newBuilder().header("Authorization", basicCredentials).build();
//   }));
//
// An authenticator that keeps returning requests is stopped after 20 follow-ups
// (ProtocolException "Too many follow-up requests: 21"). Called on the call's thread; must be
// thread-safe if the client runs calls concurrently. May throw IOException to fail the call.
class TERN_API Authenticator {
 public:
  virtual ~Authenticator() = default;

  // The request to send next, or std::nullopt to give up. `route` is the route of the connection
  // that got the response, or null when there is none (e.g. a response made by an interceptor).
  // `response.challenges()` lists what the server asked for.
  virtual std::optional<Request> authenticate(const Route* route, const Response& response) = 0;

  // The authenticator that knows no credentials: it always returns std::nullopt (OkHttp's
  // Authenticator.NONE). The client's default.
  static const std::shared_ptr<Authenticator>& none();

  // An authenticator that calls `authenticate`.
  static std::shared_ptr<Authenticator> of(
      std::function<std::optional<Request>(const Route* route, const Response& response)>
          authenticate);
};

}  // namespace tern
