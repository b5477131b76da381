// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The fixture the HTTP/2 tests share: a MockWebServer speaking h2c with prior knowledge and a
// client that does too (OkHttp's HttpOverHttp2Test with Protocol.H2_PRIOR_KNOWLEDGE).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "tern/buffer.h"
#include "tern/client.h"
#include "tern/connection_pool.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::testing {

using namespace std::chrono_literals;
using mockwebserver::Http2Settings;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;
using mockwebserver::SocketPolicy;

class Http2Fixture : public ::testing::Test {
 public:
  // A body of `size` bytes: 'a'..'z' repeating, so misplaced bytes show.
  static std::string pattern(int64_t size) {
    std::string result(static_cast<size_t>(size), ' ');
    for (size_t i = 0; i < result.size(); ++i) result[i] = static_cast<char>('a' + i % 26);
    return result;
  }

 protected:
  Http2Fixture() { server.setProtocols({Protocol::H2_PRIOR_KNOWLEDGE}); }

  Request get(std::string_view path = "/") {
    return Request::Builder().url(server.url(path)).build();
  }

  Response execute(const Request& request) { return client.newCall(request)->execute(); }
  Response execute(std::string_view path = "/") { return execute(get(path)); }
  std::string fetch(std::string_view path = "/") { return execute(path).body()->string(); }

  static MockResponse body(std::string_view text) {
    return MockResponse::Builder().body(text).build();
  }

  MockWebServer server;
  // Short timeouts: a test that would hang fails in seconds instead.
  Client client = Client::Builder()
                      .protocols({Protocol::H2_PRIOR_KNOWLEDGE})
                      .connectTimeout(5s)
                      .readTimeout(5s)
                      .writeTimeout(5s)
                      .build();
};

}  // namespace tern::testing
