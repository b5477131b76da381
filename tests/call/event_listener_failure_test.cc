// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The events of calls that fail or are canceled (OkHttp's EventListenerTest): DNS failures,
// broken exchanges, each timeout, and cancel() at each phase. Every sequence here is also
// checked against the order rules by the fixture's RecordingEventListener.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "call/event_listener_fixture.h"

namespace tern::testing {
namespace {

using ::testing::HasSubstr;

class EventListenerFailureTest : public EventListenerFixture {
 protected:
  // Runs `call`, expecting it to fail; returns the failure's message.
  static std::string failure(const std::shared_ptr<Call>& call) {
    try {
      call->execute().body()->string();
    } catch (const IOException& e) {
      return e.what();
    }
    return "no exception";
  }
  std::string failure(std::string_view path = "/") { return failure(client.newCall(get(path))); }

  // Cancels `call` after `delay`, on another thread.
  static std::thread cancelLater(const std::shared_ptr<Call>& call,
                                 std::chrono::milliseconds delay) {
    return std::thread([call, delay] {
      std::this_thread::sleep_for(delay);
      call->cancel();
    });
  }
};

TEST_F(EventListenerFailureTest, DnsFailureHasNoDnsEnd) {
  Client c = client.newBuilder().dns(dns).build();
  EXPECT_THAT(failure(c.newCall(Request::Builder().url("http://unknown.test/").build())),
              HasSubstr("unknown.test"));
  EXPECT_EQ(names(), (Names{"callStart", "proxySelectStart", "proxySelectEnd", "dnsStart",
                            "retryDecision", "callFailed"}));
  EXPECT_EQ(listener()->find("callFailed")->exceptionType, "UnknownHostException");
  EXPECT_FALSE(listener()->find("retryDecision")->retry);
}

TEST_F(EventListenerFailureTest, EmptyDnsAnswerFailsLikeAnUnknownHost) {
  Client c = withDns("empty.test", {});
  EXPECT_EQ(failure(c.newCall(Request::Builder().url("http://empty.test/").build())),
            "Dns returned no addresses for empty.test");
  EXPECT_EQ(startingAt(names(), "dnsStart"), (Names{"dnsStart", "retryDecision", "callFailed"}));
}

TEST_F(EventListenerFailureTest, ConnectRefusedReportsConnectFailed) {
  ClosedPort closed;
  std::string address = "127.0.0.1:" + std::to_string(closed.port());
  EXPECT_THAT(failure(client.newCall(Request::Builder().url("http://" + address + "/").build())),
              HasSubstr("Failed to connect"));
  EXPECT_EQ(names(), (Names{"callStart", "proxySelectStart", "proxySelectEnd", "connectStart",
                            "connectFailed", "retryDecision", "callFailed"}));
  EXPECT_EQ(listener()->find("connectFailed")->socketAddress, address);
  EXPECT_THAT(listener()->find("connectFailed")->detail, HasSubstr(" null ConnectException"));
}

TEST_F(EventListenerFailureTest, ServerClosingBeforeTheResponseIsAResponseFailure) {
  server.enqueue(
      MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAfterRequest{}).build());
  EXPECT_THAT(failure(), HasSubstr("unexpected end of stream"));
  EXPECT_EQ(startingAt(names(), "requestHeadersStart"),
            (Names{"requestHeadersStart", "requestHeadersEnd", "responseFailed", "retryDecision",
                   "connectionReleased", "callFailed"}));
}

TEST_F(EventListenerFailureTest, MalformedResponseIsAResponseFailureNeverRetried) {
  server.enqueue(MockResponse::Builder().status("HTTP/1.1 two hundred").build());
  EXPECT_THAT(failure(), HasSubstr("Unexpected status line"));
  EXPECT_EQ(listener()->find("responseFailed")->exceptionType, "ProtocolException");
  EXPECT_FALSE(listener()->find("retryDecision")->retry);
  EXPECT_EQ(names().back(), "callFailed");
}

TEST_F(EventListenerFailureTest, DisconnectDuringTheBodyIsAResponseFailure) {
  server.enqueue(MockResponse::Builder()
                     .body(std::string(100'000, 'x'))
                     .socketPolicy(SocketPolicy::DisconnectDuringResponseBody{})
                     .build());
  Response response = execute();
  EXPECT_THROW(response.body()->string(), IOException);
  EXPECT_EQ(startingAt(names(), "responseBodyStart"),
            (Names{"responseBodyStart", "responseFailed", "connectionReleased", "callFailed"}));
  EXPECT_EQ(listener()->count("responseBodyEnd"), 0);
}

TEST_F(EventListenerFailureTest, DisconnectDuringTheRequestBodyIsARequestFailure) {
  server.enqueue(
      MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectDuringRequestBody{}).build());
  std::string big(8 << 20, 'x');
  std::shared_ptr<Call> call = client.newBuilder().retryOnConnectionFailure(false).build().newCall(
      Request::Builder().url(server.url("/")).post(RequestBody::create(big)).build());
  failure(call);
  EXPECT_EQ(listener()->count("requestBodyStart"), 1);
  // Writing the body fails (requestFailed), or the body went out before the server's close was
  // seen and reading the response fails (responseFailed); often both.
  EXPECT_GE(listener()->count("requestFailed") + listener()->count("responseFailed"), 1);
  EXPECT_EQ(names().back(), "callFailed");
}

TEST_F(EventListenerFailureTest, ReadTimeoutIsAResponseFailure) {
  server.enqueue(MockResponse::Builder().headersDelay(5s).body("late").build());
  client = client.newBuilder().readTimeout(200ms).build();
  EXPECT_THAT(failure(), HasSubstr("Read timed out"));
  EXPECT_EQ(startingAt(names(), "requestHeadersEnd"),
            (Names{"requestHeadersEnd", "responseFailed", "retryDecision", "connectionReleased",
                   "callFailed"}));
  EXPECT_EQ(listener()->find("responseFailed")->exceptionType, "SocketTimeoutException");
  EXPECT_EQ(listener()->count("canceled"), 0);
}

TEST_F(EventListenerFailureTest, ReadTimeoutDuringTheBodyIsAResponseFailure) {
  server.enqueue(MockResponse::Builder().bodyDelay(5s).body("late").build());
  client = client.newBuilder().readTimeout(200ms).build();
  Response response = execute();
  EXPECT_THROW(response.body()->string(), SocketTimeoutException);
  EXPECT_EQ(startingAt(names(), "followUpDecision"),
            (Names{"followUpDecision", "responseFailed", "connectionReleased", "callFailed"}));
}

TEST_F(EventListenerFailureTest, ConnectTimeoutIsAConnectFailure) {
  FullBacklog backlog;
  client = client.newBuilder().connectTimeout(200ms).build();
  EXPECT_THAT(
      failure(client.newCall(Request::Builder()
                                 .url("http://127.0.0.1:" + std::to_string(backlog.port()) + "/")
                                 .build())),
      HasSubstr("timed out"));
  EXPECT_EQ(startingAt(names(), "connectStart"),
            (Names{"connectStart", "connectFailed", "retryDecision", "callFailed"}));
  EXPECT_EQ(listener()->find("connectFailed")->exceptionType, "SocketTimeoutException");
}

TEST_F(EventListenerFailureTest, WriteTimeoutIsARequestFailure) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::StallSocketAtStart{}).build());
  client = client.newBuilder().writeTimeout(200ms).build();
  std::string big(16 << 20, 'x');
  EXPECT_THAT(failure(client.newCall(
                  Request::Builder().url(server.url("/")).post(RequestBody::create(big)).build())),
              HasSubstr("Write timed out"));
  EXPECT_EQ(startingAt(names(), "requestBodyStart"),
            (Names{"requestBodyStart", "requestFailed", "retryDecision", "connectionReleased",
                   "callFailed"}));
  EXPECT_EQ(listener()->find("requestFailed")->exceptionType, "SocketTimeoutException");
}

TEST_F(EventListenerFailureTest, CallTimeoutCancelsBeforeFailing) {
  server.enqueue(MockResponse::Builder().headersDelay(5s).body("late").build());
  client = client.newBuilder().callTimeout(200ms).build();
  EXPECT_EQ(failure(), "timeout");
  EXPECT_EQ(startingAt(names(), "requestHeadersEnd"),
            (Names{"requestHeadersEnd", "canceled", "responseFailed", "retryDecision",
                   "connectionReleased", "callFailed"}));
  EXPECT_EQ(listener()->find("callFailed")->detail, "InterruptedIOException: timeout");
}

TEST_F(EventListenerFailureTest, CallTimeoutWhileReadingTheBody) {
  server.enqueue(MockResponse::Builder().throttleBody(1, 100ms).body("slow body").build());
  client = client.newBuilder().callTimeout(300ms).build();
  Response response = execute();
  EXPECT_THROW(response.body()->string(), InterruptedIOException);
  EXPECT_EQ(startingAt(names(), "canceled"),
            (Names{"canceled", "responseFailed", "connectionReleased", "callFailed"}));
  EXPECT_EQ(listener()->find("callFailed")->detail, "InterruptedIOException: timeout");
}

TEST_F(EventListenerFailureTest, CancelBeforeExecuteIsReportedAfterCallStart) {
  std::shared_ptr<Call> call = client.newCall(get());
  call->cancel();
  EXPECT_EQ(failure(call), "Canceled");
  EXPECT_EQ(names(), (Names{"callStart", "canceled", "callFailed"}));
}

TEST_F(EventListenerFailureTest, CancelBeforeEnqueueIsReportedAfterCallStart) {
  std::shared_ptr<Call> call = client.newCall(get());
  call->cancel();
  auto callback = std::make_shared<RecordingCallback>();
  call->enqueue(callback);
  EXPECT_EQ(callback->await(url()).failure, "Canceled");
  ASSERT_TRUE(eventually([&] { return listener()->ended(); }));
  EXPECT_EQ(names(), (Names{"callStart", "canceled", "callFailed"}));
}

TEST_F(EventListenerFailureTest, CancelWhileConnecting) {
  FullBacklog backlog;
  std::shared_ptr<Call> call = client.newBuilder().connectTimeout(10s).build().newCall(
      Request::Builder().url("http://127.0.0.1:" + std::to_string(backlog.port()) + "/").build());
  std::thread canceler = cancelLater(call, 200ms);
  EXPECT_EQ(failure(call), "Canceled");
  canceler.join();
  EXPECT_EQ(startingAt(names(), "connectStart"),
            (Names{"connectStart", "canceled", "connectFailed", "retryDecision", "callFailed"}));
}

TEST_F(EventListenerFailureTest, CancelWhileWaitingForHeaders) {
  server.enqueue(MockResponse::Builder().headersDelay(10s).body("late").build());
  std::shared_ptr<Call> call = client.newCall(get());
  std::thread canceler = cancelLater(call, 200ms);
  EXPECT_EQ(failure(call), "Canceled");
  canceler.join();
  EXPECT_EQ(startingAt(names(), "requestHeadersEnd"),
            (Names{"requestHeadersEnd", "canceled", "responseFailed", "retryDecision",
                   "connectionReleased", "callFailed"}));
}

TEST_F(EventListenerFailureTest, CancelWhileReadingTheBody) {
  server.enqueue(MockResponse::Builder().throttleBody(1, 50ms).body("a slow body").build());
  std::shared_ptr<Call> call = client.newCall(get());
  Response response = call->execute();
  EXPECT_EQ(response.body()->source().readUtf8(1), "a");
  call->cancel();
  EXPECT_THROW(response.body()->string(), IOException);
  EXPECT_EQ(startingAt(names(), "responseBodyStart"),
            (Names{"responseBodyStart", "canceled", "responseFailed", "connectionReleased",
                   "callFailed"}));
}

TEST_F(EventListenerFailureTest, CancelAfterTheCallEndedReportsNothing) {
  server.enqueue(body("done"));
  std::shared_ptr<Call> call = client.newCall(get());
  EXPECT_EQ(call->execute().body()->string(), "done");
  call->cancel();
  EXPECT_EQ(names().back(), "callEnd");
  EXPECT_EQ(listener()->count("canceled"), 0);
}

TEST_F(EventListenerFailureTest, CancelTwiceReportsOnce) {
  server.enqueue(MockResponse::Builder().headersDelay(10s).body("late").build());
  std::shared_ptr<Call> call = client.newCall(get());
  std::thread first = cancelLater(call, 200ms);
  std::thread second = cancelLater(call, 200ms);
  failure(call);
  first.join();
  second.join();
  EXPECT_EQ(listener()->count("canceled"), 1);
}

// cancel() from inside the listener at each phase: deterministic, and the event order must
// still hold (canceled comes inside the event that caused it, callFailed last).
class CancelAtPhaseTest : public EventListenerFailureTest,
                          public ::testing::WithParamInterface<const char*> {};

TEST_P(CancelAtPhaseTest, CancelFromTheListenerFailsTheCall) {
  std::string phase = GetParam();
  server.enqueue(body("never seen"));
  Client c = withExtraListener(withDns("phase.test"), events, [phase] {
    return std::make_shared<ActionListener>(phase, [](Call& call) { call.cancel(); });
  });
  std::shared_ptr<Call> call =
      c.newCall(Request::Builder().url(hostUrl("phase.test", "/")).build());
  EXPECT_EQ(failure(call), "Canceled");
  Names got = names();
  auto at = std::find(got.begin(), got.end(), phase);
  ASSERT_NE(at, got.end());
  EXPECT_EQ(*(at + 1), "canceled");
  EXPECT_EQ(got.back(), "callFailed");
}

INSTANTIATE_TEST_SUITE_P(EveryPhase, CancelAtPhaseTest,
                         ::testing::Values("callStart", "dnsStart", "dnsEnd", "connectStart",
                                           "connectEnd", "connectionAcquired",
                                           "requestHeadersStart", "requestHeadersEnd",
                                           "responseHeadersStart", "responseHeadersEnd"));

TEST_F(EventListenerFailureTest, NonIoExceptionFromAnInterceptorIsACallFailure) {
  client = client.newBuilder()
               .addInterceptor([](Interceptor::Chain&) -> Response {
                 throw std::runtime_error("interceptor bug");
               })
               .build();
  EXPECT_THROW(execute(), std::runtime_error);
  EXPECT_EQ(names(), (Names{"callStart", "callFailed"}));
  EXPECT_EQ(listener()->find("callFailed")->detail, "IOException: call failed: interceptor bug");
}

TEST_F(EventListenerFailureTest, ListenerThatThrowsDoesNotBreakTheCall) {
  class Throwing final : public EventListener {
   public:
    void requestHeadersEnd(Call&, const Request&) override {
      throw std::runtime_error("listener bug");
    }
  };
  server.enqueue(body("fine"));
  client = withExtraListener(client, events, [] { return std::make_shared<Throwing>(); });
  EXPECT_EQ(fetch(), "fine");
  EXPECT_EQ(names(), freshConnectionGet());
}

}  // namespace
}  // namespace tern::testing
