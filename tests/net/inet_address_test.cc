// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/inet_address.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

namespace tern {
namespace {

TEST(InetAddressTest, ParsesIpv4Literal) {
  std::optional<InetAddress> address = InetAddress::parse("192.168.0.1");
  ASSERT_TRUE(address.has_value());
  EXPECT_FALSE(address->isIpv6());
  EXPECT_EQ(std::vector<uint8_t>({192, 168, 0, 1}),
            std::vector<uint8_t>(address->address().begin(), address->address().end()));
  EXPECT_EQ("192.168.0.1", address->hostAddress());
  EXPECT_EQ("", address->hostName());
  EXPECT_EQ("192.168.0.1", address->toString());
}

TEST(InetAddressTest, ParsesIpv6LiteralsWithAndWithoutBrackets) {
  for (const char* literal : {"::1", "[::1]", "0:0:0:0:0:0:0:1", "0000::0001"}) {
    std::optional<InetAddress> address = InetAddress::parse(literal);
    ASSERT_TRUE(address.has_value()) << literal;
    EXPECT_TRUE(address->isIpv6()) << literal;
    EXPECT_EQ(16u, address->address().size());
    EXPECT_EQ("::1", address->hostAddress()) << literal;
    EXPECT_EQ(InetAddress::loopbackIpv6(), *address) << literal;
  }
}

TEST(InetAddressTest, WritesIpv6InRfc5952Form) {
  EXPECT_EQ("2001:db8::1", InetAddress::parse("2001:DB8:0:0:0:0:0:1")->hostAddress());
  EXPECT_EQ("2001:db8::1:0:0:1", InetAddress::parse("2001:db8:0:0:1:0:0:1")->hostAddress());
  EXPECT_EQ("::", InetAddress::parse("::")->hostAddress());
  // IPv4-mapped addresses stay IPv6 and are written as hex pieces, as HttpUrl writes them.
  std::optional<InetAddress> mapped = InetAddress::parse("::ffff:192.0.2.128");
  ASSERT_TRUE(mapped.has_value());
  EXPECT_TRUE(mapped->isIpv6());
  EXPECT_EQ("::ffff:c000:280", mapped->hostAddress());
}

TEST(InetAddressTest, RejectsWhatIsNotAStrictIpLiteral) {
  for (const char* input :
       {"",        "localhost", "1.2.3",    "1.2.3.4.5",         "256.1.1.1", "0x7f.0.0.1",
        "127.1",   "1.2.3.4 ",  " 1.2.3.4", "::1%eth0",          "fe80::1%1", "[1.2.3.4]",
        "[::1",    "::1]",      ":::",      "1:2:3:4:5:6:7:8:9", "[]",        "example.com",
        "12345::", "1.2.3.04"}) {
    EXPECT_FALSE(InetAddress::parse(input).has_value()) << '"' << input << '"';
  }
  EXPECT_FALSE(InetAddress::parse(std::string("127.0.0.1\0", 10)).has_value());
  EXPECT_FALSE(InetAddress::parse(std::string(10000, ':')).has_value());
}

TEST(InetAddressTest, CarriesTheHostNameItWasLookedUpFor) {
  InetAddress address = InetAddress::loopbackIpv4().withHostName("localhost");
  EXPECT_EQ("localhost", address.hostName());
  EXPECT_EQ("127.0.0.1", address.hostAddress());
  EXPECT_EQ("localhost (127.0.0.1)", address.toString());
}

TEST(InetAddressTest, EqualityAndHashIgnoreTheHostName) {
  InetAddress plain = *InetAddress::parse("10.0.0.1");
  InetAddress named = plain.withHostName("example.com");
  EXPECT_EQ(plain, named);
  EXPECT_EQ(std::hash<InetAddress>()(plain), std::hash<InetAddress>()(named));
  EXPECT_NE(plain, *InetAddress::parse("10.0.0.2"));
  // ::a00:1 has the same trailing bytes as 10.0.0.1 but is another address.
  EXPECT_NE(plain, *InetAddress::parse("::a00:1"));
  std::unordered_set<InetAddress> set{plain, named, *InetAddress::parse("::1")};
  EXPECT_EQ(2u, set.size());
}

TEST(InetAddressTest, FromBytesTakesFourOrSixteen) {
  const uint8_t four[] = {1, 2, 3, 4};
  EXPECT_EQ("1.2.3.4", InetAddress::fromBytes(four).hostAddress());
  const uint8_t sixteen[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
  EXPECT_EQ("2001:db8::2", InetAddress::fromBytes(sixteen, "h").hostAddress());
  const uint8_t five[] = {1, 2, 3, 4, 5};
  try {
    InetAddress::fromBytes(five);
    FAIL() << "expected invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not 5"), std::string::npos) << e.what();
  }
}

TEST(InetAddressTest, KnowsLoopbackAddresses) {
  EXPECT_TRUE(InetAddress::parse("127.0.0.1")->isLoopbackAddress());
  EXPECT_TRUE(InetAddress::parse("127.255.0.9")->isLoopbackAddress());
  EXPECT_TRUE(InetAddress::parse("::1")->isLoopbackAddress());
  EXPECT_FALSE(InetAddress::parse("128.0.0.1")->isLoopbackAddress());
  EXPECT_FALSE(InetAddress::parse("::2")->isLoopbackAddress());
}

TEST(InetSocketAddressTest, ToStringBracketsIpv6) {
  EXPECT_EQ("127.0.0.1:8080", InetSocketAddress(InetAddress::loopbackIpv4(), 8080).toString());
  EXPECT_EQ("[::1]:8080", InetSocketAddress(InetAddress::loopbackIpv6(), 8080).toString());
}

TEST(InetSocketAddressTest, DescribeNamesTheHostAsJavaDoes) {
  InetAddress named = InetAddress::loopbackIpv4().withHostName("localhost");
  EXPECT_EQ("localhost (127.0.0.1:443)", InetSocketAddress(named, 443).describe());
  EXPECT_EQ("127.0.0.1:443", InetSocketAddress(InetAddress::loopbackIpv4(), 443).describe());
  EXPECT_EQ("[::1]:1", InetSocketAddress(InetAddress::loopbackIpv6(), 1).describe());
}

TEST(InetSocketAddressTest, RejectsPortsOutOfRange) {
  EXPECT_NO_THROW(InetSocketAddress(InetAddress::loopbackIpv4(), 0));
  EXPECT_NO_THROW(InetSocketAddress(InetAddress::loopbackIpv4(), 65535));
  EXPECT_THROW(InetSocketAddress(InetAddress::loopbackIpv4(), 65536), std::invalid_argument);
  EXPECT_THROW(InetSocketAddress(InetAddress::loopbackIpv4(), -1), std::invalid_argument);
}

TEST(InetSocketAddressTest, EqualityAndHashCoverAddressAndPort) {
  InetSocketAddress a(InetAddress::loopbackIpv4(), 80);
  InetSocketAddress b(InetAddress::loopbackIpv4().withHostName("localhost"), 80);
  EXPECT_EQ(a, b);
  EXPECT_EQ(std::hash<InetSocketAddress>()(a), std::hash<InetSocketAddress>()(b));
  EXPECT_NE(a, InetSocketAddress(InetAddress::loopbackIpv4(), 81));
  EXPECT_NE(a, InetSocketAddress(InetAddress::loopbackIpv6(), 80));
}

}  // namespace
}  // namespace tern
