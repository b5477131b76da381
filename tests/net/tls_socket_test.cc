// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/tls_socket.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "net/connection_spec_ssl.h"
#include "net/loopback_peer.h"
#include "net/tls_failure.h"
#include "net/tls_peer.h"
#include "tern/buffer.h"
#include "tern/connection_spec.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using internal::Socket;
using internal::TlsSocket;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

// A client connection: socket, transport and TLS, connected but not yet handshaken.
struct TlsClient {
  TlsClient(internal::TlsContext& context, const InetSocketAddress& address,
            const ConnectionSpec* spec = nullptr, std::vector<std::string> alpn = {"http/1.1"})
      : socket(Socket::connectTo(address, 5s)), transport(*socket) {
    internal::UniqueSsl ssl = context.newSsl(address.address().hostName(), address.port(), alpn);
    if (spec) internal::applyConnectionSpec(*spec, ssl.get(), false);
    tls = std::make_unique<TlsSocket>(transport, std::move(ssl));
  }

  std::unique_ptr<Socket> socket;
  internal::SocketTlsTransport transport;
  std::unique_ptr<TlsSocket> tls;
};

std::string readAll(Source& source) {
  Buffer buffer;
  while (source.read(buffer, 65536) != -1) {
  }
  return buffer.readUtf8();
}

std::string readExactly(Source& source, size_t size) {
  Buffer buffer;
  while (buffer.size() < static_cast<int64_t>(size)) {
    if (source.read(buffer, static_cast<int64_t>(size) - buffer.size()) == -1) break;
  }
  return buffer.readUtf8();
}

// Reads raw bytes until the peer closes or the server is stopped.
void drain(Socket& socket) {
  Buffer ignored;
  while (socket.source().read(ignored, 65536) != -1) ignored.clear();
}

// Waits without reading until the test's end cancels the socket.
void drainAfterCancel(Socket& socket) {
  while (!socket.isCanceled()) std::this_thread::sleep_for(10ms);
}

void write(Sink& sink, std::string_view text) {
  Buffer buffer;
  buffer.writeUtf8(text);
  sink.write(buffer, buffer.size());
}

// The message of the exception `f` throws as `E`.
template <typename E, typename F>
std::string messageOf(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("wrong exception: ") + typeid(e).name() + ": " + e.what();
  }
  return "nothing thrown";
}

class TlsSocketTest : public ::testing::Test {
 protected:
  TestCertificates certificates;
  std::shared_ptr<internal::TlsContext> context = clientContext(certificates.clientTrust());
};

TEST_F(TlsSocketTest, HandshakesAndExchangesBytesBothWays) {
  TlsServer server(serverContext(certificates.server()), [](TlsSocket* tls, Socket&) {
    std::string request = readExactly(tls->source(), 5);
    write(tls->sink(), "echo:" + request);
    tls->sendCloseNotify();
  });
  TlsClient client(*context, server.address());
  client.tls->handshake(5s);
  write(client.tls->sink(), "hello");
  EXPECT_EQ(readAll(client.tls->source()), "echo:hello");
  EXPECT_EQ(client.tls->selectedAlpnProtocol(), "http/1.1");
  EXPECT_EQ(SSL_version(client.tls->ssl()), TLS1_3_VERSION);
  EXPECT_EQ(server.serverFailure(), nullptr);
  EXPECT_EQ(server.serverName(), "localhost");
}

TEST_F(TlsSocketTest, SendsNoServerNameForAnIpAddress) {
  TlsServer server(serverContext(certificates.server()),
                   [](TlsSocket* tls, Socket&) { tls->sendCloseNotify(); });
  TlsClient client(*context, server.address("127.0.0.1"));
  client.tls->handshake(5s);
  EXPECT_EQ(server.serverFailure(), nullptr);
  EXPECT_EQ(server.serverName(), "");
}

TEST_F(TlsSocketTest, WithoutAlpnNothingIsSelected) {
  TlsServer server(serverContext(certificates.server()),
                   [](TlsSocket* tls, Socket&) { tls->sendCloseNotify(); });
  TlsClient client(*context, server.address(), nullptr, {});
  client.tls->handshake(5s);
  EXPECT_EQ(client.tls->selectedAlpnProtocol(), std::nullopt);
}

TEST_F(TlsSocketTest, TransfersSeveralMebibytesBothWaysByteExact) {
  const std::string up = patternBytes(3 << 20, 7);
  const std::string down = patternBytes(5 << 20, 11);
  TlsServer server(serverContext(certificates.server()), [&](TlsSocket* tls, Socket&) {
    std::string received = readExactly(tls->source(), up.size());
    if (received != up) throw std::runtime_error("upload corrupted");
    write(tls->sink(), down);
    tls->sendCloseNotify();
  });
  TlsClient client(*context, server.address());
  client.tls->handshake(5s);
  write(client.tls->sink(), up);
  const std::string received = readAll(client.tls->source());
  EXPECT_EQ(received.size(), down.size());
  EXPECT_TRUE(received == down);
  EXPECT_EQ(server.serverFailure(), nullptr);
}

TEST_F(TlsSocketTest, CloseNotifyIsACleanEndOfStream) {
  TlsServer server(serverContext(certificates.server()), [](TlsSocket* tls, Socket& socket) {
    write(tls->sink(), "bye");
    tls->sendCloseNotify();
    socket.close();
  });
  TlsClient client(*context, server.address());
  client.tls->handshake(5s);
  EXPECT_EQ(readAll(client.tls->source()), "bye");
  Buffer buffer;
  EXPECT_EQ(client.tls->source().read(buffer, 10), -1);  // And it stays ended.
}

TEST_F(TlsSocketTest, EndWithoutCloseNotifyIsATruncation) {
  TlsServer server(serverContext(certificates.server()), [](TlsSocket* tls, Socket& socket) {
    write(tls->sink(), "partial");
    socket.close();  // No close_notify: what an attacker cutting the stream would cause.
  });
  TlsClient client(*context, server.address());
  client.tls->handshake(5s);
  EXPECT_EQ(readExactly(client.tls->source(), 7), "partial");
  std::string message = messageOf<SSLException>([&] { readAll(client.tls->source()); });
  EXPECT_THAT(message, StartsWith("Connection to localhost (127.0.0.1:"));
  EXPECT_THAT(message, HasSubstr("closed without a TLS close_notify: the stream was truncated"));
}

TEST_F(TlsSocketTest, WriteAfterATruncationSaysTheStreamWasTruncated) {
  // Once a read has met the end without close_notify, OpenSSL refuses writes with no socket error
  // of its own: the write reports what the read found, not an errno left by an earlier read.
  TlsServer server(serverContext(certificates.server()), [](TlsSocket* tls, Socket& socket) {
    write(tls->sink(), "partial");
    socket.close();
  });
  TlsClient client(*context, server.address());
  client.tls->handshake(5s);
  EXPECT_EQ(readExactly(client.tls->source(), 7), "partial");
  EXPECT_THAT(messageOf<SSLException>([&] { readAll(client.tls->source()); }),
              HasSubstr("closed without a TLS close_notify: the stream was truncated"));
  EXPECT_THAT(messageOf<SSLException>([&] { write(client.tls->sink(), "more"); }),
              HasSubstr("closed without a TLS close_notify: the stream was truncated"));
}

TEST_F(TlsSocketTest, ReadTimesOutAfterTheHandshake) {
  TlsServer server(serverContext(certificates.server()), [](TlsSocket*, Socket& socket) {
    drain(socket);  // Reads (and ignores) until the client goes away.
  });
  TlsClient client(*context, server.address());
  client.tls->handshake(5s);
  client.tls->source().timeout().timeout(100ms);
  std::string message = messageOf<SocketTimeoutException>([&] { readAll(client.tls->source()); });
  EXPECT_THAT(message, StartsWith("Read timed out after 100 ms: localhost (127.0.0.1:"));
}

TEST_F(TlsSocketTest, HandshakeTimesOutNamingTheTimeout) {
  TlsServer server(nullptr, [](TlsSocket*, Socket& socket) {
    drain(socket);  // A server that accepts and never answers.
  });
  TlsClient client(*context, server.address());
  const auto start = std::chrono::steady_clock::now();
  std::string message = messageOf<SocketTimeoutException>([&] { client.tls->handshake(200ms); });
  EXPECT_THAT(
      message,
      MatchesRegex("TLS handshake timed out after 200 ms: localhost \\(127.0.0.1:[0-9]+\\)"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
}

TEST_F(TlsSocketTest, CancelWakesAHandshakePromptly) {
  TlsServer server(nullptr, [](TlsSocket*, Socket& socket) { drain(socket); });
  TlsClient client(*context, server.address());
  std::thread canceler([&] {
    std::this_thread::sleep_for(100ms);
    client.socket->cancel();
  });
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(messageOf<InterruptedIOException>([&] { client.tls->handshake(10s); }), "Canceled");
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  canceler.join();
}

TEST_F(TlsSocketTest, CancelWakesABlockedReadAndWrite) {
  TlsServer server(serverContext(certificates.server()), [](TlsSocket*, Socket& socket) {
    Buffer ignored;
    socket.source().read(ignored, 1);  // Reads one byte, then nothing: the client's writes stall.
    drainAfterCancel(socket);
  });
  TlsClient client(*context, server.address());
  client.tls->handshake(5s);
  std::thread canceler([&] {
    std::this_thread::sleep_for(150ms);
    client.socket->cancel();
  });
  const std::string lots = patternBytes(16 << 20, 3);
  EXPECT_EQ(messageOf<InterruptedIOException>([&] { write(client.tls->sink(), lots); }),
            "Canceled");
  canceler.join();
  EXPECT_EQ(messageOf<InterruptedIOException>([&] { readAll(client.tls->source()); }), "Canceled");
}

TEST_F(TlsSocketTest, WriteToAResetPeerFailsWithoutSigpipe) {
  TlsServer server(serverContext(certificates.server()), [](TlsSocket*, Socket& socket) {
    linger option{1, 0};  // Close with RST.
    setsockopt(socket.fd(), SOL_SOCKET, SO_LINGER, &option, sizeof(option));
    socket.close();
  });
  TlsClient client(*context, server.address());
  client.tls->handshake(5s);
  ASSERT_EQ(server.serverFailure(), nullptr);
  const std::string lots = patternBytes(8 << 20, 5);
  // The process survives (no SIGPIPE) and the write fails with the socket's reason.
  std::string message = messageOf<SocketWriteException>([&] {
    for (int i = 0; i < 10; ++i) write(client.tls->sink(), lots);
  });
  EXPECT_THAT(message, MatchesRegex("(Connection reset by peer|Broken pipe): localhost \\(.*\\)"));
}

TEST_F(TlsSocketTest, IsPeerOpenUntilTheCloseNotifyArrives) {
  std::promise<void> closeNow;
  TlsServer server(serverContext(certificates.server()), [&](TlsSocket* tls, Socket&) {
    closeNow.get_future().wait();
    tls->sendCloseNotify();
  });
  TlsClient client(*context, server.address());
  client.tls->handshake(5s);
  EXPECT_TRUE(client.tls->isPeerOpen());
  closeNow.set_value();
  ASSERT_EQ(server.serverFailure(), nullptr);
  std::this_thread::sleep_for(50ms);  // Let the alert cross loopback.
  EXPECT_FALSE(client.tls->isPeerOpen());
}

}  // namespace
}  // namespace tern::testing
