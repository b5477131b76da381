// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
//
// DnsOverHttps against a DoH responder tern did not write: tests/data/peers/doh_server.js on
// Node's own http2 over TLS, with a table of made-up names. Skipped, saying why, where Node is not
// installed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/doh_peer.h"
#include "support/tls_certificates.h"
#include "tern/caching_dns.h"
#include "tern/client.h"
#include "tern/dns_over_https.h"
#include "tern/exceptions.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using ::testing::HasSubstr;

class DohPeerTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (!peer_.start(certificates_.localhost, {"app.test=127.0.0.1,::1", "v4.test=127.0.0.1"})) {
      GTEST_SKIP() << "the Node DoH responder did not start (needs /usr/bin/node)";
    }
  }

  std::shared_ptr<DnsOverHttps> doh() {
    return DnsOverHttps::Builder()
        .client(Client::Builder()
                    .handshakeCertificates(certificates_.clientTrust())
                    .readTimeout(5s)
                    .build())
        .url(HttpUrl::get(peer_.url()))
        .post(GetParam())
        .build();
  }

  TestCertificates certificates_;
  DohPeer peer_;
};

TEST_P(DohPeerTest, ResolvesAMadeUpNameForACall) {
  MockWebServer origin;
  origin.enqueue(MockResponse::Builder().body("reached over DoH").build());
  origin.start("127.0.0.1", 0);
  Client client = Client::Builder().dns(doh()).build();
  Response response =
      client
          .newCall(Request::Builder()
                       .url("http://app.test:" + std::to_string(origin.port()) + "/")
                       .build())
          ->execute();
  EXPECT_EQ(response.body()->string(), "reached over DoH");
  const std::string method = GetParam() ? "POST" : "GET";
  EXPECT_THAT(peer_.log(), HasSubstr(method + " app.test A\n"));
  EXPECT_THAT(peer_.log(), HasSubstr(method + " app.test AAAA\n"));
}

TEST_P(DohPeerTest, ReportsAddressesAndTtl) {
  DnsAnswer answer = doh()->lookupWithTtl("app.test");
  ASSERT_EQ(answer.addresses.size(), 2u);
  EXPECT_EQ(answer.addresses[0].hostAddress(), "::1");
  EXPECT_EQ(answer.addresses[1].hostAddress(), "127.0.0.1");
  EXPECT_EQ(answer.ttl, 300s);
  // A name with no AAAA record resolves to its A record alone.
  EXPECT_EQ(doh()->lookup("v4.test").size(), 1u);
}

TEST_P(DohPeerTest, UnknownNamesAreNxdomain) {
  try {
    doh()->lookup("missing.test");
    FAIL() << "resolved";
  } catch (const UnknownHostException& e) {
    EXPECT_EQ(std::string(e.what()),
              "Unable to resolve host \"missing.test\" over DNS over HTTPS (" + peer_.url() +
                  "): NXDOMAIN");
  }
}

TEST_P(DohPeerTest, ACachingDnsAsksOncePerTtl) {
  auto dns = std::make_shared<CachingDns>(doh());
  EXPECT_EQ(dns->lookup("app.test").size(), 2u);
  EXPECT_EQ(dns->lookup("app.test").size(), 2u);
  DnsAnswer cached = dns->lookupWithTtl("app.test");
  EXPECT_LE(cached.ttl, 300s);
  EXPECT_GT(cached.ttl, 290s);
  const std::string method = GetParam() ? "POST" : "GET";
  std::string log = peer_.log();
  size_t count = 0;
  for (size_t at = log.find(method + " app.test A\n"); at != std::string::npos;
       at = log.find(method + " app.test A\n", at + 1)) {
    ++count;
  }
  EXPECT_EQ(count, 1u) << log;
}

INSTANTIATE_TEST_SUITE_P(GetAndPost, DohPeerTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Post" : "Get"; });

}  // namespace
}  // namespace tern::testing
