// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// A server that breaks HTTP/2 and then keeps its connection open: the client's answer (a GOAWAY
// with the error, RFC 9113 §5.4.1) ends the connection, so the calls on it fail at once with a
// ProtocolException instead of waiting for a response that nghttp2 would never read. Found
// while seeding http2_frames_fuzzer: with such a server silent afterwards, the streams waited.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "net/server_socket.h"
#include "net/socket.h"
#include "tern/buffer.h"
#include "tern/buffered_source.h"
#include "tern/client.h"
#include "tern/exceptions.h"
#include "tern/inet_address.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;

// A frame header and payload (RFC 9113 §4.1).
std::string frame(uint8_t type, uint8_t flags, uint32_t stream, const std::string& payload) {
  std::string result;
  size_t length = payload.size();
  result += static_cast<char>(length >> 16);
  result += static_cast<char>(length >> 8);
  result += static_cast<char>(length);
  result += static_cast<char>(type);
  result += static_cast<char>(flags);
  for (int shift = 24; shift >= 0; shift -= 8) result += static_cast<char>(stream >> shift);
  return result + payload;
}

// A loopback HTTP/2 "server" that reads the client's preface and frames up to its first HEADERS,
// sends its SETTINGS and acknowledges the client's, then sends `bad`, and holds the connection open
// until the test ends.
class BadPeer {
 public:
  explicit BadPeer(std::string bad)
      : server_(internal::ServerSocket::bind(InetSocketAddress(InetAddress::loopbackIpv4(), 0))),
        bad_(std::move(bad)),
        thread_([this] { serve(); }) {}

  ~BadPeer() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  std::string url() const {
    return "http://127.0.0.1:" + std::to_string(server_->localAddress().port()) + "/";
  }

 private:
  void serve() {
    std::unique_ptr<internal::Socket> socket;
    try {
      socket = server_->accept(5000ms);
      std::unique_ptr<BufferedSource> in = buffer(socket->source());
      in->skip(24);  // "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
      while (true) {
        int64_t length =
            (std::to_integer<int64_t>(in->readByte()) << 16) | (in->readShort() & 0xffff);
        int type = std::to_integer<int>(in->readByte());
        in->skip(5 + length);
        if (type == 1) break;  // HEADERS: the client's stream 1 is open.
      }
      Buffer out;
      out.writeUtf8(frame(4, 0, 0, "") + frame(4, 1, 0, "") + bad_);  // SETTINGS, its ACK.
      socket->sink().write(out, out.size());
      socket->sink().flush();
    } catch (const IOException&) {
      return;  // The test fails on its own side.
    }
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, 10s, [this] { return done_; });
  }

  std::unique_ptr<internal::ServerSocket> server_;
  const std::string bad_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool done_ = false;
  std::thread thread_;  // Last: it uses the members above.
};

// Runs a GET against `peer` and returns what it threw, checking it came well before the read
// timeout.
std::string failureOf(const BadPeer& peer) {
  Client client = Client::Builder()
                      .protocols({Protocol::H2_PRIOR_KNOWLEDGE})
                      .retryOnConnectionFailure(false)
                      .readTimeout(5s)
                      .build();
  auto start = std::chrono::steady_clock::now();
  std::string result = "nothing thrown";
  try {
    client.newCall(Request::Builder().url(peer.url()).build())->execute();
  } catch (const ProtocolException& e) {
    result = std::string("ProtocolException: ") + e.what();
  } catch (const IOException& e) {
    result = std::string("IOException: ") + e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s) << result;
  return result;
}

TEST(Http2BadPeerTest, PushPromiseAfterPushWasRefusedFailsTheCallAtOnce) {
  // ENABLE_PUSH is 0, so a PUSH_PROMISE is a connection error (RFC 9113 §8.4).
  BadPeer peer(frame(5, 4, 1, std::string("\0\0\0\2", 4) + "\x88"));
  EXPECT_THAT(failureOf(peer),
              ::testing::StartsWith("ProtocolException: HTTP/2 protocol error from 127.0.0.1:"));
}

TEST(Http2BadPeerTest, UndecodableHeaderBlockFailsTheCallAtOnce) {
  // An HPACK index far beyond both tables: COMPRESSION_ERROR (RFC 7541 §2.3.3).
  BadPeer peer(frame(1, 4, 1, "\xff\xff\xff\xff\x0f"));
  EXPECT_THAT(failureOf(peer), ::testing::AllOf(::testing::StartsWith("ProtocolException: "),
                                                ::testing::HasSubstr("COMPRESSION_ERROR")));
}

TEST(Http2BadPeerTest, DataOnStreamZeroFailsTheCallAtOnce) {
  BadPeer peer(frame(0, 0, 0, "abc"));
  EXPECT_THAT(failureOf(peer), ::testing::HasSubstr("PROTOCOL_ERROR"));
}

}  // namespace
}  // namespace tern::testing
