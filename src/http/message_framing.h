// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string_view>

#include "tern/headers.h"
#include "tern/response.h"

namespace tern::internal {

// How HTTP/1.1 delimits a message body (RFC 9112 §6.3), from its headers. Each function takes
// headers exactly as received; none reads past what it is given.

// True if any element of the comma-separated lists in the values of header `name` equals `token`,
// ignoring case (RFC 9110 §5.6.1): hasToken(headers, "Connection", "close").
bool hasToken(const Headers& headers, std::string_view name, std::string_view token);

// True if the message is chunked: chunked is the final coding of its (last) Transfer-Encoding
// value (RFC 9112 §6.3 rule 4), which then overrides any Content-Length.
bool isChunked(const Headers& headers);

// The Content-Length (RFC 9110 §8.6), or -1 if there is none. Repeated fields or a list are
// accepted only if every element is the same number (RFC 9112 §6.3 rule 5). Anything else (a
// sign, a non-digit, an overflow, differing values) could desynchronize the connection, so it
// throws ProtocolException("Invalid Content-Length: \"...\"").
int64_t contentLength(const Headers& headers);

// Whether `response` can have a body at all (RFC 9112 §6.3 rules 1–2): not for HEAD, 1xx, 304,
// or a 2xx to CONNECT, whatever the headers say. A 204 is framed by its headers only if they
// announce bytes (a non-zero Content-Length, or chunked), as OkHttp does, so the caller sees the
// Content-Length and can reject it. The one rule: both codecs, the bridge's transparent gzip,
// the cache and the logging interceptor all ask this function.
bool promisesBody(const Response& response);

// The size in a chunk-size line (RFC 9112 §7.1): 1*HEXDIG in any case, leading zeros allowed,
// then optionally whitespace and ";"-separated chunk extensions, which are ignored. Throws
// ProtocolException("Expected a hex chunk size but was \"<line>\"") for anything else and
// ProtocolException("Chunk size too large: ...") past INT64_MAX.
int64_t parseChunkSize(std::string_view line);

// True for the connection-specific fields HTTP/2 and HTTP/3 forbid in a message (RFC 9113
// §8.2.2, RFC 9114 §4.2: Connection, Keep-Alive, Proxy-Connection, Transfer-Encoding, Upgrade,
// and TE, which only "trailers" may carry), plus Host (sent as :authority) and the obsolete
// Encoding, as OkHttp's HTTP_2_SKIPPED_REQUEST_HEADERS. `lowerName` is in lower case.
bool isConnectionSpecificField(std::string_view lowerName) noexcept;

}  // namespace tern::internal
