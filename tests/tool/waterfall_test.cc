// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The --waterfall chart from hand-made call traces: well-formed SVG (checked by python3's XML
// parser), one row per call, reused and failed calls marked, text escaped.
#include "waterfall.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "svg_check.h"
#include "temp_dir.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using testing::readSvg;
using testing::SvgSummary;
using testing::TempDir;

// A trace whose events come at the given milliseconds after `origin`.
std::shared_ptr<CallTrace> trace(size_t index, std::string url, Clock::time_point origin,
                                 std::initializer_list<std::pair<const char*, int>> events) {
  auto result = std::make_shared<CallTrace>();
  result->index = index;
  result->url = std::move(url);
  result->start = origin;
  for (const auto& [name, ms] : events) {
    result->events.push_back({name, "", origin + std::chrono::milliseconds(ms)});
  }
  return result;
}

std::vector<std::shared_ptr<const CallTrace>> sampleRun(Clock::time_point origin) {
  return {
      trace(0, "http://example.test/a?x=1&y=<2>", origin,
            {{"callStart", 0},
             {"dnsStart", 1},
             {"dnsEnd", 20},
             {"connectStart", 21},
             {"connectEnd", 60},
             {"connectionAcquired", 60},
             {"requestHeadersStart", 61},
             {"requestHeadersEnd", 62},
             {"responseHeadersStart", 150},
             {"responseHeadersEnd", 151},
             {"responseBodyStart", 152},
             {"responseBodyEnd", 300},
             {"connectionReleased", 300},
             {"callEnd", 300}}),
      trace(1, "http://example.test/b", origin,
            {{"callStart", 310},
             {"connectionAcquired", 311},
             {"requestHeadersStart", 311},
             {"requestHeadersEnd", 312},
             {"responseHeadersStart", 400},
             {"responseHeadersEnd", 401},
             {"responseBodyStart", 401},
             {"responseBodyEnd", 420},
             {"connectionReleased", 420},
             {"callEnd", 420}}),
      trace(2, "http://down.test/", origin,
            {{"callStart", 430},
             {"connectStart", 431},
             {"connectFailed", 450},
             {"retryDecision", 450},
             {"callFailed", 450}}),
  };
}

SvgSummary draw(const std::vector<std::shared_ptr<const CallTrace>>& traces, std::string* svg) {
  TempDir dir;
  std::filesystem::path file = dir.path() / "run.svg";
  writeWaterfallFile(traces, file.string());
  if (svg != nullptr) *svg = dir.read("run.svg");
  return readSvg(file);
}

TEST(WaterfallTest, IsWellFormedSvgWithOneRowPerCall) {
  std::string svg;
  SvgSummary summary = draw(sampleRun(Clock::now()), &svg);
  EXPECT_TRUE(summary.wellFormed);
  EXPECT_EQ(summary.rows, 3);
  EXPECT_EQ(summary.legends, 1);
  EXPECT_THAT(svg, HasSubstr("<svg xmlns=\"http://www.w3.org/2000/svg\""));
}

TEST(WaterfallTest, MarksReusedAndFailedCalls) {
  SvgSummary summary = draw(sampleRun(Clock::now()), nullptr);
  EXPECT_EQ(summary.reused, 1);
  EXPECT_EQ(summary.failed, 1);
}

TEST(WaterfallTest, DrawsEachPhaseAsASegment) {
  std::string svg;
  SvgSummary summary = draw(sampleRun(Clock::now()), &svg);
  // Call 0: dns, connect, waiting, download; call 1: waiting, download; call 2: connect.
  EXPECT_EQ(summary.rects, 7);
  for (const char* phase :
       {"class=\"dns\"", "class=\"connect\"", "class=\"waiting\"", "class=\"download\""}) {
    EXPECT_THAT(svg, HasSubstr(phase));
  }
  EXPECT_THAT(svg, HasSubstr("<title>DNS: 19 ms</title>"));
  EXPECT_THAT(svg, HasSubstr("<title>Download: 150 ms</title>"));
}

TEST(WaterfallTest, EscapesUrls) {
  std::string svg;
  draw(sampleRun(Clock::now()), &svg);
  EXPECT_THAT(svg, HasSubstr("a?x=1&amp;y=&lt;2&gt;"));
  EXPECT_EQ(svg.find("y=<2>"), std::string::npos);
}

TEST(WaterfallTest, TimeAxisCoversTheWholeRun) {
  std::string svg;
  draw(sampleRun(Clock::now()), &svg);
  // 450 ms in all: ticks every 100 ms up to 500.
  EXPECT_THAT(svg, HasSubstr(">0 ms</text>"));
  EXPECT_THAT(svg, HasSubstr(">500 ms</text>"));
  EXPECT_EQ(svg.find(">600 ms</text>"), std::string::npos);
}

TEST(WaterfallTest, EmptyRunIsStillAValidChart) {
  SvgSummary summary = draw({}, nullptr);
  EXPECT_TRUE(summary.wellFormed);
  EXPECT_EQ(summary.rows, 0);
}

TEST(WaterfallTest, UnwritableFileThrows) {
  EXPECT_THROW(writeWaterfallFile({}, "/nonexistent/dir/run.svg"), std::runtime_error);
}

}  // namespace
}  // namespace tern::tool
