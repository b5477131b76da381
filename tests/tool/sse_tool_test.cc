// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// tern --sse URL, end to end: the built binary against MockWebServer. Events as "TYPE: DATA",
// reconnection with Last-Event-ID, 204 ending the run with 0, and curl's exit codes on failure.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "tern/mockwebserver/mock_web_server.h"
#include "tool_process.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::runTern;
using testing::ToolRun;

MockResponse stream(std::string_view body) {
  return MockResponse::Builder().addHeader("Content-Type", "text/event-stream").body(body).build();
}

class SseToolTest : public ::testing::Test {
 protected:
  std::string url(std::string_view path = "/") { return server_.url(path).toString(); }
  ToolRun sse(std::vector<std::string> args) {
    args.insert(args.begin(), "--sse");
    return runTern(args, "", {}, 30s);
  }

  MockWebServer server_;
};

TEST_F(SseToolTest, PrintsEachEventAsTypeAndDataAndExitsZeroOnNoContent) {
  // "retry: 10" keeps the reconnection (after the stream ends) quick.
  server_.enqueue(
      stream("retry: 10\nevent: greeting\ndata: hi\n\n: comment\n\n"
             "data: line 1\ndata: line 2\n\n"));
  server_.enqueue(MockResponse(204));
  ToolRun run = sse({url()});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "greeting: hi\nmessage: line 1\nline 2\n");
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(server_.requestCount(), 2);
}

TEST_F(SseToolTest, ReconnectsWithLastEventId) {
  server_.enqueue(stream("retry: 10\nid: 42\ndata: a\n\n"));
  server_.enqueue(stream("data: b\n\n"));
  server_.enqueue(MockResponse(204));
  ToolRun run = sse({url("/events")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "message: a\nmessage: b\n");
  mockwebserver::RecordedRequest first = server_.takeRequest();
  EXPECT_EQ(first.path(), "/events");
  EXPECT_EQ(first.headers().get("Accept"), "text/event-stream");
  EXPECT_EQ(first.headers().get("Last-Event-ID"), std::nullopt);
  EXPECT_EQ(server_.takeRequest().headers().get("Last-Event-ID"), "42");
  EXPECT_EQ(server_.takeRequest().headers().get("Last-Event-ID"), "42");
}

TEST_F(SseToolTest, HeaderOptionsAreSent) {
  server_.enqueue(MockResponse(204));
  ToolRun run = sse({"-H", "X-Token: 7", "-H", "Accept: application/json", url()});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  mockwebserver::RecordedRequest request = server_.takeRequest();
  EXPECT_EQ(request.headers().get("X-Token"), "7");
  EXPECT_EQ(request.headers().values("Accept"), std::vector<std::string>{"application/json"});
}

TEST_F(SseToolTest, ConnectFailureExitsSeven) {
  server_.start();
  std::string closed = url();
  server_.close();
  ToolRun run = sse({closed});
  EXPECT_EQ(run.exitCode, 7);
  EXPECT_THAT(run.err, HasSubstr("tern: (7) Failed to connect to"));
  EXPECT_EQ(run.out, "");
}

TEST_F(SseToolTest, HttpErrorExitsTwentyTwo) {
  server_.enqueue(MockResponse(404, {}, "nope"));
  ToolRun run = sse({url()});
  EXPECT_EQ(run.exitCode, 22);
  EXPECT_EQ(run.err, "tern: (22) The requested URL returned error: 404\n");
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(server_.requestCount(), 1);
}

TEST_F(SseToolTest, SilentHidesTheMessageButNotTheCode) {
  server_.enqueue(MockResponse(500));
  ToolRun run = sse({"-s", url()});
  EXPECT_EQ(run.exitCode, 22);
  EXPECT_EQ(run.err, "");
}

TEST_F(SseToolTest, OtherContentTypeExitsEight) {
  server_.enqueue(MockResponse(200, Headers::of("Content-Type", "text/html"), "<p>hi</p>"));
  ToolRun run = sse({url()});
  EXPECT_EQ(run.exitCode, 8);
  EXPECT_THAT(run.err, HasSubstr("tern: (8) Invalid content-type: text/html"));
  EXPECT_EQ(run.out, "");
}

TEST_F(SseToolTest, MaxTimeEndsAStreamWithTwentyEight) {
  // One event, then the server stalls until it is closed.
  server_.enqueue(stream("data: a\n\ndata: b\n\n").newBuilder().throttleBody(9, 60s).build());
  ToolRun run = sse({"-m", "0.5", url()});
  EXPECT_EQ(run.exitCode, 28);
  EXPECT_EQ(run.out, "message: a\n");
  EXPECT_THAT(run.err, HasSubstr("tern: (28) Operation timed out after "));
}

TEST_F(SseToolTest, VerboseShowsHeadsAndRetry) {
  server_.enqueue(stream("retry: 10\ndata: a\n\n"));
  server_.enqueue(MockResponse(204));
  ToolRun run = sse({"-v", url()});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "message: a\n");
  EXPECT_THAT(run.err, HasSubstr("> GET / HTTP/1.1\n"));
  EXPECT_THAT(run.err, HasSubstr("> Accept: text/event-stream\n"));
  EXPECT_THAT(run.err, HasSubstr("< HTTP/1.1 200 OK\n"));
  EXPECT_THAT(run.err, HasSubstr("< Content-Type: text/event-stream\n"));
  EXPECT_THAT(run.err, HasSubstr("* Retry delay is now 10 ms\n"));
  EXPECT_THAT(run.err, HasSubstr("< HTTP/1.1 204 "));
}

TEST_F(SseToolTest, WithoutVerboseNothingGoesToStderr) {
  server_.enqueue(stream("retry: 10\ndata: a\n\n"));
  server_.enqueue(MockResponse(204));
  ToolRun run = sse({url()});
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_THAT(run.err, Not(HasSubstr(">")));
}

}  // namespace
}  // namespace tern::tool
