// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Calls over https to MockWebServer: the handshake a response reports, the server's identity
// checks (trust, hostname, pins) with the message each failure gives, and mutual TLS. As
// OkHttp's CallTest https cases, CertificatePinnerChainValidationTest and ClientAuthTest.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "call/https_fixture.h"
#include "tern/certificate_pinner.h"
#include "tern/connection.h"
#include "tern/handshake.h"
#include "tern/tls/held_certificate.h"

namespace tern::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

class HttpsTest : public HttpsFixture {};

TEST_F(HttpsTest, GetOverHttpsReportsTheHandshake) {
  server.enqueue(body("secret"));
  Response response = execute("/");
  EXPECT_EQ(response.body()->string(), "secret");
  EXPECT_EQ(response.request().url().scheme(), "https");
  ASSERT_TRUE(response.handshake().has_value());
  const Handshake& handshake = *response.handshake();
  EXPECT_EQ(handshake.tlsVersion(), TlsVersion::TLS_1_3);
  // MODERN_TLS's first choice.
  EXPECT_EQ(handshake.cipherSuite().javaName(), "TLS_AES_128_GCM_SHA256");
  // The verified chain: the leaf, then the root that signed it.
  ASSERT_EQ(handshake.peerCertificates().size(), 2u);
  EXPECT_EQ(handshake.peerCertificates()[0], certificates.localhost.certificate());
  EXPECT_EQ(handshake.peerCertificates()[1], certificates.root.certificate());
  EXPECT_EQ(handshake.peerPrincipal(), "CN=localhost");
  EXPECT_TRUE(handshake.localCertificates().empty());
  EXPECT_EQ(handshake.localPrincipal(), std::nullopt);

  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.url().scheme(), "https");
  ASSERT_TRUE(request.handshake().has_value());
  EXPECT_EQ(request.handshake()->tlsVersion(), TlsVersion::TLS_1_3);
  EXPECT_EQ(request.handshake()->cipherSuite().javaName(), handshake.cipherSuite().javaName());
  EXPECT_TRUE(request.handshake()->peerCertificates().empty());  // No client certificate.
  EXPECT_EQ(request.handshake()->localPrincipal(), "CN=localhost");
}

TEST_F(HttpsTest, CleartextResponsesHaveNoHandshake) {
  MockWebServer plain;
  plain.enqueue(body("open"));
  Response response = client.newCall(Request::Builder().url(plain.url("/")).build())->execute();
  EXPECT_EQ(response.body()->string(), "open");
  EXPECT_EQ(response.handshake(), std::nullopt);
  EXPECT_EQ(plain.takeRequest().handshake(), std::nullopt);
}

TEST_F(HttpsTest, NetworkInterceptorSeesTheConnectionsHandshake) {
  std::optional<Handshake> seen;
  Client c = clientBuilder()
                 .addNetworkInterceptor([&](Interceptor::Chain& chain) {
                   seen = chain.connection()->handshake();
                   return chain.proceed(chain.request());
                 })
                 .build();
  server.enqueue(body("x"));
  c.newCall(get())->execute().body()->string();
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->peerPrincipal(), "CN=localhost");
}

TEST_F(HttpsTest, HttpsConnectionsAreReused) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  EXPECT_EQ(fetch("/a"), "a");
  EXPECT_EQ(fetch("/b"), "b");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  RecordedRequest second = server.takeRequest();
  EXPECT_EQ(second.connectionIndex(), 0);
  EXPECT_EQ(second.sequenceNumber(), 1);
}

TEST_F(HttpsTest, UntrustedServerFailsTheHandshakeAndIsNotPooled) {
  Client strict = client.newBuilder()
                      .handshakeCertificates(TestCertificates().clientTrust())  // Another root.
                      .build();
  server.enqueue(body("never"));
  EXPECT_THAT(failureOf(strict, get()),
              MatchesRegex("SSLHandshakeException: TLS handshake with 127.0.0.1:[0-9]+ "
                           "failed: untrusted certificate chain: .*"));
  EXPECT_EQ(strict.connectionPool()->connectionCount(), 0);
}

// okhttp-tls's addInsecureHost: the named host's untrusted chain is accepted, no other host's.
TEST_F(HttpsTest, InsecureHostAcceptsAnUntrustedChainForThatHostOnly) {
  const tls::HandshakeCertificates otherRoot = TestCertificates().clientTrust();
  auto insecureFor = [&](std::string_view host) {
    tls::HandshakeCertificates::Builder trust;
    for (const Certificate& root : otherRoot.trustedCertificates()) {
      trust.addTrustedCertificate(root);
    }
    return client.newBuilder().handshakeCertificates(trust.addInsecureHost(host).build()).build();
  };
  server.enqueue(body("insecure ok"));
  Client insecure = insecureFor("127.0.0.1");
  EXPECT_EQ(insecure.newCall(get())->execute().body()->string(), "insecure ok");

  Client otherHost = insecureFor("example.com");
  EXPECT_THAT(failureOf(otherHost, get()),
              MatchesRegex("SSLHandshakeException: TLS handshake with 127.0.0.1:[0-9]+ "
                           "failed: untrusted certificate chain: .*"));

  server.enqueue(body("every host"));
  EXPECT_EQ(insecureFor("*").newCall(get())->execute().body()->string(), "every host");
  EXPECT_THROW(tls::HandshakeCertificates::Builder().addInsecureHost(""), std::invalid_argument);
}

// The host name is still checked for an insecure host, as in okhttp-tls.
TEST_F(HttpsTest, InsecureHostStillVerifiesTheHostName) {
  tls::HeldCertificate other = tls::HeldCertificate::Builder()
                                   .addSubjectAlternativeName("example.com")
                                   .signedBy(TestCertificates().root)
                                   .build();
  MockWebServer wrongName;
  wrongName.useHttps(tls::HandshakeCertificates::Builder().heldCertificate(other).build());
  Client insecure =
      client.newBuilder()
          .handshakeCertificates(
              tls::HandshakeCertificates::Builder().addInsecureHost("LOCALHOST").build())
          .build();
  HttpUrl url = wrongName.url("/").newBuilder().host("localhost").build();
  EXPECT_THAT(failureOf(insecure, Request::Builder().url(url).build()),
              StartsWith("SSLPeerUnverifiedException: Hostname localhost not verified:\n"));
}

TEST_F(HttpsTest, HostnameMismatchListsTheCertificatesNames) {
  tls::HeldCertificate other = tls::HeldCertificate::Builder()
                                   .commonName("example.com")
                                   .addSubjectAlternativeName("example.com")
                                   .addSubjectAlternativeName("*.example.com")
                                   .signedBy(certificates.root)
                                   .build();
  MockWebServer wrongName;
  wrongName.useHttps(tls::HandshakeCertificates::Builder().heldCertificate(other).build());
  wrongName.enqueue(body("never"));
  HttpUrl url = wrongName.url("/").newBuilder().host("localhost").build();
  EXPECT_EQ(failureOf(client, Request::Builder().url(url).build()),
            "SSLPeerUnverifiedException: Hostname localhost not verified:\n"
            "    certificate: " +
                other.certificate().pin() +
                "\n"
                "    DN: CN=example.com\n"
                "    subjectAltNames: [example.com, *.example.com]");
  EXPECT_EQ(client.connectionPool()->connectionCount(), 0);
}

TEST_F(HttpsTest, IpAddressIsVerifiedAgainstIpSubjectAlternativeNames) {
  server.enqueue(body("by ip"));
  EXPECT_EQ(fetch("/"), "by ip");  // The server's URL is https://127.0.0.1:port/.

  tls::HeldCertificate namesOnly = tls::HeldCertificate::Builder()
                                       .commonName("127.0.0.1")  // The CN never counts.
                                       .addSubjectAlternativeName("localhost")
                                       .signedBy(certificates.root)
                                       .build();
  MockWebServer noIp;
  noIp.useHttps(tls::HandshakeCertificates::Builder().heldCertificate(namesOnly).build());
  EXPECT_THAT(failureOf(client, Request::Builder().url(noIp.url("/")).build()),
              StartsWith("SSLPeerUnverifiedException: Hostname 127.0.0.1 not verified:\n"));
}

TEST_F(HttpsTest, ReplacedHostnameVerifierDecides) {
  tls::HeldCertificate other = tls::HeldCertificate::Builder()
                                   .addSubjectAlternativeName("example.com")
                                   .signedBy(certificates.root)
                                   .build();
  MockWebServer wrongName;
  wrongName.useHttps(tls::HandshakeCertificates::Builder().heldCertificate(other).build());
  wrongName.enqueue(body("trusted anyway"));
  std::string askedHost;
  Client lenient = clientBuilder()
                       .hostnameVerifier(HostnameVerifier::of(
                           [&](std::string_view host, const std::vector<Certificate>& chain) {
                             askedHost = host;
                             return chain.front() == other.certificate();
                           }))
                       .build();
  EXPECT_EQ(lenient.newCall(Request::Builder().url(wrongName.url("/")).build())
                ->execute()
                .body()
                ->string(),
            "trusted anyway");
  EXPECT_EQ(askedHost, "127.0.0.1");
}

TEST_F(HttpsTest, PinnedRootKeyIsAccepted) {
  server.enqueue(body("pinned"));
  Client pinned =
      clientBuilder()
          .certificatePinner(CertificatePinner::Builder()
                                 .add("127.0.0.1", {certificates.root.certificate().pin()})
                                 .build())
          .build();
  EXPECT_EQ(pinned.newCall(get())->execute().body()->string(), "pinned");
}

TEST_F(HttpsTest, PinMismatchFailsWithTheChainsPins) {
  const std::string unrelatedPin = TestCertificates().root.certificate().pin();
  Client pinned =
      clientBuilder()
          .certificatePinner(CertificatePinner::Builder().add("127.0.0.1", {unrelatedPin}).build())
          .build();
  server.enqueue(body("never"));
  EXPECT_EQ(failureOf(pinned, get()),
            "SSLPeerUnverifiedException: Certificate pinning failure!\n"
            "  Peer certificate chain:\n"
            "    " +
                certificates.localhost.certificate().pin() +
                ": CN=localhost\n"
                "    " +
                certificates.root.certificate().pin() +
                ": CN=tern test root\n"
                "  Pinned certificates for 127.0.0.1:\n"
                "    " +
                unrelatedPin);
  EXPECT_EQ(pinned.connectionPool()->connectionCount(), 0);
}

TEST_F(HttpsTest, PinsForOtherHostsAreIgnoredAndPatternsMatch) {
  const std::string unrelatedPin = TestCertificates().root.certificate().pin();
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  MockWebServer byName;
  byName.useHttps(certificates.server());
  byName.start("localhost", 0);
  byName.enqueue(body("c"));
  Client pinned =
      clientBuilder()
          .certificatePinner(CertificatePinner::Builder()
                                 .add("example.com", {unrelatedPin})
                                 .add("*.localhost", {unrelatedPin})
                                 .add("**.localhost", {certificates.localhost.certificate().pin()})
                                 .build())
          .build();
  // 127.0.0.1 has no pins.
  EXPECT_EQ(pinned.newCall(get("/"))->execute().body()->string(), "a");
  // localhost matches "**.localhost" (its pin is there) but not "*.localhost".
  HttpUrl url = byName.url("/");
  EXPECT_EQ(url.host(), "localhost");
  EXPECT_EQ(pinned.newCall(Request::Builder().url(url).build())->execute().body()->string(), "c");
}

TEST_F(HttpsTest, MutualTlsPresentsTheClientCertificate) {
  MockWebServer mtls;
  mtls.useHttps(certificates.server());
  mtls.requireClientAuth();
  mtls.enqueue(body("hello client"));
  Client withCertificate =
      client.newBuilder().handshakeCertificates(certificates.clientWithCertificate()).build();
  Response response =
      withCertificate.newCall(Request::Builder().url(mtls.url("/")).build())->execute();
  EXPECT_EQ(response.body()->string(), "hello client");
  EXPECT_EQ(response.handshake()->localPrincipal(), "CN=client");
  RecordedRequest request = mtls.takeRequest();
  ASSERT_FALSE(request.handshake()->peerCertificates().empty());
  EXPECT_EQ(request.handshake()->peerCertificates().front(), certificates.client.certificate());
  EXPECT_EQ(request.handshake()->peerPrincipal(), "CN=client");
}

TEST_F(HttpsTest, MutualTlsRequiredRefusesAClientWithoutCertificate) {
  MockWebServer mtls;
  mtls.useHttps(certificates.server());
  mtls.requireClientAuth();
  mtls.enqueue(body("never"));
  EXPECT_THAT(failureOf(client, Request::Builder().url(mtls.url("/")).build()),
              MatchesRegex("SSLHandshakeException: TLS handshake with 127.0.0.1:[0-9]+ "
                           "failed: the server requires a client certificate \\(certificate "
                           "required alert\\)"));
}

TEST_F(HttpsTest, MutualTlsRequestedAcceptsBothKindsOfClient) {
  MockWebServer mtls;
  mtls.useHttps(certificates.server());
  mtls.requestClientAuth();
  mtls.enqueue(body("anonymous"));
  mtls.enqueue(body("known"));
  Request request = Request::Builder().url(mtls.url("/")).build();
  EXPECT_EQ(client.newCall(request)->execute().body()->string(), "anonymous");
  Client withCertificate =
      Client::Builder().handshakeCertificates(certificates.clientWithCertificate()).build();
  EXPECT_EQ(withCertificate.newCall(request)->execute().body()->string(), "known");
  EXPECT_TRUE(mtls.takeRequest().handshake()->peerCertificates().empty());
  EXPECT_EQ(mtls.takeRequest().handshake()->peerPrincipal(), "CN=client");
}

TEST_F(HttpsTest, UntrustedClientCertificateIsRefusedByTheServer) {
  MockWebServer mtls;
  mtls.useHttps(certificates.server());
  mtls.requireClientAuth();
  TestCertificates strangers;  // A client certificate from a root the server does not trust.
  Client stranger =
      client.newBuilder()
          .handshakeCertificates(tls::HandshakeCertificates::Builder()
                                     .addTrustedCertificate(certificates.root.certificate())
                                     .heldCertificate(strangers.client)
                                     .build())
          .build();
  EXPECT_THAT(failureOf(stranger, Request::Builder().url(mtls.url("/")).build()),
              HasSubstr("failed: the server rejected the client's certificate (unknown CA alert)"));
}

}  // namespace
}  // namespace tern::testing
