// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Servers that break the connection rather than HTTP: TLS handshakes they abort or answer with
// garbage, and uploads they stop taking (closing first, or resetting). The call fails at once
// with the exception that says which, in particular a SocketWriteException when it was the
// write that failed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <exception>
#include <functional>
#include <string>
#include <thread>

#include "support/raw_peer.h"
#include "tern/client.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;

// TLS handshakes a server breaks: the call fails at once with the handshake's exception.
class HostileTlsHandshakeTest : public ::testing::Test {
 protected:
  std::string handshakeFailure(RawPeer::Handshake handshake) {
    RawPeer peer([](RawPeer::Connection&) {}, {.tls = true, .handshake = handshake});
    Client client = Client::Builder()
                        .handshakeCertificates(RawPeer::certificates().clientTrust())
                        .retryOnConnectionFailure(false)
                        .build();
    auto start = std::chrono::steady_clock::now();
    std::string result = "no exception";
    try {
      client.newCall(Request::Builder().url(peer.url()).build())->execute();
    } catch (const SSLHandshakeException& e) {
      result = std::string("SSLHandshakeException: ") + e.what();
    } catch (const IOException& e) {
      result = std::string("IOException: ") + e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
    return result;
  }
};

TEST_F(HostileTlsHandshakeTest, ResetAfterTheClientHello) {
  // A reset is the socket's failure, as Java's SocketException: an IOException.
  EXPECT_THAT(handshakeFailure(RawPeer::Handshake::kResetAfterClientHello),
              ::testing::MatchesRegex("IOException: TLS handshake with .*127.0.0.1:[0-9]+.* "
                                      "failed: Connection reset by peer"));
}

TEST_F(HostileTlsHandshakeTest, CloseAfterTheClientHello) {
  EXPECT_THAT(handshakeFailure(RawPeer::Handshake::kCloseAfterClientHello),
              ::testing::MatchesRegex("SSLHandshakeException: TLS handshake with .* failed: the "
                                      "server closed the connection during the handshake"));
}

TEST_F(HostileTlsHandshakeTest, GarbageInsteadOfAServerHello) {
  EXPECT_THAT(handshakeFailure(RawPeer::Handshake::kGarbage),
              ::testing::MatchesRegex("SSLHandshakeException: TLS handshake with .* failed: the "
                                      "server does not speak TLS \\(wrong version number\\): is "
                                      "it a plain HTTP port\\?"));
}

TEST_F(HostileTlsHandshakeTest, ResetInTheMiddleOfTheServerHello) {
  // The reset, or the FIN that may reach the client before it.
  EXPECT_THAT(handshakeFailure(RawPeer::Handshake::kPartialServerHello),
              ::testing::MatchesRegex("(IOException|SSLHandshakeException): TLS handshake with .* "
                                      "failed: (Connection reset by peer|the server closed the "
                                      "connection during the handshake)"));
}

// An HTTP/1.1 upload the server stops taking: it reads the head and then `stop`s, while the
// client still has most of a 16 MiB body to send (the peer's small receive buffer fills at once).
// Returns the exception the call threw.
std::exception_ptr uploadFailure(bool tls, const std::function<void(RawPeer::Connection&)>& stop) {
  RawPeer peer(
      [&](RawPeer::Connection& connection) {
        connection.readUntil("\r\n\r\n");
        stop(connection);
      },
      {.tls = tls, .end = RawPeer::End::kReset, .alpn = {"http/1.1"}, .receiveBuffer = 64 * 1024});
  Client client = Client::Builder()
                      .handshakeCertificates(RawPeer::certificates().clientTrust())
                      .retryOnConnectionFailure(false)
                      .writeTimeout(5s)
                      .readTimeout(5s)
                      .build();
  Request request = Request::Builder()
                        .url(peer.url())
                        .put(RequestBody::create(std::string(16 << 20, 'u')))
                        .build();
  try {
    client.newCall(request)->execute();
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

// The errorNumber() of the SocketWriteException in `failure` (a failure if it is another).
int writeErrorNumber(const std::exception_ptr& failure) {
  try {
    if (failure) std::rethrow_exception(failure);
    ADD_FAILURE() << "no exception";
  } catch (const SocketWriteException& e) {
    EXPECT_THAT(e.what(), ::testing::MatchesRegex("(Broken pipe|Connection reset by peer): "
                                                  ".*127.0.0.1:[0-9]+.*"));
    return e.errorNumber();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a SocketWriteException: " << e.what();
  }
  return 0;
}

TEST(HostileUploadTest, ServerThatClosesThenResetsFailsTheWriteWithBrokenPipe) {
  for (bool tls : {false, true}) {
    SCOPED_TRACE(tls ? "TLS" : "cleartext");
    // Its FIN, then (End::kReset) a reset: the write after the reset says EPIPE.
    EXPECT_EQ(writeErrorNumber(uploadFailure(tls,
                                             [](RawPeer::Connection& connection) {
                                               connection.shutdownOutput();
                                               std::this_thread::sleep_for(200ms);
                                             })),
              EPIPE);
  }
}

TEST(HostileUploadTest, ServerThatResetsFailsTheWriteWithConnectionReset) {
  for (bool tls : {false, true}) {
    SCOPED_TRACE(tls ? "TLS" : "cleartext");
    // The client is blocked writing when the reset comes.
    EXPECT_EQ(writeErrorNumber(uploadFailure(
                  tls, [](RawPeer::Connection&) { std::this_thread::sleep_for(200ms); })),
              ECONNRESET);
  }
}

}  // namespace
}  // namespace tern::testing
