// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Alt-Svc discovery on a Client (RFC 7838, issue 20), end to end against MockWebServer: a client
// that may use HTTP/3 records the Alt-Svc of each network response over verified https in the
// cache its copies share, and keeps it in curl's --alt-svc file (its own, or beside its HTTP
// cache); over cleartext, without HTTP/3, from the cache or from an unverified server nothing is
// recorded.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "call/client_access.h"
#include "call/https_fixture.h"
#include "support/call_fakes.h"
#include "support/temp_dir.h"

namespace tern::testing {
namespace {

using internal::AltSvcCache;
using internal::AltSvcOrigin;
using internal::ClientAccess;

const std::vector<Protocol> kWithHttp3{Protocol::HTTP_3, Protocol::HTTP_2, Protocol::HTTP_1_1};

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

MockResponse withAltSvc(std::string_view value, std::string_view text = "ok") {
  return MockResponse::Builder().addHeader("Alt-Svc", value).body(text).build();
}

// What `client` knows for `url`'s origin, now.
std::vector<AltSvcCache::Entry> known(const Client& client, const HttpUrl& url) {
  return ClientAccess::altSvc(client).cache().lookup(AltSvcOrigin::of(url),
                                                     std::chrono::system_clock::now());
}

class AltSvcCallTest : public HttpsFixture {
 protected:
  AltSvcCallTest() { client = clientBuilder().protocols(kWithHttp3).build(); }

  std::vector<AltSvcCache::Entry> known() { return testing::known(client, server.url("/")); }
};

TEST_F(AltSvcCallTest, RecordsTheHeaderWithItsMaxAge) {
  server.enqueue(withAltSvc("h3=\":4433\"; ma=3600, h3=\"alt.test:443\""));
  auto before = std::chrono::system_clock::now();
  EXPECT_EQ(fetch(), "ok");
  auto after = std::chrono::system_clock::now();

  std::vector<AltSvcCache::Entry> entries = known();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].service.protocolId, "h3");
  EXPECT_EQ(entries[0].service.host, server.url("/").host());  // The origin's own host (§3).
  EXPECT_EQ(entries[0].service.port, 4433);
  EXPECT_GE(entries[0].expiresAt, before + std::chrono::hours(1));
  EXPECT_LE(entries[0].expiresAt, after + std::chrono::hours(1));
  EXPECT_EQ(entries[0].source, Protocol::HTTP_2);  // MockWebServer speaks h2 over TLS.
  EXPECT_EQ(entries[1].service.host, "alt.test");
  EXPECT_GE(entries[1].expiresAt, before + std::chrono::hours(24));  // No ma: a day.
}

TEST_F(AltSvcCallTest, IgnoredWithoutHttp3InProtocols) {
  Client withoutHttp3 = clientBuilder().protocols({Protocol::HTTP_2, Protocol::HTTP_1_1}).build();
  server.enqueue(withAltSvc("h3=\":4433\""));
  EXPECT_EQ(withoutHttp3.newCall(get())->execute().body()->string(), "ok");
  EXPECT_TRUE(testing::known(withoutHttp3, server.url("/")).empty());
  EXPECT_TRUE(known().empty());  // The same store: the derived client shares it.
}

TEST_F(AltSvcCallTest, IgnoredFromAnInsecureHost) {
  // Trusting the root (so the chain verifies), yet not authoritative: the host is insecure.
  tls::HandshakeCertificates::Builder trust;
  trust.addTrustedCertificate(certificates.root.certificate());
  Client insecure = clientBuilder()
                        .handshakeCertificates(trust.addInsecureHost(server.hostName()).build())
                        .build();
  server.enqueue(withAltSvc("h3=\":4433\""));
  EXPECT_EQ(insecure.newCall(get())->execute().body()->string(), "ok");
  EXPECT_TRUE(testing::known(insecure, server.url("/")).empty());
}

TEST_F(AltSvcCallTest, ClearForgetsTheOrigin) {
  server.enqueue(withAltSvc("h3=\":4433\""));
  server.enqueue(withAltSvc("clear"));
  EXPECT_EQ(fetch(), "ok");
  EXPECT_EQ(known().size(), 1u);
  EXPECT_EQ(fetch(), "ok");
  EXPECT_TRUE(known().empty());
}

TEST_F(AltSvcCallTest, MalformedHeaderChangesNothing) {
  server.enqueue(withAltSvc("h3=\":4433\"; ma=3600"));
  server.enqueue(withAltSvc("h3=4433; ma=60"));  // Unquoted authority.
  server.enqueue(body("no header"));
  EXPECT_EQ(fetch(), "ok");
  std::vector<AltSvcCache::Entry> first = known();
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(fetch(), "ok");
  EXPECT_EQ(fetch(), "no header");
  EXPECT_EQ(known(), first);
}

TEST_F(AltSvcCallTest, CopiesAndDerivedClientsShareWhatIsKnown) {
  Client derived = client.newBuilder().readTimeout(3s).build();
  server.enqueue(withAltSvc("h3=\":4433\""));
  EXPECT_EQ(derived.newCall(get())->execute().body()->string(), "ok");
  EXPECT_EQ(known().size(), 1u);
  Client copy = client;
  EXPECT_EQ(testing::known(copy, server.url("/")).size(), 1u);
  // A new Builder has its own.
  EXPECT_TRUE(
      testing::known(Client::Builder().protocols(kWithHttp3).build(), server.url("/")).empty());
}

TEST_F(AltSvcCallTest, IgnoredFromACachedResponse) {
  TempDir dir;
  auto cache = std::make_shared<Cache>(dir.path() / "http", 1 << 20);
  // Stored by a client that does not record, then served from the cache to one that would.
  Client storing =
      clientBuilder().protocols({Protocol::HTTP_2, Protocol::HTTP_1_1}).cache(cache).build();
  server.enqueue(MockResponse::Builder()
                     .addHeader("Cache-Control", "max-age=60")
                     .addHeader("Alt-Svc", "h3=\":4433\"")
                     .body("cached")
                     .build());
  EXPECT_EQ(storing.newCall(get())->execute().body()->string(), "cached");
  Client recording = clientBuilder().protocols(kWithHttp3).cache(cache).build();
  EXPECT_EQ(recording.newCall(get())->execute().body()->string(), "cached");
  EXPECT_EQ(server.requestCount(), 1);
  EXPECT_EQ(cache->hitCount(), 1);
  EXPECT_TRUE(testing::known(recording, server.url("/")).empty());
  cache->deleteCache();
}

TEST_F(AltSvcCallTest, KeptInItsFileLoadedByTheNextClient) {
  TempDir dir;
  const std::filesystem::path file = dir.path() / "alt-svc.txt";
  Client first = clientBuilder().altSvcFile(file).build();
  server.enqueue(withAltSvc("h3=\":4433\"; ma=3600; persist=1"));
  EXPECT_EQ(first.newCall(get())->execute().body()->string(), "ok");
  // Saved at once: an alternative was learned.
  const HttpUrl url = server.url("/");
  std::string host = url.host();
  std::string expectedPrefix =
      "h2 " + host + " " + std::to_string(url.port()) + " h3 " + host + " 4433 \"";
  std::string text = readFile(file);
  EXPECT_NE(text.find("\n" + expectedPrefix), std::string::npos) << text;
  EXPECT_NE(text.find("\" 1 0\n"), std::string::npos) << text;

  Client next = clientBuilder().altSvcFile(file).build();
  std::vector<AltSvcCache::Entry> loaded = testing::known(next, url);
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0].service.port, 4433);
  EXPECT_TRUE(loaded[0].service.persist);

  // `clear` forgets it in the file too.
  server.enqueue(withAltSvc("clear"));
  EXPECT_EQ(next.newCall(get())->execute().body()->string(), "ok");
  EXPECT_EQ(readFile(file).find(expectedPrefix), std::string::npos);
}

TEST_F(AltSvcCallTest, RenewalsAreSavedOnShutdown) {
  TempDir dir;
  const std::filesystem::path file = dir.path() / "alt-svc.txt";
  Client c = clientBuilder().altSvcFile(file).build();
  server.enqueue(withAltSvc("h3=\":4433\"; ma=60"));
  server.enqueue(withAltSvc("h3=\":4433\"; ma=7200"));
  EXPECT_EQ(c.newCall(get())->execute().body()->string(), "ok");
  std::string learned = readFile(file);
  EXPECT_EQ(c.newCall(get())->execute().body()->string(), "ok");
  EXPECT_EQ(readFile(file), learned);  // Only renewed: not written per response.
  c.shutdown();
  EXPECT_NE(readFile(file), learned);
  AltSvcCache reread;
  reread.load(file, std::chrono::system_clock::now());
  std::vector<AltSvcCache::Entry> entries =
      reread.lookup(AltSvcOrigin::of(server.url("/")), std::chrono::system_clock::now());
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_GT(entries[0].expiresAt, std::chrono::system_clock::now() + std::chrono::hours(1));
}

TEST_F(AltSvcCallTest, KeptBesideTheHttpCacheWithoutAFile) {
  TempDir dir;
  auto cache = std::make_shared<Cache>(dir.path(), 1 << 20);
  Client cached = clientBuilder().cache(cache).build();
  server.enqueue(withAltSvc("h3=\":4433\""));
  EXPECT_EQ(cached.newCall(get())->execute().body()->string(), "ok");
  EXPECT_NE(readFile(dir.path() / "alt-svc").find(" h3 "), std::string::npos);
  // Without HTTP/3 a client with a cache writes no such file.
  TempDir other;
  auto otherCache = std::make_shared<Cache>(other.path(), 1 << 20);
  Client plain =
      Client::Builder().handshakeCertificates(certificates.clientTrust()).cache(otherCache).build();
  server.enqueue(withAltSvc("h3=\":4433\""));
  EXPECT_EQ(plain.newCall(get())->execute().body()->string(), "ok");
  plain.shutdown();
  EXPECT_FALSE(std::filesystem::exists(other.path() / "alt-svc"));
  cache->deleteCache();
  otherCache->deleteCache();
}

TEST_F(AltSvcCallTest, UnreadableFileFailsTheBuildNamingIt) {
  TempDir dir;
  try {
    clientBuilder().altSvcFile(dir.path()).build();  // A directory.
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_NE(
        std::string(e.what()).find("Cannot read the Alt-Svc cache from " + dir.path().string()),
        std::string::npos)
        << e.what();
  }
}

TEST(AltSvcCleartextCallTest, IgnoredOverCleartextHttp) {
  MockWebServer server;
  server.enqueue(withAltSvc("h3=\":4433\""));
  Client client = Client::Builder().protocols(kWithHttp3).build();
  EXPECT_EQ(
      client.newCall(Request::Builder().url(server.url("/")).build())->execute().body()->string(),
      "ok");
  EXPECT_EQ(server.requestCount(), 1);
  EXPECT_TRUE(known(client, server.url("/")).empty());
}

// Many origins, each advertising: what the client keeps stays bounded (the oldest go).
TEST(AltSvcManyOriginsTest, StayBounded) {
  TestCertificates certificates;
  tls::HeldCertificate wildcard = tls::HeldCertificate::Builder()
                                      .commonName("alt.test")
                                      .addSubjectAlternativeName("*.alt.test")
                                      .signedBy(certificates.root)
                                      .build();
  MockWebServer server;
  server.useHttps(tls::HandshakeCertificates::Builder().heldCertificate(wildcard).build());
  server.setDispatcher([](const RecordedRequest&) { return withAltSvc("h3=\":4433\""); });
  auto dns = std::make_shared<FakeDns>();
  const int origins = static_cast<int>(AltSvcCache::kDefaultMaxOrigins) + 44;
  for (int i = 0; i < origins; ++i) {
    dns->set("o" + std::to_string(i) + ".alt.test", {InetAddress::loopbackIpv4()});
  }
  server.start();
  Client client = Client::Builder()
                      .handshakeCertificates(certificates.clientTrust())
                      .dns(dns)
                      .protocols(kWithHttp3)
                      .build();
  auto urlOf = [&](int i) {
    return HttpUrl::get("https://o" + std::to_string(i) +
                        ".alt.test:" + std::to_string(server.port()) + "/");
  };
  for (int i = 0; i < origins; ++i) {
    EXPECT_EQ(client.newCall(Request::Builder().url(urlOf(i)).build())->execute().body()->string(),
              "ok");
  }
  EXPECT_EQ(ClientAccess::altSvc(client).cache().size(), AltSvcCache::kDefaultMaxOrigins);
  EXPECT_TRUE(known(client, urlOf(0)).empty());
  EXPECT_EQ(known(client, urlOf(origins - 1)).size(), 1u);
}

}  // namespace
}  // namespace tern::testing
