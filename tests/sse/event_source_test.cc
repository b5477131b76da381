// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// EventSource end to end against MockWebServer, in the spirit of OkHttp's EventSourceHttpTest,
// plus reconnection (which OkHttp does not do): Last-Event-ID, retry, 204, limits, cancel.
#include "tern/event_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "sse/event_source_recorder.h"
#include "support/tls_certificates.h"
#include "tern/client.h"
#include "tern/event_listener.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;
using mockwebserver::SocketPolicy;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class EventSourceTest : public ::testing::Test {
 protected:
  ~EventSourceTest() override {
    if (source_) source_->cancel();
    // Every source ends with exactly one terminal call, canceled or not.
    EXPECT_TRUE(listener->terminated() || !source_) << "the source never ended";
  }

  // A text/event-stream response with `body`; its end closes the stream.
  static MockResponse stream(std::string_view body) {
    return MockResponse::Builder()
        .addHeader("Content-Type", "text/event-stream")
        .body(body)
        .build();
  }

  std::shared_ptr<EventSource> newEventSource(EventSources::Options options,
                                              std::string_view path = "/") {
    return newEventSource(options, Request::Builder().url(server.url(path)).build());
  }

  std::shared_ptr<EventSource> newEventSource(EventSources::Options options,
                                              const Request& request) {
    source_ = EventSources::createFactory(client, options)->newEventSource(request, listener);
    return source_;
  }

  // Short delays so reconnecting tests run fast.
  static EventSources::Options fastReconnect() {
    EventSources::Options options;
    options.retryDelay = 10ms;
    return options;
  }

  static EventSources::Options noReconnect() {
    EventSources::Options options;
    options.reconnect = false;
    return options;
  }

  RecordedRequest takeRequest() {
    std::optional<RecordedRequest> request = server.takeRequest(10s);
    if (!request) throw std::runtime_error("no request came");
    return std::move(*request);
  }

  MockWebServer server;
  // No silent retries of the client's own: every attempt is the source's.
  Client client = Client::Builder()
                      .connectTimeout(5s)
                      .readTimeout(5s)
                      .writeTimeout(5s)
                      .retryOnConnectionFailure(false)
                      .build();
  std::shared_ptr<EventSourceRecorder> listener = std::make_shared<EventSourceRecorder>();

 private:
  std::shared_ptr<EventSource> source_;
};

TEST_F(EventSourceTest, EventsThenClosedWithoutReconnection) {
  server.enqueue(stream("data: hey\n\nevent: greeting\ndata: hi\n\n"));
  newEventSource(noReconnect());
  EXPECT_THAT(listener->awaitTerminal(), ElementsAre("open 200", "event id=- type=- data=hey",
                                                     "event id=- type=greeting data=hi", "closed"));
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(EventSourceTest, AcceptHeaderIsAddedWhenAbsent) {
  server.enqueue(stream(""));
  newEventSource(noReconnect());
  listener->awaitTerminal();
  EXPECT_EQ(takeRequest().headers().get("Accept"), "text/event-stream");
}

TEST_F(EventSourceTest, AcceptHeaderOfTheRequestIsKept) {
  server.enqueue(stream(""));
  std::shared_ptr<EventSource> source = newEventSource(
      noReconnect(),
      Request::Builder().url(server.url("/")).header("Accept", "text/plain").build());
  EXPECT_EQ(source->request().header("Accept"), "text/plain");
  listener->awaitTerminal();
  EXPECT_EQ(takeRequest().headers().values("Accept"), std::vector<std::string>{"text/plain"});
}

TEST_F(EventSourceTest, RequestCarriesTheAcceptHeader) {
  server.enqueue(stream(""));
  std::shared_ptr<EventSource> source = newEventSource(noReconnect());
  EXPECT_EQ(source->request().header("Accept"), "text/event-stream");
  EXPECT_EQ(source->request().url(), server.url("/"));
  listener->awaitTerminal();
}

TEST_F(EventSourceTest, OpenResponseHasNoBody) {
  server.enqueue(stream("data: a\n\n"));
  newEventSource(noReconnect());
  EXPECT_EQ(listener->next(), "open 200");
  listener->awaitTerminal();
}

TEST_F(EventSourceTest, ReconnectsAfterEndOfStreamWithLastEventIdAndRetry) {
  server.enqueue(stream("retry: 20\nid: 7\ndata: a\n\n"));
  server.enqueue(stream("data: b\n\n"));
  server.enqueue(MockResponse(204));
  EventSources::Options options;
  options.retryDelay = 1h;  // Only the server's retry: 20 lets this test finish.
  newEventSource(options);
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "retry 20", "event id=7 type=- data=a", "open 200",
                          "event id=7 type=- data=b", "closed"));
  EXPECT_EQ(takeRequest().headers().get("Last-Event-ID"), std::nullopt);
  EXPECT_EQ(takeRequest().headers().get("Last-Event-ID"), "7");
  EXPECT_EQ(takeRequest().headers().get("Last-Event-ID"), "7");
  EXPECT_EQ(server.requestCount(), 3);
}

TEST_F(EventSourceTest, LastEventIdFollowsTheLatestIdAndAnEmptyIdClearsIt) {
  server.enqueue(stream("id: 1\ndata: a\n\nid: 2\n\n"));
  server.enqueue(stream("id\ndata: b\n\n"));
  server.enqueue(MockResponse(204));
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "event id=1 type=- data=a", "open 200",
                          "event id=- type=- data=b", "closed"));
  EXPECT_EQ(takeRequest().headers().get("Last-Event-ID"), std::nullopt);
  EXPECT_EQ(takeRequest().headers().get("Last-Event-ID"), "2");
  EXPECT_EQ(takeRequest().headers().get("Last-Event-ID"), std::nullopt);
}

TEST_F(EventSourceTest, IdWithNulIsNotSent) {
  static constexpr char kStream[] = "id: 1\n\nid: a\0b\ndata: x\n\n";
  server.enqueue(stream(std::string(kStream, sizeof kStream - 1)));
  server.enqueue(MockResponse(204));
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "event id=1 type=- data=x", "closed"));
  takeRequest();
  EXPECT_EQ(takeRequest().headers().get("Last-Event-ID"), "1");
}

TEST_F(EventSourceTest, UnfinishedEventAtEndOfStreamIsDropped) {
  server.enqueue(stream("data: a\n\nid: 5\ndata: b\n"));
  server.enqueue(MockResponse(204));
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "event id=- type=- data=a", "closed"));
  takeRequest();
  EXPECT_EQ(takeRequest().headers().get("Last-Event-ID"), std::nullopt);
}

TEST_F(EventSourceTest, ReconnectsAfterTheConnectionDropsMidStream) {
  std::string body = "data: a\n\n" + std::string(": ") + std::string(100, 'p') + "\n";
  server.enqueue(
      stream(body).newBuilder().socketPolicy(SocketPolicy::DisconnectDuringResponseBody{}).build());
  server.enqueue(stream("data: b\n\n"));
  server.enqueue(MockResponse(204));
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "event id=- type=- data=a", "open 200",
                          "event id=- type=- data=b", "closed"));
  EXPECT_EQ(server.requestCount(), 3);
}

TEST_F(EventSourceTest, ReconnectsAfterAFailedConnection) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAtStart{}).build());
  server.enqueue(stream("data: a\n\n"));
  server.enqueue(MockResponse(204));
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "event id=- type=- data=a", "closed"));
  EXPECT_EQ(server.requestCount(), 3);
}

TEST_F(EventSourceTest, WithoutReconnectBeforeOpenAFailedFirstConnectionFails) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAtStart{}).build());
  server.enqueue(stream("data: never\n\n"));
  EventSources::Options options = fastReconnect();
  options.reconnectBeforeOpen = false;
  newEventSource(options);
  std::deque<std::string> lines = listener->awaitTerminal();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_THAT(lines[0], StartsWith("failure IOException"));
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(EventSourceTest, WithoutReconnectBeforeOpenAnOpenedStreamStillReconnects) {
  server.enqueue(stream("data: a\n\n"));
  server.enqueue(
      MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAfterRequest{}).build());
  server.enqueue(stream("data: b\n\n"));
  server.enqueue(MockResponse(204));
  EventSources::Options options = fastReconnect();
  options.reconnectBeforeOpen = false;
  newEventSource(options);
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "event id=- type=- data=a", "open 200",
                          "event id=- type=- data=b", "closed"));
}

TEST_F(EventSourceTest, NoContentStopsWithoutReconnecting) {
  server.enqueue(MockResponse(204));
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(), ElementsAre("closed"));
  // The terminal call came, so no reconnection is pending: nothing more can arrive.
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(EventSourceTest, WrongContentTypeFailsWithoutReconnecting) {
  server.enqueue(MockResponse(200, Headers::of("Content-Type", "text/plain"), "data: a\n\n"));
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("failure ProtocolException: Invalid content-type: text/plain "
                          "response=200"));
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(EventSourceTest, MissingContentTypeFails) {
  server.enqueue(MockResponse(200, Headers(), "data: a\n\n"));
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("failure ProtocolException: Invalid content-type: none response=200"));
}

TEST_F(EventSourceTest, ContentTypeWithParametersIsAccepted) {
  server.enqueue(MockResponse(200, Headers::of("Content-Type", "Text/Event-Stream; charset=utf-8"),
                              "data: a\n\n"));
  newEventSource(noReconnect());
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "event id=- type=- data=a", "closed"));
}

TEST_F(EventSourceTest, ErrorStatusFailsWithTheResponseAndNoError) {
  server.enqueue(MockResponse(500, Headers::of("Content-Type", "text/event-stream"), "x"));
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(), ElementsAre("failure null response=500"));
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(EventSourceTest, WithoutReconnectionABrokenStreamFails) {
  std::string body = "data: a\n\n" + std::string(": ") + std::string(100, 'p') + "\n";
  server.enqueue(
      stream(body).newBuilder().socketPolicy(SocketPolicy::DisconnectDuringResponseBody{}).build());
  newEventSource(noReconnect());
  std::deque<std::string> lines = listener->awaitTerminal();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], "event id=- type=- data=a");
  EXPECT_THAT(lines[2], StartsWith("failure "));
  EXPECT_THAT(lines[2], HasSubstr("response=200"));
}

TEST_F(EventSourceTest, ReconnectLimitEndsWithTheLastFailure) {
  for (int i = 0; i < 3; ++i) {
    server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAtStart{}).build());
  }
  server.enqueue(stream("data: never\n\n"));
  EventSources::Options options = fastReconnect();
  options.maxReconnects = 2;
  newEventSource(options);
  std::deque<std::string> lines = listener->awaitTerminal();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_THAT(lines[0], StartsWith("failure IOException"));
  EXPECT_THAT(lines[0], HasSubstr("response=null"));
  EXPECT_EQ(server.requestCount(), 3);  // The first attempt and 2 reconnections.
}

TEST_F(EventSourceTest, ReconnectCountStartsAgainAtEachOpen) {
  // With at most 2 reconnections in a row: 2 failed connects, a stream (its end is the first
  // reconnection of a new count), a failed request, a stream, the end. Counted across opens, the
  // failed request would be the 4th reconnection in a row and end the source.
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAtStart{}).build());
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAtStart{}).build());
  server.enqueue(stream("data: a\n\n"));
  // A failure on the pooled connection, which DisconnectAtStart would not reach.
  server.enqueue(
      MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAfterRequest{}).build());
  server.enqueue(stream("data: b\n\n"));
  server.enqueue(MockResponse(204));
  EventSources::Options options = fastReconnect();
  options.maxReconnects = 2;
  newEventSource(options);
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "event id=- type=- data=a", "open 200",
                          "event id=- type=- data=b", "closed"));
  EXPECT_EQ(server.requestCount(), 6);
}

TEST_F(EventSourceTest, ReconnectionAfterACleanEndCountsTowardTheLimit) {
  server.enqueue(stream("data: a\n\n"));
  server.enqueue(
      MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAfterRequest{}).build());
  server.enqueue(stream("data: never\n\n"));
  EventSources::Options options = fastReconnect();
  options.maxReconnects = 1;
  newEventSource(options);
  std::deque<std::string> lines = listener->awaitTerminal();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], "event id=- type=- data=a");
  EXPECT_THAT(lines[2], StartsWith("failure IOException"));
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_F(EventSourceTest, ExhaustedReconnectionsAfterACleanEndClose) {
  server.enqueue(stream("data: a\n\n"));
  EventSources::Options options = fastReconnect();
  options.maxReconnects = 0;
  newEventSource(options);
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "event id=- type=- data=a", "closed"));
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(EventSourceTest, CancelFromOnEventStopsEvents) {
  server.enqueue(stream("data: a\n\ndata: b\n\ndata: c\n\n"));
  listener->hook = [](EventSource& source, const std::string& line) {
    if (line == "event id=- type=- data=a") source.cancel();
  };
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "event id=- type=- data=a",
                          "failure InterruptedIOException: Canceled response=200"));
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(EventSourceTest, CancelFromOnOpen) {
  server.enqueue(stream("data: a\n\n"));
  listener->hook = [](EventSource& source, const std::string& line) {
    if (line == "open 200") source.cancel();
  };
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "failure InterruptedIOException: Canceled response=200"));
}

TEST_F(EventSourceTest, CancelFromAnotherThreadWhileTheStreamIsOpen) {
  // One event, then the server stalls for a minute (until it is closed).
  server.enqueue(stream("data: a\n\ndata: b\n\n").newBuilder().throttleBody(9, 60s).build());
  std::shared_ptr<EventSource> source = newEventSource(fastReconnect());
  EXPECT_EQ(listener->next(), "open 200");
  EXPECT_EQ(listener->next(), "event id=- type=- data=a");
  std::thread([source] { source->cancel(); }).join();
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("failure InterruptedIOException: Canceled response=200"));
}

TEST_F(EventSourceTest, CancelWhileConnecting) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::NoResponse{}).build());
  std::shared_ptr<EventSource> source = newEventSource(fastReconnect());
  takeRequest();  // The request is out; the response never comes.
  source->cancel();
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("failure InterruptedIOException: Canceled response=null"));
}

TEST_F(EventSourceTest, CancelDuringALongReconnectionWaitEndsAtOnce) {
  server.enqueue(stream("retry: 3600000\ndata: a\n\n"));
  std::shared_ptr<EventSource> source = newEventSource(fastReconnect());
  EXPECT_EQ(listener->next(), "open 200");
  EXPECT_EQ(listener->next(), "retry 3600000");
  EXPECT_EQ(listener->next(), "event id=- type=- data=a");
  source->cancel();
  // Whether the stream had ended or not, the hour-long wait never delays the end.
  std::deque<std::string> lines = listener->awaitTerminal();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_THAT(lines[0], StartsWith("failure InterruptedIOException: Canceled response="));
  EXPECT_EQ(server.requestCount(), 1);
}

// Signals when a call has failed, so a test knows a source has begun its reconnection wait.
class CallFailedLatch final : public EventListener {
 public:
  void callFailed(Call&, const IOException&) override { failed_.set_value(); }
  bool await() { return failed_.get_future().wait_for(10s) == std::future_status::ready; }

 private:
  std::promise<void> failed_;
};

TEST_F(EventSourceTest, CancelDuringAnHourLongWaitAfterAFailedConnectEndsAtOnce) {
  server.enqueue(MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAtStart{}).build());
  auto latch = std::make_shared<CallFailedLatch>();
  client = client.newBuilder().eventListener(latch).build();
  EventSources::Options options;
  options.retryDelay = 1h;
  std::shared_ptr<EventSource> source = newEventSource(options);
  ASSERT_TRUE(latch->await());
  source->cancel();
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("failure InterruptedIOException: Canceled response=null"));
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(EventSourceTest, CancelBeforeTheFirstConnection) {
  server.enqueue(stream("data: a\n\n"));
  std::shared_ptr<EventSource> source = newEventSource(fastReconnect());
  source->cancel();
  std::deque<std::string> lines = listener->awaitTerminal();
  // The cancel may come before the call started, or after it opened (and, on a slow machine,
  // after the event was delivered); either way it ends there, with nothing but those before.
  ASSERT_FALSE(lines.empty());
  EXPECT_THAT(lines.back(), StartsWith("failure InterruptedIOException: Canceled"));
  std::vector<std::string> before(lines.begin(), lines.end() - 1);
  std::vector<std::string> allowed = {"open 200", "event id=- type=- data=a"};
  EXPECT_TRUE(before.size() <= allowed.size() &&
              std::equal(before.begin(), before.end(), allowed.begin()))
      << ::testing::PrintToString(lines);
}

TEST_F(EventSourceTest, CancelAfterTheEndDoesNothing) {
  server.enqueue(MockResponse(204));
  std::shared_ptr<EventSource> source = newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(), ElementsAre("closed"));
  source->cancel();
  source->cancel();
  // A second terminal call would fail the recorder's check. Nothing to wait for says it will
  // not come, so a second source's whole run stands in as time for it to show.
  auto second = std::make_shared<EventSourceRecorder>();
  server.enqueue(MockResponse(204));
  EventSources::createFactory(client, noReconnect())
      ->newEventSource(Request::Builder().url(server.url("/")).build(), second);
  EXPECT_THAT(second->awaitTerminal(), ElementsAre("closed"));
  EXPECT_THAT(listener->remaining(), ElementsAre());
}

TEST_F(EventSourceTest, ShutDownClientFailsWithoutReconnecting) {
  client.shutdown();
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("failure InterruptedIOException: client is shut down response=null"));
  EXPECT_EQ(server.requestCount(), 0);
}

TEST_F(EventSourceTest, ListenerExceptionFailsTheSourceWithoutReconnecting) {
  server.enqueue(stream("data: a\n\ndata: b\n\n"));
  listener->hook = [](EventSource&, const std::string& line) {
    if (line == "event id=- type=- data=a") throw std::runtime_error("boom");
  };
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(), ElementsAre("open 200", "event id=- type=- data=a",
                                                     "failure exception: boom response=200"));
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(EventSourceTest, EventPastTheSizeLimitFailsWithoutReconnecting) {
  server.enqueue(stream("data: " + std::string(200, 'x') + "\n\n"));
  EventSources::Options options = fastReconnect();
  options.maxEventSize = 100;
  newEventSource(options);
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200",
                          "failure ProtocolException: server-sent event line longer than 100 "
                          "bytes response=200"));
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(EventSourceTest, ReadTimeoutOnAQuietStreamReconnects) {
  server.enqueue(stream("data: a\n\ndata: b\n\n").newBuilder().throttleBody(9, 60s).build());
  server.enqueue(MockResponse(204));
  client = client.newBuilder().readTimeout(200ms).build();
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "event id=- type=- data=a", "closed"));
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_F(EventSourceTest, DroppedSourceKeepsRunningToItsEnd) {
  server.enqueue(stream("data: a\n\n"));
  server.enqueue(MockResponse(204));
  EventSources::createFactory(client, fastReconnect())
      ->newEventSource(Request::Builder().url(server.url("/")).build(), listener);
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "event id=- type=- data=a", "closed"));
}

TEST_F(EventSourceTest, ChunkedStreamDeliversEachEventAsItArrives) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Content-Type", "text/event-stream")
                     .chunkedBody("data: a\r\n\r\ndata: b\r\rdata: c\n\n", 3)
                     .build());
  newEventSource(noReconnect());
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "event id=- type=- data=a", "event id=- type=- data=b",
                          "event id=- type=- data=c", "closed"));
}

TEST_F(EventSourceTest, StreamsOverHttp2ReconnectOnTheSameConnection) {
  TestCertificates certificates;
  server.useHttps(certificates.server());
  client = client.newBuilder().handshakeCertificates(certificates.clientTrust()).build();
  server.enqueue(stream("retry: 10\nid: 1\ndata: a\n\n"));
  server.enqueue(stream("data: b\n\n"));
  server.enqueue(MockResponse(204));
  newEventSource(fastReconnect());
  EXPECT_THAT(listener->awaitTerminal(),
              ElementsAre("open 200", "retry 10", "event id=1 type=- data=a", "open 200",
                          "event id=1 type=- data=b", "closed"));
  RecordedRequest first = takeRequest();
  RecordedRequest second = takeRequest();
  EXPECT_EQ(first.version(), "HTTP/2");
  EXPECT_EQ(second.headers().get("Last-Event-ID"), "1");
  EXPECT_EQ(second.connectionIndex(), first.connectionIndex());
  EXPECT_GT(second.streamId(), first.streamId());
}

TEST_F(EventSourceTest, InvalidOptionsThrow) {
  EventSources::Options options;
  options.retryDelay = -1ms;
  EXPECT_THROW(EventSources::createFactory(client, options), std::invalid_argument);
  options = {};
  options.maxReconnects = -1;
  EXPECT_THROW(EventSources::createFactory(client, options), std::invalid_argument);
  options = {};
  options.maxEventSize = 0;
  EXPECT_THROW(EventSources::createFactory(client, options), std::invalid_argument);
  EXPECT_THROW(EventSources::createFactory(client)->newEventSource(
                   Request::Builder().url(server.url("/")).build(), nullptr),
               std::invalid_argument);
}

}  // namespace
}  // namespace tern::testing
