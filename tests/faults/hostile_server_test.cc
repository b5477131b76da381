// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Servers that misbehave in ways MockWebServer's policies do not script: trickling past the read
// timeout, endless status and header lines, endless and oversized chunks, a body longer than its
// Content-Length. The call ends with a clear exception (or the right response), in bounded time,
// and the next call is not poisoned by what the bad one left behind.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "support/fd_count.h"
#include "support/recording_event_listener.h"
#include "tern/client.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;

// A loopback server that answers one connection with whatever `respond` writes, after reading
// the request head. Writes stop when the client goes away or after kMaxBytes, so an "endless"
// response is bounded; the thread ends by itself.
class RawServer {
 public:
  static constexpr int64_t kMaxBytes = int64_t{64} << 20;
  // Writes `bytes`; false once the client is gone or the cap is reached.
  using Writer = std::function<bool(std::string_view bytes)>;

  explicit RawServer(std::function<void(const Writer&)> respond) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    ::listen(listener_, 4);
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this, respond = std::move(respond)] { serve(respond); });
  }
  ~RawServer() {
    ::shutdown(listener_, SHUT_RDWR);  // Wakes accept() if no client came.
    thread_.join();
    ::close(listener_);
  }
  RawServer(const RawServer&) = delete;
  RawServer& operator=(const RawServer&) = delete;

  std::string url(const std::string& path = "/") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

 private:
  void serve(const std::function<void(const Writer&)>& respond) {
    int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return;
    timeval timeout{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
    std::string head;
    char chunk[4096];
    while (head.find("\r\n\r\n") == std::string::npos) {
      ssize_t n = ::recv(fd, chunk, sizeof(chunk), 0);
      if (n <= 0) break;
      head.append(chunk, static_cast<size_t>(n));
    }
    int64_t written = 0;
    respond([&](std::string_view bytes) {
      if (written + static_cast<int64_t>(bytes.size()) > kMaxBytes) return false;
      while (!bytes.empty()) {
        ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<size_t>(n));
        written += n;
      }
      return true;
    });
    ::close(fd);
  }

  int listener_ = -1;
  int port_ = 0;
  std::thread thread_;
};

// Writes `prefix`, then `filler` over and over until the client stops reading.
std::function<void(const RawServer::Writer&)> endless(std::string prefix, char filler) {
  return [prefix = std::move(prefix), filler](const RawServer::Writer& write) {
    if (!write(prefix)) return;
    const std::string block(64 * 1024, filler);
    while (write(block)) {
    }
  };
}

class HostileServerTest : public ::testing::Test {
 protected:
  Response get(const std::string& url) {
    return client_.newCall(Request::Builder().url(url).build())->execute();
  }

  // The message of the IOException `block` throws (a failure if it throws none).
  template <typename Exception>
  std::string failure(const std::function<void()>& block) {
    try {
      block();
    } catch (const Exception& e) {
      return e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "unexpected exception type: " << e.what();
      return e.what();
    }
    ADD_FAILURE() << "no exception";
    return "";
  }

  int baselineFds_ = openFileDescriptorCount();
  ~HostileServerTest() override { events_->checkAllCallsEnded(); }

  // Every call's events are checked too, whatever the server did.
  std::shared_ptr<RecordingEventListener::Factory> events_ =
      std::make_shared<RecordingEventListener::Factory>();
  Client client_ = Client::Builder()
                       .connectTimeout(2s)
                       .readTimeout(2s)
                       .writeTimeout(2s)
                       .eventListenerFactory(events_)
                       .build();
};

TEST_F(HostileServerTest, TricklingBodyWithinTheReadTimeoutCompletes) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder().body("0123456789").throttleBody(1, 100ms).build());
  Client client = client_.newBuilder().readTimeout(400ms).build();
  // Each byte comes well inside the read timeout, though the whole body takes longer than it.
  auto start = std::chrono::steady_clock::now();
  Response response = client.newCall(Request::Builder().url(server.url("/")).build())->execute();
  EXPECT_EQ(response.body()->string(), "0123456789");
  EXPECT_GT(std::chrono::steady_clock::now() - start, 400ms);
}

TEST_F(HostileServerTest, TricklingBodyIsStoppedByTheCallTimeout) {
  MockWebServer server;
  server.enqueue(
      MockResponse::Builder().body(std::string(100, 'x')).throttleBody(1, 100ms).build());
  Client client = client_.newBuilder().readTimeout(400ms).callTimeout(800ms).build();
  auto start = std::chrono::steady_clock::now();
  std::string message = failure<InterruptedIOException>([&] {
    client.newCall(Request::Builder().url(server.url("/")).build())->execute().body()->string();
  });
  EXPECT_NE(message.find("timeout"), std::string::npos) << message;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST_F(HostileServerTest, TricklingSlowerThanTheReadTimeoutTimesOut) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder().body("0123456789").throttleBody(1, 500ms).build());
  Client client = client_.newBuilder().readTimeout(200ms).build();
  std::string message = failure<SocketTimeoutException>([&] {
    client.newCall(Request::Builder().url(server.url("/")).build())->execute().body()->string();
  });
  EXPECT_NE(message.find("Read timed out after 200 ms"), std::string::npos) << message;
}

TEST_F(HostileServerTest, EndlessStatusLineIsAProtocolException) {
  RawServer server(endless("HTTP/1.1 200 ", 'O'));
  std::string message = failure<ProtocolException>([&] { get(server.url()); });
  EXPECT_NE(message.find("limit"), std::string::npos) << message;
}

TEST_F(HostileServerTest, EndlessHeaderLineIsAProtocolException) {
  RawServer server(endless("HTTP/1.1 200 OK\r\nX-Endless: ", 'a'));
  std::string message = failure<ProtocolException>([&] { get(server.url()); });
  EXPECT_NE(message.find("limit"), std::string::npos) << message;
}

TEST_F(HostileServerTest, EndlessStreamOfHeadersIsAProtocolException) {
  RawServer server([](const RawServer::Writer& write) {
    if (!write("HTTP/1.1 200 OK\r\n")) return;
    while (write("X-Again: and again\r\n")) {
    }
  });
  std::string message = failure<ProtocolException>([&] { get(server.url()); });
  EXPECT_NE(message.find("limit"), std::string::npos) << message;
}

TEST_F(HostileServerTest, EndlessChunkSizeLineIsAProtocolException) {
  RawServer server(endless("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", 'f'));
  Response response = get(server.url());
  std::string message = failure<ProtocolException>([&] { response.body()->string(); });
  EXPECT_FALSE(message.empty());
}

TEST_F(HostileServerTest, ChunkSizeBeyond64BitsIsAProtocolException) {
  RawServer server([](const RawServer::Writer& write) {
    write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\nabc");
  });
  Response response = get(server.url());
  std::string message = failure<ProtocolException>([&] { response.body()->string(); });
  EXPECT_FALSE(message.empty());
}

TEST_F(HostileServerTest, EndlessChunkCanBeReadInPiecesAndAbandoned) {
  RawServer server(
      endless("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n", 'z'));
  Response response = get(server.url());
  // The caller reads what it wants and closes: nothing is buffered beyond what was asked for.
  Source& source = response.body()->source();
  Buffer sink;
  int64_t read = 0;
  while (read < (int64_t{8} << 20)) {
    int64_t n = source.read(sink, 1 << 16);
    ASSERT_GT(n, 0);
    read += n;
    sink.clear();
  }
  response.body()->close();
  EXPECT_EQ(client_.connectionPool()->idleConnectionCount(), 0);  // Unfinished: not pooled.
}

TEST_F(HostileServerTest, BodyLongerThanContentLengthDoesNotPoisonTheNextCall) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder()
                     .body("abcHTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nforged")
                     .setHeader("Content-Length", "3")
                     .build());
  server.enqueue(MockResponse::Builder().body("genuine").build());
  EXPECT_EQ(get(server.url("/").toString()).body()->string(), "abc");
  // The bytes past the body are not a response to the next request.
  EXPECT_EQ(get(server.url("/").toString()).body()->string(), "genuine");
}

TEST_F(HostileServerTest, NothingLeaksAfterHostileServers) {
  {
    RawServer server(endless("HTTP/1.1 200 OK\r\nX-Endless: ", 'a'));
    EXPECT_THROW(get(server.url()), ProtocolException);
  }
  client_.connectionPool()->evictAll();
  EXPECT_TRUE(fileDescriptorsReturnTo(baselineFds_ + 0))
      << openFileDescriptorCount() << " descriptors open, " << baselineFds_ << " before";
}

}  // namespace
}  // namespace tern::testing
