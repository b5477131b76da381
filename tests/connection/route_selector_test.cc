// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Route planning (OkHttp's RouteSelectorTest, direct routes), and Address and Route values.
#include "connection/route_selector.h"

#include <gtest/gtest.h>

#include "connection/address_access.h"
#include "net/tls_context.h"
#include "support/call_fakes.h"
#include "tern/authenticator.h"
#include "tern/ok_hostname_verifier.h"

namespace tern::internal {
namespace {

using tern::testing::FakeDns;

class RouteSelectorTest : public ::testing::Test {
 protected:
  Address httpsAddress(const std::string& host, std::shared_ptr<internal::TlsContext> context,
                       CertificatePinner pinner = CertificatePinner()) {
    return Address(host, 443, dns, std::move(context), OkHostnameVerifier::instance(),
                   std::move(pinner), Authenticator::none(), {Protocol::HTTP_1_1},
                   {ConnectionSpec::MODERN_TLS, ConnectionSpec::CLEARTEXT});
  }

  Address address(const std::string& host, int port = 80) {
    return Address(host, port, dns, Authenticator::none(), {Protocol::HTTP_1_1});
  }
  static InetAddress ip(const char* literal) { return *InetAddress::parse(literal); }
  static std::vector<std::string> hosts(const RouteSelector::Selection& selection) {
    std::vector<std::string> result;
    for (const Route& route : selection.routes()) {
      result.push_back(route.socketAddress().address().hostAddress());
    }
    return result;
  }

  std::shared_ptr<FakeDns> dns = std::make_shared<FakeDns>();
  RouteDatabase routeDatabase;
};

TEST_F(RouteSelectorTest, RoutesFollowTheDnsOrder) {
  dns->set("example.test", {ip("10.0.0.2"), ip("10.0.0.1"), ip("::1")});
  RouteSelector selector(address("example.test", 8080), routeDatabase);
  ASSERT_TRUE(selector.hasNext());
  RouteSelector::Selection selection = selector.next();
  EXPECT_EQ(hosts(selection), (std::vector<std::string>{"10.0.0.2", "10.0.0.1", "::1"}));
  EXPECT_EQ(selection.next().socketAddress().port(), 8080);
  EXPECT_FALSE(selector.hasNext());
  EXPECT_EQ(dns->lookups(), std::vector<std::string>{"example.test"});
}

TEST_F(RouteSelectorTest, ConnectToRulesChooseTheHostAndPort) {
  dns->set("target.test", {ip("10.0.0.9")});
  Address moved = AddressAccess::withConnectTargets(
      address("example.test"), std::nullopt,
      {{"other.test", 0, "never.test", 1}, {"example.test", 80, "target.test", 8080}});
  RouteSelector selector(moved, routeDatabase);
  Route route = selector.next().next();
  EXPECT_EQ(route.socketAddress().describe(), "target.test (10.0.0.9:8080)");
  EXPECT_EQ(route.toString(), "Route{example.test:80 at 10.0.0.9:8080}");
  EXPECT_EQ(dns->lookups(), std::vector<std::string>{"target.test"});
  // Part of the address: the pool keeps it apart from the plain one.
  EXPECT_FALSE(moved == address("example.test"));
}

TEST_F(RouteSelectorTest, UnixSocketIsTheOneRouteWithoutDnsOrProxy) {
  Address unix = AddressAccess::withConnectTargets(
      address("example.test"), InetSocketAddress::unixDomain("/run/app.sock"), {});
  RouteSelector selector(unix, routeDatabase);
  RouteSelector::Selection selection = selector.next();
  ASSERT_EQ(selection.routes().size(), 1u);
  const Route& route = selection.routes()[0];
  EXPECT_TRUE(route.proxy().isDirect());
  EXPECT_EQ(route.socketAddress(), InetSocketAddress::unixDomain("/run/app.sock"));
  EXPECT_EQ(route.toString(), "Route{example.test:80 at /run/app.sock}");
  EXPECT_FALSE(selector.hasNext());
  EXPECT_TRUE(dns->lookups().empty());
  EXPECT_FALSE(unix ==
               AddressAccess::withConnectTargets(
                   address("example.test"), InetSocketAddress::unixDomain("/run/other.sock"), {}));
}

TEST_F(RouteSelectorTest, IpLiteralIsNotLookedUp) {
  RouteSelector selector(address("127.0.0.1"), routeDatabase);
  EXPECT_EQ(hosts(selector.next()), std::vector<std::string>{"127.0.0.1"});
  EXPECT_TRUE(dns->lookups().empty());
}

TEST_F(RouteSelectorTest, Ipv6LiteralIsNotLookedUp) {
  RouteSelector selector(address("::1"), routeDatabase);
  EXPECT_EQ(hosts(selector.next()), std::vector<std::string>{"::1"});
  EXPECT_TRUE(dns->lookups().empty());
}

TEST_F(RouteSelectorTest, RoutesCarryTheHostName) {
  dns->set("example.test", {ip("10.0.0.1")});
  RouteSelector selector(address("example.test"), routeDatabase);
  Route route = selector.next().next();
  EXPECT_EQ(route.socketAddress().describe(), "example.test (10.0.0.1:80)");
  EXPECT_EQ(route.toString(), "Route{example.test:80 at 10.0.0.1:80}");
}

TEST_F(RouteSelectorTest, FailedRoutesAreTriedLast) {
  dns->set("example.test", {ip("10.0.0.1"), ip("10.0.0.2"), ip("10.0.0.3")});
  routeDatabase.failed(Route(address("example.test"), InetSocketAddress(ip("10.0.0.1"), 80)));
  RouteSelector selector(address("example.test"), routeDatabase);
  EXPECT_EQ(hosts(selector.next()), (std::vector<std::string>{"10.0.0.2", "10.0.0.3"}));
  ASSERT_TRUE(selector.hasNext());
  EXPECT_EQ(hosts(selector.next()), std::vector<std::string>{"10.0.0.1"});
  EXPECT_FALSE(selector.hasNext());
}

TEST_F(RouteSelectorTest, OnlyFailedRoutesAreStillTried) {
  dns->set("example.test", {ip("10.0.0.1")});
  Route route(address("example.test"), InetSocketAddress(ip("10.0.0.1"), 80));
  routeDatabase.failed(route);
  RouteSelector selector(address("example.test"), routeDatabase);
  EXPECT_EQ(hosts(selector.next()), std::vector<std::string>{"10.0.0.1"});
  EXPECT_FALSE(selector.hasNext());
}

TEST_F(RouteSelectorTest, ConnectingForgivesAFailedRoute) {
  Route route(address("127.0.0.1"), InetSocketAddress(ip("127.0.0.1"), 80));
  routeDatabase.failed(route);
  EXPECT_TRUE(routeDatabase.shouldPostpone(route));
  routeDatabase.connected(route);
  EXPECT_FALSE(routeDatabase.shouldPostpone(route));
}

TEST_F(RouteSelectorTest, DnsFailurePropagates) {
  RouteSelector selector(address("unknown.test"), routeDatabase);
  EXPECT_THROW(selector.next(), UnknownHostException);
}

TEST_F(RouteSelectorTest, EmptyDnsResultIsAnUnknownHost) {
  dns->set("empty.test", {});
  RouteSelector selector(address("empty.test"), routeDatabase);
  try {
    selector.next();
    FAIL() << "expected UnknownHostException";
  } catch (const UnknownHostException& e) {
    EXPECT_STREQ(e.what(), "Dns returned no addresses for empty.test");
  }
}

TEST_F(RouteSelectorTest, NextPastTheEndIsMisuse) {
  RouteSelector selector(address("127.0.0.1"), routeDatabase);
  RouteSelector::Selection selection = selector.next();
  selection.next();
  EXPECT_FALSE(selection.hasNext());
  EXPECT_THROW(selection.next(), std::logic_error);
  EXPECT_THROW(selector.next(), std::logic_error);
}

TEST_F(RouteSelectorTest, AddressNamesTheOrigin) {
  Address a = address("example.test", 8080);
  EXPECT_EQ(a.url().toString(), "http://example.test:8080/");
  EXPECT_EQ(a.toString(), "Address{example.test:8080}");
  Address https = httpsAddress("example.test", std::make_shared<internal::TlsContext>());
  EXPECT_EQ(https.url().toString(), "https://example.test/");
  EXPECT_EQ(address("::1", 80).toString(), "Address{[::1]:80}");
}

TEST_F(RouteSelectorTest, AddressesAreEqualWhenTheirConfigurationIs) {
  EXPECT_EQ(address("a.test"), address("a.test"));
  EXPECT_FALSE(address("a.test") == address("b.test"));
  EXPECT_TRUE(address("a.test").equalsNonHost(address("b.test")));
  EXPECT_FALSE(address("a.test").equalsNonHost(address("a.test", 81)));
  Address otherDns("a.test", 80, std::make_shared<FakeDns>(), Authenticator::none(),
                   {Protocol::HTTP_1_1});
  EXPECT_FALSE(address("a.test") == otherDns);
}

TEST_F(RouteSelectorTest, HttpsAddressesDifferByEveryTlsSetting) {
  auto context = std::make_shared<internal::TlsContext>();
  EXPECT_EQ(httpsAddress("a.test", context), httpsAddress("a.test", context));
  // Another client's TLS context (other trust, client certificate or sessions).
  EXPECT_FALSE(httpsAddress("a.test", context) ==
               httpsAddress("a.test", std::make_shared<internal::TlsContext>()));
  // Other pins.
  CertificatePinner pinner =
      CertificatePinner::Builder()
          .add("a.test", {"sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="})
          .build();
  EXPECT_FALSE(httpsAddress("a.test", context) == httpsAddress("a.test", context, pinner));
  // Another hostname verifier.
  Address otherVerifier("a.test", 443, dns, context,
                        HostnameVerifier::of([](auto, const auto&) { return true; }),
                        CertificatePinner(), Authenticator::none(), {Protocol::HTTP_1_1},
                        {ConnectionSpec::MODERN_TLS});
  EXPECT_FALSE(httpsAddress("a.test", context) == otherVerifier);
  // Other connection specs.
  Address otherSpecs("a.test", 443, dns, context, OkHostnameVerifier::instance(),
                     CertificatePinner(), Authenticator::none(), {Protocol::HTTP_1_1},
                     {ConnectionSpec::RESTRICTED_TLS});
  EXPECT_FALSE(httpsAddress("a.test", context) == otherSpecs);
  // And http is never https.
  EXPECT_FALSE(httpsAddress("a.test", context).equalsNonHost(address("a.test", 443)));
}

TEST_F(RouteSelectorTest, HttpsAddressNeedsAVerifierAndAPinner) {
  auto context = std::make_shared<internal::TlsContext>();
  EXPECT_THROW(Address("a.test", 443, dns, context, nullptr, CertificatePinner(),
                       Authenticator::none(), {Protocol::HTTP_1_1}, {ConnectionSpec::MODERN_TLS}),
               std::invalid_argument);
  EXPECT_THROW(Address("a.test", 443, dns, context, OkHostnameVerifier::instance(), std::nullopt,
                       Authenticator::none(), {Protocol::HTTP_1_1}, {ConnectionSpec::MODERN_TLS}),
               std::invalid_argument);
}

TEST_F(RouteSelectorTest, AddressRejectsInvalidArguments) {
  EXPECT_THROW(address("a.test", 0), std::invalid_argument);
  EXPECT_THROW(address("a.test", 65536), std::invalid_argument);
  EXPECT_THROW(address("bad host!", 80), std::invalid_argument);
  EXPECT_THROW(Address("a.test", 80, nullptr, Authenticator::none(), {}), std::invalid_argument);
  EXPECT_THROW(Address("a.test", 80, dns, nullptr, {}), std::invalid_argument);
}

TEST_F(RouteSelectorTest, RouteOfAnIpLiteralIsShort) {
  Route route(address("127.0.0.1", 8080), InetSocketAddress(ip("127.0.0.1"), 8080));
  EXPECT_EQ(route.toString(), "Route{127.0.0.1:8080}");
}

}  // namespace
}  // namespace tern::internal
