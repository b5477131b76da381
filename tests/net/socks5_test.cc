// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/socks5.h"

#include <gtest/gtest.h>

#include <vector>

#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

// The proxy's side, scripted: what it answers, and what the client sent it.
struct ScriptedProxy {
  Buffer replies;  // Read by the client.
  Buffer sent;     // Written by the client.

  void reply(const std::vector<uint8_t>& bytes) {
    static_cast<BufferedSink&>(replies).write(bytes.data(), bytes.size());
  }
  std::vector<uint8_t> sentBytes() {
    std::vector<uint8_t> result;
    for (std::byte b : sent.snapshot()) result.push_back(static_cast<uint8_t>(b));
    return result;
  }
  void connect(const Proxy& proxy, const std::string& host, int port) {
    socks5Connect(static_cast<Source&>(replies), static_cast<Sink&>(sent), proxy, host, port);
  }
};

TEST(Socks5Test, ConnectsToAnIpv4AddressWithoutAuthentication) {
  ScriptedProxy proxy;
  proxy.reply({5, 0});                                 // No authentication.
  proxy.reply({5, 0, 0, 1, 10, 0, 0, 1, 0x1f, 0x90});  // Succeeded, bound to 10.0.0.1:8080.
  proxy.reply({'H', 'T'});                             // The origin's first bytes.
  proxy.connect(Proxy::socks5("p", 1080), "93.184.216.34", 443);
  EXPECT_EQ(proxy.sentBytes(),
            (std::vector<uint8_t>{5, 1, 0, 5, 1, 0, 1, 93, 184, 216, 34, 0x01, 0xbb}));
  EXPECT_EQ(proxy.replies.size(), 2);  // Nothing of the origin's was read.
}

TEST(Socks5Test, SendsTheHostNameForRemoteDnsAndReadsADomainReply) {
  ScriptedProxy proxy;
  proxy.reply({5, 0});
  proxy.reply({5, 0, 0, 3, 4, 'h', 'o', 's', 't', 0, 80});
  proxy.connect(Proxy::socks5h("p", 1080), "example.com", 80);
  std::vector<uint8_t> expected{5, 1, 0, 5, 1, 0, 3, 11};
  for (char c : std::string("example.com")) expected.push_back(static_cast<uint8_t>(c));
  expected.insert(expected.end(), {0, 80});
  EXPECT_EQ(proxy.sentBytes(), expected);
  EXPECT_EQ(proxy.replies.size(), 0);
}

TEST(Socks5Test, Ipv6Target) {
  ScriptedProxy proxy;
  proxy.reply({5, 0});
  std::vector<uint8_t> reply{5, 0, 0, 4};
  reply.insert(reply.end(), 18, 0);
  proxy.reply(reply);
  proxy.connect(Proxy::socks5("p", 1080), "::1", 8443);
  std::vector<uint8_t> sent = proxy.sentBytes();
  ASSERT_EQ(sent.size(), 3u + 4u + 16u + 2u);
  EXPECT_EQ(sent[6], 4);   // ATYP IPv6.
  EXPECT_EQ(sent[22], 1);  // ::1's last byte.
  EXPECT_EQ(sent[23], 0x20);
  EXPECT_EQ(sent[24], 0xfb);
}

TEST(Socks5Test, UsernamePasswordAuthentication) {
  ScriptedProxy proxy;
  proxy.reply({5, 2});  // Username/password, please.
  proxy.reply({1, 0});  // Accepted.
  proxy.reply({5, 0, 0, 1, 0, 0, 0, 0, 0, 0});
  proxy.connect(Proxy::socks5("p", 1080).withCredentials("ann", "pw"), "1.2.3.4", 80);
  EXPECT_EQ(proxy.sentBytes(), (std::vector<uint8_t>{5, 2, 0,   2,                      // Greeting.
                                                     1, 3, 'a', 'n', 'n', 2, 'p', 'w',  // RFC 1929.
                                                     5, 1, 0,   1,   1,   2, 3,   4,   0, 80}));
}

TEST(Socks5Test, RefusedCredentials) {
  ScriptedProxy proxy;
  proxy.reply({5, 2});
  proxy.reply({1, 1});
  try {
    proxy.connect(Proxy::socks5("p", 1080).withCredentials("ann", "bad"), "1.2.3.4", 80);
    FAIL();
  } catch (const ProxyException& e) {
    EXPECT_STREQ(e.what(),
                 "SOCKS5 proxy refused the username and password (SOCKS @ p:1080 to 1.2.3.4:80)");
    EXPECT_EQ(e.responseCode(), 0);
  }
}

TEST(Socks5Test, NoAcceptableMethod) {
  ScriptedProxy proxy;
  proxy.reply({5, 0xff});
  EXPECT_THROW(proxy.connect(Proxy::socks5("p", 1080), "1.2.3.4", 80), ProxyException);
}

TEST(Socks5Test, ConnectRefusedByTheProxy) {
  ScriptedProxy proxy;
  proxy.reply({5, 0});
  proxy.reply({5, 5, 0, 1, 0, 0, 0, 0, 0, 0});
  try {
    proxy.connect(Proxy::socks5h("p", 1080), "example.com", 443);
    FAIL();
  } catch (const ProxyException& e) {
    EXPECT_STREQ(e.what(),
                 "SOCKS5 proxy could not connect: connection refused (5) (SOCKS @ p:1080 to "
                 "example.com:443)");
  }
}

TEST(Socks5Test, NotASocksServer) {
  ScriptedProxy proxy;
  proxy.reply({'H', 'T', 'T', 'P'});
  EXPECT_THROW(proxy.connect(Proxy::socks5("p", 1080), "1.2.3.4", 80), ProtocolException);
  ScriptedProxy closed;
  closed.reply({5});  // Then the end.
  EXPECT_THROW(closed.connect(Proxy::socks5("p", 1080), "1.2.3.4", 80), ProtocolException);
}

TEST(Socks5Test, HostNameTooLong) {
  ScriptedProxy proxy;
  proxy.reply({5, 0});
  EXPECT_THROW(proxy.connect(Proxy::socks5h("p", 1080), std::string(256, 'a'), 80),
               std::invalid_argument);
}

}  // namespace
}  // namespace tern::internal
