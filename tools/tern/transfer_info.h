// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "tern/headers.h"
#include "tern/protocol.h"

namespace tern::tool {

// What one transfer did, as -w/--write-out reports it (curl's getinfo values). A transfer that
// failed before a response arrived has no protocol, no headers and http code 0.
struct TransferInfo {
  // The URL as given (after globbing) and its 0-based index among the URLs (curl's urlnum).
  std::string url;
  uint64_t urlNumber = 0;
  // The URL of the last request, after redirects.
  std::string urlEffective;
  // The last request's method.
  std::string method;
  // The file the body went to; empty for stdout.
  std::string filenameEffective;

  // The last response's status code (0 if none), protocol and headers.
  int httpCode = 0;
  std::optional<Protocol> protocol;
  std::optional<Headers> responseHeaders;

  // Bytes: response headers of every response received (status lines and CRLFs included),
  // the body written out, and the request body sent.
  int64_t sizeHeader = 0;
  int64_t sizeDownload = 0;
  int64_t sizeUpload = 0;

  // The peer's IP address and port; empty and 0 if no connection was used.
  std::string remoteIp;
  int remotePort = 0;
  std::string localIp;
  int localPort = 0;

  // Bytes of the requests sent (heads and bodies, every redirect's).
  int64_t sizeRequest = 0;
  // Where the last response redirects to, when it was not followed (no -L): %{redirect_url}.
  std::string redirectUrl;

  // New connections this transfer made (0 when it reused a pooled one), and redirects followed.
  int numConnects = 0;
  int numRedirects = 0;

  // From the transfer's start to: the name resolved, the TCP connection made, the TLS handshake
  // done, the request about to go out, the first response's first byte (see transfer_timing.h;
  // 0 for a step that did not happen), and the end.
  std::chrono::nanoseconds timeNamelookup{0};
  std::chrono::nanoseconds timeConnect{0};
  std::chrono::nanoseconds timeAppconnect{0};
  std::chrono::nanoseconds timePretransfer{0};
  std::chrono::nanoseconds timeStartTransfer{0};
  std::chrono::nanoseconds timeTotal{0};

  // The transfer's curl exit code (0 on success) and the message printed for it.
  int exitCode = 0;
  std::string errorMessage;
  // A curl warning shown after the message (--retry's reason for not retrying), or "".
  std::string warning;
  // The failure was a refused connection (for --retry-connrefused).
  bool connectionRefused = false;
};

}  // namespace tern::tool
