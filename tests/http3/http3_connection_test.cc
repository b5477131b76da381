// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http3/http3_connection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "http/connection_shutdown_exception.h"
#include "http3/gtls_server.h"
#include "http3/http3_stream.h"
#include "support/tls_certificates.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class RecordingListener final : public Http3Connection::Listener {
 public:
  void onSettings(int maxConcurrentStreams) override { lastSettings = maxConcurrentStreams; }
  void onShutdown() override { ++shutdowns; }
  std::atomic<int> lastSettings{-1};
  std::atomic<int> shutdowns{0};
};

std::string randomBytes(size_t size) {
  std::mt19937 random(42);
  std::string result(size, '\0');
  for (char& c : result) c = static_cast<char>(random() & 0xff);
  return result;
}

// Reads `source` to its end.
std::string readAll(Source& source) {
  Buffer buffer;
  while (source.read(buffer, 64 * 1024) != -1) {
  }
  return buffer.readUtf8();
}

std::string statusOf(const HeaderBlock& block) {
  for (const auto& [name, value] : block) {
    if (name == ":status") return value;
  }
  return "";
}

class Http3ConnectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::GtlsServer::available()) {
      GTEST_SKIP() << testing::kGtlsServerPath
                   << " is absent: install Debian's ngtcp2-server to run the HTTP/3 tests";
    }
    char pattern[] = "/tmp/tern-h3-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    directory_ = pattern;
    server_ = std::make_unique<testing::GtlsServer>(certificates_, directory_ / "v4");
    server_->writeFile("small.txt", kSmall);
    server_->writeFile("big.bin", big());
    ASSERT_TRUE(server_->start()) << "gtlsserver did not start; see " << server_->log();
  }

  void TearDown() override {
    server_.reset();
    if (!directory_.empty()) std::filesystem::remove_all(directory_);
  }

  static const std::string& big() {
    static const std::string bytes = randomBytes(10 * 1024 * 1024);
    return bytes;
  }

  std::unique_ptr<Http3Connection> connect(const testing::GtlsServer& server,
                                           Http3Connection::PeerVerifier verify = nullptr,
                                           std::chrono::milliseconds timeout = 5s) {
    if (!verify) verify = [](const std::vector<Certificate>&) {};
    auto address = InetAddress::parse(server.host());
    auto connection = std::make_unique<Http3Connection>(
        "localhost", InetSocketAddress(*address, server.port()), std::move(verify), listener_);
    connection->connect(timeout);
    return connection;
  }

  HeaderBlock request(const std::string& method, const std::string& path) const {
    return {{":method", method},
            {":scheme", "https"},
            {":authority", "localhost:" + std::to_string(server_->port())},
            {":path", path},
            {"user-agent", "tern-test"}};
  }

  static constexpr const char* kSmall = "hello, HTTP/3\n";
  testing::TestCertificates certificates_;
  std::filesystem::path directory_;
  std::unique_ptr<testing::GtlsServer> server_;
  RecordingListener listener_;
};

TEST_F(Http3ConnectionTest, HandshakeAndSmallGet) {
  std::vector<Certificate> seen;
  auto connection = connect(*server_, [&](const std::vector<Certificate>& chain) { seen = chain; });

  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].der(), certificates_.localhost.certificate().der());
  EXPECT_EQ(seen[1].der(), certificates_.root.certificate().der());
  EXPECT_EQ(connection->applicationProtocol(), "h3");
  EXPECT_EQ(connection->tlsVersionName(), "TLSv1.3");
  EXPECT_THAT(connection->cipherSuiteName(), StartsWith("TLS_"));
  Handshake handshake = connection->handshake();
  EXPECT_EQ(handshake.tlsVersion(), TlsVersion::TLS_1_3);
  EXPECT_EQ(handshake.cipherSuite().javaName(), connection->cipherSuiteName());
  ASSERT_EQ(handshake.peerCertificates().size(), 2u);
  EXPECT_EQ(handshake.peerCertificates()[0].der(), certificates_.localhost.certificate().der());
  EXPECT_TRUE(connection->isHealthy());
  EXPECT_EQ(listener_.lastSettings.load(), 100);  // gtlsserver's --max-streams-bidi default.

  std::shared_ptr<Http3Stream> stream = connection->newStream(request("GET", "/small.txt"), false);
  stream->readTimeout().timeout(5s);
  HeaderBlock headers = stream->takeHeaders();
  EXPECT_EQ(statusOf(headers), "200");
  EXPECT_EQ(readAll(stream->source()), kSmall);
  EXPECT_TRUE(stream->trailers().empty());
  EXPECT_TRUE(stream->isSourceExhausted());
}

TEST_F(Http3ConnectionTest, GetOverIpv6) {
  testing::GtlsServer server(certificates_, directory_ / "v6", "::1");
  server.writeFile("small.txt", kSmall);
  if (!server.start()) GTEST_SKIP() << "no IPv6 loopback here (see " << server.log() << ")";
  auto connection = connect(server);
  HeaderBlock headers = {{":method", "GET"},
                         {":scheme", "https"},
                         {":authority", "[::1]:" + std::to_string(server.port())},
                         {":path", "/small.txt"}};
  std::shared_ptr<Http3Stream> stream = connection->newStream(headers, false);
  stream->readTimeout().timeout(5s);
  EXPECT_EQ(statusOf(stream->takeHeaders()), "200");
  EXPECT_EQ(readAll(stream->source()), kSmall);
}

TEST_F(Http3ConnectionTest, GetTenMebibytes) {
  auto connection = connect(*server_);
  std::shared_ptr<Http3Stream> stream = connection->newStream(request("GET", "/big.bin"), false);
  stream->readTimeout().timeout(30s);
  EXPECT_EQ(statusOf(stream->takeHeaders()), "200");
  std::string body = readAll(stream->source());
  ASSERT_EQ(body.size(), big().size());
  EXPECT_TRUE(body == big());
}

TEST_F(Http3ConnectionTest, VerifierThrowFailsConnectWithThatException) {
  try {
    connect(*server_, [](const std::vector<Certificate>&) {
      throw SSLPeerUnverifiedException("Certificate pinning failure!");
    });
    FAIL() << "connected";
  } catch (const SSLPeerUnverifiedException& e) {
    EXPECT_STREQ(e.what(), "Certificate pinning failure!");
  }
}

TEST_F(Http3ConnectionTest, TwentyConcurrentStreams) {
  auto connection = connect(*server_);
  std::vector<std::shared_ptr<Http3Stream>> streams;
  for (int i = 0; i < 20; ++i) {
    streams.push_back(
        connection->newStream(request("GET", i % 2 ? "/small.txt" : "/big.bin"), false));
    streams.back()->readTimeout().timeout(30s);
  }
  EXPECT_EQ(connection->openStreamCount(), 20);
  std::vector<std::thread> readers;
  std::atomic<int> ok{0};
  for (int i = 0; i < 20; ++i) {
    readers.emplace_back([&, i] {
      if (statusOf(streams[i]->takeHeaders()) != "200") return;
      if (readAll(streams[i]->source()) == (i % 2 ? std::string(kSmall) : big())) ++ok;
    });
  }
  for (auto& reader : readers) reader.join();
  EXPECT_EQ(ok.load(), 20);
}

TEST_F(Http3ConnectionTest, PostWithBody) {
  auto connection = connect(*server_);
  std::shared_ptr<Http3Stream> stream = connection->newStream(request("POST", "/small.txt"), true);
  stream->readTimeout().timeout(10s);
  stream->writeTimeout().timeout(10s);
  Buffer body;
  body.writeUtf8(std::string(1024 * 1024, 'x'));  // Past the buffer: the writer waits for acks.
  stream->sink().write(body, body.size());
  stream->sink().close();
  // gtlsserver reads the whole request body, then answers a POST as a GET.
  EXPECT_EQ(statusOf(stream->takeHeaders()), "200");
  EXPECT_EQ(readAll(stream->source()), kSmall);
}

TEST_F(Http3ConnectionTest, CancelUnblocksWaitingReader) {
  auto connection = connect(*server_);
  // The request body never ends, so gtlsserver never answers: the reader waits.
  std::shared_ptr<Http3Stream> stream = connection->newStream(request("POST", "/small.txt"), true);
  std::thread canceler([&] {
    std::this_thread::sleep_for(200ms);
    stream->closeLater(Http3ErrorCode::H3_REQUEST_CANCELLED);
  });
  EXPECT_THROW(stream->takeHeaders(), InterruptedIOException);
  canceler.join();
  // The connection carries on.
  std::shared_ptr<Http3Stream> next = connection->newStream(request("GET", "/small.txt"), false);
  next->readTimeout().timeout(5s);
  EXPECT_EQ(statusOf(next->takeHeaders()), "200");
  EXPECT_EQ(readAll(next->source()), kSmall);
}

TEST_F(Http3ConnectionTest, CancelMidBodyFailsReads) {
  auto connection = connect(*server_);
  std::shared_ptr<Http3Stream> stream = connection->newStream(request("GET", "/big.bin"), false);
  stream->readTimeout().timeout(10s);
  EXPECT_EQ(statusOf(stream->takeHeaders()), "200");
  Buffer part;
  EXPECT_GT(stream->source().read(part, 1000), 0);
  stream->closeLater(Http3ErrorCode::H3_REQUEST_CANCELLED);
  try {
    readAll(stream->source());
    FAIL() << "read after cancel";
  } catch (const InterruptedIOException& e) {
    EXPECT_STREQ(e.what(), "Canceled");
  }
}

TEST_F(Http3ConnectionTest, ReadTimeout) {
  auto connection = connect(*server_);
  std::shared_ptr<Http3Stream> stream = connection->newStream(request("POST", "/small.txt"), true);
  stream->readTimeout().timeout(200ms);
  try {
    stream->takeHeaders();
    FAIL() << "no timeout";
  } catch (const SocketTimeoutException& e) {
    EXPECT_THAT(e.what(), HasSubstr("Read timed out after 200 ms: HTTP/3 stream 0 to localhost:"));
  }
  EXPECT_TRUE(connection->isHealthy());
}

TEST_F(Http3ConnectionTest, ConnectToUnservedPortIsRefused) {
  const int port = testing::freeUdpPort("127.0.0.1");
  Http3Connection connection(
      "localhost", InetSocketAddress(InetAddress::loopbackIpv4(), port),
      [](const std::vector<Certificate>&) {}, listener_);
  try {
    connection.connect(2s);
    FAIL() << "connected";
  } catch (const ConnectException& e) {
    EXPECT_THAT(e.what(), HasSubstr("localhost:" + std::to_string(port)));
    EXPECT_THAT(e.what(), HasSubstr("HTTP/3"));
  }
  EXPECT_TRUE(connection.isShutdown());
}

TEST_F(Http3ConnectionTest, ConnectToSilentPeerTimesOut) {
  // A UDP socket that takes every datagram and answers none.
  int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  socklen_t length = sizeof(address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  const int port = ntohs(address.sin_port);
  Http3Connection connection(
      "localhost", InetSocketAddress(InetAddress::loopbackIpv4(), port),
      [](const std::vector<Certificate>&) {}, listener_);
  const auto start = std::chrono::steady_clock::now();
  try {
    connection.connect(300ms);
    FAIL() << "connected";
  } catch (const SocketTimeoutException& e) {
    EXPECT_THAT(e.what(), HasSubstr("HTTP/3 connect to localhost:" + std::to_string(port)));
    EXPECT_THAT(e.what(), HasSubstr("timed out"));
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);  // Bounded, not a speed check.
  ::close(fd);
}

TEST_F(Http3ConnectionTest, GarbageDatagramsNeitherCrashNorHang) {
  // A peer that answers every datagram with random bytes, some shaped like QUIC long headers.
  int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  socklen_t length = sizeof(address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  std::atomic<bool> done{false};
  std::thread peer([&] {
    std::mt19937 random(7);
    timeval wait{0, 50'000};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait));
    while (!done) {
      uint8_t in[2048];
      sockaddr_storage from{};
      socklen_t fromLength = sizeof(from);
      if (::recvfrom(fd, in, sizeof(in), 0, reinterpret_cast<sockaddr*>(&from), &fromLength) <= 0) {
        continue;
      }
      for (int i = 0; i < 20; ++i) {
        std::vector<uint8_t> out(1 + random() % 1400);
        for (auto& byte : out) byte = static_cast<uint8_t>(random());
        if (i % 2 == 0) {
          out[0] = 0xc0 | (out[0] & 0x0f);  // Long header, QUIC v1.
          if (out.size() > 5) out[1] = out[2] = out[3] = 0, out[4] = 1;
        }
        ::sendto(fd, out.data(), out.size(), 0, reinterpret_cast<sockaddr*>(&from), fromLength);
      }
    }
  });
  Http3Connection connection(
      "localhost", InetSocketAddress(InetAddress::loopbackIpv4(), ntohs(address.sin_port)),
      [](const std::vector<Certificate>&) {}, listener_);
  EXPECT_THROW(connection.connect(500ms), IOException);
  done = true;
  peer.join();
  ::close(fd);
}

TEST_F(Http3ConnectionTest, ServerKilledFailsOpenStreams) {
  auto connection = connect(*server_);
  std::shared_ptr<Http3Stream> stream = connection->newStream(request("POST", "/small.txt"), true);
  stream->readTimeout().timeout(10s);
  stream->writeTimeout().timeout(10s);
  Buffer body;
  body.writeUtf8("first");
  stream->sink().write(body, body.size());
  server_->kill();
  // What we send now meets a closed port: the kernel says so (ICMP), and the connection fails.
  EXPECT_THROW(
      {
        for (int i = 0; i < 100; ++i) {
          Buffer more;
          more.writeUtf8("more");
          stream->sink().write(more, more.size());
          std::this_thread::sleep_for(20ms);
        }
      },
      IOException);
  EXPECT_THROW(stream->takeHeaders(), IOException);
  EXPECT_FALSE(connection->isHealthy());
  EXPECT_TRUE(connection->isShutdown());
  EXPECT_NE(connection->failure(), nullptr);
  EXPECT_EQ(listener_.shutdowns.load(), 1);
  EXPECT_THROW(connection->newStream(request("GET", "/small.txt"), false), IOException);
}

TEST(Http3ConnectionLimitTest, NewStreamAtThePeersLimitFailsCleanly) {
  if (!testing::GtlsServer::available()) GTEST_SKIP() << "no gtlsserver";
  testing::TestCertificates certificates;
  char pattern[] = "/tmp/tern-h3-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  std::filesystem::path directory = pattern;
  {
    testing::GtlsServer server(certificates, directory, "127.0.0.1", {"--max-streams-bidi=2"});
    server.writeFile("small.txt", "x");
    ASSERT_TRUE(server.start());
    RecordingListener listener;
    Http3Connection connection(
        "localhost", InetSocketAddress(InetAddress::loopbackIpv4(), server.port()),
        [](const std::vector<Certificate>&) {}, listener);
    connection.connect(5s);
    EXPECT_EQ(connection.maxConcurrentStreams(), 2);
    EXPECT_EQ(listener.lastSettings.load(), 2);
    HeaderBlock post = {{":method", "POST"},
                        {":scheme", "https"},
                        {":authority", "localhost"},
                        {":path", "/small.txt"}};
    auto first = connection.newStream(post, true);
    auto second = connection.newStream(post, true);
    try {
      connection.newStream(post, true);
      FAIL() << "a third stream opened";
    } catch (const ConnectionShutdownException& e) {
      EXPECT_TRUE(e.atStreamLimit());
      EXPECT_THAT(e.what(), HasSubstr("limit of 2 streams"));
    }
    EXPECT_TRUE(connection.isHealthy());
    connection.close();
    EXPECT_THROW(first->takeHeaders(), IOException);
    EXPECT_TRUE(connection.isShutdown());
  }
  std::filesystem::remove_all(directory);
}

}  // namespace
}  // namespace tern::internal
