// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
//
// tern's WebSocket client against other implementations on loopback: Python's websockets
// (Debian's python3-websockets, tests/data/peers/websockets_server.py) and Node's ws (Debian's
// node-ws, tests/data/peers/ws_server.js), with permessage-deflate off, on, and with each
// context-takeover and window setting. Skipped, saying why, where a peer is not installed
// (scripts/setup.sh installs both).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "support/child_process.h"
#include "support/test_data.h"
#include "support/tls_certificates.h"
#include "support/web_socket_recorder.h"
#include "tern/client.h"
#include "tern/web_socket.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;

const char* kPython = "/usr/bin/python3";

const char* kNode = "/usr/bin/node";

bool succeeds(const std::string& command) {
  int status = std::system((command + " >/dev/null 2>&1").c_str());
  return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool pythonWebsocketsInstalled() {
  return succeeds(std::string(kPython) + " -c 'import websockets'");
}

bool nodeWsInstalled() {
  return succeeds(std::string(kNode) +
                  " -e \"try { require('ws') } catch (e) { require('/usr/share/nodejs/ws') }\"");
}

struct ServerSettings {
  bool node = false;  // Node's ws, else Python's websockets.
  std::string name;
  std::vector<std::string> flags;
  // What the server reports of the negotiation ("info"), in part.
  std::string negotiated;
  // How the WebSocket travels: an HTTP/1.1 upgrade, or an extended CONNECT stream (RFC 8441) on
  // a pooled HTTP/2 connection, cleartext (prior knowledge) or over TLS (ALPN h2).
  enum class Transport { kHttp1, kH2c, kH2Tls } transport = Transport::kHttp1;
};

class WebSocketInteropTest : public ::testing::TestWithParam<ServerSettings> {
 protected:
  void SetUp() override {
    if (GetParam().node && !nodeWsInstalled()) {
      GTEST_SKIP() << "Node's ws is not installed (apt-get install node-ws, as scripts/setup.sh "
                      "does)";
    }
    if (!GetParam().node && !pythonWebsocketsInstalled()) {
      GTEST_SKIP() << "python3-websockets is not installed (apt-get install python3-websockets, "
                      "as scripts/setup.sh does)";
    }
    port_ = freeLoopbackPort();
    std::vector<std::string> args =
        GetParam().node
            ? std::vector<std::string>{kNode, testDataPath("peers/ws_server.js"),
                                       std::to_string(port_)}
            : std::vector<std::string>{kPython, testDataPath("peers/websockets_server.py"),
                                       std::to_string(port_)};
    for (const std::string& flag : GetParam().flags) args.push_back(flag);
    if (GetParam().transport != ServerSettings::Transport::kHttp1) args.push_back("--http2");
    if (GetParam().transport == ServerSettings::Transport::kH2Tls) {
      // The peer reads its certificate from files: made in code, written for this run only.
      certificateDir_ = std::filesystem::temp_directory_path() /
                        ("tern-ws-h2-" + std::to_string(::getpid()) + "-" + std::to_string(port_));
      std::filesystem::create_directories(certificateDir_);
      writeFile(certificateDir_ / "key.pem", certificates_.localhost.privateKeyPkcs8Pem());
      writeFile(certificateDir_ / "cert.pem", certificates_.localhost.certificatePem());
      args.insert(args.end(), {"--tls", (certificateDir_ / "key.pem").string(),
                               (certificateDir_ / "cert.pem").string()});
    }
    log_ = std::filesystem::temp_directory_path() /
           ("tern-websockets-" + std::to_string(::getpid()) + "-" + std::to_string(port_) + ".log");
    ASSERT_TRUE(server_.startListening(args, log_, true, port_)) << "the server did not start";
  }

  void TearDown() override {
    server_.stop(SIGTERM, 2s);
    std::filesystem::remove(log_);
    if (!certificateDir_.empty()) std::filesystem::remove_all(certificateDir_);
  }

  static void writeFile(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path) << text;
  }

  std::shared_ptr<WebSocket> open() {
    using Transport = ServerSettings::Transport;
    Transport transport = GetParam().transport;
    Client::Builder builder = Client::Builder().readTimeout(5s);
    if (transport == Transport::kH2c) builder.protocols({Protocol::H2_PRIOR_KNOWLEDGE});
    if (transport == Transport::kH2Tls) builder.handshakeCertificates(certificates_.clientTrust());
    Client client = builder.build();
    std::string host = transport == Transport::kH2Tls ? "localhost" : "127.0.0.1";
    std::string origin = "://" + host + ":" + std::to_string(port_) + "/";
    if (transport != Transport::kHttp1) {
      // An ordinary request first: the WebSocket then rides its pooled HTTP/2 connection.
      std::string scheme = transport == Transport::kH2Tls ? "https" : "http";
      Response response =
          client.newCall(Request::Builder().url(scheme + origin).build())->execute();
      EXPECT_EQ(response.body()->string(), "h2 GET /");
    }
    std::string url = (transport == Transport::kH2Tls ? "wss" : "ws") + origin;
    auto webSocket = client.newWebSocket(Request::Builder().url(url).build(), listener_);
    Protocol protocol = listener_->assertOpen();
    Protocol expected = transport == Transport::kHttp1 ? Protocol::HTTP_1_1
                        : transport == Transport::kH2c ? Protocol::H2_PRIOR_KNOWLEDGE
                                                       : Protocol::HTTP_2;
    EXPECT_EQ(protocol, expected);
    if (transport != Transport::kHttp1) {
      EXPECT_EQ(client.connectionPool()->connectionCount(), 1) << "the WebSocket made its own";
    }
    return webSocket;
  }

  int port_ = -1;
  TestCertificates certificates_;
  std::filesystem::path certificateDir_;
  std::filesystem::path log_;
  ChildProcess server_;
  std::shared_ptr<WebSocketRecorder> listener_ = std::make_shared<WebSocketRecorder>("client");
};

std::string pattern(size_t size) {
  std::string result(size, 'a');
  for (size_t i = 0; i < size; ++i) result[i] = static_cast<char>('a' + i % 26);
  return result;
}

TEST_P(WebSocketInteropTest, NegotiatesAsConfigured) {
  auto webSocket = open();
  EXPECT_TRUE(webSocket->send("info"));
  std::optional<WebSocketRecorder::Event> info = listener_->next();
  ASSERT_TRUE(info);
  EXPECT_NE(info->text.find(GetParam().negotiated), std::string::npos) << info->text;
  EXPECT_TRUE(webSocket->close(1000, ""));
  listener_->assertClosing(1000, "");
  listener_->assertClosed(1000, "");
}

TEST_P(WebSocketInteropTest, EchoesSmallAndLargeMessagesBothWays) {
  auto webSocket = open();
  // Small (sent plain), 64 KiB and 1 MiB (compressed when agreed), several times each so a kept
  // compression context is exercised across messages.
  for (int round = 0; round < 3; ++round) {
    for (size_t size : {5u, 1024u, 65536u, 1u << 20}) {
      std::string text = pattern(size + round);
      EXPECT_TRUE(webSocket->send(text));
      listener_->assertTextMessage(text);
    }
  }
  std::vector<std::byte> bytes(70000);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::byte>(i * 7919u);
  EXPECT_TRUE(webSocket->send(bytes));
  listener_->assertBinaryMessage(bytes);
  EXPECT_TRUE(webSocket->send("big 200000"));
  listener_->assertTextMessage(pattern(200000));
  EXPECT_TRUE(webSocket->close(1000, "done"));
  listener_->assertClosing(1000, "done");
  listener_->assertClosed(1000, "done");
}

TEST_P(WebSocketInteropTest, FragmentedMessageAndServerPing) {
  auto webSocket = open();
  EXPECT_TRUE(webSocket->send("fragments"));
  listener_->assertTextMessage("Hello, world");
  EXPECT_TRUE(webSocket->send("ping"));
  listener_->assertTextMessage("pong received");
  EXPECT_TRUE(webSocket->close(1000, ""));
  listener_->assertClosing(1000, "");
  listener_->assertClosed(1000, "");
}

TEST_P(WebSocketInteropTest, ServerInitiatedClose) {
  auto webSocket = open();
  EXPECT_TRUE(webSocket->send("close 4001 server says bye"));
  listener_->assertClosing(4001, "server says bye");
  listener_->assertClosed(4001, "server says bye");
}

// RFC 8441's point: many WebSockets and ordinary requests share one HTTP/2 connection, and
// closing or canceling one WebSocket ends only its stream.
TEST(WebSocketHttp2InteropTest, WebSocketsShareTheConnectionWithRequests) {
  if (!nodeWsInstalled()) GTEST_SKIP() << "Node's ws is not installed (apt-get install node-ws)";
  int port = freeLoopbackPort();
  std::filesystem::path log = std::filesystem::temp_directory_path() /
                              ("tern-ws-h2-shared-" + std::to_string(::getpid()) + ".log");
  ChildProcess server;
  ASSERT_TRUE(server.startListening(
      {kNode, testDataPath("peers/ws_server.js"), std::to_string(port), "--http2"}, log, true,
      port));
  Client client =
      Client::Builder().protocols({Protocol::H2_PRIOR_KNOWLEDGE}).readTimeout(5s).build();
  std::string origin = "://127.0.0.1:" + std::to_string(port);
  auto get = [&](const std::string& path) {
    return client.newCall(Request::Builder().url("http" + origin + path).build())
        ->execute()
        .body()
        ->string();
  };
  EXPECT_EQ(get("/first"), "h2 GET /first");

  std::vector<std::shared_ptr<WebSocketRecorder>> listeners;
  std::vector<std::shared_ptr<WebSocket>> sockets;
  for (int i = 0; i < 3; ++i) {
    listeners.push_back(std::make_shared<WebSocketRecorder>("client " + std::to_string(i)));
    sockets.push_back(client.newWebSocket(
        Request::Builder().url("ws" + origin + "/ws" + std::to_string(i)).build(),
        listeners.back()));
    EXPECT_EQ(listeners.back()->assertOpen(), Protocol::H2_PRIOR_KNOWLEDGE);
  }
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(sockets[i]->send("hello " + std::to_string(i)));
  for (int i = 0; i < 3; ++i) listeners[i]->assertTextMessage("hello " + std::to_string(i));
  EXPECT_EQ(get("/while-open"), "h2 GET /while-open");

  // One closes cleanly, one is canceled; the third carries on, as does the connection.
  EXPECT_TRUE(sockets[0]->close(1000, "bye"));
  listeners[0]->assertClosing(1000, "bye");
  listeners[0]->assertClosed(1000, "bye");
  sockets[1]->cancel();
  listeners[1]->assertFailure("anceled");
  EXPECT_TRUE(sockets[2]->send("still here"));
  listeners[2]->assertTextMessage("still here");
  EXPECT_EQ(get("/after"), "h2 GET /after");
  EXPECT_EQ(client.connectionPool()->connectionCount(), 1);
  EXPECT_TRUE(sockets[2]->close(1000, ""));
  listeners[2]->assertClosing(1000, "");
  listeners[2]->assertClosed(1000, "");
  server.stop(SIGTERM, 2s);
  std::filesystem::remove(log);
}

INSTANTIATE_TEST_SUITE_P(
    Peers, WebSocketInteropTest,
    ::testing::Values(
        ServerSettings{false, "PythonNoCompression", {"--no-compression"}, "extensions=[]"},
        ServerSettings{false,
                       "PythonDeflate",
                       {},
                       "remote_no_context_takeover=False, local_no_context_takeover=False"},
        ServerSettings{false,
                       "PythonServerNoContextTakeover",
                       {"--server-no-context-takeover"},
                       "local_no_context_takeover=True"},
        ServerSettings{false,
                       "PythonClientNoContextTakeover",
                       {"--client-no-context-takeover"},
                       "remote_no_context_takeover=True"},
        ServerSettings{false,
                       "PythonServerWindow9Bits",
                       {"--server-max-window-bits", "9"},
                       "local_max_window_bits=9"},
        ServerSettings{true, "NodeNoCompression", {"--no-compression"}, "-> none]"},
        ServerSettings{true, "NodeDeflate", {}, "-> permessage-deflate {"},
        ServerSettings{true,
                       "NodeServerNoContextTakeover",
                       {"--server-no-context-takeover"},
                       "\"server_no_context_takeover\":true"},
        ServerSettings{true,
                       "NodeClientNoContextTakeover",
                       {"--client-no-context-takeover"},
                       "\"client_no_context_takeover\":true"},
        ServerSettings{true,
                       "NodeServerWindow9Bits",
                       {"--server-max-window-bits", "9"},
                       "\"server_max_window_bits\":9"},
        // RFC 8441 on Node's http2 server (enableConnectProtocol), the WebSocket being ws's.
        ServerSettings{true,
                       "NodeHttp2NoCompression",
                       {"--no-compression"},
                       "-> none] http2",
                       ServerSettings::Transport::kH2c},
        ServerSettings{true,
                       "NodeHttp2Deflate",
                       {},
                       "-> permessage-deflate {}] http2",
                       ServerSettings::Transport::kH2c},
        ServerSettings{true,
                       "NodeHttp2ClientNoContextTakeover",
                       {"--client-no-context-takeover"},
                       "\"client_no_context_takeover\":true}] http2",
                       ServerSettings::Transport::kH2c},
        ServerSettings{true,
                       "NodeHttp2ServerWindow9Bits",
                       {"--server-max-window-bits", "9"},
                       "\"server_max_window_bits\":9}] http2",
                       ServerSettings::Transport::kH2c},
        ServerSettings{true,
                       "NodeHttp2TlsDeflate",
                       {},
                       "-> permessage-deflate {}] http2",
                       ServerSettings::Transport::kH2Tls},
        ServerSettings{true,
                       "NodeHttp2TlsServerNoContextTakeover",
                       {"--server-no-context-takeover"},
                       "\"server_no_context_takeover\":true}] http2",
                       ServerSettings::Transport::kH2Tls}),
    [](const ::testing::TestParamInfo<ServerSettings>& info) { return info.param.name; });

}  // namespace
}  // namespace tern::testing
