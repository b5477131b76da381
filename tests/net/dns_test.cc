// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/dns.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tern/exceptions.h"

namespace tern {
namespace {

TEST(DnsTest, SystemResolvesLocalhostToLoopbackWithTheHostName) {
  std::vector<InetAddress> addresses = Dns::system()->lookup("localhost");
  ASSERT_FALSE(addresses.empty());
  for (const InetAddress& address : addresses) {
    EXPECT_TRUE(address.isLoopbackAddress()) << address.toString();
    EXPECT_EQ("localhost", address.hostName());
  }
  // No address twice, though getaddrinfo may list one per protocol.
  for (size_t i = 0; i < addresses.size(); ++i) {
    for (size_t j = i + 1; j < addresses.size(); ++j) {
      EXPECT_NE(addresses[i], addresses[j]);
    }
  }
}

TEST(DnsTest, SystemReturnsIpLiteralsWithoutALookup) {
  EXPECT_EQ(std::vector<InetAddress>{InetAddress::loopbackIpv4()},
            Dns::system()->lookup("127.0.0.1"));
  EXPECT_EQ(std::vector<InetAddress>{InetAddress::loopbackIpv6()}, Dns::system()->lookup("::1"));
  std::vector<InetAddress> bracketed = Dns::system()->lookup("[::1]");
  ASSERT_EQ(1u, bracketed.size());
  EXPECT_EQ(InetAddress::loopbackIpv6(), bracketed[0]);
  EXPECT_EQ("", bracketed[0].hostName());  // A literal was not looked up for any name.
}

TEST(DnsTest, SystemThrowsUnknownHostNamingTheHost) {
  // RFC 6761 reserves .invalid; a 64-octet label is also longer than DNS allows (RFC 1035
  // §2.3.4), so glibc refuses it before building a query: this never touches the network.
  const std::string host = std::string(64, 'a') + ".invalid";
  try {
    Dns::system()->lookup(host);
    FAIL() << "expected UnknownHostException";
  } catch (const UnknownHostException& e) {
    const std::string message = e.what();
    EXPECT_EQ(0u, message.find("Unable to resolve host \"" + host + "\": ")) << message;
    EXPECT_GT(message.size(), host.size() + 26) << "no reason given: " << message;
  }
}

TEST(DnsTest, SystemRejectsEmptyAndNulNamesWithoutALookup) {
  EXPECT_THROW(Dns::system()->lookup(""), UnknownHostException);
  EXPECT_THROW(Dns::system()->lookup(std::string("localhost\0.evil", 15)), UnknownHostException);
}

TEST(DnsTest, SystemIsShared) { EXPECT_EQ(Dns::system().get(), Dns::system().get()); }

TEST(DnsTest, OfAdaptsALambda) {
  std::vector<std::string> asked;
  std::shared_ptr<Dns> dns = Dns::of([&](const std::string& host) {
    asked.push_back(host);
    if (host == "unknown.test") {
      throw UnknownHostException("Unable to resolve host \"" + host + "\"");
    }
    return std::vector<InetAddress>{InetAddress::loopbackIpv6().withHostName(host),
                                    InetAddress::loopbackIpv4().withHostName(host)};
  });
  std::vector<InetAddress> result = dns->lookup("api.test");
  ASSERT_EQ(2u, result.size());
  EXPECT_EQ("[::1]:0", InetSocketAddress(result[0], 0).toString());  // Order kept.
  EXPECT_EQ("api.test", result[1].hostName());
  EXPECT_THROW(dns->lookup("unknown.test"), UnknownHostException);
  EXPECT_EQ((std::vector<std::string>{"api.test", "unknown.test"}), asked);
  EXPECT_THROW(Dns::of(nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace tern
