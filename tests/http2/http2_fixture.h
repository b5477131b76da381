// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The fixture the HTTP/2 tests share: a MockWebServer speaking h2c with prior knowledge and a
// client that does too (OkHttp's HttpOverHttp2Test with Protocol.H2_PRIOR_KNOWLEDGE). The call
// tests that hold for any multiplexed transport run over HTTP/3 as well (Transport, use()):
// the same server, over QUIC, and a client that is HTTP/3 only.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "support/tls_certificates.h"
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

// What a parameterized HTTP/2 call test runs over.
enum class Transport {
  kH2c,  // HTTP/2 with prior knowledge over cleartext TCP.
  kH3,   // HTTP/3 over QUIC (TLS 1.3), the client HTTP/3 only.
};

// "h2c" or "h3", for INSTANTIATE_TEST_SUITE_P's test names.
inline std::string transportName(const ::testing::TestParamInfo<Transport>& info) {
  return info.param == Transport::kH2c ? "h2c" : "h3";
}

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

  // Serves and calls over HTTP/3 instead of h2c: the server over https (a certificate made in
  // code) with HTTP/3 beside TCP, the client HTTP/3 only and trusting it. Before the server
  // starts. For `transport` kH2c, nothing changes.
  void use(Transport transport) {
    if (transport != Transport::kH3) return;
    certificates_.emplace();
    server.useHttps(certificates_->server());
    server.protocols({Protocol::HTTP_3, Protocol::HTTP_2, Protocol::HTTP_1_1});
    client = client.newBuilder()
                 .protocols({Protocol::HTTP_3})
                 .handshakeCertificates(certificates_->clientTrust())
                 .build();
  }
  bool overHttp3() const { return certificates_.has_value(); }
  // What the transport's responses report.
  Protocol protocol() const {
    return overHttp3() ? Protocol::HTTP_3 : Protocol::H2_PRIOR_KNOWLEDGE;
  }
  // The version in RecordedRequest::requestLine(): "HTTP/2" or "HTTP/3".
  std::string httpVersion() const { return overHttp3() ? "HTTP/3" : "HTTP/2"; }
  std::string scheme() const { return overHttp3() ? "https" : "http"; }
  // The id of the client's `n`th request stream on a connection (from 0): 1, 3, 5, ... over
  // HTTP/2 (RFC 9113 §5.1.1), 0, 4, 8, ... over QUIC (RFC 9000 §2.1).
  int streamId(int n) const { return overHttp3() ? 4 * n : 2 * n + 1; }

  Request get(std::string_view path = "/") {
    return Request::Builder().url(server.url(path)).build();
  }

  Response execute(const Request& request) { return client.newCall(request)->execute(); }
  Response execute(std::string_view path = "/") { return execute(get(path)); }
  std::string fetch(std::string_view path = "/") { return execute(path).body()->string(); }

  static MockResponse body(std::string_view text) {
    return MockResponse::Builder().body(text).build();
  }

  std::optional<TestCertificates> certificates_;  // Over HTTP/3 only.
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
