// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Hosts: IDNA, IPv4 and IPv6 canonicalization, and topPrivateDomain(), in the spirit of OkHttp's
// HttpUrlTest. The WHATWG URL Standard's host parser is the reference where OkHttp differs.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tern/http_url.h"

namespace tern {
namespace {

std::string hostOf(const std::string& url) { return HttpUrl::get(url).host(); }

void expectInvalidHost(const std::string& url, const std::string& host) {
  EXPECT_EQ(HttpUrl::parse(url), std::nullopt) << url;
  try {
    HttpUrl::get(url);
    ADD_FAILURE() << "expected std::invalid_argument for " << url;
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(e.what(), "Invalid URL host: \"" + host + "\"");
  }
}

TEST(HttpUrlHostTest, InternationalNamesBecomePunycode) {
  EXPECT_EQ(hostOf("http://\xcf\x83"), "xn--4xa");  // σ
  EXPECT_EQ(hostOf("http://\xce\xa3"), "xn--4xa");  // Σ maps to σ.
  EXPECT_EQ(hostOf("http://B\xc3\xbc"
                   "cher.de/"),
            "xn--bcher-kva.de");
  EXPECT_EQ(hostOf("http://\xe2\x98\x83.net/"), "xn--n3h.net");  // ☃: UTS #46 allows symbols.
  EXPECT_EQ(hostOf("http://xn--n3h.net/"), "xn--n3h.net");
}

TEST(HttpUrlHostTest, NontransitionalProcessingKeepsDeviationCharacters) {
  EXPECT_EQ(hostOf("http://fa\xc3\x9f.de/"), "xn--fa-hia.de");  // ß is kept, not mapped to "ss".
  EXPECT_EQ(hostOf("http://\xce\xb2\xcf\x8c\xce\xbb\xce\xbf\xcf\x82.com/"), "xn--nxasmm1c.com");
}

TEST(HttpUrlHostTest, IdnaMapping) {
  EXPECT_EQ(hostOf("http://AB\xc2\xad"
                   "CD"),
            "abcd");                                         // Soft hyphen is ignored.
  EXPECT_EQ(hostOf("http://\xe2\x84\xa1"), "tel");           // ℡ maps to "tel".
  EXPECT_EQ(hostOf("http://\xe2\x84\xaa"), "k");             // Kelvin sign maps to "k".
  EXPECT_EQ(hostOf("http://\xf0\xaf\xa8\x9d"), "xn--pu5l");  // U+2FA1D, last mapped.
  EXPECT_EQ(hostOf("http://\xef\xbc\xa1\xef\xbd\x82\xef\xbd\x83/"), "abc");  // Fullwidth.
  EXPECT_EQ(hostOf("http://a\xe3\x80\x82"
                   "b\xef\xbc\x8e"
                   "c/"),
            "a.b.c");  // Ideographic dots.
}

TEST(HttpUrlHostTest, NfcAndNfdInputGiveTheSameHost) {
  EXPECT_EQ(hostOf("http://caf\xc3\xa9.com/"), "xn--caf-dma.com");   // é precomposed.
  EXPECT_EQ(hostOf("http://cafe\xcc\x81.com/"), "xn--caf-dma.com");  // e + combining acute.
  EXPECT_EQ(hostOf("http://xn--caf-dma.com/"), "xn--caf-dma.com");
}

TEST(HttpUrlHostTest, InvalidInternationalNamesAreRejected) {
  expectInvalidHost("http://\xf4\x8f\xbf\xbf/", "\xf4\x8f\xbf\xbf");          // U+10FFFF.
  expectInvalidHost("http://\xe2\x80\x8d.example/", "\xe2\x80\x8d.example");  // ZWJ: CheckJoiners.
  expectInvalidHost(
      "http://\xd9\x8a"
      "a/",
      "\xd9\x8a"
      "a");  // Arabic then Latin: CheckBidi.
  expectInvalidHost("http://\xef\xbf\xbd.com/", "\xef\xbf\xbd.com");  // U+FFFD.
  expectInvalidHost("http://www\xe2\x80\xa5lookout.net/", "www\xe2\x80\xa5lookout.net");
  // Maps to "::=", and ':' is forbidden in a domain.
  expectInvalidHost(
      "http://a\xe2\xa9\xb4"
      "b/",
      "a\xe2\xa9\xb4"
      "b");
  // A Punycode label beside a non-ASCII one must be valid.
  expectInvalidHost("http://xn--a.\xc3\x9f/", "xn--a.\xc3\x9f");
}

TEST(HttpUrlHostTest, AsciiPunycodeIsKeptAsIs) {
  // The standard lowercases an all-ASCII domain without decoding its "xn--" labels.
  EXPECT_EQ(hostOf("http://XN--ZCA.example/"), "xn--zca.example");
  EXPECT_EQ(hostOf("http://xn--/"), "xn--");
  // Beside a non-ASCII label, a valid Punycode label is kept.
  EXPECT_EQ(hostOf("http://xn--zca.fa\xc3\x9f/"), "xn--zca.xn--fa-hia");
}

TEST(HttpUrlHostTest, HyphensAndLengthAreNotChecked) {
  // CheckHyphens=false and VerifyDnsLength=false, unlike IDNA2008 and libidn2's defaults.
  EXPECT_EQ(hostOf("http://-x.\xc3\x9f/"), "-x.xn--zca");
  EXPECT_EQ(hostOf("http://a\xe2\x80\xa0--/"), "xn--a---kp0a");
  EXPECT_EQ(hostOf("http://-\xe2\x80\xa0/"), "xn----xhn");
  EXPECT_EQ(hostOf("http://x-.\xc3\x9f/"), "x-.xn--zca");
  const std::string long63 = "x01234567890123456789012345678901234567890123456789012345678901";
  EXPECT_EQ(hostOf("http://" + long63 + "\xe2\x80\xa0/"), "xn--" + long63 + "-6963b");
  // Longer than DNS allows, in both code points and bytes.
  const std::string longer = hostOf("http://\xc3\xa9" + std::string(300, 'a') + "/");
  EXPECT_EQ(longer.substr(0, 4 + 300), "xn--" + std::string(300, 'a'));
  std::string doubleEncoded = "xn--";
  for (int i = 0; i < 130; ++i) doubleEncoded += "a\xc3\xa9";
  expectInvalidHost("http://" + doubleEncoded + "/", doubleEncoded);
}

TEST(HttpUrlHostTest, Ipv4AddressesAreCanonicalized) {
  EXPECT_EQ(hostOf("http://127.0.0.1/"), "127.0.0.1");
  EXPECT_EQ(hostOf("http://0x7f.1/"), "127.0.0.1");
  EXPECT_EQ(hostOf("http://0177.0.0.01/"), "127.0.0.1");
  EXPECT_EQ(hostOf("http://2130706433/"), "127.0.0.1");
  EXPECT_EQ(hostOf("http://0x7F000001/"), "127.0.0.1");
  EXPECT_EQ(hostOf("http://1.2.3/"), "1.2.0.3");
  EXPECT_EQ(hostOf("http://1.2/"), "1.0.0.2");
  EXPECT_EQ(hostOf("http://1.2.3.4./"), "1.2.3.4");
  EXPECT_EQ(hostOf("http://0xffffffff/"), "255.255.255.255");
  EXPECT_EQ(hostOf("http://0x/"), "0.0.0.0");
  EXPECT_EQ(hostOf("http://%31%32%37.0.0.1/"), "127.0.0.1");
  EXPECT_EQ(hostOf("http://\xef\xbc\x91\xef\xbc\x92\xef\xbc\x97.0.0.1/"),
            "127.0.0.1");  // Fullwidth.
}

TEST(HttpUrlHostTest, InvalidIpv4AddressesAreRejected) {
  expectInvalidHost("http://1.2.3.256/", "1.2.3.256");
  expectInvalidHost("http://256.1.1.1/", "256.1.1.1");
  expectInvalidHost("http://1.2.3.4.5/", "1.2.3.4.5");
  expectInvalidHost("http://4294967296/", "4294967296");
  expectInvalidHost("http://0x100000000/", "0x100000000");
  expectInvalidHost("http://09.1/", "09.1");
  expectInvalidHost("http://foo.09/", "foo.09");
  expectInvalidHost("http://example.1/", "example.1");
}

TEST(HttpUrlHostTest, NumbersThatAreNotTheLastLabelAreDomains) {
  EXPECT_EQ(hostOf("http://1.2.3.4../"), "1.2.3.4..");  // The last label is empty.
  EXPECT_EQ(hostOf("http://1.2.3.example/"), "1.2.3.example");
  EXPECT_EQ(hostOf("http://0x7f.com/"), "0x7f.com");
  EXPECT_EQ(hostOf("http://1.2.3.4x/"), "1.2.3.4x");
}

TEST(HttpUrlHostTest, Ipv6HostHasNoBracketsButToStringDoes) {
  EXPECT_EQ(hostOf("http://[::1]/"), "::1");
  EXPECT_EQ(HttpUrl::get("http://[::1]/").toString(), "http://[::1]/");
  EXPECT_EQ(HttpUrl::get("http://[::1]:8080/").port(), 8080);
  EXPECT_EQ(HttpUrl::get("http://user:password@[::1]/").password(), "password");
  EXPECT_EQ(hostOf("http://user:password@[::1]:8080/"), "::1");
}

TEST(HttpUrlHostTest, Ipv6DifferentFormsOfOneAddress) {
  const std::string a3 = "2001:db8::1:0:0:1";
  for (const char* url : {"http://[2001:db8:0:0:1:0:0:1]", "http://[2001:0db8:0:0:1:0:0:1]",
                          "http://[2001:db8::1:0:0:1]", "http://[2001:db8::0:1:0:0:1]",
                          "http://[2001:0db8::1:0:0:1]", "http://[2001:db8:0:0:1::1]",
                          "http://[2001:db8:0000:0:1::1]", "http://[2001:DB8:0:0:1::1]"}) {
    EXPECT_EQ(hostOf(url), a3) << url;
  }
}

TEST(HttpUrlHostTest, Ipv6CanonicalFormFollowsRfc5952) {
  EXPECT_EQ(hostOf("http://[abcd:ef01:2345:6789:abcd:ef01:2345:6789]/"),
            "abcd:ef01:2345:6789:abcd:ef01:2345:6789");
  EXPECT_EQ(hostOf("http://[a:0:0:0:b:0:0:0]/"), "a::b:0:0:0");
  EXPECT_EQ(hostOf("http://[a:b:0:0:c:0:0:0]/"), "a:b:0:0:c::");
  EXPECT_EQ(hostOf("http://[a:b:0:0:0:c:0:0]/"), "a:b::c:0:0");
  EXPECT_EQ(hostOf("http://[0:0:0:a:b:0:0:0]/"), "::a:b:0:0:0");
  EXPECT_EQ(hostOf("http://[0:a:b:c:d:e:f:1]/"), "0:a:b:c:d:e:f:1");
  EXPECT_EQ(hostOf("http://[a:b:c:d:e:f:1:0]/"), "a:b:c:d:e:f:1:0");
  EXPECT_EQ(hostOf("http://[FF01:0:0:0:0:0:0:101]/"), "ff01::101");
  EXPECT_EQ(hostOf("http://[2001:0:0:1:0:0:0:1]/"), "2001:0:0:1::1");
  EXPECT_EQ(hostOf("http://[1:0:0:0:0:0:0:0]/"), "1::");
  EXPECT_EQ(hostOf("http://[0:0:0:0:0:0:0:1]/"), "::1");
  EXPECT_EQ(hostOf("http://[0:0:0:0:0:0:0:0]/"), "::");
  EXPECT_EQ(hostOf("http://[::0001]"), "::1");
  EXPECT_EQ(hostOf("http://[0001::]"), "1::");
  // The standard keeps IPv4-mapped addresses as IPv6 (OkHttp converts them to IPv4).
  EXPECT_EQ(hostOf("http://[::ffff:c0a8:1fe]/"), "::ffff:c0a8:1fe");
}

TEST(HttpUrlHostTest, Ipv6WithEmbeddedIpv4) {
  EXPECT_EQ(hostOf("http://[::1:255.255.255.255]/"), "::1:ffff:ffff");
  EXPECT_EQ(hostOf("http://[0:0:0:0:0:1:0.0.0.0]/"), "::1:0:0");
  EXPECT_EQ(hostOf("http://[::ffff:192.0.2.128]/"), "::ffff:c000:280");
}

TEST(HttpUrlHostTest, MalformedIpv6IsRejected) {
  for (const char* host : {"[00000:0000:0000:0000:0000:0000:0000:0001]",
                           "[::00001]",
                           "[:1]",
                           "[:::1]",
                           "[1:]",
                           "[1:::]",
                           "[1:::1]",
                           "[0000:0000:0000:0000::0000:0000:0000:0001]",
                           "[0000:0000:0000:0000:0000:0000:0000:0000:0001]",
                           "[0000::0000:0000:0000:0000::0001]",
                           "[::1%2544]",
                           "[2001:db8:0:0:1:0:0:00001]",
                           "[::g]",
                           "[1:2:3]",
                           "[0:0:0:0:0:1:0.0.0.000000]",
                           "[0:0:0:0:0:1:0.010.0.010]",
                           "[0:0:0:0:0:1:0.0x10.0.0x10]",
                           "[0:0:0:0:0:1:0.0:0.0]",
                           "[0:0:0:0:0:1:.255.255.255]",
                           "[0:0:0:0:0:1:255..255.255]",
                           "[0:0:0:0:0:0:1:255.255]",
                           "[0:0:0:0:0:1:256.255.255.255]",
                           "[0:0:0:0:0:0:1:255.255.255.255]",
                           "[0:0:0:0:1:0.0.0.0:1]",
                           "[0.0.0.0:0:0:0:0:0:1]",
                           "[0:0:0:0:0:1:255.255.255.]",
                           "[0:0:0:0:0:1:255.255.255]",
                           "[www.example.com]"}) {
    expectInvalidHost("http://" + std::string(host) + "/", host);
  }
}

TEST(HttpUrlHostTest, Ipv6ContentIsNotPercentDecoded) {
  // Unlike OkHttp, the standard does not decode escapes inside or around brackets.
  expectInvalidHost("http://[%3A%3A%31]/", "[%3A%3A%31]");
  expectInvalidHost("http://%5B%3A%3A1%5D/", "%5B%3A%3A1%5D");
  expectInvalidHost("http://[::1/", "[::1");
}

TEST(HttpUrlHostTest, TopPrivateDomain) {
  EXPECT_EQ(HttpUrl::get("https://www.google.com").topPrivateDomain(), "google.com");
  EXPECT_EQ(HttpUrl::get("https://google.com").topPrivateDomain(), "google.com");
  EXPECT_EQ(HttpUrl::get("https://adwords.google.co.uk").topPrivateDomain(), "google.co.uk");
  EXPECT_EQ(HttpUrl::get("https://square.co.uk").topPrivateDomain(), "square.co.uk");
  EXPECT_EQ(HttpUrl::get("https://api.twitter.com").topPrivateDomain(), "twitter.com");
  EXPECT_EQ(HttpUrl::get("https://\xe6\xa0\x83.\xe6\xa0\x83\xe6\x9c\xa8.jp").topPrivateDomain(),
            "xn--ewv.xn--4pvxs.jp");
  EXPECT_EQ(HttpUrl::get("https://xn--ewv.xn--4pvxs.jp").topPrivateDomain(),
            "xn--ewv.xn--4pvxs.jp");
}

TEST(HttpUrlHostTest, TopPrivateDomainIsAbsentForSuffixesAndAddresses) {
  EXPECT_EQ(HttpUrl::get("https://co.uk").topPrivateDomain(), std::nullopt);
  EXPECT_EQ(HttpUrl::get("https://com").topPrivateDomain(), std::nullopt);
  EXPECT_EQ(HttpUrl::get("https://square").topPrivateDomain(), std::nullopt);
  EXPECT_EQ(HttpUrl::get("https://localhost").topPrivateDomain(), std::nullopt);
  EXPECT_EQ(HttpUrl::get("https://\xe6\xa0\x83\xe6\x9c\xa8.jp").topPrivateDomain(), std::nullopt);
  EXPECT_EQ(HttpUrl::get("https://127.0.0.1").topPrivateDomain(), std::nullopt);
  EXPECT_EQ(HttpUrl::get("https://[::1]").topPrivateDomain(), std::nullopt);
  EXPECT_EQ(HttpUrl::get("https://[2001:db8::1]").topPrivateDomain(), std::nullopt);
}

}  // namespace
}  // namespace tern
