// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Servers that misbehave in ways MockWebServer's policies do not script: trickling past the read
// timeout, endless status and header lines, endless and oversized chunks, a body longer than its
// Content-Length, floods of what a peer can send faster than the caller takes it (interim
// responses, HTTP/2 DATA, PINGs and SETTINGS), and HTTP/2 bodies cut short; each HTTP/2 peer over
// h2c and over TLS (with and without close_notify). The call ends with a clear exception (or the
// right response), in bounded time and memory, and the next call is not poisoned by what the bad
// one left behind.
#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "support/fd_count.h"
#include "support/http2_peer.h"
#include "support/raw_peer.h"
#include "support/recording_event_listener.h"
#include "tern/client.h"
#include "tern/event_listener.h"
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

// The peak resident set size so far, in bytes. A flood that is not bounded raises it by hundreds
// of megabytes; bounded, by little more than the limits.
int64_t peakResidentBytes() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return int64_t{usage.ru_maxrss} * 1024;
}

// ThreadSanitizer keeps shadow memory several times the size of what the program touches, so
// under it each bound is scaled (an unbounded flood still costs far more: +245 MB before the
// bounds, without TSan). The release and ASan runs check the bounds as they are.
#if defined(__SANITIZE_THREAD__)
constexpr int64_t kSanitizerScale = 4;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr int64_t kSanitizerScale = 4;
#else
constexpr int64_t kSanitizerScale = 1;
#endif
#else
constexpr int64_t kSanitizerScale = 1;
#endif

constexpr int64_t kMemoryMargin = (int64_t{64} << 20) * kSanitizerScale;

// Holds the call's thread at its first response head until release(): the peer's frames are then
// all with the client's reader before the call takes any, as when a call is slower than its
// connection's reader.
class HoldAtFirstHead : public EventListener {
 public:
  void responseHeadersStart(Call&) override {
    std::unique_lock lock(mutex_);
    released_.wait_for(lock, 10s, [this] { return release_; });
  }
  void release() {
    std::lock_guard lock(mutex_);
    release_ = true;
    released_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable released_;
  bool release_ = false;
};

// HTTP/2 over h2c (prior knowledge) or over TLS with ALPN h2 (the parameter): each hostile
// peer below runs both ways.
class HostileHttp2ServerTest : public ::testing::TestWithParam<bool> {
 protected:
  bool tls() const { return GetParam(); }

  Http2Peer::Options options(Http2Peer::End end = Http2Peer::End::kHold) const {
    return {.tls = tls(), .end = end};
  }

  // Runs a GET against `peer`, holding the call at its first head while the peer's frames
  // arrive, and returns the body or "<Type>: message" for what it threw.
  std::string get(const Http2Peer& peer, HoldAtFirstHead& hold) const {
    return get(peer.url(), std::shared_ptr<EventListener>(&hold, [](EventListener*) {}));
  }

  // A client that speaks HTTP/2 to the peer, and does not retry (a peer takes one connection).
  Client client(std::shared_ptr<EventListener> listener = EventListener::none()) const {
    return Client::Builder()
        .protocols(tls() ? std::vector<Protocol>{Protocol::HTTP_2, Protocol::HTTP_1_1}
                         : std::vector<Protocol>{Protocol::H2_PRIOR_KNOWLEDGE})
        .handshakeCertificates(RawPeer::certificates().clientTrust())
        .retryOnConnectionFailure(false)
        .readTimeout(5s)
        .writeTimeout(5s)
        .eventListener(std::move(listener))
        .build();
  }

  std::string get(const std::string& url,
                  std::shared_ptr<EventListener> listener = EventListener::none()) const {
    Client client = this->client(std::move(listener));
    std::string result;
    try {
      result = client.newCall(Request::Builder().url(url).build())->execute().body()->string();
    } catch (const ProtocolException& e) {
      result = std::string("ProtocolException: ") + e.what();
    } catch (const SSLHandshakeException& e) {
      result = std::string("SSLHandshakeException: ") + e.what();
    } catch (const SSLException& e) {
      result = std::string("SSLException: ") + e.what();
    } catch (const IOException& e) {
      result = std::string("IOException: ") + e.what();
    }
    client.connectionPool()->evictAll();
    return result;
  }
};

INSTANTIATE_TEST_SUITE_P(H2cAndTls, HostileHttp2ServerTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Tls" : "H2c";
                         });

// Interim heads of `blockSize` decoded bytes each on HTTP/2: the first puts a field of 4,000 bytes
// in HPACK's dynamic table (RFC 7541 §6.2.1), and each head names it `references` times with a
// byte apiece, so a small flood on the wire decodes to a large one.
std::string interimFlood(int heads, int references) {
  std::string out;
  std::string table = std::string("\x40\x05x-big\x7f", 8);
  int64_t value = 4000 - 127;  // The length's 7-bit prefix, then its continuation (§5.1).
  while (value >= 128) {
    table += static_cast<char>(0x80 | (value & 0x7f));
    value >>= 7;
  }
  table += static_cast<char>(value);
  table += std::string(4000, 'b');
  for (int i = 0; i < heads; ++i) {
    std::string block = hpackStatus(103) + (i == 0 ? table : "");
    block += std::string(static_cast<size_t>(references), '\xbe');  // Index 62: x-big.
    out += http2Frame(kHeaders, kEndHeaders, 1, block);
  }
  out +=
      http2Frame(kHeaders, kEndHeaders, 1, hpackStatus(200) + hpackLiteral("content-length", "2"));
  out += http2Frame(kData, kEndStream, 1, "hi");
  return out;
}

TEST_P(HostileHttp2ServerTest, InterimResponseFloodOfLargeHeadsStaysWithinTheHeaderListLimit) {
  // 2,000 heads of about 120 KiB decoded each, 240 MiB in all, from 80 KiB on the wire.
  HoldAtFirstHead hold;
  Http2Peer peer(
      [&](Http2Peer::Connection& connection) {
        connection.write(interimFlood(2000, 30));
        connection.pingPong();
        hold.release();
      },
      options());
  int64_t before = peakResidentBytes();
  std::string result = get(peer, hold);
  EXPECT_THAT(result,
              ::testing::AllOf(
                  ::testing::StartsWith("ProtocolException: HTTP/2 header list"),
                  ::testing::HasSubstr("exceeds 262144 bytes (with its 2 interim responses)")));
  EXPECT_LT(peakResidentBytes() - before, kMemoryMargin);
}

TEST_P(HostileHttp2ServerTest, InterimResponseFloodOfSmallHeadsStopsAtTheCount) {
  // 12,000 heads of a few bytes: within the header-list budget, but far too many.
  HoldAtFirstHead hold;
  Http2Peer peer(
      [&](Http2Peer::Connection& connection) {
        connection.write(interimFlood(12000, 0));
        connection.pingPong();
        hold.release();
      },
      options());
  int64_t before = peakResidentBytes();
  std::string result = get(peer, hold);
  EXPECT_THAT(result, ::testing::MatchesRegex(
                          "ProtocolException: more than 32 interim \\(1xx\\) responses from "
                          "127.0.0.1:[0-9]+ on HTTP/2 stream 1"));
  EXPECT_LT(peakResidentBytes() - before, kMemoryMargin);
}

TEST_P(HostileHttp2ServerTest, AFewInterimResponsesAreSkipped) {
  HoldAtFirstHead hold;
  Http2Peer peer(
      [&](Http2Peer::Connection& connection) {
        connection.write(interimFlood(32, 1));  // 32 heads of 4 KiB: within both limits.
        connection.pingPong();
        hold.release();
      },
      options());
  EXPECT_EQ(get(peer, hold), "hi");
}

TEST_P(HostileHttp2ServerTest, DataNobodyReadsStopsAtTheStreamWindow) {
  // 24 MiB of DATA for a response whose body is not read: the stream's window (16 MiB) is all
  // the client buffers; past it the peer breaks flow control (RFC 9113 §6.9.1).
  HoldAtFirstHead hold;
  Http2Peer peer(
      [&](Http2Peer::Connection& connection) {
        connection.write(http2Frame(kHeaders, kEndHeaders, 1, hpackStatus(200)));
        std::string frame = http2Frame(kData, 0, 1, std::string(16384, 'd'));
        for (int i = 0; i < 24 * 64 && connection.write(frame); ++i) {
        }
        connection.pingPong();  // Returns at the client's GOAWAY.
        hold.release();
      },
      options());
  int64_t before = peakResidentBytes();
  std::string result = get(peer, hold);
  EXPECT_THAT(result, ::testing::HasSubstr("FLOW_CONTROL_ERROR")) << result.substr(0, 200);
  EXPECT_LT(peakResidentBytes() - before,
            int64_t{16} * 1024 * 1024 * kSanitizerScale + kMemoryMargin);
}

TEST_P(HostileHttp2ServerTest, PingAndSettingsFloodsEndTheConnection) {
  // Each PING and SETTINGS asks for an acknowledgement; a peer that sends them without reading
  // would have them pile up. nghttp2 counts the unsent ones (1,000 at most) and ends the session.
  // Over TLS a record (16 KiB) holds fewer than 1,000 of them, so no one read brings a flood:
  // the client answers each batch before it reads the next, and would stop reading were the
  // answers not taken. Either way nothing piles up; the peer then closes the connection.
  for (uint8_t type : {kPing, kSettings}) {
    Http2Peer peer(
        [&](Http2Peer::Connection& connection) {
          std::string frame = http2Frame(type, 0, 0, type == kPing ? "12345678" : "");
          std::string batch;
          for (int i = 0; i < 1000; ++i) batch += frame;
          for (int i = 0; i < 200 && connection.write(batch); ++i) {
          }
        },
        options(Http2Peer::End::kCloseNotify));
    int64_t before = peakResidentBytes();
    auto start = std::chrono::steady_clock::now();
    std::string result = get(peer.url());
    // "Flooding was detected" when the unsent ACKs pass 1,000 (over h2c, one read of 64 KiB
    // brings that many; over TLS, only when answers fall behind); else the end of the stream.
    const ::testing::Matcher<std::string> flooded =
        ::testing::MatchesRegex("ProtocolException: .*Flooding was detected.*");
    const ::testing::Matcher<std::string> ended =
        ::testing::MatchesRegex("IOException: unexpected end of stream on HTTP/2 connection to .*");
    EXPECT_THAT(result, tls() ? ::testing::AnyOf(flooded, ended) : flooded) << result;
    EXPECT_LT(peakResidentBytes() - before, kMemoryMargin);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  }
}

TEST_P(HostileHttp2ServerTest, BodyCutShortWithoutCloseNotify) {
  // Over TLS a close without close_notify may be an attacker's truncation (RFC 8446 §6.1).
  Http2Peer peer(
      [](Http2Peer::Connection& connection) {
        connection.write(http2Frame(kHeaders, kEndHeaders, 1,
                                    hpackStatus(200) + hpackLiteral("content-length", "100")) +
                         http2Frame(kData, 0, 1, "0123456789"));
      },
      options(Http2Peer::End::kClose));
  auto start = std::chrono::steady_clock::now();
  std::string result = get(peer.url());
  EXPECT_THAT(result,
              tls() ? ::testing::MatchesRegex("SSLException: Connection to .*127.0.0.1:[0-9]+.* "
                                              "closed without a TLS close_notify: the stream "
                                              "was truncated")
                    : ::testing::MatchesRegex("IOException: unexpected end of stream on HTTP/2 "
                                              "connection to 127.0.0.1:[0-9]+"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
}

TEST_P(HostileHttp2ServerTest, BodyCutShortAfterCloseNotify) {
  // The TLS stream ended cleanly, but the HTTP/2 stream had not.
  Http2Peer peer(
      [](Http2Peer::Connection& connection) {
        connection.write(http2Frame(kHeaders, kEndHeaders, 1,
                                    hpackStatus(200) + hpackLiteral("content-length", "100")) +
                         http2Frame(kData, 0, 1, "0123456789"));
      },
      options(Http2Peer::End::kCloseNotify));
  auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(get(peer.url()), ::testing::MatchesRegex("IOException: unexpected end of stream on "
                                                       "HTTP/2 connection to 127.0.0.1:[0-9]+"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
}

TEST_P(HostileHttp2ServerTest, ResetWhileTheClientWaitsForWindowIsTheReadersFailure) {
  // The upload stops at the stream's 64 KiB window (the peer grants no more); the reset reaches
  // the connection's reader first, so it is a read's failure, not a SocketWriteException.
  Http2Peer peer([](Http2Peer::Connection&) { std::this_thread::sleep_for(200ms); },
                 options(Http2Peer::End::kReset));
  Client client = this->client();
  Request request = Request::Builder()
                        .url(peer.url())
                        .post(RequestBody::create(std::string(1 << 20, 'u')))
                        .build();
  try {
    client.newCall(request)->execute();
    ADD_FAILURE() << "no exception";
  } catch (const SocketWriteException& e) {
    ADD_FAILURE() << "a write's failure: " << e.what();
  } catch (const IOException& e) {
    EXPECT_THAT(e.what(), ::testing::StartsWith("Connection reset by peer: ")) << e.what();
  }
}

TEST_F(HostileServerTest, InterimResponseFloodOnHttp1StopsAtTheCount) {
  RawServer server([](const RawServer::Writer& write) {
    std::string heads;
    for (int i = 0; i < 1000; ++i) heads += "HTTP/1.1 103 Early Hints\r\n\r\n";
    write(heads + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi");
  });
  int64_t before = peakResidentBytes();
  std::string message = failure<ProtocolException>([&] { get(server.url()); });
  EXPECT_EQ(message, "more than 32 interim (1xx) responses from " + server.url() + "...");
  EXPECT_LT(peakResidentBytes() - before, kMemoryMargin);
}

}  // namespace
}  // namespace tern::testing
