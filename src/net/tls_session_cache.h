// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/ssl.h>

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "tls/openssl_util.h"

namespace tern::internal {

using UniqueSslSession = std::unique_ptr<SSL_SESSION, OpenSslDeleter<&SSL_SESSION_free>>;

// A client's TLS sessions, kept per "host:port" so a new connection to a server it has talked to
// resumes the session (an abbreviated handshake: one round trip less, no certificate chain sent
// again), as Java's SSLSessionContext does for OkHttp. One per client TLS context; thread-safe.
//
// OpenSSL hands over new sessions through a callback on the SSL_CTX (install()): at the end of a
// TLS 1.2 handshake, and for TLS 1.3 when the server's NewSessionTicket arrives, which is after
// the handshake, during the first read. TLS 1.3 tickets are used once (RFC 8446 §C.4): prepare()
// takes the session out, and the server's next ticket replaces it. At most `maxEntries` hosts are
// kept, the least recently stored dropped first.
class TlsSessionCache {
 public:
  explicit TlsSessionCache(size_t maxEntries = 64) : maxEntries_(maxEntries) {}
  TlsSessionCache(const TlsSessionCache&) = delete;
  TlsSessionCache& operator=(const TlsSessionCache&) = delete;

  // Makes `context` (a client context) store its new sessions here. `context` must not outlive
  // this cache.
  void install(SSL_CTX* context);

  // Labels `ssl` with `key` ("host:port"), so its sessions are stored under it, and sets the
  // cached session for `key` on it, if there is one.
  void prepare(SSL* ssl, const std::string& key);

  // Forgets the session for `key`: the connection it came from failed a check made after the
  // handshake (hostname, pins), and a resumed session must not skip what failed.
  void remove(const std::string& key);

  // The number of hosts with a session.
  size_t size() const;

 private:
  static int onNewSession(SSL* ssl, SSL_SESSION* session);
  void put(const std::string& key, UniqueSslSession session);

  const size_t maxEntries_;
  mutable std::mutex mutex_;
  std::list<std::pair<std::string, UniqueSslSession>> entries_;  // Newest first; under mutex_.
};

}  // namespace tern::internal
