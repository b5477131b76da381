// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "net/server_socket.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "net/loopback_peer.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

using namespace std::chrono_literals;

InetSocketAddress anyLoopbackPort() { return InetSocketAddress(InetAddress::loopbackIpv4(), 0); }

TEST(ServerSocketTest, BindsAnEphemeralPortAndAccepts) {
  std::unique_ptr<ServerSocket> server = ServerSocket::bind(anyLoopbackPort());
  const InetSocketAddress local = server->localAddress();
  EXPECT_EQ(InetAddress::loopbackIpv4(), local.address());
  EXPECT_GT(local.port(), 0);

  std::unique_ptr<Socket> client = Socket::connectTo(local, 5s);
  std::unique_ptr<Socket> accepted = server->accept(5s);
  EXPECT_EQ(client->localAddress(), accepted->remoteAddress());

  Buffer buffer;
  buffer.writeUtf8("GET / HTTP/1.1\r\n");
  client->sink().write(buffer, buffer.size());
  Buffer received;
  while (received.size() < 16) {
    accepted->source().read(received, 16);
  }
  EXPECT_EQ("GET / HTTP/1.1\r\n", received.readUtf8());
}

TEST(ServerSocketTest, AcceptTimesOut) {
  std::unique_ptr<ServerSocket> server = ServerSocket::bind(anyLoopbackPort());
  try {
    server->accept(50ms);
    FAIL() << "expected SocketTimeoutException";
  } catch (const SocketTimeoutException& e) {
    EXPECT_EQ("Accept timed out after 50 ms: " + server->localAddress().describe(),
              std::string(e.what()));
  }
}

TEST(ServerSocketTest, CloseWakesABlockedAcceptAndRefusesNewConnections) {
  std::unique_ptr<ServerSocket> server = ServerSocket::bind(anyLoopbackPort());
  const InetSocketAddress local = server->localAddress();
  std::future<std::string> outcome = std::async(std::launch::async, [&] {
    try {
      server->accept();
      return std::string("accepted");
    } catch (const IOException& e) {
      return std::string(e.what());
    }
  });
  std::this_thread::sleep_for(100ms);
  server->close();
  ASSERT_EQ(std::future_status::ready, outcome.wait_for(2s));
  EXPECT_EQ("Socket closed", outcome.get());
  EXPECT_TRUE(server->isClosed());
  EXPECT_THROW(Socket::connectTo(local, 1s), ConnectException);
  EXPECT_THROW(server->accept(), IOException);
}

TEST(ServerSocketTest, BindingAPortInUseNamesIt) {
  std::unique_ptr<ServerSocket> first = ServerSocket::bind(anyLoopbackPort());
  try {
    ServerSocket::bind(first->localAddress());
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_EQ("Failed to bind to " + first->localAddress().describe() + ": Address already in use",
              std::string(e.what()));
  }
}

TEST(ServerSocketTest, LeaksNoDescriptors) {
  const int before = tern::testing::openFdCount();
  for (int i = 0; i < 5; ++i) {
    std::unique_ptr<ServerSocket> server = ServerSocket::bind(anyLoopbackPort());
    std::unique_ptr<Socket> client = Socket::connectTo(server->localAddress(), 5s);
    std::unique_ptr<Socket> accepted = server->accept(5s);
    if (i % 2 == 0) {
      server->close();
    }
  }
  EXPECT_EQ(before, tern::testing::openFdCount());
}

}  // namespace
}  // namespace tern::internal
