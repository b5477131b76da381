// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// curl -Z's combined meter: its lines from the numbers (as curl 7.88.1 printed them against a
// local server), the meter's timing on a fake clock, and the built tern against curl itself
// with the same arguments and server (skipped where curl is not installed).
#include "parallel_meter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "options.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tool_process.h"
#include "transfer.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;
using mockwebserver::SocketPolicy;
using testing::findCurl;
using ::testing::HasSubstr;
using testing::runCurl;
using testing::runTern;
using ::testing::StartsWith;
using testing::ToolRun;

constexpr size_t kLineWidth = 71;  // After the '\r'.

TEST(ParallelMeterTest, HeaderIsCurls) {
  EXPECT_EQ(parallelMeterHeader(),
            "DL% UL%  Dled  Uled  Xfers  Live Total     Current  Left    Speed\n");
}

TEST(ParallelMeterTest, FirstLineIsCurlsZeros) {
  ParallelMeterState state;
  state.transfers = 2;
  state.live = 2;
  EXPECT_EQ(parallelMeterLine(state, false),
            "\r--  --      0     0     2     2  --:--:-- --:--:-- --:--:--     0      ");
  EXPECT_EQ(parallelMeterLine(state, false).size(), 1 + kLineWidth);
}

TEST(ParallelMeterTest, FinalLineEndsWithANewline) {
  ParallelMeterState state;
  state.downloaded = 47;
  state.downloadTotal = 47;
  state.uploadTotal = 0;
  state.transfers = 2;
  state.speed = 1740;
  EXPECT_EQ(parallelMeterLine(state, true),
            "\r100 --     47     0     2     0  --:--:-- --:--:-- --:--:--  1740     \n");
  EXPECT_EQ(parallelMeterLine(state, true).size(), 1 + kLineWidth);
}

TEST(ParallelMeterTest, EstimateNeedsEverySizeAndASpeed) {
  ParallelMeterState state;
  state.downloaded = 25;
  state.downloadTotal = 30;
  state.transfers = 6;
  state.live = 1;
  state.spentSeconds = 3;
  state.speed = 6;
  // 30 bytes at 6 a second: 5 s in all; 5 bytes left is under a second ("--:--:--").
  EXPECT_EQ(parallelMeterLine(state, false),
            "\r 83 --     25     0     6     1   0:00:05  0:00:03 --:--:--     6      ");
  state.downloadTotal = std::nullopt;
  EXPECT_EQ(parallelMeterLine(state, false),
            "\r--  --     25     0     6     1  --:--:--  0:00:03 --:--:--     6      ");
}

TEST(ParallelMeterTest, UploadAndLargeNumbers) {
  ParallelMeterState state;
  state.downloaded = 357;
  state.downloadTotal = 357;
  state.uploaded = 3;
  state.uploadTotal = 3;
  state.transfers = 1;
  state.speed = 89250;
  EXPECT_EQ(parallelMeterLine(state, true),
            "\r100 100   357     3     1     0  --:--:-- --:--:-- --:--:-- 89250     \n");
  // curl prints its percentage into four bytes: a fourth digit is cut off. Sizes as its
  // serial meter's.
  state.downloaded = int64_t{50} * 1024 * 1024;
  state.downloadTotal = 1000;
  state.speed = 200000;
  EXPECT_EQ(parallelMeterLine(state, false).substr(0, 20), "\r524 100 50.0M     3");
}

// A fake clock, a hundred milliseconds into a second so that the second does not change in the
// tests that stay under one.
class ParallelMeterClockTest : public ::testing::Test {
 protected:
  ParallelMeter::Clock::time_point now_ = ParallelMeter::Clock::time_point(100s + 100ms);
};

TEST_F(ParallelMeterClockTest, RunUnderHalfASecondShowsHeaderZerosAndTheFinalLine) {
  ParallelMeter meter(2, 50, [this] { return now_; });
  EXPECT_EQ(meter.start(),
            "DL% UL%  Dled  Uled  Xfers  Live Total     Current  Left    Speed\n"
            "\r--  --      0     0     2     2  --:--:-- --:--:-- --:--:--     0      ");
  now_ += 27ms;
  meter.sizes(0, 41, -1, 0);
  meter.progress(0, 41);
  meter.ended(0);
  meter.sizes(1, 6, -1, 0);
  meter.progress(1, 6);
  meter.ended(1);
  EXPECT_EQ(meter.nextLine(), std::nullopt);
  // curl's own final line for these two transfers (47 bytes in 27 ms).
  EXPECT_EQ(meter.finalLine(),
            "\r100 --     47     0     2     0  --:--:-- --:--:-- --:--:--  1740     \n");
}

TEST_F(ParallelMeterClockTest, TransferEndingAfterHalfASecondIsStillLiveInItsLine) {
  ParallelMeter meter(1, 50, [this] { return now_; });
  meter.start();
  now_ += 700ms;
  meter.sizes(0, 5, -1, 0);
  meter.progress(0, 5);
  meter.ended(0);
  // curl draws before it takes the ended transfer out: Live 1, then 0 in the final line.
  EXPECT_EQ(meter.nextLine(),
            "\r100 --      5     0     1     1  --:--:-- --:--:-- --:--:--     7      ");
  EXPECT_EQ(meter.nextLine(), std::nullopt);
  EXPECT_EQ(meter.finalLine(),
            "\r100 --      5     0     1     0  --:--:-- --:--:-- --:--:--     7     \n");
}

TEST_F(ParallelMeterClockTest, ParallelMaxOneKeepsOneTransferMadeAhead) {
  ParallelMeter meter(5, 1, [this] { return now_; });
  EXPECT_THAT(
      meter.start(),
      HasSubstr("\r--  --      0     0     2     1  --:--:-- --:--:-- --:--:--     0      "));
  now_ += 600ms;
  meter.sizes(0, 5, -1, 0);
  meter.progress(0, 5);
  meter.ended(0);
  EXPECT_EQ(meter.nextLine(),
            "\r--  --      5     0     2     1  --:--:-- --:--:-- --:--:--     8      ");
  now_ += 600ms;
  meter.sizes(1, 5, -1, 0);
  meter.progress(1, 5);
  meter.ended(1);
  // After the first ended curl made two more (one to refill, one for the transfer it started),
  // as curl 7.88 shows with --parallel-max 1.
  EXPECT_EQ(meter.nextLine(),
            "\r--  --     10     0     4     1  --:--:--  0:00:01 --:--:--     8      ");
  now_ += 100ms;
  for (size_t i = 2; i < 5; ++i) {
    meter.sizes(i, 5, -1, 0);
    meter.progress(i, 5);
    meter.ended(i);
  }
  EXPECT_EQ(meter.nextLine(), std::nullopt);
  EXPECT_EQ(meter.finalLine(),
            "\r100 --     25     0     5     0   0:00:01  0:00:01 --:--:--    19     \n");
}

TEST_F(ParallelMeterClockTest, LinesComeMoreThanHalfASecondApart) {
  ParallelMeter meter(1, 50, [this] { return now_; });
  meter.start();
  meter.sizes(0, 1000, -1, 0);
  now_ += 600ms;
  meter.progress(0, 600);
  EXPECT_EQ(meter.nextLine(),
            "\r 60 --    600     0     1     1   0:00:01 --:--:-- --:--:--  1000      ");
  // The end 400 ms later draws no line of its own: the final line follows.
  now_ += 400ms;
  meter.progress(0, 1000);
  meter.ended(0);
  EXPECT_EQ(meter.nextLine(), std::nullopt);
  EXPECT_EQ(meter.finalLine(),
            "\r100 --   1000     0     1     0   0:00:01  0:00:01 --:--:--  1000     \n");
}

// The built tern and curl against one server; see curl_comparison_test.cc.
class ParallelMeterAsCurlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (findCurl().empty()) {
      GTEST_SKIP() << "curl is not installed (apt-get install curl), so tern cannot be "
                      "compared with it";
    }
    server_.setDispatcher([](const RecordedRequest& request) {
      const std::string& path = request.path();
      if (path == "/fail") return MockResponse::Builder().code(404).body("not here\n").build();
      if (path == "/short") {
        return MockResponse::Builder()
            .body("0123456789")
            .socketPolicy(SocketPolicy::DisconnectDuringResponseBody{})
            .build();
      }
      if (path == "/empty") {
        return MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAfterRequest{}).build();
      }
      if (path == "/slow") {  // 2000 bytes in about 1.2 s.
        return MockResponse::Builder()
            .body(std::string(2000, 'x'))
            .throttleBody(500, 400ms)
            .build();
      }
      // The request's body, or a body as long as the path.
      std::string body = request.bodyUtf8().empty() ? path : request.bodyUtf8();
      return MockResponse::Builder().body(body).build();
    });
  }

  std::string url(std::string_view path) { return server_.url(path).toString(); }

  // stderr with what timing decides left out, so that curl's and tern's compare: the meter
  // lines between the first and the last (a slower run draws more of them), the time and speed
  // columns of the others, and how long a failed connect took. "curl: " reads "tern: ".
  static std::string normalized(std::string err) {
    std::vector<size_t> lines;
    for (size_t at = err.find('\r'); at != std::string::npos; at = err.find('\r', at + 1)) {
      if (at + 1 + kLineWidth <= err.size()) lines.push_back(at);
    }
    for (size_t i = lines.size(); i-- > 0;) {
      if (i != 0 && i + 1 != lines.size()) {
        err.erase(lines[i], 1 + kLineWidth);
      } else {
        err.replace(lines[i] + 1 + 33, 32, 32, '~');  // Total, Current, Left, Speed.
      }
    }
    err = std::regex_replace(err, std::regex("curl: \\("), "tern: (");
    return std::regex_replace(err, std::regex("after [0-9]+ ms"), "after N ms");
  }

  // Runs curl and tern with `args`: the same stderr (normalized), stdout and exit code. Returns
  // tern's run.
  ToolRun expectSameMeterAsCurl(const std::vector<std::string>& args) {
    ToolRun curl = runCurl(args);
    ToolRun tern = runTern(args);
    EXPECT_EQ(normalized(tern.err), normalized(curl.err)) << "stderr of curl:\n"
                                                          << curl.err << "\nstderr of tern:\n"
                                                          << tern.err;
    EXPECT_EQ(tern.out, curl.out);
    EXPECT_EQ(tern.exitCode, curl.exitCode);
    return tern;
  }

  MockWebServer server_;
};

TEST_F(ParallelMeterAsCurlTest, TwoTransfersToFiles) {
  ToolRun run =
      expectSameMeterAsCurl({"-Z", "-o", "/dev/null", "-o", "/dev/null", url("/a"), url("/bcdef")});
  EXPECT_THAT(run.err, StartsWith(parallelMeterHeader() + "\r--  --      0     0     2     2 "));
  EXPECT_THAT(run.err, HasSubstr("\r100 --      8     0     2     0 "));
}

TEST_F(ParallelMeterAsCurlTest, BodiesToAPipeAndOneUrl) {
  // The same body twice, as the two may end in either order.
  expectSameMeterAsCurl({"-Z", url("/ab"), url("/ab")});
  expectSameMeterAsCurl({"-Z", url("/a")});
}

TEST_F(ParallelMeterAsCurlTest, ParallelMaxOne) {
  expectSameMeterAsCurl({"-Z", "--parallel-max", "1", "-o", "/dev/null", "-o", "/dev/null", "-o",
                         "/dev/null", url("/a"), url("/bcdef"), url("/g")});
}

TEST_F(ParallelMeterAsCurlTest, FailuresPrintTheirMessagesBetweenTheLines) {
  // A 404 with -f counts its size but none of its body; a cut body what came; an empty reply
  // and a refused connection nothing.
  ToolRun run = expectSameMeterAsCurl(
      {"-Z", "-f", "-o", "/dev/null", "-o", "/dev/null", url("/abcde"), url("/fail")});
  EXPECT_THAT(run.err, HasSubstr("     0      tern: (22) The requested URL returned error: 404\n"
                                 "\r 40 --      6     0     2     0 "));
  expectSameMeterAsCurl({"-Z", "-o", "/dev/null", "-o", "/dev/null", url("/short"), url("/ab")});
  expectSameMeterAsCurl({"-Z", "-o", "/dev/null", "-o", "/dev/null", url("/empty"), url("/ab")});
  MockWebServer closed;
  std::string refused = closed.url("/").toString();
  closed.shutdown();
  expectSameMeterAsCurl({"-Z", "-o", "/dev/null", "-o", "/dev/null", url("/ab"), refused});
}

TEST_F(ParallelMeterAsCurlTest, UploadIsCounted) {
  expectSameMeterAsCurl({"-Z", "-d", "a=1", "-o", "/dev/null", url("/echo")});
}

TEST_F(ParallelMeterAsCurlTest, ProgressBarOptionShowsTheSameMeterAndNoProgressMeterNone) {
  expectSameMeterAsCurl({"-Z", "-#", "-o", "/dev/null", url("/a"), url("/b")});
  ToolRun run =
      expectSameMeterAsCurl({"-Z", "--no-progress-meter", "-o", "/dev/null", url("/empty")});
  EXPECT_EQ(run.err, "tern: (52) Empty reply from server\n");
}

TEST_F(ParallelMeterAsCurlTest, TransferOverASecond) {
  ToolRun run = expectSameMeterAsCurl(
      {"-Z", "-o", "/dev/null", "-o", "/dev/null", url("/slow"), url("/abc")});
  EXPECT_THAT(run.err, HasSubstr("\r100 --   2004     0     2     0 "));
  // Lines in between, at most twice a second (about two of them, not counting the first and
  // the last).
  EXPECT_GE(std::count(run.err.begin(), run.err.end(), '\r'), 3);
  EXPECT_LE(std::count(run.err.begin(), run.err.end(), '\r'), 6);
}

TEST_F(ParallelMeterAsCurlTest, SilentShowsNoMeterUnlikeCurl788) {
  // curl 7.88 draws its -Z meter even with -s, which its manual says hides it; tern does not.
  ToolRun run = runTern({"-Z", "-s", "-o", "/dev/null", url("/a")});
  EXPECT_EQ(run.err, "");
  run = runTern({"-Z", "-sS", "-o", "/dev/null", url("/empty")});
  EXPECT_EQ(run.err, "tern: (52) Empty reply from server\n");
}

TEST(ParallelMeterRunnerTest, NoMeterWhenABodyGoesToATerminal) {
  MockWebServer server;
  server.enqueue(MockResponse::Builder().body("x").build());
  server.enqueue(MockResponse::Builder().body("x").build());
  std::istringstream in;
  std::ostringstream out;
  std::ostringstream err;
  CommandLine commandLine = parseCommandLine(
      {"-Z", "-o", "/dev/null", server.url("/1").toString(), server.url("/2").toString()}, in, out,
      err);
  ASSERT_EQ(commandLine.exitCode, std::nullopt) << err.str();
  // The second body goes to stdout, a terminal: curl then shows no meter for the whole run.
  TransferRunner runner(commandLine.options, out, err, Terminal{true, true, 80});
  EXPECT_EQ(runner.run(), 0);
  EXPECT_EQ(out.str(), "x");
  EXPECT_EQ(err.str(), "");
}

}  // namespace
}  // namespace tern::tool
