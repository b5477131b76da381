// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nghttp2/nghttp2.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tern/buffer.h"
#include "tern/headers.h"
#include "tern/http_url.h"
#include "tern/mockwebserver/mock_response.h"

namespace tern::mockwebserver::internal {

// How MockWebServer's HTTP/2 side (and its HTTP/3 side, which shares these) turns scripted
// responses into header blocks and bodies, and a request's header block into a request line.

// `text` in ASCII lowercase: HTTP/2 field names are lowercase (RFC 9113 §8.2.1).
std::string toLower(std::string_view text);

// A header block for nghttp2: the names and values live in `storage`.
struct NameValues {
  std::vector<std::pair<std::string, std::string>> storage;
  std::vector<nghttp2_nv> nva;

  void add(std::string name, std::string value) {
    storage.emplace_back(std::move(name), std::move(value));
  }
  nghttp2_nv* build() {
    nva.clear();
    for (auto& [name, value] : storage) {
      nva.push_back({reinterpret_cast<uint8_t*>(name.data()),
                     reinterpret_cast<uint8_t*>(value.data()), name.size(), value.size(),
                     NGHTTP2_NV_FLAG_NONE});
    }
    return nva.data();
  }
};

// The block of a response with `code` and `headers`, field names lowercased (RFC 9113 §8.2.1)
// and connection-specific fields left out (§8.2.2). `informational`: a 1xx response, which has
// no body and so no Content-Length (RFC 9110 §15.2).
NameValues responseHeaders(int code, const Headers& headers, bool informational);
NameValues responseHeaders(const MockResponse& response, bool informational);

// The headers of the 200 that opens a WebSocket on a stream (RFC 8441 §5): the response's own,
// less what HTTP/2 forbids, Sec-WebSocket-Accept (no key to answer: RFC 8441 §5 drops it) and
// Content-Length (none in a 2xx to CONNECT, RFC 9110 §9.3.6).
Headers webSocketHeaders(const MockResponse& response);

// The bytes of `response`'s body as HTTP/2 and HTTP/3 send them: a chunked MockResponse keeps
// its HTTP/1.1 wire form, which neither protocol uses, so its chunks are joined.
Buffer unchunkedBody(const MockResponse& response);

// What a request's header block says, to record it.
struct RequestHead {
  Headers headers;             // Every field as received, pseudo-headers included.
  std::string method;          // :method.
  std::string target;          // :path, or for a plain CONNECT :authority (RFC 9113 §8.5).
  std::optional<HttpUrl> url;  // From :scheme, :authority and :path, where they make one.
};

// `fields` (pseudo-headers included) as a RequestHead; a missing :scheme is `defaultScheme`, a
// missing :authority `defaultAuthority` (the server's own), a missing :path "/" in the URL.
RequestHead requestHead(const std::vector<std::pair<std::string, std::string>>& fields,
                        std::string_view defaultScheme, std::string_view defaultAuthority);

}  // namespace tern::mockwebserver::internal
