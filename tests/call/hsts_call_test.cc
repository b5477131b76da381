// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// HSTS on a Client, end to end against MockWebServer over TLS (RFC 6797): a response over https
// makes its host known, and then http requests to it (and redirects to http) go out as https, to
// the same port. The server is "secure.test" through a fake DNS: an IP address never gets HSTS.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "call/call_fixture.h"
#include "support/call_fakes.h"
#include "support/tls_certificates.h"
#include "tern/hsts.h"

namespace tern::testing {
namespace {

class HstsCallTest : public CallFixture {
 protected:
  HstsCallTest() {
    server.useHttps(
        tls::HandshakeCertificates::Builder().heldCertificate(serverCertificate).build());
    dns->set("secure.test", {InetAddress::loopbackIpv4()});
    dns->set("www.secure.test", {InetAddress::loopbackIpv4()});
    client = client.newBuilder()
                 .handshakeCertificates(certificates.clientTrust())
                 .dns(dns)
                 .hsts(hsts)
                 .build();
  }

  // `path` on the server, by the name secure.test (or `host`), with `scheme`.
  std::string urlOf(std::string_view scheme, std::string_view path = "/",
                    std::string_view host = "secure.test") {
    return std::string(scheme) + "://" + std::string(host) + ":" + std::to_string(server.port()) +
           std::string(path);
  }

  Response get(const std::string& url) {
    return client.newCall(Request::Builder().url(url).build())->execute();
  }

  static MockResponse withSts(std::string_view sts, std::string_view text = "ok") {
    return MockResponse::Builder().addHeader("Strict-Transport-Security", sts).body(text).build();
  }

  // Makes secure.test a known HSTS host through a response over https.
  void learn(std::string_view sts = "max-age=3600") {
    server.enqueue(withSts(sts));
    EXPECT_EQ(get(urlOf("https")).body()->string(), "ok");
    server.takeRequest();
  }

  TestCertificates certificates;
  tls::HeldCertificate serverCertificate = tls::HeldCertificate::Builder()
                                               .commonName("secure.test")
                                               .addSubjectAlternativeName("secure.test")
                                               .addSubjectAlternativeName("www.secure.test")
                                               .addSubjectAlternativeName("127.0.0.1")
                                               .signedBy(certificates.root)
                                               .build();
  std::shared_ptr<FakeDns> dns = std::make_shared<FakeDns>();
  std::shared_ptr<Hsts> hsts = std::make_shared<Hsts>();
};

TEST_F(HstsCallTest, HttpsResponseMakesLaterHttpRequestsGoOutAsHttpsToTheSamePort) {
  learn();
  EXPECT_TRUE(hsts->isKnownHost("secure.test"));

  server.enqueue(body("upgraded"));
  Response response = get(urlOf("http", "/page?q=1"));
  EXPECT_EQ(response.body()->string(), "upgraded");
  EXPECT_EQ(response.request().url().toString(), urlOf("https", "/page?q=1"));
  RecordedRequest recorded = server.takeRequest();
  EXPECT_TRUE(recorded.handshake().has_value());  // It came over TLS.
  EXPECT_EQ(recorded.path(), "/page?q=1");
  // The event listener sees the request that went out.
  std::optional<CallEvent> sent = events->listener(1)->find("requestHeadersEnd");
  ASSERT_TRUE(sent);
  EXPECT_EQ(sent->detail, "GET " + urlOf("https", "/page?q=1"));
}

TEST_F(HstsCallTest, WithoutHstsTheHttpRequestStaysHttp) {
  // The control: the same http URL without a known host speaks cleartext to a TLS server, and
  // fails.
  EXPECT_THROW(get(urlOf("http")), IOException);
  EXPECT_TRUE(hsts->entries().empty());
}

TEST_F(HstsCallTest, IncludeSubDomainsUpgradesSubdomains) {
  learn("max-age=3600; includeSubDomains");
  server.enqueue(body("sub"));
  Response response = get(urlOf("http", "/", "www.secure.test"));
  EXPECT_EQ(response.body()->string(), "sub");
  EXPECT_EQ(response.request().url().toString(), urlOf("https", "/", "www.secure.test"));
  EXPECT_TRUE(server.takeRequest().handshake().has_value());
}

TEST_F(HstsCallTest, MaxAgeZeroForgetsTheHost) {
  learn();
  server.enqueue(withSts("max-age=0"));
  get(urlOf("https")).body()->string();
  EXPECT_TRUE(hsts->entries().empty());
  // http stays http again.
  EXPECT_EQ(hsts->upgrade(HttpUrl::get(urlOf("http"))).toString(), urlOf("http"));
}

TEST_F(HstsCallTest, StsOverHttpIsIgnored) {
  MockWebServer plain;
  plain.enqueue(withSts("max-age=3600"));
  plain.enqueue(body("still http"));
  std::string url = "http://secure.test:" + std::to_string(plain.port()) + "/";
  EXPECT_EQ(get(url).body()->string(), "ok");
  EXPECT_TRUE(hsts->entries().empty());
  Response second = get(url);
  EXPECT_EQ(second.body()->string(), "still http");
  EXPECT_EQ(second.request().url().toString(), url);
}

TEST_F(HstsCallTest, StsFromAnIpAddressIsIgnored) {
  server.enqueue(withSts("max-age=3600"));
  std::string url = "https://127.0.0.1:" + std::to_string(server.port()) + "/";
  EXPECT_EQ(get(url).body()->string(), "ok");
  EXPECT_TRUE(hsts->entries().empty());
}

TEST_F(HstsCallTest, RedirectToHttpIsUpgraded) {
  learn();
  server.enqueue(
      MockResponse::Builder().code(302).addHeader("Location", urlOf("http", "/b")).build());
  server.enqueue(body("b"));
  Response response = get(urlOf("https", "/a"));
  EXPECT_EQ(response.body()->string(), "b");
  EXPECT_EQ(response.request().url().toString(), urlOf("https", "/b"));
  server.takeRequest();
  RecordedRequest redirected = server.takeRequest();
  EXPECT_EQ(redirected.path(), "/b");
  EXPECT_TRUE(redirected.handshake().has_value());
  std::optional<CallEvent> followUp = events->listener(1)->find("followUpDecision");
  ASSERT_TRUE(followUp);
  EXPECT_EQ(followUp->url, urlOf("https", "/b"));
}

TEST_F(HstsCallTest, StsOnARedirectAppliesToItsOwnTarget) {
  // The first response both sets STS and redirects to http: the redirect already goes out as
  // https, even with followSslRedirects(false) (it is no switch to http).
  client = client.newBuilder().followSslRedirects(false).build();
  server.enqueue(MockResponse::Builder()
                     .code(301)
                     .addHeader("Strict-Transport-Security", "max-age=60")
                     .addHeader("Location", urlOf("http", "/next"))
                     .build());
  server.enqueue(body("next"));
  Response response = get(urlOf("https"));
  EXPECT_EQ(response.body()->string(), "next");
  EXPECT_EQ(response.request().url().toString(), urlOf("https", "/next"));
}

TEST_F(HstsCallTest, PreloadedEntryUpgradesTheFirstRequest) {
  hsts->add({"secure.test", false, std::nullopt});
  server.enqueue(body("first"));
  Response response = get(urlOf("http"));
  EXPECT_EQ(response.body()->string(), "first");
  EXPECT_TRUE(server.takeRequest().handshake().has_value());
}

}  // namespace
}  // namespace tern::testing
