// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Client::Builder::connectTo(): curl's --connect-to rules choose the host and port a direct
// connection goes to, while Host, SNI and the certificate's check stay the URL's.
#include <gtest/gtest.h>

#include <mutex>

#include "call/call_fixture.h"
#include "support/tls_certificates.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

// A Dns that answers 127.0.0.1 for every name and remembers what it was asked.
struct LoopbackDns final : Dns {
  std::vector<InetAddress> lookup(const std::string& hostname) override {
    std::lock_guard lock(mutex);
    asked.push_back(hostname);
    return {InetAddress::loopbackIpv4()};
  }
  std::vector<std::string> names() {
    std::lock_guard lock(mutex);
    return asked;
  }
  std::mutex mutex;
  std::vector<std::string> asked;
};

class ConnectToTest : public CallFixture {
 protected:
  Client withRules(std::vector<ConnectTo> rules) {
    return client.newBuilder().dns(dns).connectTo(std::move(rules)).build();
  }
  std::shared_ptr<RecordingEventListener> lastEvents() { return events->listeners().back(); }
  std::string loopback() { return "127.0.0.1:" + std::to_string(server.port()); }

  std::shared_ptr<LoopbackDns> dns = std::make_shared<LoopbackDns>();
};

TEST_F(ConnectToTest, ConnectsToTheRulesHostAndPortWithTheUrlsHost) {
  server.enqueue(body("moved"));
  Client moved = withRules({{"example.test", 80, "target.test", server.port()}});
  Response response =
      moved.newCall(Request::Builder().url("http://example.test/a").build())->execute();
  EXPECT_EQ(response.body()->string(), "moved");
  EXPECT_EQ(server.takeRequest().headers().get("Host"), "example.test");
  // Only the target is looked up, and connected to at the rule's port.
  EXPECT_EQ(dns->names(), std::vector<std::string>{"target.test"});
  EXPECT_EQ(lastEvents()->find("dnsStart")->detail, "target.test");
  EXPECT_EQ(lastEvents()->find("connectStart")->detail, loopback());
}

TEST_F(ConnectToTest, EmptyPartsAreWildcardsAndKeepTheUrls) {
  server.enqueue(body("port only"));
  // Any host at port 80 goes to the server's port; the host is kept (and looked up).
  Client moved = withRules({{"", 80, "", server.port()}});
  EXPECT_EQ(moved.newCall(Request::Builder().url("http://Example.TEST/").build())
                ->execute()
                .body()
                ->string(),
            "port only");
  EXPECT_EQ(dns->names(), std::vector<std::string>{"example.test"});
}

TEST_F(ConnectToTest, FirstMatchingRuleWinsAndOneThatKeepsBothDoesNot) {
  server.enqueue(body("second rule"));
  Client moved = withRules({
      {"other.test", 0, "never.test", 1},     // Another host.
      {"example.test", 81, "never.test", 1},  // Another port.
      {"example.test", 80, "", 0},            // Keeps both: curl looks on.
      {"", 0, "127.0.0.1", server.port()},    // This one.
      {"example.test", 80, "never.test", 1},  // Too late.
  });
  EXPECT_EQ(moved.newCall(Request::Builder().url("http://example.test/").build())
                ->execute()
                .body()
                ->string(),
            "second rule");
  EXPECT_TRUE(dns->names().empty());  // An IP literal needs no lookup.
}

TEST_F(ConnectToTest, HttpsKeepsTheUrlsNameForSniAndTheCertificate) {
  TestCertificates certificates;
  server.useHttps(certificates.server());
  server.enqueue(body("secure"));
  Client moved = withRules({{"", 0, "127.0.0.1", server.port()}})
                     .newBuilder()
                     .handshakeCertificates(certificates.clientTrust())
                     .build();
  EXPECT_EQ(moved.newCall(Request::Builder().url("https://localhost/").build())
                ->execute()
                .body()
                ->string(),
            "secure");
  EXPECT_EQ(server.takeRequest().handshakeServerNames(), std::vector<std::string>{"localhost"});
  // The server's certificate names localhost, not example.test, wherever the connection goes.
  EXPECT_THROW(moved.newCall(Request::Builder().url("https://example.test/").build())->execute(),
               SSLPeerUnverifiedException);
}

TEST_F(ConnectToTest, ClientsWithOtherRulesDoNotShareConnections) {
  server.enqueue(body("one"));
  server.enqueue(body("two"));
  // Same builder, so one pool; both rules reach the same server, through different names.
  Client one = withRules({{"example.test", 80, "127.0.0.1", server.port()}});
  Client two =
      one.newBuilder().connectTo({{"example.test", 80, "localhost", server.port()}}).build();
  const Request request = Request::Builder().url("http://example.test/").build();
  EXPECT_EQ(one.newCall(request)->execute().body()->string(), "one");
  EXPECT_EQ(two.newCall(request)->execute().body()->string(), "two");
  EXPECT_EQ(lastEvents()->count("connectStart"), 1);
  EXPECT_EQ(one.connectionPool()->connectionCount(), 2);
  EXPECT_NE(server.takeRequest().connectionIndex(), server.takeRequest().connectionIndex());
}

TEST(ConnectToRuleTest, Match) {
  const std::vector<ConnectTo> rules = {
      {"a.test", 80, "", 0}, {"A.test", 0, "b.test", 0}, {"", 443, "", 8443}};
  EXPECT_EQ(ConnectTo::match(rules, "a.test", 80), &rules[1]);
  EXPECT_EQ(ConnectTo::match(rules, "c.test", 443), &rules[2]);
  EXPECT_EQ(ConnectTo::match(rules, "c.test", 80), nullptr);
  EXPECT_THROW(Client::Builder().connectTo({{"a", 70000, "b", 1}}), std::invalid_argument);
}

}  // namespace
}  // namespace tern::testing
