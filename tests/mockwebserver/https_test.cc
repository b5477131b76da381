// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// MockWebServer over TLS: useHttps(), client authentication, ALPN protocols, FailHandshake and the
// handshake a RecordedRequest carries. The client side is tern's own TLS socket, so each test
// controls exactly what the client offers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "net/socket.h"
#include "net/tls_context.h"
#include "net/tls_socket.h"
#include "support/tls_certificates.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::mockwebserver {
namespace {

using namespace std::chrono_literals;
using tern::testing::TestCertificates;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// A TLS client connection to the server, speaking raw HTTP/1.1 over tern's TlsSocket.
class TlsClient {
 public:
  TlsClient(MockWebServer& server, const tls::HandshakeCertificates& certificates,
            std::vector<std::string> alpn = {"http/1.1"}, std::string host = "localhost")
      : context_(certificates),
        socket_(internal::Socket::connectTo(
            InetSocketAddress(InetAddress::loopbackIpv4().withHostName(host), server.port()), 5s)),
        transport_(*socket_),
        tls_(transport_, context_.newSsl(host, server.port(), alpn)) {
    tls_.source().timeout().timeout(5s);
  }

  void handshake() { tls_.handshake(5s); }

  // Sends a GET for `path` and reads the response up to the end of its 2-byte body.
  std::string get(const std::string& path) {
    Buffer request;
    request.writeUtf8("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
    tls_.sink().write(request, request.size());
    std::string response;
    Buffer buffer;
    while (response.find("\r\n\r\n") == std::string::npos ||
           response.size() < response.find("\r\n\r\n") + 6) {
      if (tls_.source().read(buffer, 8192) == -1) break;
      response += buffer.readUtf8();
    }
    return response;
  }

  internal::TlsSocket& tls() { return tls_; }

 private:
  internal::TlsContext context_;
  std::unique_ptr<internal::Socket> socket_;
  internal::SocketTlsTransport transport_;
  internal::TlsSocket tls_;
};

MockResponse ok() { return MockResponse::Builder().body("ok").build(); }

class MockWebServerHttpsTest : public ::testing::Test {
 protected:
  TestCertificates certificates;
  MockWebServer server;
};

TEST_F(MockWebServerHttpsTest, UseHttpsServesTlsAndRecordsTheHandshake) {
  server.useHttps(certificates.server());
  server.enqueue(ok());
  EXPECT_EQ(server.url("/a").scheme(), "https");
  TlsClient client(server, certificates.clientTrust());
  client.handshake();
  EXPECT_THAT(client.get("/a"), StartsWith("HTTP/1.1 200 OK\r\n"));

  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.requestLine(), "GET /a HTTP/1.1");
  EXPECT_EQ(request.url().scheme(), "https");
  ASSERT_TRUE(request.handshake().has_value());
  EXPECT_EQ(request.handshake()->tlsVersion(), TlsVersion::TLS_1_3);
  EXPECT_EQ(request.handshake()->cipherSuite().javaName(),
            SSL_CIPHER_standard_name(SSL_get_current_cipher(client.tls().ssl())));
  EXPECT_EQ(request.handshake()->localCertificates().front(), certificates.localhost.certificate());
  EXPECT_TRUE(request.handshake()->peerCertificates().empty());
  EXPECT_EQ(request.handshakeServerNames(), std::vector<std::string>{"localhost"});
}

TEST_F(MockWebServerHttpsTest, RequireClientAuthRecordsTheClientsCertificate) {
  server.useHttps(certificates.server());
  server.requireClientAuth();
  server.enqueue(ok());
  TlsClient client(server, certificates.clientWithCertificate());
  client.handshake();
  EXPECT_THAT(client.get("/"), StartsWith("HTTP/1.1 200 OK\r\n"));
  RecordedRequest request = server.takeRequest();
  ASSERT_EQ(request.handshake()->peerCertificates().size(), 2u);  // The client and its root.
  EXPECT_EQ(request.handshake()->peerCertificates()[0], certificates.client.certificate());
  EXPECT_EQ(request.handshake()->peerPrincipal(), "CN=client");
}

TEST_F(MockWebServerHttpsTest, RequireClientAuthRefusesAnAnonymousClient) {
  server.useHttps(certificates.server());
  server.requireClientAuth();
  server.enqueue(ok());
  TlsClient client(server, certificates.clientTrust());
  client.handshake();  // TLS 1.3: the server refuses after the client's side is done.
  try {
    client.get("/");
    FAIL() << "expected SSLHandshakeException";
  } catch (const SSLHandshakeException& e) {
    EXPECT_THAT(e.what(), HasSubstr("the server requires a client certificate"));
  }
  EXPECT_EQ(server.takeRequest(200ms), std::nullopt);
}

TEST_F(MockWebServerHttpsTest, NoClientAuthAsksForNothing) {
  server.useHttps(certificates.server());
  server.requireClientAuth();
  server.noClientAuth();
  server.enqueue(ok());
  TlsClient client(server, certificates.clientWithCertificate());
  client.handshake();
  EXPECT_THAT(client.get("/"), StartsWith("HTTP/1.1 200 OK\r\n"));
  EXPECT_TRUE(server.takeRequest().handshake()->peerCertificates().empty());
}

TEST_F(MockWebServerHttpsTest, AlpnSelectsH2WhenTheClientOffersIt) {
  server.useHttps(certificates.server());
  server.enqueue(ok());
  TlsClient client(server, certificates.clientTrust(), {"http/1.1", "h2"});
  client.handshake();
  // The server's preference, {HTTP_2, HTTP_1_1} by default, among the client's offers.
  EXPECT_EQ(client.tls().selectedAlpnProtocol(), "h2");
}

TEST_F(MockWebServerHttpsTest, AlpnSelectsHttp11WhenTheServerOffersOnlyThat) {
  server.useHttps(certificates.server());
  server.setProtocols({Protocol::HTTP_1_1});
  server.enqueue(ok());
  TlsClient client(server, certificates.clientTrust(), {"h2", "http/1.1"});
  client.handshake();
  EXPECT_EQ(client.tls().selectedAlpnProtocol(), "http/1.1");
  EXPECT_THAT(client.get("/"), StartsWith("HTTP/1.1 200 OK\r\n"));
}

TEST_F(MockWebServerHttpsTest, NoCommonAlpnProtocolStillServes) {
  server.useHttps(certificates.server());
  server.enqueue(ok());
  TlsClient client(server, certificates.clientTrust(), {"spdy/3"});
  client.handshake();
  EXPECT_EQ(client.tls().selectedAlpnProtocol(), std::nullopt);
  EXPECT_THAT(client.get("/"), StartsWith("HTTP/1.1 200 OK\r\n"));
}

TEST_F(MockWebServerHttpsTest, ProtocolsMustIncludeHttp11AndBeSetBeforeStart) {
  EXPECT_THAT(server.protocols(), ::testing::ElementsAre(Protocol::HTTP_2, Protocol::HTTP_1_1));
  EXPECT_THROW(server.protocols({Protocol::HTTP_2}), std::invalid_argument);
  server.protocols({Protocol::HTTP_1_1});
  EXPECT_THAT(server.protocols(), ::testing::ElementsAre(Protocol::HTTP_1_1));
  server.start();
  EXPECT_THROW(server.useHttps(certificates.server()), std::logic_error);
  EXPECT_THROW(server.requireClientAuth(), std::logic_error);
  EXPECT_THROW(server.protocols({Protocol::HTTP_1_1}), std::logic_error);
}

TEST_F(MockWebServerHttpsTest, FailHandshakeSendsAHandshakeFailureAlert) {
  server.useHttps(certificates.server());
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::FailHandshake{}).build());
  server.enqueue(ok());
  {
    TlsClient client(server, certificates.clientTrust());
    try {
      client.handshake();
      FAIL() << "expected SSLHandshakeException";
    } catch (const SSLHandshakeException& e) {
      EXPECT_THAT(e.what(),
                  HasSubstr("the server refused the handshake (handshake failure alert)"));
    }
  }
  // The failed connection consumed its response; the next connection gets the next one.
  EXPECT_EQ(server.takeRequest().requestLine(), "");
  TlsClient client(server, certificates.clientTrust());
  client.handshake();
  EXPECT_THAT(client.get("/"), StartsWith("HTTP/1.1 200 OK\r\n"));
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
  EXPECT_EQ(SocketPolicy(SocketPolicy::FailHandshake{}).toString(), "FailHandshake");
}

TEST_F(MockWebServerHttpsTest, CloseStopsAClientThatNeverHandshakes) {
  server.useHttps(certificates.server());
  auto idle = internal::Socket::connectTo(
      InetSocketAddress(InetAddress::loopbackIpv4(), server.port()), 5s);
  std::this_thread::sleep_for(50ms);  // The server's thread now waits for a ClientHello.
  const auto start = std::chrono::steady_clock::now();
  server.close();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
}

}  // namespace
}  // namespace tern::mockwebserver
