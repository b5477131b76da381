// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// HSTS against a real peer: nginx over TLS on loopback sending Strict-Transport-Security the way
// deployments do (add_header ... always). tern learns the host from an https response, then sends
// http URLs to it, and a redirect to http, over https to the same port. nginx answers a cleartext
// request on its TLS port with 400, so a 200 says the request came over TLS; X-Scheme says so
// too. "secure.test" maps to 127.0.0.1 through a fake DNS: an IP address never gets HSTS.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "support/nginx.h"
#include "support/tls_certificates.h"
#include "tern/client.h"
#include "tern/dns.h"
#include "tern/hsts.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;

class HstsNginxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Nginx::findBinary()) {
      GTEST_SKIP() << "nginx is not installed (apt-get install nginx, as scripts/setup.sh does)";
    }
    nginx_.writeFile("www/hello.txt", "Hello over TLS!\n");
    nginx_.writeFile("server.pem", leaf_.certificatePem() + certificates_.root.certificatePem());
    nginx_.writeFile("server.key", leaf_.privateKeyPkcs8Pem());
    const std::string dir = nginx_.directory().string();
    NginxConfig config;
    config.listenParameters = "ssl";
    config.serverDirectives =
        "ssl_certificate " + dir + "/server.pem;\n" + "ssl_certificate_key " + dir +
        "/server.key;\n" + "ssl_protocols TLSv1.2 TLSv1.3;\n" +
        "add_header Strict-Transport-Security \"max-age=31536000; includeSubDomains\" always;\n" +
        "add_header X-Scheme $scheme always;\n" +
        "location = /to-http { return 301 http://$host:$server_port/hello.txt; }\n";
    ASSERT_TRUE(nginx_.start(config)) << "nginx did not start:\n" << nginx_.errorLog();
  }

  std::string url(const std::string& scheme, const std::string& path,
                  const std::string& host = "secure.test") const {
    return scheme + "://" + host + ":" + std::to_string(nginx_.port()) + path;
  }

  Response get(const std::string& url) {
    return client_.newCall(Request::Builder().url(url).build())->execute();
  }

  TestCertificates certificates_;
  tls::HeldCertificate leaf_ = tls::HeldCertificate::Builder()
                                   .commonName("secure.test")
                                   .addSubjectAlternativeName("secure.test")
                                   .addSubjectAlternativeName("www.secure.test")
                                   .signedBy(certificates_.root)
                                   .build();
  Nginx nginx_;
  std::shared_ptr<Hsts> hsts_ = std::make_shared<Hsts>();
  Client client_ = Client::Builder()
                       .connectTimeout(5s)
                       .readTimeout(5s)
                       .writeTimeout(5s)
                       .handshakeCertificates(certificates_.clientTrust())
                       .dns(Dns::of([](const std::string&) {
                         return std::vector<InetAddress>{InetAddress::loopbackIpv4()};
                       }))
                       .hsts(hsts_)
                       .build();
};

TEST_F(HstsNginxTest, LearnsFromHttpsThenUpgradesHttpAndRedirects) {
  // Before: http to the TLS port is plain http, and nginx refuses it.
  Response refused = get(url("http", "/hello.txt"));
  EXPECT_EQ(refused.code(), 400);
  refused.body()->string();
  EXPECT_TRUE(hsts_->entries().empty());  // Over http: no HSTS, even if it had sent one.

  Response first = get(url("https", "/hello.txt"));
  EXPECT_EQ(first.body()->string(), "Hello over TLS!\n");
  EXPECT_TRUE(hsts_->isKnownHost("secure.test"));
  EXPECT_TRUE(hsts_->isKnownHost("www.secure.test"));

  Response upgraded = get(url("http", "/hello.txt", "www.secure.test"));
  EXPECT_EQ(upgraded.code(), 200);
  EXPECT_EQ(upgraded.header("X-Scheme"), "https");
  EXPECT_EQ(upgraded.body()->string(), "Hello over TLS!\n");
  EXPECT_EQ(upgraded.request().url().toString(), url("https", "/hello.txt", "www.secure.test"));

  // nginx's redirect names http on its own TLS port: followed as https.
  Response redirected = get(url("https", "/to-http"));
  EXPECT_EQ(redirected.code(), 200);
  EXPECT_EQ(redirected.body()->string(), "Hello over TLS!\n");
  EXPECT_EQ(redirected.request().url().toString(), url("https", "/hello.txt"));
  ASSERT_NE(redirected.priorResponse(), nullptr);
  EXPECT_EQ(redirected.priorResponse()->code(), 301);
}

}  // namespace
}  // namespace tern::testing
