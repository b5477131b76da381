// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace tern::internal {

// The most interim (1xx) responses one exchange accepts before its final response, on every
// protocol. RFC 9110 §15.2 sets no limit, but a server has no use for more than a few (100
// Continue, 102 Processing now and then, 103 Early Hints). Past this the exchange fails with a
// ProtocolException, so a flood of them can neither keep a call busy nor, since HTTP/2's reader
// runs ahead of the call, fill memory. Their header bytes also share one header-list budget
// (HTTP/1.1's HeadersReader, HTTP/2's Http2Stream).
inline constexpr int kMaxInterimResponses = 32;

// The message for an exchange that passed kMaxInterimResponses, naming the peer and where:
// "more than 32 interim (1xx) responses from example.com:443 on HTTP/2 stream 1".
inline std::string tooManyInterimResponses(std::string_view where) {
  return "more than " + std::to_string(kMaxInterimResponses) + " interim (1xx) responses from " +
         std::string(where);
}

}  // namespace tern::internal
