// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>

#include "tern/export.h"
#include "tern/handshake.h"
#include "tern/inet_address.h"
#include "tern/protocol.h"
#include "tern/route.h"

namespace tern {

// A connection to a web server, as OkHttp's Connection: what a network interceptor sees through
// Interceptor::Chain::connection(). The client owns and pools connections; this view is valid
// only while the interceptor runs.
class TERN_API Connection {
 public:
  virtual ~Connection() = default;

  // The route this connection took: the address and the IP address and port it connected to.
  virtual const Route& route() const = 0;

  // The protocol it speaks: HTTP_1_1, or H2_PRIOR_KNOWLEDGE / HTTP_2 for HTTP/2.
  virtual Protocol protocol() const = 0;

  // The TLS handshake it made, or nullopt for a cleartext (http) connection.
  virtual std::optional<Handshake> handshake() const = 0;

  // The local end of the socket (this host's address and ephemeral port). Throws IOException if
  // the socket has been closed.
  virtual InetSocketAddress localAddress() const = 0;

  // The remote end of the socket: route().socketAddress().
  virtual const InetSocketAddress& remoteAddress() const = 0;
};

}  // namespace tern
