// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <openssl/bio.h>

#include "tern/export.h"

namespace tern::internal {

// An OpenSSL BIO over a connected, non-blocking socket descriptor, used instead of BIO_s_socket
// because that one writes with write(), which raises SIGPIPE when the peer has gone: this one
// sends with send(MSG_NOSIGNAL) and receives with recv(). It never blocks: when the kernel has
// no bytes (or no room) it sets the BIO's retry flag, OpenSSL reports SSL_ERROR_WANT_READ /
// WANT_WRITE, and the caller waits with poll() (Socket::awaitReady()) before calling again.
//
// The BIO does not own the descriptor. It remembers the errno of the last failed system call,
// so that SSL_ERROR_SYSCALL can be reported as "Connection reset by peer" rather than nothing.

// A new BIO over `fd`; null if out of memory. Free it with BIO_free (SSL_set_bio takes it).
// Exported for MockWebServer, whose TLS transport inherits TlsTransport::newBio().
TERN_INTERNAL_API BIO* newSocketBio(int fd);

// The errno of the BIO's last failed recv() or send(), 0 if none; 0 for other BIOs.
int socketBioLastError(BIO* bio);

// Forgets the last failure's errno, so that the next socketBioLastError() is 0 unless a system
// call fails after this. Called before each OpenSSL call: a non-blocking socket's reads leave
// EAGAIN behind, which must not pass for the reason a later call failed.
void socketBioClearLastError(BIO* bio);

// True once a recv() of the BIO returned end of stream (the peer shut down its output).
bool socketBioSawEof(BIO* bio);

}  // namespace tern::internal
