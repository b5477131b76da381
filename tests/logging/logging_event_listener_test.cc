// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// LoggingEventListener's lines (OkHttp's LoggingEventListenerTest): one per event, each with the
// milliseconds since callStart.
#include "tern/logging_event_listener.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>
#include <regex>

#include "call/call_fixture.h"

namespace tern::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::MatchesRegex;

class LoggingEventListenerTest : public CallFixture {
 protected:
  LoggingEventListenerTest() {
    client = client.newBuilder()
                 .eventListenerFactory(EventListener::Factory::compose(
                     {events, std::make_shared<LoggingEventListener::Factory>(
                                  [this](std::string_view line) { log(line); })}))
                 .build();
  }
  void log(std::string_view line) {
    std::lock_guard lock(mutex_);
    lines_.emplace_back(line);
  }
  std::vector<std::string> lines() {
    std::lock_guard lock(mutex_);
    return lines_;
  }
  // The lines without their "[N ms] " prefix.
  std::vector<std::string> messages() {
    std::vector<std::string> result;
    for (const std::string& line : lines()) result.push_back(line.substr(line.find("] ") + 2));
    return result;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> lines_;
};

TEST_F(LoggingEventListenerTest, LogsEveryEventWithTheTimeSinceCallStart) {
  server.enqueue(body("hello"));
  fetch();
  std::vector<std::string> logged = lines();
  ASSERT_EQ(logged.size(), events->listener(0)->eventNames().size());
  for (const std::string& line : logged) EXPECT_THAT(line, MatchesRegex(R"(\[[0-9]+ ms\] .*)"));
  EXPECT_EQ(logged.front().rfind("[0 ms] callStart: Request{method=GET, url=" + url(), 0), 0u)
      << logged.front();
}

TEST_F(LoggingEventListenerTest, LogsTheDetailsOfASuccessfulCall) {
  server.enqueue(body("hello"));
  fetch();
  std::string port = std::to_string(server.port());
  std::vector<std::string> logged = messages();
  ASSERT_EQ(logged.size(), 15u);
  EXPECT_EQ(logged[1], "proxySelectStart: " + url());
  EXPECT_EQ(logged[2], "proxySelectEnd: [DIRECT]");
  EXPECT_EQ(logged[3], "connectStart: 127.0.0.1:" + port);
  EXPECT_EQ(logged[4], "connectEnd: http/1.1");
  EXPECT_EQ(logged[5], "connectionAcquired: Connection{127.0.0.1:" + port + " protocol=http/1.1}");
  EXPECT_EQ(logged[6], "requestHeadersStart");
  EXPECT_EQ(logged[7], "requestHeadersEnd");
  EXPECT_EQ(logged[8], "responseHeadersStart");
  EXPECT_THAT(logged[9], MatchesRegex("responseHeadersEnd: Response\\{.*code=200.*"));
  EXPECT_EQ(logged[10].rfind("followUpDecision: ", 0), 0u);
  EXPECT_THAT(logged[10], ::testing::EndsWith("nextRequest=null"));
  EXPECT_EQ(logged[11], "responseBodyStart");
  EXPECT_EQ(logged[12], "responseBodyEnd: byteCount=5");
  EXPECT_EQ(logged[13], "connectionReleased");
  EXPECT_EQ(logged[14], "callEnd");
}

TEST_F(LoggingEventListenerTest, LogsDnsAndRequestBodies) {
  auto dns = std::make_shared<FakeDns>();
  dns->set("logged.test", {InetAddress::loopbackIpv4()});
  client = client.newBuilder().dns(dns).build();
  server.enqueue(body("ok"));
  HttpUrl target = server.url("/").newBuilder().host("logged.test").build();
  client.newCall(Request::Builder().url(target).post(RequestBody::create("abc")).build())
      ->execute()
      .body()
      ->string();
  std::vector<std::string> logged = messages();
  EXPECT_THAT(logged, ::testing::Contains("dnsStart: logged.test"));
  EXPECT_THAT(logged, ::testing::Contains("dnsEnd: [127.0.0.1]"));
  EXPECT_THAT(logged, ::testing::Contains("requestBodyStart"));
  EXPECT_THAT(logged, ::testing::Contains("requestBodyEnd: byteCount=3"));
}

TEST_F(LoggingEventListenerTest, LogsFailuresWithTheExceptionType) {
  ClosedPort closed;
  std::string target = "http://127.0.0.1:" + std::to_string(closed.port()) + "/";
  EXPECT_THROW(client.newCall(Request::Builder().url(target).build())->execute(), IOException);
  std::vector<std::string> logged = messages();
  ASSERT_FALSE(logged.empty());
  EXPECT_THAT(logged,
              ::testing::Contains(MatchesRegex("connectFailed: null ConnectException: .*")));
  EXPECT_THAT(logged, ::testing::Contains(MatchesRegex("retryDecision: .* retry=false")));
  EXPECT_THAT(logged.back(), MatchesRegex("callFailed: ConnectException: Failed to connect.*"));
}

TEST_F(LoggingEventListenerTest, LogsCancellation) {
  std::shared_ptr<Call> call = client.newCall(get());
  call->cancel();
  EXPECT_THROW(call->execute(), IOException);
  EXPECT_THAT(messages(), ElementsAre(MatchesRegex("callStart: .*"), "canceled",
                                      "callFailed: InterruptedIOException: Canceled"));
}

TEST_F(LoggingEventListenerTest, EachCallHasItsOwnClock) {
  server.enqueue(body("a"));
  server.enqueue(MockResponse::Builder().headersDelay(300ms).body("b").build());
  fetch();
  std::this_thread::sleep_for(200ms);
  size_t firstCallLines = lines().size();
  fetch();
  std::vector<std::string> logged = lines();
  // The second call starts again at 0 ms, though 200 ms passed since the first.
  EXPECT_EQ(logged[firstCallLines].rfind("[0 ms] callStart", 0), 0u) << logged[firstCallLines];
  int lastMs = std::stoi(logged.back().substr(1));
  EXPECT_GE(lastMs, 250);
  EXPECT_LT(lastMs, 5000);
}

}  // namespace
}  // namespace tern::testing
