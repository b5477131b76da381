// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The built `tern` binary over https: curl's TLS options (--cacert, -k, --pinnedpubkey, --cert and
// --key, --tlsv1.3), %{time_appconnect}, and the exit codes and messages of TLS failures (35, 60,
// 90), against MockWebServer over TLS and a real nginx, with certificates made in code.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

#include "support/nginx.h"
#include "support/tls_certificates.h"
#include "temp_dir.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tool_process.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::SocketPolicy;
using tern::testing::Nginx;
using tern::testing::NginxConfig;
using tern::testing::TestCertificates;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using testing::runTern;
using ::testing::StartsWith;
using testing::TempDir;
using testing::ToolRun;

MockResponse body(std::string_view text) { return MockResponse::Builder().body(text).build(); }

class ToolTlsTest : public ::testing::Test {
 protected:
  ToolTlsTest() {
    server_.useHttps(certificates_.server());
    caFile_ = files_.write("ca.pem", certificates_.root.certificatePem()).string();
  }

  // https://localhost:PORT/path (localhost is in the server's certificate).
  std::string url(const std::string& path = "/") {
    return "https://localhost:" + std::to_string(server_.port()) + path;
  }

  TestCertificates certificates_;
  MockWebServer server_;
  TempDir files_;
  std::string caFile_;
};

TEST_F(ToolTlsTest, CacertTrustsTheServer) {
  server_.enqueue(body("secure hello"));
  ToolRun run = runTern({"--cacert", caFile_, url()});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "secure hello");
  EXPECT_EQ(run.err, "");
}

TEST_F(ToolTlsTest, UntrustedServerIsExit60) {
  server_.enqueue(body("never"));
  ToolRun run = runTern({url()});  // The system's roots do not include the test root.
  EXPECT_EQ(run.exitCode, 60);
  EXPECT_THAT(run.err,
              MatchesRegex("tern: \\(60\\) SSL certificate problem: TLS handshake with "
                           "localhost \\(127.0.0.1:[0-9]+\\) failed: untrusted certificate "
                           "chain: .*\n"));
}

TEST_F(ToolTlsTest, ExpiredCertificateIsExit60WithItsDates) {
  const auto now = std::chrono::system_clock::now();
  tls::HeldCertificate expired = tls::HeldCertificate::Builder()
                                     .addSubjectAlternativeName("localhost")
                                     .commonName("localhost")
                                     .validityInterval(now - 48h, now - 24h)
                                     .signedBy(certificates_.root)
                                     .build();
  MockWebServer stale;
  stale.useHttps(tls::HandshakeCertificates::Builder().heldCertificate(expired).build());
  ToolRun run =
      runTern({"--cacert", caFile_, "https://localhost:" + std::to_string(stale.port()) + "/"});
  EXPECT_EQ(run.exitCode, 60);
  EXPECT_THAT(run.err, HasSubstr("certificate CN=localhost expired at "));
}

TEST_F(ToolTlsTest, HostnameMismatchIsExit60) {
  server_.enqueue(body("never"));
  tls::HeldCertificate other = tls::HeldCertificate::Builder()
                                   .addSubjectAlternativeName("example.com")
                                   .commonName("example.com")
                                   .signedBy(certificates_.root)
                                   .build();
  MockWebServer wrongName;
  wrongName.useHttps(tls::HandshakeCertificates::Builder().heldCertificate(other).build());
  ToolRun run =
      runTern({"--cacert", caFile_, "https://localhost:" + std::to_string(wrongName.port()) + "/"});
  EXPECT_EQ(run.exitCode, 60);
  EXPECT_THAT(run.err,
              StartsWith("tern: (60) SSL: no alternative certificate subject name matches target "
                         "host name 'localhost': Hostname localhost not verified:\n"));
  EXPECT_THAT(run.err, HasSubstr("    subjectAltNames: [example.com]\n"));
}

TEST_F(ToolTlsTest, InsecureSkipsVerificationWithAWarning) {
  server_.enqueue(body("trusted blindly"));
  ToolRun run = runTern({"-k", url()});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "trusted blindly");
  EXPECT_EQ(run.err, "tern: warning: --insecure: the server's certificate is not verified\n");
}

TEST_F(ToolTlsTest, PinnedPublicKeyMatches) {
  server_.enqueue(body("pinned"));
  ToolRun run = runTern({"--cacert", caFile_, "--pinnedpubkey",
                         "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=;sha256//" +
                             certificates_.localhost.certificate().pin().substr(7),
                         url()});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "pinned");
}

TEST_F(ToolTlsTest, PinnedPublicKeyMismatchIsExit90) {
  server_.enqueue(body("never"));
  ToolRun run = runTern({"--cacert", caFile_, "--pinnedpubkey",
                         "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", url()});
  EXPECT_EQ(run.exitCode, 90);
  EXPECT_EQ(run.err, "tern: (90) SSL: public key does not match pinned public key: localhost has " +
                         certificates_.localhost.certificate().pin() +
                         ", pinned: sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n");
  EXPECT_EQ(run.out, "");
}

TEST_F(ToolTlsTest, ClientCertificateForMutualTls) {
  MockWebServer mtls;
  mtls.useHttps(certificates_.server());
  mtls.requireClientAuth();
  mtls.enqueue(body("hello client"));
  const std::string target = "https://localhost:" + std::to_string(mtls.port()) + "/";
  const std::string cert =
      files_.write("client.pem", certificates_.client.certificatePem()).string();
  const std::string key =
      files_.write("client.key", certificates_.client.privateKeyPkcs8Pem()).string();
  ToolRun run = runTern({"--cacert", caFile_, "--cert", cert, "--key", key, target});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "hello client");
  EXPECT_EQ(mtls.takeRequest().handshake()->peerPrincipal(), "CN=client");

  // Without it the server refuses: a handshake failure, 35.
  ToolRun refused = runTern({"--cacert", caFile_, target});
  EXPECT_EQ(refused.exitCode, 35);
  EXPECT_THAT(refused.err, HasSubstr("the server requires a client certificate"));
}

TEST_F(ToolTlsTest, UnreadableCertificateFilesAreNamed) {
  ToolRun missingCa = runTern({"--cacert", files_.path().string() + "/missing.pem", url()});
  EXPECT_EQ(missingCa.exitCode, 77);
  EXPECT_THAT(missingCa.err, HasSubstr("--cacert: cannot read "));
  const std::string notPem = files_.write("junk.pem", "not a certificate").string();
  ToolRun badCert = runTern({"--cacert", caFile_, "--cert", notPem, url()});
  EXPECT_EQ(badCert.exitCode, 58);
  EXPECT_THAT(badCert.err, HasSubstr("unable to use client certificate " + notPem));
}

TEST_F(ToolTlsTest, FailedHandshakeIsExit35) {
  server_.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::FailHandshake{}).build());
  ToolRun run = runTern({"--cacert", caFile_, url()});
  EXPECT_EQ(run.exitCode, 35);
  EXPECT_THAT(run.err,
              MatchesRegex("tern: \\(35\\) SSL connect error: TLS handshake with "
                           "localhost \\(127.0.0.1:[0-9]+\\) failed: the server refused the "
                           "handshake \\(handshake failure alert\\).*\n"));
}

TEST_F(ToolTlsTest, TimeAppConnectIsSetForNewTlsConnectionsOnly) {
  server_.enqueue(body("a"));
  server_.enqueue(body("b"));
  ToolRun run =
      runTern({"--cacert", caFile_, "-w", " %{time_appconnect}\\n", url("/a"), url("/b")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  // The first transfer made the connection (a positive time); the second reused it.
  EXPECT_THAT(run.out, MatchesRegex("a 0\\.[0-9]{6}\nb 0\\.000000\n"));
  EXPECT_THAT(run.out, ::testing::Not(StartsWith("a 0.000000")));
  MockWebServer plain;
  plain.enqueue(body("c"));
  ToolRun http = runTern({"-w", " %{time_appconnect}", plain.url("/").toString()});
  EXPECT_EQ(http.out, "c 0.000000");
}

TEST_F(ToolTlsTest, VerboseNamesTheTlsVersionAndCertificate) {
  server_.enqueue(body("x"));
  ToolRun run = runTern({"-v", "--cacert", caFile_, url()});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  // curl 7.88's lines, in its order.
  EXPECT_THAT(run.err, HasSubstr(") port " + std::to_string(server_.port()) +
                                 " (#0)\n"
                                 "* ALPN: offers h2,http/1.1\n"
                                 "* SSL connection using TLSv1.3 / TLS_AES_128_GCM_SHA256\n"
                                 "* ALPN: server accepted "));
  EXPECT_THAT(run.err, HasSubstr("* Server certificate:\n*  subject: CN=localhost\n"
                                 "*  start date: "));
  EXPECT_THAT(run.err,
              ::testing::ContainsRegex(
                  "\\*  expire date: [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]{8} 20[0-9]{2} GMT\n"
                  "\\*  issuer: [^\n]+\n\\*  SSL certificate verify ok.\n"));
  EXPECT_THAT(run.err, HasSubstr("* Connection #0 to host localhost left intact\n"));
}

// The "done when": scripts/tern --cacert ca.pem https://localhost:PORT/ against nginx.
class ToolNginxTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Nginx::findBinary()) {
      GTEST_SKIP() << "nginx is not installed (apt-get install nginx, as scripts/setup.sh does)";
    }
    nginx_.writeFile("www/index.html", "<h1>nginx over TLS</h1>\n");
    nginx_.writeFile("server.pem", certificates_.localhost.certificatePem() +
                                       certificates_.root.certificatePem());
    nginx_.writeFile("server.key", certificates_.localhost.privateKeyPkcs8Pem());
    caFile_ = nginx_.writeFile("ca.pem", certificates_.root.certificatePem()).string();
  }

  void start(const std::string& protocols, const std::string& listenParameters = "ssl") {
    const std::string dir = nginx_.directory().string();
    NginxConfig config;
    config.listenParameters = listenParameters;
    config.serverDirectives = "ssl_certificate " + dir + "/server.pem;\nssl_certificate_key " +
                              dir + "/server.key;\nssl_protocols " + protocols + ";";
    ASSERT_TRUE(nginx_.start(config)) << nginx_.errorLog();
  }

  std::string url() const { return "https://localhost:" + std::to_string(nginx_.port()) + "/"; }

  TestCertificates certificates_;
  Nginx nginx_;
  std::string caFile_;
};

TEST_F(ToolNginxTlsTest, CacertFetchesFromNginx) {
  start("TLSv1.2 TLSv1.3");
  ToolRun run = runTern({"--cacert", caFile_, "-w", "%{http_code} %{num_connects}", url()});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "<h1>nginx over TLS</h1>\n200 1");
}

TEST_F(ToolNginxTlsTest, Tlsv13AgainstATls12OnlyServerIsExit35) {
  start("TLSv1.2");
  ToolRun run = runTern({"--cacert", caFile_, "--tlsv1.3", url()});
  EXPECT_EQ(run.exitCode, 35);
  EXPECT_THAT(run.err, HasSubstr("no TLS version in common: the client offers TLSv1.3"));
  ToolRun tls12 = runTern({"--cacert", caFile_, "--tlsv1.2", url()});
  EXPECT_EQ(tls12.exitCode, 0) << tls12.err;
}

// The events of two calls: the first one's from its last connectStart on (localhost may resolve
// to ::1 first, where nginx does not listen), the second one's whole.
struct TwoCalls {
  std::vector<std::string> fresh;
  std::vector<std::string> reused;
};

TwoCalls traceOfTwoCalls(const std::string& err) {
  TwoCalls calls;
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string ms;
    int number = -1;
    std::string name;
    if (!(fields >> ms >> number >> name)) continue;
    std::vector<std::string>& names = number == 0 ? calls.fresh : calls.reused;
    if (number == 0 && name == "connectStart") names.clear();
    if (number == 0 || number == 1) names.push_back(name);
  }
  return calls;
}

const std::vector<std::string> kExchange = {
    "requestHeadersStart", "requestHeadersEnd",  "responseHeadersStart",
    "responseHeadersEnd",  "followUpDecision",   "responseBodyStart",
    "responseBodyEnd",     "connectionReleased", "callEnd"};

// The "done when" for events: --trace-events against nginx over https, for a fresh and a
// reused connection, over HTTP/1.1 and over HTTP/2.
TEST_F(ToolNginxTlsTest, TraceEventsShowTheHandshakeOnTheFreshConnectionOnly) {
  for (const char* listen : {"ssl", "ssl http2"}) {
    SCOPED_TRACE(listen);
    nginx_.stop();
    start("TLSv1.2 TLSv1.3", listen);
    ToolRun run =
        runTern({"--cacert", caFile_, "--trace-events", "-w", "%{http_version} ", url(), url()});
    EXPECT_EQ(run.exitCode, 0) << run.err;
    const std::string version = std::string(listen) == "ssl" ? "1.1" : "2";
    EXPECT_EQ(run.out,
              "<h1>nginx over TLS</h1>\n" + version + " <h1>nginx over TLS</h1>\n" + version + " ");
    TwoCalls calls = traceOfTwoCalls(run.err);
    std::vector<std::string> fresh = {"connectStart", "secureConnectStart", "secureConnectEnd",
                                      "connectEnd", "connectionAcquired"};
    fresh.insert(fresh.end(), kExchange.begin(), kExchange.end());
    std::vector<std::string> reused = {"callStart", "connectionAcquired"};
    reused.insert(reused.end(), kExchange.begin(), kExchange.end());
    EXPECT_EQ(calls.fresh, fresh) << run.err;
    EXPECT_EQ(calls.reused, reused) << run.err;
    EXPECT_THAT(run.err, HasSubstr(" 0 secureConnectEnd TLSv1.3 TLS_"));
    EXPECT_THAT(run.err, HasSubstr(" 0 connectEnd 127.0.0.1:" + std::to_string(nginx_.port()) +
                                   (version == "2" ? " h2" : " http/1.1")));
  }
}

}  // namespace
}  // namespace tern::tool
