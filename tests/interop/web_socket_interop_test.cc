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
#include <memory>
#include <string>
#include <vector>

#include "support/child_process.h"
#include "support/test_data.h"
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
    log_ = std::filesystem::temp_directory_path() /
           ("tern-websockets-" + std::to_string(::getpid()) + "-" + std::to_string(port_) + ".log");
    ASSERT_TRUE(server_.startListening(args, log_, true, port_)) << "the server did not start";
  }

  void TearDown() override {
    server_.stop(SIGTERM, 2s);
    std::filesystem::remove(log_);
  }

  std::shared_ptr<WebSocket> open() {
    Client client = Client::Builder().readTimeout(5s).build();
    std::string url = "ws://127.0.0.1:" + std::to_string(port_) + "/";
    auto webSocket = client.newWebSocket(Request::Builder().url(url).build(), listener_);
    listener_->assertOpen();
    return webSocket;
  }

  int port_ = -1;
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
                       "\"server_max_window_bits\":9"}),
    [](const ::testing::TestParamInfo<ServerSettings>& info) { return info.param.name; });

}  // namespace
}  // namespace tern::testing
