// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// tern's TLS against real servers on loopback, with certificates made by HeldCertificate: nginx
// (its OpenSSL configured the way deployments do) and OpenSSL's own `openssl s_server -www`,
// which describes each connection it serves ("New, TLSv1.3, ..." or "Reused, ..."). Each suite is
// skipped, saying why, where its binary is not installed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "support/call_fakes.h"
#include "support/nginx.h"
#include "support/openssl_server.h"
#include "support/tls_certificates.h"
#include "tern/callback.h"
#include "tern/client.h"
#include "tern/dispatcher.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;

Client::Builder clientTrusting(const TestCertificates& certificates) {
  return Client::Builder()
      .connectTimeout(5s)
      .readTimeout(5s)
      .writeTimeout(5s)
      .handshakeCertificates(certificates.clientTrust());
}

std::string failureOf(const Client& client, const std::string& url) {
  try {
    client.newCall(Request::Builder().url(url).build())->execute().body()->string();
  } catch (const IOException& e) {
    return e.what();
  }
  return "nothing thrown";
}

// nginx serving https on loopback with a HeldCertificate chain (leaf, then the root).
class NginxTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Nginx::findBinary()) {
      GTEST_SKIP() << "nginx is not installed (apt-get install nginx, as scripts/setup.sh does)";
    }
    nginx_.writeFile("www/hello.txt", "Hello over TLS!\n");
    nginx_.writeFile("server.pem", certificates_.localhost.certificatePem() +
                                       certificates_.root.certificatePem());
    nginx_.writeFile("server.key", certificates_.localhost.privateKeyPkcs8Pem());
    nginx_.writeFile("clients.pem", certificates_.root.certificatePem());
  }

  // Starts nginx with TLS `protocols` and `extra` server directives. (Debian's nginx leaves
  // TLS 1.3 out by default.) `listen` adds "http2" for h2 by ALPN.
  void start(const std::string& extra = "", const std::string& protocols = "TLSv1.2 TLSv1.3",
             const std::string& listen = "ssl") {
    const std::string dir = nginx_.directory().string();
    NginxConfig config;
    config.listenParameters = listen;
    config.serverDirectives = "ssl_certificate " + dir + "/server.pem;\n" + "ssl_certificate_key " +
                              dir + "/server.key;\n" +
                              // Tells the client whether its session was resumed: "r" or ".".
                              "add_header X-Session-Reused $ssl_session_reused always;\n" +
                              "add_header X-Tls $ssl_protocol always;\n" + "ssl_protocols " +
                              protocols + ";\n" + extra;
    ASSERT_TRUE(nginx_.start(config)) << "nginx did not start:\n" << nginx_.errorLog();
  }

  std::string url(const std::string& path) const {
    return "https://localhost:" + std::to_string(nginx_.port()) + path;
  }

  TestCertificates certificates_;
  Nginx nginx_;
};

TEST_F(NginxTlsTest, FetchesOverTls13AndReusesTheConnection) {
  start();
  Client client = clientTrusting(certificates_).build();
  Response first = client.newCall(Request::Builder().url(url("/hello.txt")).build())->execute();
  EXPECT_EQ(first.body()->string(), "Hello over TLS!\n");
  EXPECT_EQ(first.header("X-Tls"), "TLSv1.3");
  ASSERT_TRUE(first.handshake().has_value());
  EXPECT_EQ(first.handshake()->tlsVersion(), TlsVersion::TLS_1_3);
  EXPECT_EQ(first.handshake()->peerPrincipal(), "CN=localhost");
  Response second = client.newCall(Request::Builder().url(url("/hello.txt")).build())->execute();
  EXPECT_EQ(second.body()->string(), "Hello over TLS!\n");
  std::vector<std::string> log = nginx_.accessLogLines(2);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].substr(0, log[0].find(' ')), log[1].substr(0, log[1].find(' ')));
}

TEST_F(NginxTlsTest, NegotiatesHttp2ByAlpnAndMultiplexesCallsOnOneConnection) {
  start("", "TLSv1.2 TLSv1.3", "ssl http2");
  auto dispatcher = std::make_shared<Dispatcher>();
  dispatcher->setMaxRequestsPerHost(20);
  Client client = clientTrusting(certificates_).dispatcher(dispatcher).build();
  constexpr int kCalls = 20;
  std::mutex mutex;
  std::condition_variable done;
  std::vector<std::string> outcomes;
  for (int i = 0; i < kCalls; ++i) {
    client.newCall(Request::Builder().url(url("/hello.txt")).build())
        ->enqueue(
            [&](Call&, Response response) {
              std::string outcome =
                  std::string(toString(response.protocol())) + " " + response.body()->string();
              std::lock_guard lock(mutex);
              outcomes.push_back(outcome);
              done.notify_all();
            },
            [&](Call&, const IOException& e) {
              std::lock_guard lock(mutex);
              outcomes.push_back(std::string("failed: ") + e.what());
              done.notify_all();
            });
  }
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(done.wait_for(lock, 20s, [&] { return outcomes.size() == kCalls; }));
  }
  for (const std::string& outcome : outcomes) EXPECT_EQ(outcome, "h2 Hello over TLS!\n");
  // Calls that started together waited for the first connection and share it.
  std::vector<std::string> log = nginx_.accessLogLines(kCalls);
  ASSERT_EQ(log.size(), static_cast<size_t>(kCalls));
  for (const std::string& line : log) {
    EXPECT_EQ(line.substr(0, line.find(' ')), log[0].substr(0, log[0].find(' '))) << line;
    EXPECT_THAT(line, HasSubstr("HTTP/2.0\" 200"));
  }
  EXPECT_EQ(client.connectionPool()->connectionCount(), 1);

  // A client that offers only http/1.1 gets it from the same server.
  Client http11 = clientTrusting(certificates_).protocols({Protocol::HTTP_1_1}).build();
  Response response = http11.newCall(Request::Builder().url(url("/hello.txt")).build())->execute();
  EXPECT_EQ(response.protocol(), Protocol::HTTP_1_1);
  EXPECT_EQ(response.body()->string(), "Hello over TLS!\n");
}

TEST_F(NginxTlsTest, NewConnectionResumesTheSession) {
  start();
  Client client = clientTrusting(certificates_).build();
  std::vector<std::string> reused;
  for (int i = 0; i < 2; ++i) {
    Request request =
        Request::Builder().url(url("/hello.txt")).header("Connection", "close").build();
    Response response = client.newCall(request)->execute();
    response.body()->string();
    reused.push_back(response.header("X-Session-Reused").value_or("?"));
  }
  EXPECT_EQ(reused, (std::vector<std::string>{".", "r"}));
}

TEST_F(NginxTlsTest, Tls12OnlyServerAndTls13OnlyClientShareNoVersion) {
  start("", "TLSv1.2");
  Client tls13 = clientTrusting(certificates_)
                     .connectionSpecs({ConnectionSpec::Builder(ConnectionSpec::RESTRICTED_TLS)
                                           .tlsVersions({TlsVersion::TLS_1_3})
                                           .build()})
                     .build();
  EXPECT_THAT(failureOf(tls13, url("/hello.txt")),
              HasSubstr("failed: no TLS version in common: the client offers TLSv1.3 and the "
                        "server refused (protocol version alert)"));
  // MODERN_TLS offers 1.2 too.
  Client modern = clientTrusting(certificates_).build();
  Response response = modern.newCall(Request::Builder().url(url("/hello.txt")).build())->execute();
  EXPECT_EQ(response.handshake()->tlsVersion(), TlsVersion::TLS_1_2);
  EXPECT_EQ(response.header("X-Tls"), "TLSv1.2");
}

TEST_F(NginxTlsTest, MutualTlsWithAClientCertificate) {
  start("ssl_verify_client on;\nssl_client_certificate " + nginx_.directory().string() +
        "/clients.pem;\nadd_header X-Client $ssl_client_s_dn always;");
  Client withCertificate = clientTrusting(certificates_)
                               .handshakeCertificates(certificates_.clientWithCertificate())
                               .build();
  Response response =
      withCertificate.newCall(Request::Builder().url(url("/hello.txt")).build())->execute();
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.header("X-Client"), "CN=client");
  // Without one, nginx answers 400 ("No required SSL certificate was sent") over TLS.
  Client anonymous = clientTrusting(certificates_).build();
  Response refused =
      anonymous.newCall(Request::Builder().url(url("/hello.txt")).build())->execute();
  EXPECT_EQ(refused.code(), 400);
  EXPECT_THAT(refused.body()->string(), HasSubstr("No required SSL certificate was sent"));
}

TEST_F(NginxTlsTest, UntrustedAndMismatchedCertificatesFail) {
  start();
  Client stranger =
      Client::Builder().handshakeCertificates(TestCertificates().clientTrust()).build();
  EXPECT_THAT(failureOf(stranger, url("/hello.txt")), HasSubstr("untrusted certificate chain"));
  // A name the certificate does not list (resolved to loopback) fails after the handshake.
  auto dns = std::make_shared<FakeDns>();
  dns->set("other.test", {InetAddress::loopbackIpv4()});
  Client client = clientTrusting(certificates_).dns(dns).build();
  EXPECT_THAT(
      failureOf(client, "https://other.test:" + std::to_string(nginx_.port()) + "/hello.txt"),
      HasSubstr("Hostname other.test not verified:\n"));
  // 127.0.0.1 is listed, as an IP address.
  EXPECT_EQ(failureOf(client, "https://127.0.0.1:" + std::to_string(nginx_.port()) + "/hello.txt"),
            "nothing thrown");
}

// openssl s_server -www, which reports how each connection was made.
class OpenSslServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!OpenSslServer::findBinary()) {
      GTEST_SKIP() << "the openssl command is not installed (apt-get install openssl)";
    }
    server_.emplace(certificates_.localhost);
  }

  std::string url() const { return "https://localhost:" + std::to_string(server_->port()) + "/"; }

  std::string fetch(const Client& client) {
    return client.newCall(Request::Builder().url(url()).build())->execute().body()->string();
  }

  TestCertificates certificates_;
  std::optional<OpenSslServer> server_;
};

TEST_F(OpenSslServerTest, FetchesThePageAndResumesTheSession) {
  ASSERT_TRUE(server_->start()) << server_->output();
  Client client = clientTrusting(certificates_).build();
  std::string first = fetch(client);
  EXPECT_THAT(first, MatchesRegex("(.|\n)*New, TLSv1.3, Cipher is TLS_AES_128_GCM_SHA256(.|\n)*"));
  // s_server -www closes each connection (HTTP/1.0): the next fetch resumes the session.
  std::string second = fetch(client);
  EXPECT_THAT(second, HasSubstr("Reused, TLSv1.3, Cipher is TLS_AES_128_GCM_SHA256"));
}

TEST_F(OpenSslServerTest, Tls12WithAChosenCipherSuite) {
  ASSERT_TRUE(server_->start({"-tls1_2"})) << server_->output();
  Client client =
      clientTrusting(certificates_)
          .connectionSpecs(
              {ConnectionSpec::Builder(true)
                   .tlsVersions({TlsVersion::TLS_1_2})
                   .cipherSuites({CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256})
                   .build()})
          .build();
  Response response = client.newCall(Request::Builder().url(url()).build())->execute();
  EXPECT_THAT(response.body()->string(),
              HasSubstr("New, TLSv1.2, Cipher is ECDHE-ECDSA-CHACHA20-POLY1305"));
  EXPECT_EQ(response.handshake()->tlsVersion(), TlsVersion::TLS_1_2);
  EXPECT_EQ(response.handshake()->cipherSuite(),
            CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256);
}

TEST_F(OpenSslServerTest, RequiredClientCertificate) {
  const std::string caFile =
      server_->writeFile("ca.pem", certificates_.root.certificatePem()).string();
  ASSERT_TRUE(server_->start({"-Verify", "1", "-CAfile", caFile})) << server_->output();
  Client withCertificate = clientTrusting(certificates_)
                               .handshakeCertificates(certificates_.clientWithCertificate())
                               .build();
  EXPECT_THAT(fetch(withCertificate), HasSubstr("New, TLSv1.3"));
  Client anonymous = clientTrusting(certificates_).build();
  EXPECT_THAT(failureOf(anonymous, url()), HasSubstr("the server requires a client certificate"));
}

}  // namespace
}  // namespace tern::testing
