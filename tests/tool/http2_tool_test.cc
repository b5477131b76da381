// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The tool's HTTP version options and -Z/--parallel, against MockWebServer over h2c.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "options.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tool_process.h"

namespace tern::tool {
namespace {

using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;
using ::testing::HasSubstr;
using testing::runTern;
using testing::ToolRun;

Options parseOptions(const std::vector<std::string>& args, std::string* err = nullptr) {
  std::istringstream in;
  std::ostringstream out;
  std::ostringstream errors;
  CommandLine commandLine = parseCommandLine(args, in, out, errors);
  if (err) *err = errors.str();
  return commandLine.options;
}

TEST(Http2OptionsTest, HttpVersionFlags) {
  EXPECT_EQ(parseOptions({"http://a/"}).httpVersion, Options::HttpVersion::kDefault);
  EXPECT_EQ(parseOptions({"--http1.1", "http://a/"}).httpVersion, Options::HttpVersion::kHttp11);
  EXPECT_EQ(parseOptions({"--http2", "http://a/"}).httpVersion, Options::HttpVersion::kHttp2);
  EXPECT_EQ(parseOptions({"--http2-prior-knowledge", "http://a/"}).httpVersion,
            Options::HttpVersion::kHttp2PriorKnowledge);
}

TEST(Http2OptionsTest, ParallelFlagsAndLimit) {
  Options defaults = parseOptions({"http://a/"});
  EXPECT_FALSE(defaults.parallel);
  EXPECT_EQ(defaults.parallelMax, 50);
  Options parallel = parseOptions({"-Z", "--parallel-max", "7", "http://a/"});
  EXPECT_TRUE(parallel.parallel);
  EXPECT_EQ(parallel.parallelMax, 7);
  EXPECT_TRUE(parseOptions({"--parallel", "http://a/"}).parallel);
  EXPECT_EQ(parseOptions({"--parallel-max", "1000", "http://a/"}).parallelMax, 300);
  std::string err;
  parseOptions({"--parallel-max", "x", "http://a/"}, &err);
  EXPECT_THAT(err, HasSubstr("expected a proper numerical parameter"));
}

class Http2ToolTest : public ::testing::Test {
 protected:
  Http2ToolTest() { server.setProtocols({Protocol::H2_PRIOR_KNOWLEDGE}); }
  MockWebServer server;
};

TEST_F(Http2ToolTest, PriorKnowledgeFetchesOverHttp2) {
  server.enqueue(MockResponse::Builder().body("hello").build());
  ToolRun run = runTern(
      {"-s", "--http2-prior-knowledge", "-w", " %{http_version}", server.url("/").toString()});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "hello 2");
  EXPECT_EQ(server.takeRequest().requestLine(), "GET / HTTP/2");
}

TEST_F(Http2ToolTest, Http11FlagSpeaksHttp11) {
  MockWebServer http1;
  http1.enqueue(MockResponse::Builder().body("one").build());
  ToolRun run = runTern({"-s", "--http1.1", "-w", " %{http_version}", http1.url("/").toString()});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "one 1.1");
}

TEST_F(Http2ToolTest, ParallelTransfersMultiplexOnOneConnection) {
  server.setDispatcher([](const RecordedRequest& request) {
    return MockResponse::Builder().body("[" + request.path() + "]").build();
  });
  std::vector<std::string> args = {"-s", "-Z", "--http2-prior-knowledge", "-w",
                                   "%{num_connects}\n"};
  for (int i = 0; i < 30; ++i) args.push_back(server.url("/" + std::to_string(i)).toString());
  ToolRun run = runTern(args);
  EXPECT_EQ(run.exitCode, 0) << run.err;
  int connects = 0;
  std::set<std::string> bodies;
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) {
    // Each transfer's output is whole: "[/N]" then its -w text.
    size_t close = line.find(']');
    ASSERT_NE(close, std::string::npos) << line << "\nall:\n" << run.out;
    bodies.insert(line.substr(0, close + 1));
    connects += std::stoi(line.substr(close + 1));
  }
  EXPECT_EQ(bodies.size(), 30u);
  EXPECT_EQ(connects, 1);
  for (int i = 0; i < 30; ++i) EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
}

TEST_F(Http2ToolTest, ParallelMaxBoundsConcurrency) {
  std::atomic<int> active{0};
  std::atomic<int> peak{0};
  server.setDispatcher([&](const RecordedRequest&) {
    int now = ++active;
    for (int seen = peak; now > seen && !peak.compare_exchange_weak(seen, now);) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    --active;
    return MockResponse::Builder().body("x").build();
  });
  std::vector<std::string> args = {"-s", "-Z", "--parallel-max", "3", "--http2-prior-knowledge"};
  for (int i = 0; i < 12; ++i) args.push_back(server.url("/").toString());
  ToolRun run = runTern(args);
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, std::string(12, 'x'));
  EXPECT_LE(peak.load(), 3);
  EXPECT_GE(peak.load(), 2);
}

TEST_F(Http2ToolTest, ParallelFailureReportsEachTransfer) {
  MockWebServer http1;
  http1.enqueue(MockResponse::Builder().code(404).body("missing").build());
  ToolRun run = runTern({"-Z", "-f", http1.url("/a").toString()});
  EXPECT_EQ(run.exitCode, 22);
  EXPECT_THAT(run.err, HasSubstr("The requested URL returned error: 404"));
}

}  // namespace
}  // namespace tern::tool
