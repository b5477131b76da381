// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Client::Builder::unixSocket(): every connection goes to a Unix domain socket (MockWebServer
// listening on one in a temporary directory), while the URL still gives Host, scheme and TLS.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "call/call_fixture.h"
#include "support/tls_certificates.h"
#include "tern/exceptions.h"
#include "tern/proxy.h"

namespace tern::testing {
namespace {

// A Dns that knows no host: a call over a Unix socket must never look anything up.
std::shared_ptr<Dns> noDns() {
  return Dns::of([](const std::string& host) -> std::vector<InetAddress> {
    throw UnknownHostException("no DNS in this test: " + host);
  });
}

class UnixSocketTest : public CallFixture {
 protected:
  UnixSocketTest() {
    static int counter = 0;
    directory =
        std::filesystem::temp_directory_path() /
        ("tern_unix_socket_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(directory);
    socketPath = (directory / "server.sock").string();
  }
  ~UnixSocketTest() override {
    server.close();
    std::error_code ignored;
    std::filesystem::remove_all(directory, ignored);
  }

  // A client whose connections go to `path`; a proxy it must ignore and no DNS.
  Client overSocket(const std::string& path) {
    return client.newBuilder()
        .unixSocket(path)
        .proxy(Proxy::http("127.0.0.1", 1))
        .dns(noDns())
        .build();
  }

  std::shared_ptr<RecordingEventListener> lastEvents() { return events->listeners().back(); }

  std::filesystem::path directory;
  std::string socketPath;
};

TEST_F(UnixSocketTest, PlainHttpGoesToTheSocketWithTheUrlsHost) {
  server.startUnixSocket(socketPath);
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  Client unix = overSocket(socketPath);
  Response first =
      unix.newCall(Request::Builder().url("http://example.test:8080/x").build())->execute();
  EXPECT_EQ(first.body()->string(), "a");
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.requestLine(), "GET /x HTTP/1.1");
  EXPECT_EQ(request.headers().get("Host"), "example.test:8080");
  // No proxy selection and no DNS; the connect events name the socket.
  EXPECT_FALSE(lastEvents()->find("proxySelectStart"));
  EXPECT_FALSE(lastEvents()->find("dnsStart"));
  EXPECT_EQ(lastEvents()->find("connectStart")->detail, socketPath);
  EXPECT_EQ(lastEvents()->find("connectEnd")->detail, socketPath + " http/1.1");

  // The connection is pooled for the URL's origin, and reused.
  EXPECT_EQ(unix.newCall(Request::Builder().url("http://example.test:8080/y").build())
                ->execute()
                .body()
                ->string(),
            "b");
  EXPECT_EQ(server.takeRequest().connectionIndex(), request.connectionIndex());
  EXPECT_EQ(lastEvents()->count("connectStart"), 0);
}

TEST_F(UnixSocketTest, HttpsRunsTlsOverTheSocketForTheUrlsHost) {
  TestCertificates certificates;
  server.useHttps(certificates.server());
  server.startUnixSocket(socketPath);
  server.enqueue(body("secure"));
  server.enqueue(body("unused"));
  Client unix =
      overSocket(socketPath).newBuilder().handshakeCertificates(certificates.clientTrust()).build();
  Response response = unix.newCall(Request::Builder().url("https://localhost/").build())->execute();
  EXPECT_EQ(response.body()->string(), "secure");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_2);
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.handshakeServerNames(), std::vector<std::string>{"localhost"});

  // The certificate is checked against the URL's host, not the socket.
  try {
    unix.newCall(Request::Builder().url("https://example.test/").build())->execute();
    FAIL() << "expected the certificate to be refused for example.test";
  } catch (const SSLPeerUnverifiedException&) {
  }
}

TEST_F(UnixSocketTest, MissingSocketIsAConnectException) {
  const std::string missing = (directory / "missing.sock").string();
  try {
    overSocket(missing).newCall(Request::Builder().url("http://example.test/").build())->execute();
    FAIL() << "expected a ConnectException";
  } catch (const ConnectException& e) {
    EXPECT_EQ(std::string(e.what()),
              "Failed to connect to " + missing + ": No such file or directory");
  }
  EXPECT_EQ(lastEvents()->find("connectFailed")->detail.rfind(missing, 0), 0u);
}

TEST_F(UnixSocketTest, DifferentSocketsNeverShareAConnection) {
  MockWebServer other;
  const std::string otherPath = (directory / "other.sock").string();
  server.startUnixSocket(socketPath);
  other.startUnixSocket(otherPath);
  server.enqueue(body("first"));
  other.enqueue(body("second"));
  // Same builder, so the same pool: only the Address keeps them apart.
  Client one = overSocket(socketPath);
  Client two = one.newBuilder().unixSocket(otherPath).build();
  const Request request = Request::Builder().url("http://example.test/").build();
  EXPECT_EQ(one.newCall(request)->execute().body()->string(), "first");
  EXPECT_EQ(two.newCall(request)->execute().body()->string(), "second");
  EXPECT_EQ(one.connectionPool()->connectionCount(), 2);
}

TEST_F(UnixSocketTest, AbstractSocket) {
  const std::string name = "tern-test-" + std::to_string(::getpid()) + "-abstract";
  server.startUnixSocket(name, /*abstract=*/true);
  server.enqueue(body("abstract"));
  Client unix = client.newBuilder().abstractUnixSocket(name).dns(noDns()).build();
  EXPECT_EQ(unix.newCall(Request::Builder().url("http://example.test/").build())
                ->execute()
                .body()
                ->string(),
            "abstract");
  EXPECT_EQ(lastEvents()->find("connectStart")->detail, "@" + name);
}

TEST(UnixDomainAddressTest, ValuesAndLimits) {
  InetSocketAddress path = InetSocketAddress::unixDomain("/run/app.sock");
  EXPECT_TRUE(path.isUnixDomain());
  EXPECT_FALSE(path.isAbstract());
  EXPECT_EQ(path.toString(), "/run/app.sock");
  EXPECT_EQ(path.describe(), "/run/app.sock");
  EXPECT_EQ(InetSocketAddress::unixDomain("app", true).toString(), "@app");
  EXPECT_FALSE(path == InetSocketAddress::unixDomain("/run/other.sock"));
  EXPECT_FALSE(path == InetSocketAddress::unixDomain("/run/app.sock", true));
  EXPECT_FALSE(path == InetSocketAddress(InetAddress::ipv4({0, 0, 0, 0}), 0));
  EXPECT_EQ(path, InetSocketAddress::unixDomain("/run/app.sock"));
  EXPECT_THROW(InetSocketAddress::unixDomain(std::string(108, 'a')), std::invalid_argument);
  EXPECT_THROW(InetSocketAddress::unixDomain(std::string("a\0b", 3)), std::invalid_argument);
  EXPECT_THROW(Client::Builder().unixSocket(std::string(200, 'a')), std::invalid_argument);
}

}  // namespace
}  // namespace tern::testing
