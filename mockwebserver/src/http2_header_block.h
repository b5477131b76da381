// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nghttp2/nghttp2.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tern/headers.h"
#include "tern/mockwebserver/mock_response.h"

namespace tern::mockwebserver::internal {

// How MockWebServer's HTTP/2 side turns scripted responses into header blocks.

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

}  // namespace tern::mockwebserver::internal
