// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The progress meter in real transfers: TransferRunner against MockWebServer with a throttled
// body, told that stderr is a terminal, so the meter really draws (nothing here is timed: the
// throttle makes each transfer last a few seconds, and the assertions are on what was drawn).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

#include "options.h"
#include "progress_meter.h"
#include "terminal.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "transfer.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

Options parse(std::vector<std::string> args) {
  std::istringstream in;
  std::ostringstream out;
  std::ostringstream err;
  CommandLine commandLine = parseCommandLine(args, in, out, err);
  EXPECT_EQ(commandLine.exitCode, std::nullopt) << err.str();
  return commandLine.options;
}

constexpr Terminal kStderrTerminal{false, true, 60};

class ProgressTransferTest : public ::testing::Test {
 protected:
  // 2000 bytes, 400 every half second: the transfer lasts about two seconds.
  void enqueueSlowBody() {
    server_.enqueue(
        MockResponse::Builder().body(std::string(2000, 'x')).throttleBody(400, 500ms).build());
  }

  // Runs the command line, its body to `out_` and its stderr to `err_`.
  int run(const Options& options, Terminal terminal = kStderrTerminal) {
    TransferRunner runner(options, out_, err_, terminal);
    return runner.run();
  }

  MockWebServer server_;
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(ProgressTransferTest, SlowDownloadDrawsCurlsMeterAndEndsItsLine) {
  enqueueSlowBody();
  Options options = parse({server_.url("/slow").toString()});
  EXPECT_EQ(run(options), 0);
  EXPECT_EQ(out_.str(), std::string(2000, 'x'));
  const std::string err = err_.str();
  EXPECT_THAT(err, StartsWith(meterHeader()));
  // At least one line while the body came, and the final one at 100% of 2000 bytes.
  EXPECT_THAT(err, HasSubstr("\r100  2000  100  2000    0     0 "));
  EXPECT_THAT(err, EndsWith("\n"));
}

TEST_F(ProgressTransferTest, ProgressBarOptionDrawsTheBar) {
  enqueueSlowBody();
  Options options = parse({"-#", server_.url("/slow").toString()});
  EXPECT_EQ(run(options), 0);
  const std::string err = err_.str();
  EXPECT_THAT(err, Not(HasSubstr("% Total")));
  // The final frame: the whole bar (59 columns less 7 for the percentage) and 100.0%.
  EXPECT_THAT(err, HasSubstr("\r" + std::string(52, '#') + " 100.0%"));
  EXPECT_THAT(err, EndsWith("\n"));
}

TEST_F(ProgressTransferTest, MeterLineEndsBeforeTheErrorOfACutBody) {
  // The server cuts the body halfway, after 2000 bytes, which take at least two seconds.
  server_.enqueue(MockResponse::Builder()
                      .body(std::string(4000, 'x'))
                      .throttleBody(400, 500ms)
                      .socketPolicy(mockwebserver::SocketPolicy::DisconnectDuringResponseBody{})
                      .build());
  Options options = parse({"-o", "/dev/null", server_.url("/cut").toString()});
  EXPECT_NE(run(options), 0);
  const std::string err = err_.str();
  EXPECT_THAT(err, StartsWith(meterHeader()));
  // The meter's last line is ended, so the message starts a line of its own.
  EXPECT_THAT(err, HasSubstr("\ntern: ("));
}

TEST_F(ProgressTransferTest, SilentShowsNoMeter) {
  enqueueSlowBody();
  EXPECT_EQ(run(parse({"-s", server_.url("/slow").toString()})), 0);
  EXPECT_EQ(err_.str(), "");
  EXPECT_EQ(out_.str(), std::string(2000, 'x'));
}

TEST_F(ProgressTransferTest, StderrThatIsNoTerminalShowsNoMeter) {
  enqueueSlowBody();
  EXPECT_EQ(run(parse({server_.url("/slow").toString()}), Terminal{false, false, 80}), 0);
  EXPECT_EQ(err_.str(), "");
}

TEST(ProgressMeterStyleTest, CurlsRules) {
  Options plain = parse({"http://a/"});
  Terminal both{true, true, 80};
  Terminal stderrOnly{false, true, 80};
  // The body goes to a terminal: no meter (it would mix with the body).
  EXPECT_EQ(progressMeterStyle(plain, true, both), std::nullopt);
  // The body goes to a file (-o) or a pipe: the meter.
  EXPECT_EQ(progressMeterStyle(plain, false, both), ProgressMeter::Style::kMeter);
  EXPECT_EQ(progressMeterStyle(plain, true, stderrOnly), ProgressMeter::Style::kMeter);
  // Not on a redirected stderr.
  EXPECT_EQ(progressMeterStyle(plain, false, Terminal{true, false, 80}), std::nullopt);
  // -# draws the bar.
  EXPECT_EQ(progressMeterStyle(parse({"-#", "http://a/"}), false, both),
            ProgressMeter::Style::kBar);
  // Off with -s (even with -S), --no-progress-meter, -v, --trace-events and -Z.
  for (const std::vector<std::string>& off : {std::vector<std::string>{"-s"},
                                              {"-sS"},
                                              {"--no-progress-meter"},
                                              {"-v"},
                                              {"--trace-events"},
                                              {"-Z"},
                                              {"-#", "-s"}}) {
    std::vector<std::string> args = off;
    args.push_back("http://a/");
    EXPECT_EQ(progressMeterStyle(parse(args), false, both), std::nullopt) << off.front();
  }
}

TEST(ProgressMeterStyleTest, ParallelMeterByCurlsRules) {
  Terminal none;
  Terminal stdoutTerminal{true, false, 80};
  // -Z: curl's combined meter, also into a pipe or file, and with -#.
  EXPECT_TRUE(parallelMeterShown(parse({"-Z", "http://a/"}), true, none));
  EXPECT_TRUE(parallelMeterShown(parse({"-Z", "-#", "http://a/"}), false, stdoutTerminal));
  EXPECT_FALSE(parallelMeterShown(parse({"http://a/"}), false, none));
  // Not when a body goes to stdout on a terminal, nor with the options that turn the serial
  // meter off.
  EXPECT_FALSE(parallelMeterShown(parse({"-Z", "http://a/"}), true, stdoutTerminal));
  for (const std::vector<std::string>& off : {std::vector<std::string>{"-s"},
                                              {"-sS"},
                                              {"--no-progress-meter"},
                                              {"-v"},
                                              {"--trace-events"},
                                              {"--trace", "-"}}) {
    std::vector<std::string> args = off;
    args.insert(args.end(), {"-Z", "http://a/"});
    EXPECT_FALSE(parallelMeterShown(parse(args), false, none)) << off.front();
  }
}

}  // namespace
}  // namespace tern::tool
