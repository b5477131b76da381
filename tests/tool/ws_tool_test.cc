// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// tern --ws, end to end: the built binary against MockWebServer's WebSocket server side (tern's
// engine in server mode, echoing), over ws://, http:// and wss://, and against a RawPeer that
// breaks the protocol. Each test checks stdout, the exit code and stderr's message, and what the
// server saw (the handshake's headers, the close code).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "support/raw_peer.h"
#include "support/tls_certificates.h"
#include "temp_dir.h"
#include "tern/mockwebserver/mock_response.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tern/web_socket.h"
#include "tool_process.h"
#include "ws/web_socket_protocol.h"
#include "ws_mode.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using ::testing::HasSubstr;
using testing::runTern;
using testing::TempDir;
using testing::ToolRun;

// The server's side of a test's socket: echoes every message (text as text, binary as binary)
// unless `whenOpen` closes first, and records the messages and the client's close code. Its
// callbacks come on the server's connection thread; the test reads the record after tern exits
// (tern exits only once the server has answered its close, so onClosing has run by then).
class EchoServer final : public WebSocketListener {
 public:
  std::function<void(WebSocket&)> whenOpen;  // Runs in onOpen (set before the run).

  void onOpen(WebSocket& webSocket, const Response&) override {
    if (whenOpen) whenOpen(webSocket);
  }
  void onMessage(WebSocket& webSocket, const std::string& text) override {
    record(text);
    webSocket.send(text);
  }
  void onMessage(WebSocket& webSocket, const std::vector<std::byte>& bytes) override {
    webSocket.send(bytes);
  }
  void onClosing(WebSocket&, int code, const std::string&) override {
    std::lock_guard lock(mutex_);
    closeCode_ = code;
  }

  std::vector<std::string> messages() {
    std::lock_guard lock(mutex_);
    return messages_;
  }
  int closeCode() {
    std::lock_guard lock(mutex_);
    return closeCode_;
  }

 private:
  void record(const std::string& text) {
    std::lock_guard lock(mutex_);
    messages_.push_back(text);
  }
  std::mutex mutex_;
  std::vector<std::string> messages_;
  int closeCode_ = -1;
};

class WsToolTest : public ::testing::Test {
 protected:
  // ws://127.0.0.1:PORT/path (wss:// once the server uses TLS).
  std::string wsUrl(const std::string& path = "/") {
    std::string url = server_.url(path).toString();
    return (url.starts_with("https") ? "wss" : "ws") + url.substr(url.find(':'));
  }

  // Answers the next handshake with the echo server; `deflate` agrees to permessage-deflate.
  void enqueueUpgrade(bool deflate = false) {
    MockResponse::Builder response;
    if (deflate) response.setHeader("Sec-WebSocket-Extensions", "permessage-deflate");
    server_.enqueue(response.webSocketUpgrade(echo_).build());
  }

  MockWebServer server_;
  std::shared_ptr<EchoServer> echo_ = std::make_shared<EchoServer>();
};

TEST_F(WsToolTest, EchoesEachLineAndClosesWith1000AtTheEndOfInput) {
  enqueueUpgrade();
  ToolRun run = runTern({"--ws", wsUrl("/chat")}, "one\ntwo words\r\nthree");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  // Each line without its "\n" or "\r\n"; the last line without one is sent too.
  EXPECT_EQ(run.out, "one\ntwo words\nthree\n");
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(echo_->messages(), (std::vector<std::string>{"one", "two words", "three"}));
  EXPECT_EQ(echo_->closeCode(), 1000);
  mockwebserver::RecordedRequest request = server_.takeRequest();
  EXPECT_EQ(request.requestLine(), "GET /chat HTTP/1.1");
  EXPECT_EQ(request.headers().get("Upgrade"), "websocket");
  EXPECT_EQ(request.headers().get("Connection"), "Upgrade");
  EXPECT_EQ(request.headers().get("Sec-WebSocket-Extensions"), "permessage-deflate");
}

TEST_F(WsToolTest, HttpUrlIsAWebSocketToo) {
  enqueueUpgrade();
  ToolRun run = runTern({"--ws", server_.url("/").toString()}, "over http\n");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "over http\n");
}

TEST_F(WsToolTest, LargeLineIsCompressedBothWaysAndEchoedWhole) {
  enqueueUpgrade(/*deflate=*/true);
  std::string line;
  for (int i = 0; line.size() < 300 * 1024; ++i) line += "line piece " + std::to_string(i) + " ";
  ToolRun run = runTern({"--ws", wsUrl()}, line + "\nsmall\n");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, line + "\nsmall\n");
}

TEST_F(WsToolTest, EmptyInputOpensAndClosesAtOnce) {
  enqueueUpgrade();
  ToolRun run = runTern({"--ws", wsUrl()});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(echo_->closeCode(), 1000);  // It did open: the server heard the close.
}

TEST_F(WsToolTest, ServerCloseWith1000EndsTheSessionWithExit0WhileInputIsOpen) {
  echo_->whenOpen = [](WebSocket& webSocket) {
    webSocket.send("last words");
    webSocket.close(1000, "bye");
  };
  enqueueUpgrade();
  // stdin stays open: only the server's close can end the run in time.
  ToolRun run = runTern({"--ws", wsUrl()}, "", {}, 20s, /*keepInputOpen=*/true);
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "last words\n");
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(echo_->closeCode(), 1000);  // tern answered with the server's code.
}

TEST_F(WsToolTest, ServerCloseWith4000IsExit56NamingCodeAndReason) {
  echo_->whenOpen = [](WebSocket& webSocket) { webSocket.close(4000, "custom trouble"); };
  enqueueUpgrade();
  ToolRun run = runTern({"--ws", wsUrl()}, "", {}, 20s, /*keepInputOpen=*/true);
  EXPECT_EQ(run.exitCode, 56);
  EXPECT_EQ(run.err, "tern: (56) WebSocket closed by the server with code 4000: custom trouble\n");
  EXPECT_EQ(echo_->closeCode(), 4000);

  // -s hides the message, -S brings it back.
  enqueueUpgrade();
  ToolRun silent = runTern({"-s", "--ws", wsUrl()}, "", {}, 20s, true);
  EXPECT_EQ(silent.exitCode, 56);
  EXPECT_EQ(silent.err, "");
}

TEST_F(WsToolTest, RefusedHandshakeIsExit22WithTheStatus) {
  server_.enqueue(MockResponse::Builder().status("HTTP/1.1 403 Forbidden").body("no").build());
  ToolRun run = runTern({"--ws", wsUrl()}, "never sent\n");
  EXPECT_EQ(run.exitCode, 22);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "tern: (22) WebSocket handshake refused: HTTP 403 Forbidden\n");
}

TEST_F(WsToolTest, BadAcceptHeaderIsExit8NamingIt) {
  server_.enqueue(MockResponse::Builder()
                      .setHeader("Sec-WebSocket-Accept", "wrong")
                      .webSocketUpgrade(echo_)
                      .build());
  ToolRun run = runTern({"--ws", wsUrl()}, "x\n");
  EXPECT_EQ(run.exitCode, 8);
  EXPECT_THAT(run.err, HasSubstr("tern: (8) WebSocket handshake failed: Expected "
                                 "'Sec-WebSocket-Accept' header value"));
}

TEST_F(WsToolTest, ConnectionRefusedIsExit7) {
  std::string url = wsUrl();
  server_.close();
  ToolRun run = runTern({"--ws", url}, "x\n");
  EXPECT_EQ(run.exitCode, 7);
  EXPECT_THAT(run.err, ::testing::MatchesRegex("tern: \\(7\\) Failed to connect to 127.0.0.1 port "
                                               "[0-9]+ after [0-9]+ ms: Couldn't connect to "
                                               "server\n"));
}

TEST_F(WsToolTest, NoCompressOffersNoExtension) {
  enqueueUpgrade();
  ToolRun run = runTern({"--ws", "--ws-no-compress", wsUrl()}, "plain\n");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "plain\n");
  EXPECT_EQ(server_.takeRequest().headers().get("Sec-WebSocket-Extensions"), std::nullopt);
}

TEST_F(WsToolTest, HeadersGoWithTheHandshake) {
  server_.enqueue(MockResponse::Builder()
                      .setHeader("Sec-WebSocket-Protocol", "chat")
                      .webSocketUpgrade(echo_)
                      .build());
  ToolRun run = runTern(
      {"--ws", "-H", "Sec-WebSocket-Protocol: chat, superchat", "-A", "agent/1", wsUrl()}, "hi\n");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  mockwebserver::RecordedRequest request = server_.takeRequest();
  EXPECT_EQ(request.headers().get("Sec-WebSocket-Protocol"), "chat, superchat");
  EXPECT_EQ(request.headers().get("User-Agent"), "agent/1");
}

TEST_F(WsToolTest, VerboseShowsTheHandshakeAndEachFrame) {
  echo_->whenOpen = [](WebSocket& webSocket) {
    webSocket.send(std::vector<std::byte>{std::byte{'b'}, std::byte{0}, std::byte{'c'}});
  };
  enqueueUpgrade();
  ToolRun run = runTern({"-v", "--ws", wsUrl()}, "hello\n");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  // A binary message: its bytes, then "\n".
  EXPECT_EQ(run.out, std::string("b\0c\nhello\n", 10));
  for (const char* line :
       {"> GET / HTTP/1.1\r\n", "> Upgrade: websocket\r\n", "> Connection: Upgrade\r\n",
        "> Sec-WebSocket-Version: 13\r\n", "< HTTP/1.1 101 Switching Protocols\r\n", "* ws: open\n",
        "* ws: < binary 3 bytes\n", "* ws: > text 5 bytes\n", "* ws: < text 5 bytes\n",
        "* ws: > close 1000\n", "* ws: < close 1000\n", "* ws: closed 1000\n"}) {
    EXPECT_THAT(run.err, HasSubstr(line));
  }
  EXPECT_LT(run.err.find("* ws: > close 1000"), run.err.find("* ws: < close 1000"));
}

TEST_F(WsToolTest, MaxTimeBoundsTheWholeSession) {
  enqueueUpgrade();  // Opens, then nothing: stdin stays open and the server is quiet.
  auto start = std::chrono::steady_clock::now();
  ToolRun run = runTern({"-m", "1", "--ws", wsUrl()}, "a\n", {}, 20s, /*keepInputOpen=*/true);
  EXPECT_EQ(run.exitCode, 28);
  EXPECT_EQ(run.out, "a\n");
  EXPECT_THAT(run.err, ::testing::MatchesRegex("tern: \\(28\\) Operation timed out after "
                                               "1[0-9][0-9][0-9] milliseconds with 1 bytes "
                                               "received\n"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
}

TEST_F(WsToolTest, LineThatIsNotUtf8IsExit43) {
  enqueueUpgrade();
  ToolRun run = runTern({"--ws", wsUrl()}, "fine\n\xc3\x28\n");
  EXPECT_EQ(run.exitCode, 43);
  EXPECT_EQ(run.err,
            "tern: (43) a line of standard input is not valid UTF-8: cannot send it as a text "
            "message\n");
}

TEST_F(WsToolTest, ProtocolErrorFromTheServerIsExit8) {
  tern::testing::RawPeer peer(
      [](tern::testing::RawPeer::Connection& connection) {
        std::string head = connection.readUntil("\r\n\r\n");
        std::string marker = "Sec-WebSocket-Key: ";
        size_t start = head.find(marker) + marker.size();
        std::string key = head.substr(start, head.find("\r\n", start) - start);
        connection.write(
            "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            "Sec-WebSocket-Accept: " +
            internal::ws::acceptHeader(key) + "\r\n\r\n");
        connection.write(std::string("\x83\x01x", 3));  // Opcode 3 is reserved.
      },
      {});
  ToolRun run = runTern({"--ws", peer.url()}, "", {}, 20s, /*keepInputOpen=*/true);
  EXPECT_EQ(run.exitCode, 8);
  EXPECT_THAT(run.err, HasSubstr("tern: (8) WebSocket protocol error from the server: "));
}

TEST_F(WsToolTest, ConnectionEndingWithoutACloseFrameIsExit56) {
  tern::testing::RawPeer::Options ending;
  ending.end = tern::testing::RawPeer::End::kClose;
  tern::testing::RawPeer peer(
      [](tern::testing::RawPeer::Connection& connection) {
        std::string head = connection.readUntil("\r\n\r\n");
        std::string marker = "Sec-WebSocket-Key: ";
        size_t start = head.find(marker) + marker.size();
        std::string key = head.substr(start, head.find("\r\n", start) - start);
        connection.write(
            "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            "Sec-WebSocket-Accept: " +
            internal::ws::acceptHeader(key) + "\r\n\r\n");
        connection.write(std::string("\x81\x02hi", 4));
      },
      ending);
  ToolRun run = runTern({"--ws", peer.url()}, "", {}, 20s, /*keepInputOpen=*/true);
  EXPECT_EQ(run.exitCode, 56);
  EXPECT_EQ(run.out, "hi\n");
  EXPECT_THAT(run.err, HasSubstr("tern: (56) WebSocket connection ended without a close frame: "));
}

TEST_F(WsToolTest, ResolveMapsTheHost) {
  enqueueUpgrade();
  std::string port = std::to_string(server_.port());
  ToolRun run =
      runTern({"--ws", "--resolve", "ws.test:" + port + ":127.0.0.1", "ws://ws.test:" + port + "/"},
              "hi\n");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "hi\n");
}

class WsToolTlsTest : public WsToolTest {
 protected:
  WsToolTlsTest() {
    server_.useHttps(certificates_.server());
    caFile_ = files_.write("ca.pem", certificates_.root.certificatePem()).string();
  }
  // wss://localhost:PORT/ (localhost is in the server's certificate).
  std::string url() { return "wss://localhost:" + std::to_string(server_.port()) + "/"; }

  tern::testing::TestCertificates certificates_;
  TempDir files_;
  std::string caFile_;
};

TEST_F(WsToolTlsTest, CacertTrustsTheServer) {
  enqueueUpgrade();
  ToolRun run = runTern({"--ws", "--cacert", caFile_, url()}, "secure\n");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "secure\n");
}

TEST_F(WsToolTlsTest, InsecureSkipsTheChecks) {
  enqueueUpgrade();
  ToolRun run = runTern({"--ws", "-k", url()}, "anyway\n");
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "anyway\n");
}

TEST_F(WsToolTlsTest, UntrustedServerIsExit60) {
  enqueueUpgrade();
  ToolRun run = runTern({"--ws", url()}, "x\n");
  EXPECT_EQ(run.exitCode, 60);
  EXPECT_THAT(run.err, HasSubstr("tern: (60) SSL certificate problem: "));
}

TEST(WsUrlTest, WebSocketSchemesReadAsHttp) {
  EXPECT_EQ(webSocketHttpUrl("ws://h:1/a?b"), "http://h:1/a?b");
  EXPECT_EQ(webSocketHttpUrl("WSS://h/"), "https://h/");
  EXPECT_EQ(webSocketHttpUrl("https://h/"), "https://h/");
  EXPECT_EQ(webSocketHttpUrl("wsx://h/"), "wsx://h/");
}

}  // namespace
}  // namespace tern::tool
