// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// HTTP/3 discovery against real peers (issue 20): nginx serves the origin over TLS and HTTP/2 and
// advertises an HTTP/3 alternative with Alt-Svc, as deployments do (add_header ... always);
// Debian's gtlsserver (ngtcp2's example server) serves that alternative over QUIC with the same
// certificate. A client that may use HTTP/3 makes its first call over HTTP/2, the next ones over
// HTTP/3; with an Alt-Svc file, a later client goes straight to HTTP/3.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "http3/gtls_server.h"
#include "support/nginx.h"
#include "support/tls_certificates.h"
#include "tern/client.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;

const std::vector<Protocol> kWithHttp3{Protocol::HTTP_3, Protocol::HTTP_2, Protocol::HTTP_1_1};

class Http3NginxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Nginx::findBinary()) {
      GTEST_SKIP() << "nginx is not installed (apt-get install nginx, as scripts/setup.sh does)";
    }
    if (!GtlsServer::available()) GTEST_SKIP() << "gtlsserver (ngtcp2-server) is not installed";
    quic_ = std::make_unique<GtlsServer>(certificates_, nginx_.directory() / "gtls");
    quic_->writeFile("hello.txt", "hello from gtlsserver\n");
    ASSERT_TRUE(quic_->start()) << "gtlsserver did not start; see " << quic_->log();

    nginx_.writeFile("www/hello.txt", "hello from nginx\n");
    nginx_.writeFile("server.pem", certificates_.localhost.certificatePem() +
                                       certificates_.root.certificatePem());
    nginx_.writeFile("server.key", certificates_.localhost.privateKeyPkcs8Pem());
    const std::string dir = nginx_.directory().string();
    NginxConfig config;
    config.listenParameters = "ssl http2";
    config.serverDirectives = "ssl_certificate " + dir + "/server.pem;\n" + "ssl_certificate_key " +
                              dir + "/server.key;\n" +
                              "add_header Alt-Svc 'h3=\":" + std::to_string(quic_->port()) +
                              "\"; ma=86400' always;\n";
    ASSERT_TRUE(nginx_.start(config)) << "nginx did not start:\n" << nginx_.errorLog();
  }

  Client::Builder clientBuilder() {
    return Client::Builder()
        .connectTimeout(5s)
        .readTimeout(5s)
        .writeTimeout(5s)
        .handshakeCertificates(certificates_.clientTrust())
        .protocols(kWithHttp3);
  }

  static std::pair<Protocol, std::string> fetch(const Client& client, const std::string& url) {
    Response response = client.newCall(Request::Builder().url(url).build())->execute();
    EXPECT_EQ(response.code(), 200);
    return {response.protocol(), response.body()->string()};
  }

  TestCertificates certificates_;
  Nginx nginx_;
  std::unique_ptr<GtlsServer> quic_;
};

TEST_F(Http3NginxTest, FirstCallOverHttp2ThenHttp3) {
  Client client = clientBuilder().build();
  const std::string url = nginx_.url("/hello.txt", "https");

  auto [firstProtocol, firstBody] = fetch(client, url);
  EXPECT_EQ(firstProtocol, Protocol::HTTP_2);
  EXPECT_EQ(firstBody, "hello from nginx\n");

  for (int i = 0; i < 3; ++i) {
    auto [protocol, body] = fetch(client, url);
    EXPECT_EQ(protocol, Protocol::HTTP_3);
    EXPECT_EQ(body, "hello from gtlsserver\n");
  }
  EXPECT_EQ(nginx_.accessLogLines(1).size(), 1u);  // Only the first call reached nginx.
}

TEST_F(Http3NginxTest, AnAltSvcFileTakesALaterClientStraightToHttp3) {
  const std::filesystem::path file = nginx_.directory() / "alt-svc.txt";
  const std::string url = nginx_.url("/hello.txt", "https");
  {
    Client first = clientBuilder().altSvcFile(file).build();
    EXPECT_EQ(fetch(first, url).first, Protocol::HTTP_2);
    first.shutdown();
  }
  ASSERT_TRUE(std::filesystem::exists(file));

  Client later = clientBuilder().altSvcFile(file).build();
  auto [protocol, body] = fetch(later, url);
  EXPECT_EQ(protocol, Protocol::HTTP_3);
  EXPECT_EQ(body, "hello from gtlsserver\n");
}

}  // namespace
}  // namespace tern::testing
