// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// MockWebServer over HTTP/2 (h2c with prior knowledge): recording, policies and settings, seen
// through tern's own HTTP/2 client.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "tern/client.h"
#include "tern/exceptions.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::mockwebserver {
namespace {

using namespace std::chrono_literals;

class Http2ServerTest : public ::testing::Test {
 protected:
  Http2ServerTest() { server.setProtocols({Protocol::H2_PRIOR_KNOWLEDGE}); }
  std::string fetch(const std::string& path) {
    return client.newCall(Request::Builder().url(server.url(path)).build())
        ->execute()
        .body()
        ->string();
  }
  MockWebServer server;
  Client client =
      Client::Builder().protocols({Protocol::H2_PRIOR_KNOWLEDGE}).readTimeout(5s).build();
};

TEST(MockWebServerProtocolsTest, DefaultsToHttp2AndHttp11) {
  MockWebServer server;
  EXPECT_EQ(server.protocols(), (std::vector<Protocol>{Protocol::HTTP_2, Protocol::HTTP_1_1}));
}

TEST(MockWebServerProtocolsTest, RejectsListsTheClientWouldReject) {
  MockWebServer server;
  EXPECT_THROW(server.setProtocols({Protocol::H2_PRIOR_KNOWLEDGE, Protocol::HTTP_1_1}),
               std::invalid_argument);
  EXPECT_THROW(server.setProtocols({Protocol::HTTP_2}), std::invalid_argument);
  EXPECT_THROW(server.setGoAwayAfterStreams(-1), std::invalid_argument);
}

TEST(MockWebServerProtocolsTest, ServesHttp3BesideHttp11OverHttpsOnly) {
  MockWebServer server;
  server.setProtocols({Protocol::HTTP_3, Protocol::HTTP_2, Protocol::HTTP_1_1});
  EXPECT_EQ(server.protocols(),
            (std::vector<Protocol>{Protocol::HTTP_3, Protocol::HTTP_2, Protocol::HTTP_1_1}));
  try {
    server.setProtocols({Protocol::HTTP_3});
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "MockWebServer::setProtocols: HTTP/3 is served beside http/1.1 over TCP: add "
                 "HTTP_1_1");
  }
  try {
    server.start();  // Not https: QUIC has no cleartext.
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "MockWebServer::start: HTTP/3 needs useHttps()");
  }
  EXPECT_FALSE(server.started());
}

TEST(MockWebServerPolicyTest, ResetStreamAtStartNamesItsCode) {
  SocketPolicy policy = SocketPolicy::ResetStreamAtStart{7};
  EXPECT_EQ(policy.toString(), "ResetStreamAtStart(http2ErrorCode=7)");
  EXPECT_TRUE(policy.is<SocketPolicy::ResetStreamAtStart>());
  EXPECT_EQ(policy.getIf<SocketPolicy::ResetStreamAtStart>()->http2ErrorCode, 7u);
}

TEST(MockWebServerSettingsTest, ResponseCarriesSettingsThroughNewBuilder) {
  Http2Settings settings;
  EXPECT_TRUE(settings.empty());
  settings.maxConcurrentStreams = 3;
  settings.initialWindowSize = 1024;
  MockResponse response = MockResponse::Builder().settings(settings).build();
  EXPECT_EQ(response.settings(), settings);
  EXPECT_EQ(response.newBuilder().build().settings().maxConcurrentStreams, 3u);
  EXPECT_TRUE(MockResponse().settings().empty());
}

TEST_F(Http2ServerTest, RecordsPseudoHeadersAndStreamIds) {
  server.enqueue(MockResponse::Builder().body("a").build());
  server.enqueue(MockResponse::Builder().body("b").build());
  EXPECT_EQ(fetch("/one?x=1"), "a");
  EXPECT_EQ(fetch("/two"), "b");
  RecordedRequest first = server.takeRequest();
  EXPECT_EQ(first.requestLine(), "GET /one?x=1 HTTP/2");
  EXPECT_EQ(first.method(), "GET");
  EXPECT_EQ(first.path(), "/one?x=1");
  EXPECT_EQ(first.version(), "HTTP/2");
  EXPECT_EQ(first.headers().name(0), ":method");
  EXPECT_EQ(first.url().toString(), server.url("/one?x=1").toString());
  EXPECT_EQ(first.streamId(), 1);
  EXPECT_EQ(server.takeRequest().streamId(), 3);
}

TEST_F(Http2ServerTest, Http1RequestsHaveStreamIdZero) {
  MockWebServer http1;
  http1.enqueue(MockResponse());
  Client::Builder().build().newCall(Request::Builder().url(http1.url("/")).build())->execute();
  EXPECT_EQ(http1.takeRequest().streamId(), 0);
}

TEST_F(Http2ServerTest, BodyLimitAppliesToHttp2Bodies) {
  server.setBodyLimit(4);
  server.enqueue(MockResponse());
  client
      .newCall(
          Request::Builder().url(server.url("/")).post(RequestBody::create("abcdefgh")).build())
      ->execute();
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.bodyUtf8(), "abcd");
  EXPECT_EQ(request.bodySize(), 8);
}

TEST_F(Http2ServerTest, ResetStreamAtStartRecordsAndConsumesTheResponse) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::ResetStreamAtStart{2}).build());
  server.enqueue(MockResponse::Builder().body("next").build());
  EXPECT_THROW(fetch("/reset"), StreamResetException);
  EXPECT_EQ(server.takeRequest().path(), "/reset");
  EXPECT_EQ(fetch("/next"), "next");
}

TEST_F(Http2ServerTest, StalledStreamDoesNotHoldUpOthers) {
  server.setDispatcher([](const RecordedRequest& request) {
    if (request.path() == "/stall") {
      return MockResponse::Builder().socketPolicy(SocketPolicy::NoResponse{}).build();
    }
    return MockResponse::Builder().body("quick").build();
  });
  std::shared_ptr<Call> stalled =
      client.newCall(Request::Builder().url(server.url("/stall")).build());
  std::thread thread([&] {
    try {
      stalled->execute();
    } catch (const IOException&) {
      // Canceled below.
    }
  });
  EXPECT_EQ(fetch("/quick"), "quick");
  stalled->cancel();
  thread.join();
}

TEST_F(Http2ServerTest, CloseIsPromptWithAStalledStream) {
  server.enqueue(MockResponse::Builder().body("x").headersDelay(30s).build());
  std::shared_ptr<Call> call = client.newCall(Request::Builder().url(server.url("/")).build());
  std::thread thread([&] {
    try {
      call->execute();
    } catch (const IOException&) {
      // The server went away.
    }
  });
  server.takeRequest();
  auto start = std::chrono::steady_clock::now();
  server.close();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  thread.join();
}

TEST_F(Http2ServerTest, GoAwayAfterStreamsMovesClientsToANewConnection) {
  server.setGoAwayAfterStreams(2);
  for (int i = 0; i < 5; ++i) server.enqueue(MockResponse::Builder().body("x").build());
  for (int i = 0; i < 5; ++i) EXPECT_EQ(fetch("/"), "x");
  std::vector<int> connections;
  for (int i = 0; i < 5; ++i) connections.push_back(server.takeRequest().connectionIndex());
  EXPECT_EQ(connections, (std::vector<int>{0, 0, 1, 1, 2}));
}

}  // namespace
}  // namespace tern::mockwebserver
