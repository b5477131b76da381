// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The spirit of OkHttp's HostnameVerifierTest: subject alternative names decide, the common name
// never does, wildcards follow RFC 6125 §6.4.3, IP addresses match only iPAddress entries.
#include "tern/ok_hostname_verifier.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <initializer_list>

#include "tern/hostname_verifier.h"
#include "tern/tls/held_certificate.h"
#include "tls/openssl_access.h"
#include "tls/openssl_util.h"

namespace tern {
namespace {

using ::testing::ElementsAre;
using tls::HeldCertificate;

Certificate certificate(std::initializer_list<std::string_view> altNames,
                        std::string_view commonName = "not a host") {
  HeldCertificate::Builder builder;
  builder.commonName(commonName);
  for (std::string_view altName : altNames) builder.addSubjectAlternativeName(altName);
  return builder.build().certificate();
}

// A self-signed certificate whose SAN holds `dnsName` byte for byte, made through OpenSSL's API.
Certificate certificateWithRawDnsName(std::string_view dnsName) {
  tls::KeyPair key = tls::KeyPair::generateEcdsa256();
  internal::UniqueX509 x509(X509_new());
  X509_set_version(x509.get(), X509_VERSION_3);
  X509_set_pubkey(x509.get(), internal::toEvpPkey(key));
  internal::UniqueGeneralNames names(sk_GENERAL_NAME_new_null());
  GENERAL_NAME* name = GENERAL_NAME_new();
  ASN1_IA5STRING* value = ASN1_IA5STRING_new();
  ASN1_STRING_set(value, dnsName.data(), static_cast<int>(dnsName.size()));
  GENERAL_NAME_set0_value(name, GEN_DNS, value);
  sk_GENERAL_NAME_push(names.get(), name);
  X509_add1_ext_i2d(x509.get(), NID_subject_alt_name, names.get(), 0, X509V3_ADD_DEFAULT);
  X509_sign(x509.get(), internal::toEvpPkey(key), EVP_sha256());
  return internal::fromX509(x509.get());
}

bool verify(std::string_view host, const Certificate& certificate) {
  return OkHostnameVerifier::instance()->verify(host, std::vector<Certificate>{certificate});
}

TEST(HostnameVerifierTest, ExactDnsName) {
  Certificate c = certificate({"foo.com"});
  EXPECT_TRUE(verify("foo.com", c));
  EXPECT_FALSE(verify("a.foo.com", c));
  EXPECT_FALSE(verify("bar.com", c));
  EXPECT_FALSE(verify("oo.com", c));
  EXPECT_FALSE(verify("foo.co", c));
}

TEST(HostnameVerifierTest, CommonNameIsNeverUsed) {
  // RFC 6125 §6.4.4 lets clients fall back to the CN; OkHttp (and tern) never do.
  Certificate c = certificate({}, "foo.com");
  EXPECT_FALSE(verify("foo.com", c));
  Certificate withSan = certificate({"bar.com"}, "foo.com");
  EXPECT_FALSE(verify("foo.com", withSan));
  EXPECT_TRUE(verify("bar.com", withSan));
}

TEST(HostnameVerifierTest, CaseInsensitive) {
  Certificate c = certificate({"Foo.COM"});
  EXPECT_TRUE(verify("foo.com", c));
  EXPECT_TRUE(verify("FOO.com", c));
}

TEST(HostnameVerifierTest, TrailingDotsAreIgnored) {
  EXPECT_TRUE(verify("foo.com.", certificate({"foo.com"})));
  EXPECT_TRUE(verify("foo.com", certificate({"foo.com."})));
  EXPECT_TRUE(verify("foo.com.", certificate({"foo.com."})));
  EXPECT_TRUE(verify("a.foo.com.", certificate({"*.foo.com"})));
  EXPECT_FALSE(verify("foo.com..", certificate({"foo.com"})));
  EXPECT_FALSE(verify("foo.com", certificate({"foo.com.."})));
}

TEST(HostnameVerifierTest, MalformedNamesMatchNothing) {
  EXPECT_FALSE(verify("", certificate({"foo.com"})));
  EXPECT_FALSE(verify(".foo.com", certificate({".foo.com"})));
  EXPECT_FALSE(verify(std::string_view("foo.com\0.evil", 13), certificate({"foo.com"})));
  EXPECT_FALSE(verify("foo.com", certificate({"."})));
}

TEST(HostnameVerifierTest, SeveralSubjectAltNames) {
  Certificate c = certificate({"foo.com", "bar.com", "*.baz.com"});
  EXPECT_TRUE(verify("foo.com", c));
  EXPECT_TRUE(verify("bar.com", c));
  EXPECT_TRUE(verify("a.baz.com", c));
  EXPECT_FALSE(verify("baz.com", c));
  EXPECT_FALSE(verify("quux.com", c));
}

TEST(HostnameVerifierTest, WildcardMatchesOneLeftmostLabel) {
  Certificate c = certificate({"*.foo.com"});
  EXPECT_TRUE(verify("www.foo.com", c));
  EXPECT_TRUE(verify("\x61-b.foo.com", c));
  EXPECT_FALSE(verify("foo.com", c));
  EXPECT_FALSE(verify("a.b.foo.com", c));
  EXPECT_FALSE(verify(".foo.com", c));
  EXPECT_FALSE(verify("www.foo.co", c));
  EXPECT_FALSE(verify("wwwfoo.com", c));
}

TEST(HostnameVerifierTest, PartialAndMisplacedWildcardsMatchNothing) {
  EXPECT_FALSE(verify("foo.com", certificate({"f*.com"})));
  EXPECT_FALSE(verify("www.foo.com", certificate({"w*.foo.com"})));
  EXPECT_FALSE(verify("www.foo.com", certificate({"*w.foo.com"})));
  EXPECT_FALSE(verify("www.foo.com", certificate({"www.*.com"})));
  EXPECT_FALSE(verify("www.foo.com", certificate({"*.*.com"})));
  EXPECT_FALSE(verify("www.foo.com", certificate({"**.foo.com"})));
  EXPECT_FALSE(verify("foo", certificate({"*"})));
  EXPECT_FALSE(verify("foo.", certificate({"*."})));
}

TEST(HostnameVerifierTest, WildcardNeverMatchesAnIpAddress) {
  Certificate c = certificate({"*.0.0.1", "*.1"});
  EXPECT_FALSE(verify("127.0.0.1", c));
}

TEST(HostnameVerifierTest, Ipv4MatchesOnlyIpEntries) {
  Certificate c = certificate({"127.0.0.1", "localhost"}, "127.0.0.1");
  EXPECT_TRUE(verify("127.0.0.1", c));
  EXPECT_FALSE(verify("127.0.0.2", c));
  // An IP address in a dNSName entry (or the CN) does not count.
  Certificate dnsOnly = certificate({}, "10.0.0.1");
  EXPECT_FALSE(verify("10.0.0.1", dnsOnly));
}

TEST(HostnameVerifierTest, Ipv6IsComparedByValue) {
  Certificate c = certificate({"::1", "2001:db8::1"});
  EXPECT_TRUE(verify("::1", c));
  EXPECT_TRUE(verify("0:0:0:0:0:0:0:1", c));
  EXPECT_TRUE(verify("[::1]", c));
  EXPECT_TRUE(verify("2001:DB8:0:0::1", c));
  EXPECT_FALSE(verify("::2", c));
  EXPECT_FALSE(verify("127.0.0.1", c));
}

TEST(HostnameVerifierTest, Ipv4MappedIpv6EqualsIpv4) {
  EXPECT_TRUE(verify("::ffff:127.0.0.1", certificate({"127.0.0.1"})));
  EXPECT_TRUE(verify("127.0.0.1", certificate({"::ffff:7f00:1"})));
}

TEST(HostnameVerifierTest, InternationalNamesCompareInAsciiForm) {
  Certificate c = certificate({"xn--bcher-kva.example", "*.xn--caf-dma.example"});
  EXPECT_TRUE(verify("xn--bcher-kva.example", c));
  EXPECT_TRUE(
      verify("b\xc3\xbc"
             "cher.example",
             c));  // bücher.example
  EXPECT_TRUE(
      verify("B\xc3\x9c"
             "CHER.example",
             c));                                     // BÜCHER.example
  EXPECT_TRUE(verify("www.caf\xc3\xa9.example", c));  // www.café.example
  EXPECT_FALSE(verify("bucher.example", c));
  EXPECT_FALSE(
      verify("b\xc3"
             "cher.example",
             c));  // Invalid UTF-8.
}

TEST(HostnameVerifierTest, NonAsciiPatternMatchesNothing) {
  // A dNSName is an IA5String; a certificate with raw UTF-8 in one (which our builder refuses to
  // write) matches neither the Unicode nor the Punycode form of the name.
  Certificate c = certificateWithRawDnsName(
      "b\xc3\xbc"
      "cher.example");
  EXPECT_THAT(c.dnsNames(), ElementsAre("b\xc3\xbc"
                                        "cher.example"));
  EXPECT_FALSE(
      verify("b\xc3\xbc"
             "cher.example",
             c));
  EXPECT_FALSE(verify("xn--bcher-kva.example", c));
}

TEST(HostnameVerifierTest, UnicodeHostIsMappedAsHttpUrlMapsIt) {
  // U+212A KELVIN SIGN maps to "k" under IDNA (UTS #46), so "\u212A.com" is the host HttpUrl
  // connects to as "k.com"; the certificate for k.com is the right one for it.
  Certificate c = certificate({"k.com"});
  EXPECT_TRUE(verify("k.com", c));
  EXPECT_TRUE(verify("\xe2\x84\xaa.com", c));
  // Full-width digits become an IPv4 address, which only an iPAddress entry matches.
  EXPECT_FALSE(verify("\xef\xbc\x91.2.3.4", certificateWithRawDnsName("1.2.3.4")));
  EXPECT_TRUE(verify("\xef\xbc\x91.2.3.4", certificate({"1.2.3.4"})));
}

TEST(HostnameVerifierTest, OnlyTheLeafCounts) {
  Certificate leaf = certificate({"foo.com"});
  Certificate other = certificate({"bar.com"});
  auto verifier = OkHostnameVerifier::instance();
  EXPECT_TRUE(verifier->verify("foo.com", std::vector<Certificate>{leaf, other}));
  EXPECT_FALSE(verifier->verify("bar.com", std::vector<Certificate>{leaf, other}));
  EXPECT_FALSE(verifier->verify("foo.com", std::vector<Certificate>{}));
}

TEST(HostnameVerifierTest, AllSubjectAltNamesListsIpsThenDnsNames) {
  Certificate c = certificate({"foo.com", "::1", "*.bar.com", "10.0.0.1"});
  EXPECT_THAT(OkHostnameVerifier::allSubjectAltNames(c),
              ElementsAre("::1", "10.0.0.1", "foo.com", "*.bar.com"));
}

TEST(HostnameVerifierTest, FunctionVerifier) {
  auto verifier = HostnameVerifier::of(
      [](std::string_view host, const std::vector<Certificate>&) { return host == "yes"; });
  EXPECT_TRUE(verifier->verify("yes", {}));
  EXPECT_FALSE(verifier->verify("no", {}));
  EXPECT_THROW(HostnameVerifier::of(nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace tern
