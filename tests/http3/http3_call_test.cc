// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Calls over HTTP/3 (issue 20), end to end: a client that may use HTTP/3 learns an origin's "h3"
// alternative from Alt-Svc (MockWebServer over https, HTTP/2), then connects to it over QUIC
// (Debian's gtlsserver on 127.0.0.1, serving the same origin's certificate), racing TCP; the
// QUIC connection is pooled and reused; an alternative that fails (nothing listening, a
// certificate for another host, a silent peer) leaves the call to TCP, and one that failed is
// not tried again for a while.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "call/client_access.h"
#include "call/https_fixture.h"
#include "http3/gtls_server.h"
#include "support/recording_event_listener.h"
#include "support/temp_dir.h"

namespace tern::testing {
namespace {

using internal::AltSvcOrigin;
using internal::ClientAccess;

const std::vector<Protocol> kWithHttp3{Protocol::HTTP_3, Protocol::HTTP_2, Protocol::HTTP_1_1};

// A UDP socket on 127.0.0.1 that takes datagrams and never answers: a peer behind a firewall
// that drops QUIC, as far as a client can tell.
class SilentUdpPeer {
 public:
  SilentUdpPeer() {
    fd_ = ::socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&address), length) == 0 &&
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
      port_ = ntohs(address.sin_port);
    }
  }
  ~SilentUdpPeer() { ::close(fd_); }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = -1;
};

class Http3CallTest : public HttpsFixture {
 protected:
  void SetUp() override {
    if (!GtlsServer::available()) GTEST_SKIP() << "gtlsserver (ngtcp2-server) is not installed";
    client = clientBuilder().protocols(kWithHttp3).build();
  }

  // Starts gtlsserver with `certs`' localhost certificate, serving /hello.
  void startQuic(const TestCertificates& certs) {
    quic = std::make_unique<GtlsServer>(certs, directory.path() / "gtls");
    quic->writeFile("hello", "hello over h3");
    ASSERT_TRUE(quic->start()) << "gtlsserver did not start; see " << quic->log();
  }

  // The client learns (as from an Alt-Svc field) that the server's origin has an "h3"
  // alternative at 127.0.0.1:`port`.
  void advertise(const Client& c, int port) {
    const HttpUrl url = server.url("/");
    ClientAccess::altSvc(c).record(url, {"h3=\"127.0.0.1:" + std::to_string(port) + "\"; ma=3600"},
                                   Protocol::HTTP_2);
  }

  // The events of the last call made.
  std::shared_ptr<RecordingEventListener> lastCall() { return events->listeners().back(); }

  // How many connects of the last call went to UDP `port` on 127.0.0.1.
  int connectsTo(int port) {
    int count = 0;
    for (const CallEvent& e : lastCall()->events()) {
      if (e.name == "connectStart" && e.socketAddress == "127.0.0.1:" + std::to_string(port)) {
        ++count;
      }
    }
    return count;
  }

  TempDir directory;
  std::unique_ptr<GtlsServer> quic;
};

TEST_F(Http3CallTest, DiscoversHttp3FromAltSvcThenCallsOverQuic) {
  startQuic(certificates);
  server.enqueue(MockResponse::Builder()
                     .addHeader("Alt-Svc", "h3=\"127.0.0.1:" + std::to_string(quic->port()) + "\"")
                     .body("hello over h2")
                     .build());

  Response first = execute("/hello");
  EXPECT_EQ(first.protocol(), Protocol::HTTP_2);
  EXPECT_EQ(first.body()->string(), "hello over h2");

  Response second = execute("/hello");
  EXPECT_EQ(second.protocol(), Protocol::HTTP_3);
  EXPECT_EQ(second.body()->string(), "hello over h3");
  EXPECT_EQ(server.requestCount(), 1);

  // The QUIC connect, with its TLS handshake reported as TCP's is.
  std::shared_ptr<RecordingEventListener> events = lastCall();
  std::optional<CallEvent> connectEnd = events->find("connectEnd");
  ASSERT_TRUE(connectEnd);
  EXPECT_EQ(connectEnd->socketAddress, "127.0.0.1:" + std::to_string(quic->port()));
  EXPECT_EQ(connectEnd->detail, "127.0.0.1:" + std::to_string(quic->port()) + " h3");
  EXPECT_EQ(events->count("secureConnectStart"), 1);
  EXPECT_EQ(events->count("secureConnectEnd"), 1);
  ASSERT_TRUE(second.handshake());
  EXPECT_EQ(second.handshake()->tlsVersion(), TlsVersion::TLS_1_3);
  ASSERT_FALSE(second.handshake()->peerCertificates().empty());
  EXPECT_EQ(second.handshake()->peerCertificates().front(), certificates.localhost.certificate());
}

TEST_F(Http3CallTest, TheQuicConnectionIsPooledAndReused) {
  startQuic(certificates);
  advertise(client, quic->port());

  Response first = execute("/hello");
  EXPECT_EQ(first.protocol(), Protocol::HTTP_3);
  EXPECT_EQ(first.body()->string(), "hello over h3");
  Response second = execute("/hello");
  EXPECT_EQ(second.protocol(), Protocol::HTTP_3);
  EXPECT_EQ(second.body()->string(), "hello over h3");

  EXPECT_EQ(lastCall()->count("connectStart"), 0);  // Reused, not connected again.
  EXPECT_EQ(client.connectionPool()->connectionCount(), 1);
  EXPECT_EQ(server.requestCount(), 0);
}

TEST_F(Http3CallTest, ManyCallsAtOnceShareOneQuicConnection) {
  startQuic(certificates);
  advertise(client, quic->port());
  std::vector<std::thread> threads;
  std::atomic<int> overHttp3{0};
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      Response response = client.newCall(get("/hello"))->execute();
      if (response.protocol() == Protocol::HTTP_3 && response.body()->string() == "hello over h3") {
        ++overHttp3;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(overHttp3, 8);
  EXPECT_EQ(client.connectionPool()->connectionCount(), 1);
}

TEST_F(Http3CallTest, NothingListeningOnTheAlternativeFallsBackToTcpAndIsRemembered) {
  const int closedPort = freeUdpPort("127.0.0.1");
  ASSERT_GT(closedPort, 0);
  advertise(client, closedPort);
  server.enqueue(body("over tcp"));
  server.enqueue(body("over tcp again"));

  Response first = execute("/");
  EXPECT_EQ(first.protocol(), Protocol::HTTP_2);
  EXPECT_EQ(first.body()->string(), "over tcp");
  EXPECT_EQ(connectsTo(closedPort), 1);
  std::optional<CallEvent> failed = lastCall()->find("connectFailed");
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->exceptionType, "ConnectException");

  // A new connection is needed, and the broken alternative is not tried again.
  client.connectionPool()->evictAll();
  Response second = execute("/");
  EXPECT_EQ(second.protocol(), Protocol::HTTP_2);
  EXPECT_EQ(second.body()->string(), "over tcp again");
  EXPECT_EQ(connectsTo(closedPort), 0);
}

TEST_F(Http3CallTest, AnAlternativeThatCannotProveItIsTheOriginIsNotUsed) {
  // The alternative's certificate is signed by the trusted root but names another host: it is
  // not authoritative for the origin (RFC 7838 §2.1), so TCP serves the call.
  TestCertificates other = certificates;
  other.localhost = tls::HeldCertificate::Builder()
                        .commonName("other.test")
                        .addSubjectAlternativeName("other.test")
                        .signedBy(certificates.root)
                        .build();
  startQuic(other);
  advertise(client, quic->port());
  server.enqueue(body("over tcp"));

  Response response = execute("/");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_2);
  EXPECT_EQ(response.body()->string(), "over tcp");
  std::optional<CallEvent> failed = lastCall()->find("connectFailed");
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->exceptionType, "SSLPeerUnverifiedException");
}

TEST_F(Http3CallTest, ASilentAlternativeLosesTheRaceToTcp) {
  SilentUdpPeer silent;
  ASSERT_GT(silent.port(), 0);
  advertise(client, silent.port());
  server.enqueue(body("over tcp"));

  Response response = execute("/");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_2);
  EXPECT_EQ(response.body()->string(), "over tcp");
  EXPECT_EQ(connectsTo(silent.port()), 1);
  // QUIC was still waiting when TCP connected after the fallback delay: it lost.
  std::optional<CallEvent> failed = lastCall()->find("connectFailed");
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->socketAddress, "127.0.0.1:" + std::to_string(silent.port()));
  EXPECT_EQ(failed->exceptionType, "InterruptedIOException");

  // A network that drops UDP costs one race: the next connection is TCP's alone.
  client.connectionPool()->evictAll();
  server.enqueue(body("over tcp again"));
  Response second = execute("/");
  EXPECT_EQ(second.body()->string(), "over tcp again");
  EXPECT_EQ(connectsTo(silent.port()), 0);
}

TEST_F(Http3CallTest, AKnownAlternativeIsPreferredToAPooledTcpConnection) {
  // A pooled HTTP/2 connection made before the alternative was known is left to idle out:
  // calls go over HTTP/3 from then on (as a browser's do after discovery).
  server.enqueue(body("over tcp"));
  Response first = execute("/");
  EXPECT_EQ(first.protocol(), Protocol::HTTP_2);
  EXPECT_EQ(first.body()->string(), "over tcp");
  startQuic(certificates);
  advertise(client, quic->port());

  Response second = execute("/hello");
  EXPECT_EQ(second.protocol(), Protocol::HTTP_3);
  EXPECT_EQ(second.body()->string(), "hello over h3");
  EXPECT_EQ(client.connectionPool()->connectionCount(), 2);
}

TEST_F(Http3CallTest, WithoutFastFallbackQuicStillRacesOneTcpConnection) {
  client = clientBuilder().protocols(kWithHttp3).fastFallback(false).build();
  SilentUdpPeer silent;
  advertise(client, silent.port());
  server.enqueue(body("over tcp"));

  Response response = execute("/");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_2);
  EXPECT_EQ(response.body()->string(), "over tcp");
}

TEST_F(Http3CallTest, AClientThatMayNotUseHttp3IgnoresAlternativesAndQuicConnections) {
  startQuic(certificates);
  advertise(client, quic->port());
  Response overQuic = execute("/hello");
  ASSERT_EQ(overQuic.protocol(), Protocol::HTTP_3);
  overQuic.body()->close();

  // Same pool and Alt-Svc store, no HTTP/3: neither the pooled QUIC connection nor the
  // alternative is used.
  Client tcpOnly = client.newBuilder().protocols({Protocol::HTTP_2, Protocol::HTTP_1_1}).build();
  server.enqueue(body("over tcp"));
  Response response = tcpOnly.newCall(get("/"))->execute();
  EXPECT_EQ(response.protocol(), Protocol::HTTP_2);
  EXPECT_EQ(response.body()->string(), "over tcp");
  EXPECT_EQ(connectsTo(quic->port()), 0);
}

TEST_F(Http3CallTest, AServerThatWentAwayFailsOverToTcp) {
  startQuic(certificates);
  advertise(client, quic->port());
  Response overQuic = execute("/hello");
  ASSERT_EQ(overQuic.protocol(), Protocol::HTTP_3);
  overQuic.body()->close();

  // The QUIC server is gone: its pooled connection is evicted, and the next connect to it fails
  // at once (nothing listens), so TCP serves the call.
  quic->kill();
  client.connectionPool()->evictAll();
  server.enqueue(body("over tcp"));
  Response response = execute("/");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_2);
  EXPECT_EQ(response.body()->string(), "over tcp");
}

TEST_F(Http3CallTest, AQuicHintCallsOverHttp3FromTheFirstCall) {
  startQuic(certificates);
  // The origin's TCP port also serves HTTP/3 at the gtlsserver's UDP port, the client is told.
  client =
      clientBuilder().protocols(kWithHttp3).addQuicHint("*", server.port(), quic->port()).build();

  Response response = execute("/hello");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_3);
  EXPECT_EQ(response.body()->string(), "hello over h3");
  EXPECT_EQ(server.requestCount(), 0);
}

TEST_F(Http3CallTest, AHintForAnotherOriginChangesNothing) {
  startQuic(certificates);
  client = clientBuilder()
               .protocols(kWithHttp3)
               .addQuicHint("other.test", 0, quic->port())
               .addQuicHint("*", server.port() + 1, quic->port())
               .build();
  server.enqueue(body("over tcp"));
  Response response = execute("/");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_2);
  EXPECT_EQ(response.body()->string(), "over tcp");
}

TEST_F(Http3CallTest, HintsAreCheckedAndCopiedWithTheirBuilder) {
  EXPECT_THROW(Client::Builder().addQuicHint("", 443, 443), std::invalid_argument);
  EXPECT_THROW(Client::Builder().addQuicHint("example.com", 70000, 443), std::invalid_argument);
  EXPECT_THROW(Client::Builder().addQuicHint("example.com", 443, -1), std::invalid_argument);
  EXPECT_THROW(Client::Builder().addQuicHint("exa mple.com", 443, 443), std::invalid_argument);

  // A copy of a builder with a hint does not share the hints added to the copy.
  startQuic(certificates);
  Client::Builder base = clientBuilder().protocols(kWithHttp3);
  Client::Builder hinted = base;
  hinted.addQuicHint("*", server.port(), quic->port());
  client = base.build();
  server.enqueue(body("over tcp"));
  EXPECT_EQ(execute("/").protocol(), Protocol::HTTP_2);
}

// HTTP/3 only (protocols {HTTP_3}, curl's --http3-only): QUIC to the URL's own host and port.
class Http3OnlyCallTest : public Http3CallTest {
 protected:
  void SetUp() override {
    Http3CallTest::SetUp();
    if (IsSkipped()) return;
    client = clientBuilder().protocols({Protocol::HTTP_3}).build();
  }
  std::string quicUrl(int port, std::string_view path) {
    return "https://localhost:" + std::to_string(port) + std::string(path);
  }
};

TEST_F(Http3OnlyCallTest, CallsTheUrlsOwnPortOverQuic) {
  startQuic(certificates);
  Response response = execute(Request::Builder().url(quicUrl(quic->port(), "/hello")).build());
  EXPECT_EQ(response.protocol(), Protocol::HTTP_3);
  EXPECT_EQ(response.body()->string(), "hello over h3");
}

TEST_F(Http3OnlyCallTest, FailsWhenQuicFailsWithoutTryingTcp) {
  const int closedPort = freeUdpPort("127.0.0.1");
  EXPECT_EQ(failureOf(client, Request::Builder().url(quicUrl(closedPort, "/")).build())
                .rfind("IOException: Failed to connect to localhost:" + std::to_string(closedPort) +
                           " over HTTP/3",
                       0),
            0u);
  for (const CallEvent& e : lastCall()->events()) {
    if (e.name == "connectStart") {
      EXPECT_EQ(e.socketAddress, "127.0.0.1:" + std::to_string(closedPort));
    }
  }
  // Not marked broken: HTTP/3 only tries again.
  startQuic(certificates);
  EXPECT_EQ(execute(Request::Builder().url(quicUrl(quic->port(), "/hello")).build()).protocol(),
            Protocol::HTTP_3);
}

TEST_F(Http3OnlyCallTest, RefusesHttpUrls) {
  EXPECT_EQ(failureOf(client, Request::Builder().url("http://localhost:1/").build()),
            "UnknownServiceException: HTTP/3 needs https: http://localhost:1/");
}

}  // namespace
}  // namespace tern::testing
