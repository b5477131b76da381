// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/socket.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "net/loopback_peer.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

using namespace std::chrono_literals;
using tern::testing::Fd;
using tern::testing::LoopbackListener;
using ::testing::StartsWith;

constexpr auto kGenerous = 5000ms;  // For connects that must succeed: never the limit.

// A connected pair: our Socket and the peer's plain descriptor.
struct Connection {
  std::unique_ptr<Socket> socket;
  Fd peer;
};

Connection connect(LoopbackListener& listener, std::string hostName = "localhost") {
  Connection connection;
  connection.socket = Socket::connectTo(listener.address(std::move(hostName)), kGenerous);
  connection.peer = listener.accept();
  return connection;
}

std::string readUtf8(Socket& socket, int64_t byteCount) {
  Buffer buffer;
  while (buffer.size() < byteCount) {
    if (socket.source().read(buffer, byteCount - buffer.size()) == -1) {
      break;
    }
  }
  return buffer.readUtf8();
}

void writeUtf8(Socket& socket, std::string_view text) {
  Buffer buffer;
  buffer.writeUtf8(text);
  socket.sink().write(buffer, buffer.size());
}

// A port that nothing listens on: bound (so no one else takes it) but not listening.
class ClosedPort {
 public:
  ClosedPort() : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    if (::bind(fd_.get(), reinterpret_cast<sockaddr*>(&address), length) != 0 ||
        getsockname(fd_.get(), reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      throw std::runtime_error("cannot reserve a port");
    }
    port_ = ntohs(address.sin_port);
  }
  int port() const { return port_; }

 private:
  Fd fd_;
  int port_ = 0;
};

// A listener whose accept queue is full (backlog 0, never accepted): Linux drops further SYNs,
// so a connect to it stays in progress until its timeout. Local and bounded, unlike a
// non-routable address.
class FullBacklog {
 public:
  FullBacklog() : listener_(false, 0) {
    for (int i = 0; i < 16; ++i) {
      Fd filler(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
      sockaddr_in address{};
      address.sin_family = AF_INET;
      address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      address.sin_port = htons(static_cast<uint16_t>(listener_.port()));
      // Non-blocking: EINPROGRESS, and poll() below tells whether the handshake completed.
      static_cast<void>(
          ::connect(filler.get(), reinterpret_cast<sockaddr*>(&address), sizeof(address)));
      pollfd p{filler.get(), POLLOUT, 0};
      const bool connected = ::poll(&p, 1, 200) == 1;
      fillers_.push_back(std::move(filler));
      if (!connected) {
        return;  // This one is stuck: the queue is full.
      }
    }
    throw std::runtime_error("could not fill the accept queue");
  }
  InetSocketAddress address() const { return listener_.address(); }

 private:
  LoopbackListener listener_;
  std::vector<Fd> fillers_;
};

TEST(SocketTest, ConnectsAndExchangesBytes) {
  LoopbackListener listener;
  Connection c = connect(listener);
  EXPECT_TRUE(c.socket->isConnected());
  writeUtf8(*c.socket, "hello");
  EXPECT_EQ("hello", tern::testing::readUpTo(c.peer.get(), 5));
  tern::testing::writeFully(c.peer.get(), "world");
  EXPECT_EQ("world", readUtf8(*c.socket, 5));
}

TEST(SocketTest, ReportsLocalAndRemoteAddresses) {
  LoopbackListener listener;
  Connection c = connect(listener);
  EXPECT_EQ(listener.address(), c.socket->remoteAddress());
  EXPECT_EQ("localhost", c.socket->remoteAddress().address().hostName());
  InetSocketAddress local = c.socket->localAddress();
  EXPECT_EQ(InetAddress::loopbackIpv4(), local.address());
  EXPECT_GT(local.port(), 0);
  EXPECT_NE(listener.port(), local.port());
}

TEST(SocketTest, SetsNoDelayAndCloseOnExec) {
  LoopbackListener listener;
  Connection c = connect(listener);
  int noDelay = 0;
  socklen_t length = sizeof(noDelay);
  ASSERT_EQ(0, getsockopt(c.socket->fd(), IPPROTO_TCP, TCP_NODELAY, &noDelay, &length));
  EXPECT_NE(0, noDelay);
  EXPECT_TRUE(fcntl(c.socket->fd(), F_GETFD) & FD_CLOEXEC);
  EXPECT_TRUE(fcntl(c.socket->fd(), F_GETFL) & O_NONBLOCK);
}

TEST(SocketTest, ConnectsOverIpv6Loopback) {
  std::unique_ptr<LoopbackListener> listener;
  try {
    listener = std::make_unique<LoopbackListener>(true);
  } catch (const std::exception& e) {
    GTEST_SKIP() << "::1 cannot be bound on this machine (no IPv6 loopback): " << e.what();
  }
  Connection c = connect(*listener, "");
  EXPECT_TRUE(c.socket->localAddress().address().isIpv6());
  EXPECT_EQ("[::1]:" + std::to_string(listener->port()), c.socket->remoteAddress().toString());
  writeUtf8(*c.socket, "six");
  EXPECT_EQ("six", tern::testing::readUpTo(c.peer.get(), 3));
}

TEST(SocketTest, ConnectRefusedNamesTheAddress) {
  ClosedPort port;
  InetSocketAddress address(InetAddress::loopbackIpv4().withHostName("localhost"), port.port());
  try {
    Socket::connectTo(address, kGenerous);
    FAIL() << "expected ConnectException";
  } catch (const ConnectException& e) {
    EXPECT_EQ("Failed to connect to localhost (127.0.0.1:" + std::to_string(port.port()) + ")" +
                  ": Connection refused",
              std::string(e.what()));
  }
}

TEST(SocketTest, ConnectTimesOutWhenThePeerNeverAnswers) {
  FullBacklog backlog;
  const auto start = std::chrono::steady_clock::now();
  try {
    Socket::connectTo(backlog.address(), 150ms);
    FAIL() << "expected SocketTimeoutException";
  } catch (const SocketTimeoutException& e) {
    EXPECT_EQ("Connect timed out after 150 ms: " + backlog.address().describe(),
              std::string(e.what()));
  }
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, 150ms);
  EXPECT_LT(elapsed, 3s);
}

TEST(SocketTest, FailedConnectClosesTheSocket) {
  ClosedPort port;
  Socket socket;
  EXPECT_THROW(socket.connect(InetSocketAddress(InetAddress::loopbackIpv4(), port.port()), 1s),
               ConnectException);
  EXPECT_TRUE(socket.isClosed());
  EXPECT_FALSE(socket.isConnected());
  EXPECT_EQ(-1, socket.fd());
}

TEST(SocketTest, ConnectTwiceIsMisuse) {
  LoopbackListener listener;
  Connection c = connect(listener);
  EXPECT_THROW(c.socket->connect(listener.address(), 1s), std::logic_error);
}

TEST(SocketTest, ReadTimesOutNamingTheTimeoutAndPeer) {
  LoopbackListener listener;
  Connection c = connect(listener);
  c.socket->source().timeout().timeout(100ms);
  Buffer buffer;
  const auto start = std::chrono::steady_clock::now();
  try {
    c.socket->source().read(buffer, 1);
    FAIL() << "expected SocketTimeoutException";
  } catch (const SocketTimeoutException& e) {
    EXPECT_EQ("Read timed out after 100 ms: localhost (127.0.0.1:" +
                  std::to_string(listener.port()) + ")",
              std::string(e.what()));
  }
  EXPECT_GE(std::chrono::steady_clock::now() - start, 100ms);
  // The socket still works after a read timeout (as Java's SO_TIMEOUT).
  tern::testing::writeFully(c.peer.get(), "late");
  EXPECT_EQ("late", readUtf8(*c.socket, 4));
}

TEST(SocketTest, ReadFailsAtTheDeadline) {
  LoopbackListener listener;
  Connection c = connect(listener);
  c.socket->source().timeout().timeout(10s);
  c.socket->source().timeout().deadline(std::chrono::nanoseconds(100ms));
  Buffer buffer;
  try {
    c.socket->source().read(buffer, 1);
    FAIL() << "expected SocketTimeoutException";
  } catch (const SocketTimeoutException& e) {
    EXPECT_THAT(e.what(), StartsWith("Read deadline reached: localhost (127.0.0.1:"));
  }
}

TEST(SocketTest, WriteTimesOutWhenThePeerStopsReading) {
  LoopbackListener listener;
  Connection c = connect(listener);
  c.socket->sink().timeout().timeout(200ms);
  Buffer buffer;
  buffer.writeUtf8(std::string(64 << 20, 'w'));  // Far more than both ends' socket buffers.
  try {
    c.socket->sink().write(buffer, buffer.size());
    FAIL() << "expected SocketTimeoutException";
  } catch (const SocketTimeoutException& e) {
    EXPECT_EQ("Write timed out after 200 ms: localhost (127.0.0.1:" +
                  std::to_string(listener.port()) + ")",
              std::string(e.what()));
  }
  EXPECT_GT(buffer.size(), 0);
  EXPECT_LT(buffer.size(), 64 << 20);  // What the kernel took is gone from the buffer.
}

TEST(SocketTest, ReadReturnsMinusOneAtEof) {
  LoopbackListener listener;
  Connection c = connect(listener);
  tern::testing::writeFully(c.peer.get(), "bye");
  ::shutdown(c.peer.get(), SHUT_WR);
  Buffer buffer;
  EXPECT_EQ("bye", readUtf8(*c.socket, 100));
  EXPECT_EQ(-1, c.socket->source().read(buffer, 10));
  EXPECT_EQ(-1, c.socket->source().read(buffer, 10));
}

TEST(SocketTest, ReadReturnsAtMostByteCountAndZeroForZero) {
  LoopbackListener listener;
  Connection c = connect(listener);
  tern::testing::writeFully(c.peer.get(), "abcdef");
  Buffer buffer;
  EXPECT_EQ(0, c.socket->source().read(buffer, 0));
  EXPECT_EQ(2, c.socket->source().read(buffer, 2));
  EXPECT_EQ("ab", buffer.readUtf8());
  EXPECT_THROW(c.socket->source().read(buffer, -1), std::invalid_argument);
}

TEST(SocketTest, ReadAfterPeerResetThrowsIOException) {
  LoopbackListener listener;
  Connection c = connect(listener);
  tern::testing::resetConnection(c.peer);
  Buffer buffer;
  try {
    c.socket->source().read(buffer, 1);
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_EQ(
        "Connection reset by peer: localhost (127.0.0.1:" + std::to_string(listener.port()) + ")",
        std::string(e.what()));
    EXPECT_EQ(dynamic_cast<const SocketWriteException*>(&e), nullptr);  // A read's failure.
  }
}

TEST(SocketTest, WriteAfterPeerResetThrowsWithoutSigpipe) {
  // With SIGPIPE at its default action, a write without MSG_NOSIGNAL would kill this process.
  struct RestoreSigpipe {
    void (*previous)(int) = std::signal(SIGPIPE, SIG_DFL);
    ~RestoreSigpipe() { std::signal(SIGPIPE, previous); }
  } restore;
  LoopbackListener listener;
  Connection c = connect(listener);
  tern::testing::resetConnection(c.peer);
  std::this_thread::sleep_for(20ms);  // Let the RST arrive.
  try {
    for (int i = 0; i < 100; ++i) {
      writeUtf8(*c.socket, "are you there?");
    }
    FAIL() << "expected SocketWriteException";
  } catch (const SocketWriteException& e) {
    EXPECT_THAT(e.what(), ::testing::AnyOf(StartsWith("Connection reset by peer: "),
                                           StartsWith("Broken pipe: ")));
    EXPECT_THAT(e.errorNumber(), ::testing::AnyOf(ECONNRESET, EPIPE));
  }
}

TEST(SocketTest, CancelWakesABlockedReadPromptly) {
  LoopbackListener listener;
  Connection c = connect(listener);
  std::promise<std::string> outcome;
  std::thread reader([&] {
    Buffer buffer;
    try {
      c.socket->source().read(buffer, 1);
      outcome.set_value("returned");
    } catch (const InterruptedIOException& e) {
      outcome.set_value(std::string("InterruptedIOException: ") + e.what());
    } catch (const std::exception& e) {
      outcome.set_value(std::string("other: ") + e.what());
    }
  });
  std::this_thread::sleep_for(100ms);  // Let it block in poll().
  const auto start = std::chrono::steady_clock::now();
  c.socket->cancel();
  std::future<std::string> result = outcome.get_future();
  ASSERT_EQ(std::future_status::ready, result.wait_for(2s));
  EXPECT_EQ("InterruptedIOException: Canceled", result.get());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
  reader.join();
  EXPECT_TRUE(c.socket->isCanceled());
  // The peer sees the connection end.
  EXPECT_EQ("", tern::testing::readUpTo(c.peer.get(), 1));
}

TEST(SocketTest, CancelWakesABlockedWrite) {
  LoopbackListener listener;
  Connection c = connect(listener);
  std::promise<std::string> outcome;
  Buffer buffer;
  buffer.writeUtf8(std::string(64 << 20, 'w'));  // Far more than both ends' socket buffers.
  std::thread writer([&] {
    try {
      c.socket->sink().write(buffer, buffer.size());
      outcome.set_value("returned");
    } catch (const InterruptedIOException& e) {
      outcome.set_value(e.what());
    } catch (const std::exception& e) {
      outcome.set_value(std::string("other: ") + e.what());
    }
  });
  std::this_thread::sleep_for(200ms);  // Let it fill the socket buffers and block.
  c.socket->cancel();
  std::future<std::string> result = outcome.get_future();
  ASSERT_EQ(std::future_status::ready, result.wait_for(2s));
  EXPECT_EQ("Canceled", result.get());
  writer.join();
  EXPECT_LT(buffer.size(), 64 << 20);  // It had written some: it was blocked, not refused.
}

TEST(SocketTest, CancelWakesAConnectInProgress) {
  FullBacklog backlog;
  Socket socket;
  std::promise<std::string> outcome;
  std::thread connector([&] {
    try {
      socket.connect(backlog.address(), 10s);
      outcome.set_value("connected");
    } catch (const InterruptedIOException& e) {
      outcome.set_value(e.what());
    } catch (const std::exception& e) {
      outcome.set_value(std::string("other: ") + e.what());
    }
  });
  std::this_thread::sleep_for(100ms);
  socket.cancel();
  std::future<std::string> result = outcome.get_future();
  ASSERT_EQ(std::future_status::ready, result.wait_for(2s));
  EXPECT_EQ("Canceled", result.get());
  connector.join();
}

TEST(SocketTest, CancelBeforeConnectFailsTheConnect) {
  LoopbackListener listener;
  Socket socket;
  socket.cancel();
  EXPECT_THROW(socket.connect(listener.address(), 1s), InterruptedIOException);
}

TEST(SocketTest, EveryOperationAfterCancelThrowsCanceled) {
  LoopbackListener listener;
  Connection c = connect(listener);
  c.socket->cancel();
  c.socket->cancel();  // Idempotent.
  Buffer buffer;
  buffer.writeUtf8("x");
  EXPECT_THROW(c.socket->source().read(buffer, 1), InterruptedIOException);
  EXPECT_THROW(c.socket->sink().write(buffer, 1), InterruptedIOException);
  EXPECT_FALSE(c.socket->isHealthy(false));
}

TEST(SocketTest, CancelAfterCloseIsHarmless) {
  LoopbackListener listener;
  Connection c = connect(listener);
  c.socket->close();
  c.socket->cancel();
  EXPECT_TRUE(c.socket->isClosed());
}

TEST(SocketTest, OperationsAfterCloseThrowSocketClosed) {
  LoopbackListener listener;
  Connection c = connect(listener);
  c.socket->close();
  c.socket->close();  // Idempotent.
  EXPECT_EQ(-1, c.socket->fd());
  Buffer buffer;
  buffer.writeUtf8("x");
  try {
    c.socket->source().read(buffer, 1);
    FAIL();
  } catch (const IOException& e) {
    EXPECT_EQ("Socket closed", std::string(e.what()));
  }
  EXPECT_THROW(c.socket->sink().write(buffer, 1), IOException);
  EXPECT_THROW(c.socket->localAddress(), IOException);
  EXPECT_FALSE(c.socket->isHealthy(true));
  // The peer sees EOF.
  EXPECT_EQ("", tern::testing::readUpTo(c.peer.get(), 1));
}

TEST(SocketTest, ClosingTheSourceClosesTheSocket) {
  LoopbackListener listener;
  Connection c = connect(listener);
  c.socket->source().close();
  EXPECT_TRUE(c.socket->isClosed());
}

TEST(SocketTest, IsHealthyUntilThePeerCloses) {
  LoopbackListener listener;
  Connection c = connect(listener);
  EXPECT_TRUE(c.socket->isHealthy(false));
  EXPECT_TRUE(c.socket->isHealthy(true));
  c.peer.reset();
  // The FIN crosses loopback at once, but give the kernel a moment.
  bool healthy = true;
  for (int i = 0; i < 100 && healthy; ++i) {
    healthy = c.socket->isHealthy(true);
    if (healthy) {
      std::this_thread::sleep_for(10ms);
    }
  }
  EXPECT_FALSE(healthy);
  EXPECT_TRUE(c.socket->isHealthy(false));  // The cheap check does not look at the peer.
}

TEST(SocketTest, IsHealthyWithUnreadBytesAndFalseAfterReset) {
  LoopbackListener listener;
  Connection c = connect(listener);
  tern::testing::writeFully(c.peer.get(), "unexpected");
  std::this_thread::sleep_for(20ms);
  EXPECT_TRUE(c.socket->isHealthy(true));
  EXPECT_EQ("unexpected", readUtf8(*c.socket, 10));  // The peek consumed nothing.
  tern::testing::resetConnection(c.peer);
  bool healthy = true;
  for (int i = 0; i < 100 && healthy; ++i) {
    healthy = c.socket->isHealthy(true);
    if (healthy) {
      std::this_thread::sleep_for(10ms);
    }
  }
  EXPECT_FALSE(healthy);
}

TEST(SocketTest, ShutdownOutputSendsEofAndKeepsReading) {
  LoopbackListener listener;
  Connection c = connect(listener);
  writeUtf8(*c.socket, "request");
  c.socket->shutdownOutput();
  EXPECT_TRUE(c.socket->isOutputShutdown());
  EXPECT_FALSE(c.socket->isHealthy(false));
  EXPECT_EQ("request", tern::testing::readUpTo(c.peer.get(), 100));  // Ends at EOF.
  tern::testing::writeFully(c.peer.get(), "response");
  EXPECT_EQ("response", readUtf8(*c.socket, 8));
  try {
    writeUtf8(*c.socket, "more");
    FAIL();
  } catch (const IOException& e) {
    EXPECT_EQ("Socket output is shutdown", std::string(e.what()));
  }
}

TEST(SocketTest, ShutdownInputMakesReadsReturnEof) {
  LoopbackListener listener;
  Connection c = connect(listener);
  c.socket->shutdownInput();
  EXPECT_TRUE(c.socket->isInputShutdown());
  Buffer buffer;
  EXPECT_EQ(-1, c.socket->source().read(buffer, 1));
  writeUtf8(*c.socket, "still writes");
  EXPECT_EQ("still writes", tern::testing::readUpTo(c.peer.get(), 12));
}

TEST(SocketTest, TransfersSeveralMebibytesBothWaysByteExact) {
  LoopbackListener listener;
  Connection c = connect(listener);
  const std::string up = tern::testing::patternBytes(6 << 20, 3);
  const std::string down = tern::testing::patternBytes(5 << 20, 4);
  // The peer reads everything we send, then sends its own; both directions at full size.
  std::future<std::string> peerReceived = std::async(std::launch::async, [&] {
    std::string received = tern::testing::readUpTo(c.peer.get(), up.size());
    tern::testing::writeFully(c.peer.get(), down);
    ::shutdown(c.peer.get(), SHUT_WR);
    return received;
  });
  c.socket->sink().timeout().timeout(10s);
  c.socket->source().timeout().timeout(10s);
  Buffer out;
  out.writeUtf8(up);
  c.socket->sink().write(out, out.size());
  EXPECT_EQ(0, out.size());
  Buffer in;
  while (c.socket->source().read(in, 1 << 20) != -1) {
  }
  EXPECT_TRUE(peerReceived.get() == up) << "upload corrupted";
  EXPECT_EQ(static_cast<int64_t>(down.size()), in.size());
  EXPECT_TRUE(in.readUtf8() == down) << "download corrupted";
}

TEST(SocketTest, WritesPartOfABuffer) {
  LoopbackListener listener;
  Connection c = connect(listener);
  Buffer buffer;
  buffer.writeUtf8(std::string(20000, 'a'));
  buffer.writeUtf8("tail");
  c.socket->sink().write(buffer, 20000);
  EXPECT_EQ("tail", buffer.readUtf8());
  EXPECT_EQ(std::string(20000, 'a'), tern::testing::readUpTo(c.peer.get(), 20000));
  EXPECT_THROW(c.socket->sink().write(buffer, 1), std::invalid_argument);  // Buffer is empty.
}

TEST(SocketTest, AwaitReadyWaitsForReadableAndTimesOut) {
  LoopbackListener listener;
  Connection c = connect(listener);
  Timeout timeout;
  timeout.timeout(50ms);
  EXPECT_THROW(c.socket->awaitReady(Socket::Operation::kRead, timeout), SocketTimeoutException);
  EXPECT_NO_THROW(c.socket->awaitReady(Socket::Operation::kWrite, timeout));
  tern::testing::writeFully(c.peer.get(), "x");
  EXPECT_NO_THROW(c.socket->awaitReady(Socket::Operation::kRead, timeout));
}

TEST(SocketTest, AdoptsAnAcceptedDescriptor) {
  LoopbackListener listener;
  Fd client(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(listener.port()));
  ASSERT_EQ(0, ::connect(client.get(), reinterpret_cast<sockaddr*>(&address), sizeof(address)));
  Fd accepted = listener.accept();
  std::unique_ptr<Socket> server = Socket::adopt(accepted.release());
  EXPECT_TRUE(server->isConnected());
  EXPECT_EQ(InetAddress::loopbackIpv4(), server->remoteAddress().address());
  EXPECT_EQ("", server->remoteAddress().address().hostName());
  tern::testing::writeFully(client.get(), "ping");
  EXPECT_EQ("ping", readUtf8(*server, 4));
  EXPECT_THROW(Socket::adopt(-1), std::invalid_argument);
}

TEST(SocketTest, LeaksNoDescriptors) {
  LoopbackListener listener;
  ClosedPort closedPort;
  const int before = tern::testing::openFdCount();
  for (int i = 0; i < 20; ++i) {
    Connection c = connect(listener);
    writeUtf8(*c.socket, "x");
    if (i % 2 == 0) {
      c.socket->close();  // Else the destructor closes it.
    }
  }
  for (int i = 0; i < 5; ++i) {
    EXPECT_THROW(
        Socket::connectTo(InetSocketAddress(InetAddress::loopbackIpv4(), closedPort.port()), 1s),
        ConnectException);
    Socket canceled;
    canceled.cancel();
    EXPECT_THROW(canceled.connect(listener.address(), 1s), InterruptedIOException);
  }
  {
    FullBacklog backlog;  // Opens its own descriptors; they close with it.
    const int withBacklog = tern::testing::openFdCount();
    EXPECT_THROW(Socket::connectTo(backlog.address(), 50ms), SocketTimeoutException);
    EXPECT_EQ(withBacklog, tern::testing::openFdCount());
  }
  EXPECT_EQ(before, tern::testing::openFdCount());
}

}  // namespace
}  // namespace tern::internal
