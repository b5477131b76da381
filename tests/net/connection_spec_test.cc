// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/connection_spec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <openssl/ssl.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "net/connection_spec_ssl.h"
#include "tls/openssl_util.h"

namespace tern {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A client SSL with OpenSSL's defaults, to apply specs to.
struct FreshSsl {
  internal::UniqueSslCtx context{SSL_CTX_new(TLS_client_method())};
  internal::UniqueSsl ssl{SSL_new(context.get())};
};

}  // namespace

// Readable names in gtest's messages.
void PrintTo(const CipherSuite& suite, std::ostream* out) { *out << suite.javaName(); }
void PrintTo(TlsVersion version, std::ostream* out) { *out << javaName(version); }

namespace {

std::string invalidArgument(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

TEST(TlsVersionTest, JavaNamesRoundTrip) {
  EXPECT_EQ(javaName(TlsVersion::TLS_1_3), "TLSv1.3");
  EXPECT_EQ(javaName(TlsVersion::TLS_1_2), "TLSv1.2");
  EXPECT_EQ(javaName(TlsVersion::TLS_1_1), "TLSv1.1");
  EXPECT_EQ(javaName(TlsVersion::TLS_1_0), "TLSv1");
  EXPECT_EQ(javaName(TlsVersion::SSL_3_0), "SSLv3");
  for (TlsVersion v : {TlsVersion::TLS_1_3, TlsVersion::TLS_1_2, TlsVersion::TLS_1_1,
                       TlsVersion::TLS_1_0, TlsVersion::SSL_3_0}) {
    EXPECT_EQ(tlsVersionForJavaName(javaName(v)), v);
  }
  EXPECT_EQ(toString(TlsVersion::TLS_1_3), "TLS_1_3");
  EXPECT_EQ(invalidArgument([] { tlsVersionForJavaName("TLSv9"); }),
            "Unexpected TLS version: TLSv9");
}

TEST(TlsVersionTest, AndCipherSuiteStreamAsOkHttpPrintsThem) {
  std::ostringstream out;
  out << TlsVersion::TLS_1_3 << " " << CipherSuite::TLS_AES_128_GCM_SHA256;
  EXPECT_EQ(out.str(), "TLS_1_3 TLS_AES_128_GCM_SHA256");
}

TEST(CipherSuiteTest, ForJavaNameFindsConstantsInEitherSpelling) {
  EXPECT_EQ(CipherSuite::forJavaName("TLS_AES_128_GCM_SHA256"),
            CipherSuite::TLS_AES_128_GCM_SHA256);
  // Java names the oldest suites SSL_*, IANA TLS_*: the same suite.
  EXPECT_EQ(CipherSuite::forJavaName("TLS_RSA_WITH_3DES_EDE_CBC_SHA"),
            CipherSuite::TLS_RSA_WITH_3DES_EDE_CBC_SHA);
  EXPECT_EQ(CipherSuite::TLS_RSA_WITH_3DES_EDE_CBC_SHA.javaName(), "SSL_RSA_WITH_3DES_EDE_CBC_SHA");
  EXPECT_NE(CipherSuite::TLS_AES_128_GCM_SHA256, CipherSuite::TLS_AES_256_GCM_SHA384);
}

TEST(CipherSuiteTest, UnknownNamesMakeNewSuitesThatKeepTheirName) {
  CipherSuite magic = CipherSuite::forJavaName("TLS_MAGIC_CIPHER");
  EXPECT_EQ(magic.javaName(), "TLS_MAGIC_CIPHER");
  EXPECT_EQ(magic.toString(), "TLS_MAGIC_CIPHER");
  EXPECT_EQ(magic, CipherSuite::forJavaName(std::string("TLS_MAGIC_") + "CIPHER"));
  EXPECT_THROW(CipherSuite::forJavaName(""), std::invalid_argument);
}

TEST(CipherSuiteTest, MapsToOpenSslNames) {
  EXPECT_EQ(internal::openSslCipherName(CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256),
            "ECDHE-RSA-AES128-GCM-SHA256");
  EXPECT_EQ(internal::openSslCipherName(CipherSuite::TLS_RSA_WITH_AES_128_CBC_SHA), "AES128-SHA");
  // Java's SSL_ spelling maps too (Debian's OpenSSL 3 has no 3DES, so another suite shows it).
  EXPECT_EQ(internal::openSslCipherName(CipherSuite::forJavaName("SSL_RSA_WITH_AES_256_CBC_SHA")),
            "AES256-SHA");
  EXPECT_EQ(internal::openSslCipherName(CipherSuite::TLS_AES_256_GCM_SHA384),
            "TLS_AES_256_GCM_SHA384");
  EXPECT_EQ(internal::openSslCipherName(CipherSuite::forJavaName("TLS_RSA_WITH_MAGIC")), "");
}

TEST(ConnectionSpecTest, BuiltInSpecs) {
  EXPECT_TRUE(ConnectionSpec::MODERN_TLS.isTls());
  EXPECT_THAT(*ConnectionSpec::MODERN_TLS.tlsVersions(),
              ElementsAre(TlsVersion::TLS_1_3, TlsVersion::TLS_1_2));
  EXPECT_EQ(ConnectionSpec::MODERN_TLS.cipherSuites()->size(), 16u);
  EXPECT_EQ(ConnectionSpec::RESTRICTED_TLS.cipherSuites()->size(), 9u);
  EXPECT_EQ(ConnectionSpec::MODERN_TLS.cipherSuites()->front(),
            CipherSuite::TLS_AES_128_GCM_SHA256);
  EXPECT_THAT(*ConnectionSpec::COMPATIBLE_TLS.tlsVersions(),
              ElementsAre(TlsVersion::TLS_1_3, TlsVersion::TLS_1_2, TlsVersion::TLS_1_1,
                          TlsVersion::TLS_1_0));
  EXPECT_EQ(ConnectionSpec::COMPATIBLE_TLS.cipherSuites(),
            ConnectionSpec::MODERN_TLS.cipherSuites());
  EXPECT_TRUE(ConnectionSpec::MODERN_TLS.supportsTlsExtensions());
  EXPECT_FALSE(ConnectionSpec::CLEARTEXT.isTls());
}

TEST(ConnectionSpecTest, RejectsEmptyListsAndTlsSettingsOnCleartext) {
  EXPECT_EQ(
      invalidArgument([] {
        ConnectionSpec::Builder(ConnectionSpec::MODERN_TLS).tlsVersions(std::vector<TlsVersion>{});
      }),
      "At least one TLS version is required");
  EXPECT_EQ(invalidArgument([] {
              ConnectionSpec::Builder(ConnectionSpec::MODERN_TLS)
                  .cipherSuites(std::vector<CipherSuite>{});
            }),
            "At least one cipher suite is required");
  EXPECT_EQ(invalidArgument([] {
              ConnectionSpec::Builder(false).cipherSuites({CipherSuite::TLS_AES_128_GCM_SHA256});
            }),
            "no cipher suites for cleartext connections");
  EXPECT_EQ(invalidArgument([] { ConnectionSpec::Builder(false).allEnabledTlsVersions(); }),
            "no TLS versions for cleartext connections");
}

TEST(ConnectionSpecTest, BuilderWithExplicitAndDefaultCiphers) {
  ConnectionSpec explicitSpec = ConnectionSpec::Builder(true)
                                    .cipherSuites({CipherSuite::TLS_AES_128_GCM_SHA256})
                                    .tlsVersions({TlsVersion::TLS_1_2})
                                    .supportsTlsExtensions(true)
                                    .build();
  EXPECT_THAT(*explicitSpec.cipherSuites(), ElementsAre(CipherSuite::TLS_AES_128_GCM_SHA256));
  EXPECT_THAT(*explicitSpec.tlsVersions(), ElementsAre(TlsVersion::TLS_1_2));

  ConnectionSpec defaults = ConnectionSpec::Builder(true).tlsVersions({"TLSv1.2"}).build();
  EXPECT_FALSE(defaults.cipherSuites().has_value());
  EXPECT_THAT(*defaults.tlsVersions(), ElementsAre(TlsVersion::TLS_1_2));
  // Suites by name, for ones without a constant.
  ConnectionSpec named =
      ConnectionSpec::Builder(true).cipherSuites(std::vector<std::string>{"MAGIC-CIPHER"}).build();
  EXPECT_EQ(named.cipherSuites()->front().javaName(), "MAGIC-CIPHER");
}

TEST(ConnectionSpecTest, EqualityAndToString) {
  ConnectionSpec all = ConnectionSpec::Builder(ConnectionSpec::MODERN_TLS)
                           .allEnabledTlsVersions()
                           .allEnabledCipherSuites()
                           .build();
  EXPECT_EQ(all.toString(),
            "ConnectionSpec(cipherSuites=[all enabled], tlsVersions=[all enabled], "
            "supportsTlsExtensions=true)");
  ConnectionSpec simple = ConnectionSpec::Builder(ConnectionSpec::MODERN_TLS)
                              .tlsVersions({TlsVersion::TLS_1_2})
                              .cipherSuites({CipherSuite::TLS_RSA_WITH_3DES_EDE_CBC_SHA})
                              .build();
  EXPECT_EQ(simple.toString(),
            "ConnectionSpec(cipherSuites=[SSL_RSA_WITH_3DES_EDE_CBC_SHA], tlsVersions=[TLS_1_2], "
            "supportsTlsExtensions=true)");
  EXPECT_EQ(ConnectionSpec::CLEARTEXT.toString(), "ConnectionSpec()");
  EXPECT_EQ(ConnectionSpec::MODERN_TLS,
            ConnectionSpec::Builder(ConnectionSpec::MODERN_TLS).build());
  EXPECT_NE(ConnectionSpec::MODERN_TLS, ConnectionSpec::COMPATIBLE_TLS);
  EXPECT_NE(ConnectionSpec::MODERN_TLS, ConnectionSpec::RESTRICTED_TLS);
  EXPECT_NE(ConnectionSpec::MODERN_TLS, all);
  EXPECT_NE(ConnectionSpec::MODERN_TLS, ConnectionSpec::CLEARTEXT);
}

TEST(ConnectionSpecTest, IsCompatibleNeedsACommonVersionAndSuite) {
  ConnectionSpec spec = ConnectionSpec::Builder(true)
                            .cipherSuites({CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256})
                            .tlsVersions({TlsVersion::TLS_1_2})
                            .build();
  const std::vector<CipherSuite> suites = {CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
                                           CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA};
  EXPECT_TRUE(spec.isCompatible({TlsVersion::TLS_1_2, TlsVersion::TLS_1_1}, suites));
  EXPECT_FALSE(spec.isCompatible({TlsVersion::TLS_1_1}, suites));
  EXPECT_FALSE(spec.isCompatible({TlsVersion::TLS_1_2},
                                 {CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA}));
  EXPECT_FALSE(ConnectionSpec::CLEARTEXT.isCompatible({TlsVersion::TLS_1_2}, suites));
}

TEST(ConnectionSpecTest, ApplyNarrowsAnSslToTheSpec) {
  FreshSsl fresh;
  ASSERT_TRUE(internal::isCompatible(ConnectionSpec::RESTRICTED_TLS, fresh.ssl.get()));
  ConnectionSpec spec = ConnectionSpec::Builder(true)
                            .tlsVersions({TlsVersion::TLS_1_2})
                            .cipherSuites({CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
                                           CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
                                           CipherSuite::forJavaName("TLS_NOT_IN_OPENSSL")})
                            .build();
  internal::applyConnectionSpec(spec, fresh.ssl.get(), false);
  EXPECT_THAT(internal::enabledTlsVersions(fresh.ssl.get()), ElementsAre(TlsVersion::TLS_1_2));
  // The spec's order; the unknown suite skipped; no TLS 1.3 suites left since 1.3 is off.
  EXPECT_THAT(internal::enabledCipherSuites(fresh.ssl.get()),
              ElementsAre(CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
                          CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256));
  EXPECT_EQ(SSL_get_mode(fresh.ssl.get()) & SSL_MODE_SEND_FALLBACK_SCSV, 0u);
}

TEST(ConnectionSpecTest, ApplyWithFallbackSignalsIt) {
  FreshSsl fresh;
  internal::applyConnectionSpec(ConnectionSpec::COMPATIBLE_TLS, fresh.ssl.get(), true);
  EXPECT_NE(SSL_get_mode(fresh.ssl.get()) & SSL_MODE_SEND_FALLBACK_SCSV, 0u);
}

TEST(ConnectionSpecTest, ApplyRestrictedTls13Only) {
  FreshSsl fresh;
  ConnectionSpec spec = ConnectionSpec::Builder(ConnectionSpec::RESTRICTED_TLS)
                            .tlsVersions({TlsVersion::TLS_1_3})
                            .build();
  internal::applyConnectionSpec(spec, fresh.ssl.get(), false);
  EXPECT_THAT(internal::enabledTlsVersions(fresh.ssl.get()), ElementsAre(TlsVersion::TLS_1_3));
  EXPECT_EQ(SSL_get_min_proto_version(fresh.ssl.get()), TLS1_3_VERSION);
}

TEST(ConnectionSpecTest, ApplyWithAllEnabledLeavesOpenSslsChoice) {
  FreshSsl fresh;
  const auto before = internal::enabledCipherSuites(fresh.ssl.get());
  ConnectionSpec all = ConnectionSpec::Builder(ConnectionSpec::MODERN_TLS)
                           .allEnabledTlsVersions()
                           .allEnabledCipherSuites()
                           .build();
  internal::applyConnectionSpec(all, fresh.ssl.get(), false);
  EXPECT_EQ(internal::enabledCipherSuites(fresh.ssl.get()), before);
}

TEST(ConnectionSpecTest, ApplyingAnIncompatibleSpecIsMisuse) {
  FreshSsl fresh;
  SSL_set_max_proto_version(fresh.ssl.get(), TLS1_2_VERSION);
  ConnectionSpec tls13 = ConnectionSpec::Builder(ConnectionSpec::RESTRICTED_TLS)
                             .tlsVersions({TlsVersion::TLS_1_3})
                             .build();
  EXPECT_FALSE(internal::isCompatible(tls13, fresh.ssl.get()));
  try {
    internal::applyConnectionSpec(tls13, fresh.ssl.get(), false);
    FAIL();
  } catch (const std::logic_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("not compatible"));
  }
}

}  // namespace
}  // namespace tern
