// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The tool's views of the events, end to end: --trace-events, -v's information lines, -w's
// times and %{num_connects}, and --waterfall.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "svg_check.h"
#include "temp_dir.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tool_process.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using ::testing::HasSubstr;
using testing::readSvg;
using testing::runTern;
using testing::SvgSummary;
using testing::TempDir;
using testing::ToolRun;

MockResponse body(std::string_view text) { return MockResponse::Builder().body(text).build(); }

// A --trace-events line: "<ms> <call#> <eventName> [details]".
struct TraceLine {
  double ms = 0;
  int call = 0;
  std::string event;
  std::string detail;
};

std::vector<TraceLine> traceLines(const std::string& err) {
  static const std::regex kLine(R"(([0-9]+\.[0-9]{3}) ([0-9]+) ([a-zA-Z]+)(?: (.*))?)");
  std::vector<TraceLine> lines;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    std::smatch match;
    if (!std::regex_match(line, match, kLine)) continue;
    lines.push_back({std::stod(match[1]), std::stoi(match[2]), match[3], match[4]});
  }
  return lines;
}

std::vector<std::string> eventsOf(const std::vector<TraceLine>& lines, int call) {
  std::vector<std::string> names;
  for (const TraceLine& line : lines) {
    if (line.call == call) names.push_back(line.event);
  }
  return names;
}

class TraceEventsTest : public ::testing::Test {
 protected:
  std::string url(std::string_view path) { return server_.url(path).toString(); }
  std::string closedUrl() {
    // A port nothing listens on: the server's, once it is closed.
    MockWebServer closed;
    closed.start();
    std::string result = closed.url("/").toString();
    closed.close();
    return result;
  }
  MockWebServer server_;
};

TEST_F(TraceEventsTest, PrintsEveryEventOfEveryCall) {
  server_.enqueue(body("a"));
  server_.enqueue(body("b"));
  ToolRun run = runTern({"--trace-events", url("/a"), url("/b")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "ab");
  std::vector<TraceLine> lines = traceLines(run.err);
  // Every stderr line is a trace line.
  EXPECT_EQ(lines.size(), static_cast<size_t>(std::count(run.err.begin(), run.err.end(), '\n')));
  EXPECT_EQ(eventsOf(lines, 0),
            (std::vector<std::string>{
                "callStart", "proxySelectStart", "proxySelectEnd", "connectStart", "connectEnd",
                "connectionAcquired", "requestHeadersStart", "requestHeadersEnd",
                "responseHeadersStart", "responseHeadersEnd", "followUpDecision",
                "responseBodyStart", "responseBodyEnd", "connectionReleased", "callEnd"}));
  // The second call reuses the connection.
  EXPECT_EQ(eventsOf(lines, 1),
            (std::vector<std::string>{"callStart", "connectionAcquired", "requestHeadersStart",
                                      "requestHeadersEnd", "responseHeadersStart",
                                      "responseHeadersEnd", "followUpDecision", "responseBodyStart",
                                      "responseBodyEnd", "connectionReleased", "callEnd"}));
}

TEST_F(TraceEventsTest, TimesCountFromEachCallsStart) {
  server_.enqueue(MockResponse::Builder().headersDelay(300ms).body("slow").build());
  ToolRun run = runTern({"--trace-events", url("/")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  std::vector<TraceLine> lines = traceLines(run.err);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front().event, "callStart");
  EXPECT_EQ(lines.front().ms, 0.0);
  double previous = 0;
  for (const TraceLine& line : lines) {
    EXPECT_GE(line.ms, previous) << line.event;
    previous = line.ms;
  }
  for (const TraceLine& line : lines) {
    if (line.event == "responseHeadersStart") {
      EXPECT_GE(line.ms, 250.0);
    }
  }
}

TEST_F(TraceEventsTest, ShowsDetails) {
  server_.enqueue(body("abc"));
  ToolRun run = runTern({"--trace-events", url("/x")});
  std::string address = "127.0.0.1:" + std::to_string(server_.port());
  EXPECT_THAT(run.err, HasSubstr(" 0 connectEnd " + address + " http/1.1\n"));
  EXPECT_THAT(run.err, HasSubstr(" 0 requestHeadersEnd GET " + url("/x") + "\n"));
  EXPECT_THAT(run.err, HasSubstr(" 0 responseHeadersEnd 200\n"));
  EXPECT_THAT(run.err, HasSubstr(" 0 responseBodyEnd 3\n"));
}

TEST_F(TraceEventsTest, ShowsAFailedConnect) {
  std::string target = closedUrl();
  ToolRun run = runTern({"-s", "--trace-events", target});
  EXPECT_EQ(run.exitCode, 7);
  std::vector<std::string> events = eventsOf(traceLines(run.err), 0);
  ASSERT_GE(events.size(), 3u);
  EXPECT_EQ(events[events.size() - 3], "connectFailed");
  EXPECT_EQ(events.back(), "callFailed");
}

TEST_F(TraceEventsTest, VerboseSaysWhereItConnects) {
  server_.enqueue(body("v"));
  ToolRun run = runTern({"-v", url("/")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  std::string port = std::to_string(server_.port());
  EXPECT_THAT(run.err, HasSubstr("*   Trying 127.0.0.1:" + port +
                                 "...\n"
                                 "* Connected to 127.0.0.1 (127.0.0.1) port " +
                                 port +
                                 " (#0)\n"
                                 "> GET / HTTP/1.1\r\n"));
}

TEST_F(TraceEventsTest, VerboseReportsAFailedConnect) {
  std::string target = closedUrl();
  ToolRun run = runTern({"-v", target});
  EXPECT_EQ(run.exitCode, 7);
  EXPECT_THAT(run.err, HasSubstr("* connect to 127.0.0.1 port "));
  EXPECT_THAT(run.err, HasSubstr(" failed: "));
}

TEST_F(TraceEventsTest, VerboseShowsAReusedConnectionForARedirect) {
  server_.enqueue(MockResponse::Builder().code(302).addHeader("Location", "/b").build());
  server_.enqueue(body("there"));
  ToolRun run = runTern({"-L", "-v", url("/a")});
  EXPECT_EQ(run.out, "there");
  EXPECT_THAT(run.err, HasSubstr("* Re-using existing connection #0 with host 127.0.0.1\n"
                                 "> GET /b HTTP/1.1\r\n"));
}

TEST_F(TraceEventsTest, WriteOutTimesComeFromTheEvents) {
  server_.enqueue(MockResponse::Builder().headersDelay(200ms).body("x").build());
  server_.enqueue(body("y"));
  ToolRun run = runTern({"-w",
                         "%{time_namelookup} %{time_connect} %{time_appconnect} "
                         "%{time_pretransfer} %{time_starttransfer} %{time_total} "
                         "%{num_connects}\\n",
                         "-o", "/dev/null", url("/slow"), "-o", "/dev/null", url("/fast")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  std::istringstream in(run.out);
  double lookup, connect, appconnect, pretransfer, starttransfer, total;
  int connects;
  // A fresh connection to an IP address: no lookup, no TLS.
  ASSERT_TRUE(in >> lookup >> connect >> appconnect >> pretransfer >> starttransfer >> total >>
              connects)
      << run.out;
  EXPECT_EQ(lookup, 0.0);
  EXPECT_GT(connect, 0.0);
  EXPECT_EQ(appconnect, 0.0);
  EXPECT_GE(pretransfer, connect);
  EXPECT_GE(starttransfer, pretransfer + 0.15);
  EXPECT_GE(total, starttransfer);
  EXPECT_EQ(connects, 1);
  // The pooled connection: no connect at all.
  ASSERT_TRUE(in >> lookup >> connect >> appconnect >> pretransfer >> starttransfer >> total >>
              connects)
      << run.out;
  EXPECT_EQ(connect, 0.0);
  EXPECT_GT(pretransfer, 0.0);
  EXPECT_GE(starttransfer, pretransfer);
  EXPECT_EQ(connects, 0);
}

TEST_F(TraceEventsTest, WaterfallHasOneRowPerCall) {
  TempDir dir;
  server_.enqueue(body("a"));
  server_.enqueue(body("b"));
  std::string chart = (dir.path() / "run.svg").string();
  std::string down = closedUrl();
  ToolRun run = runTern({"-s", "--waterfall", chart, url("/a"), url("/b"), down});
  EXPECT_EQ(run.exitCode, 7);  // The last transfer's.
  EXPECT_EQ(run.out, "ab");
  SvgSummary summary = readSvg(chart);
  EXPECT_TRUE(summary.wellFormed);
  EXPECT_EQ(summary.rows, 3);
  EXPECT_EQ(summary.reused, 1);  // The second call took the first one's connection.
  EXPECT_EQ(summary.failed, 1);
  EXPECT_EQ(summary.legends, 1);
  EXPECT_THAT(dir.read("run.svg"), HasSubstr(url("/b")));
}

TEST_F(TraceEventsTest, WaterfallCountsEveryGlobExpansion) {
  TempDir dir;
  for (int i = 0; i < 4; ++i) server_.enqueue(body("x"));
  std::string chart = (dir.path() / "glob.svg").string();
  ToolRun run = runTern(
      {"--waterfall", chart, "http://127.0.0.1:" + std::to_string(server_.port()) + "/[1-4]"});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  SvgSummary summary = readSvg(chart);
  EXPECT_EQ(summary.rows, 4);
  EXPECT_EQ(summary.reused, 3);
}

TEST_F(TraceEventsTest, UnwritableWaterfallIsExit23) {
  server_.enqueue(body("a"));
  ToolRun run = runTern({"--waterfall", "/nonexistent/dir/run.svg", url("/")});
  EXPECT_EQ(run.exitCode, 23);
  EXPECT_THAT(run.err, HasSubstr("tern: (23) Failed to write the waterfall to "
                                 "/nonexistent/dir/run.svg"));
}

}  // namespace
}  // namespace tern::tool
