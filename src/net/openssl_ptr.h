// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <memory>
#include <string>

namespace tern::internal {

// OpenSSL objects owned through std::unique_ptr, freed with their own free functions.
struct SslDeleter {
  void operator()(SSL* ssl) const noexcept { SSL_free(ssl); }
  void operator()(SSL_CTX* context) const noexcept { SSL_CTX_free(context); }
  void operator()(SSL_SESSION* session) const noexcept { SSL_SESSION_free(session); }
  void operator()(X509* certificate) const noexcept { X509_free(certificate); }
  void operator()(BIO* bio) const noexcept { BIO_free_all(bio); }
};

using UniqueSsl = std::unique_ptr<SSL, SslDeleter>;
using UniqueSslCtx = std::unique_ptr<SSL_CTX, SslDeleter>;
using UniqueSslSession = std::unique_ptr<SSL_SESSION, SslDeleter>;
using UniqueX509 = std::unique_ptr<X509, SslDeleter>;
using UniqueBio = std::unique_ptr<BIO, SslDeleter>;

// Drains this thread's OpenSSL error queue into one line: "error:0A000086:SSL
// routines::certificate verify failed; ..." (empty if the queue was empty).
std::string drainOpenSslErrors();

}  // namespace tern::internal
