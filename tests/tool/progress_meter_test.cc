// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "progress_meter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <string>

namespace tern::tool {
namespace {

using namespace std::chrono_literals;

TEST(ProgressMeterTest, SizesFitInFiveCharactersAsCurlShowsThem) {
  EXPECT_EQ(formatSize5(0), "    0");
  EXPECT_EQ(formatSize5(99999), "99999");
  EXPECT_EQ(formatSize5(100000), "  97k");
  EXPECT_EQ(formatSize5(int64_t{10000} * 1024 - 1), "9999k");
  EXPECT_EQ(formatSize5(int64_t{10000} * 1024), " 9.7M");
  EXPECT_EQ(formatSize5(int64_t{99} * 1024 * 1024 + 900 * 1024), "99.8M");
  EXPECT_EQ(formatSize5(int64_t{1024} * 1024 * 1024), "1024M");
  EXPECT_EQ(formatSize5(int64_t{10000} * 1024 * 1024), " 9.7G");
  EXPECT_EQ(formatSize5(int64_t{500} * 1024 * 1024 * 1024), " 500G");
  EXPECT_EQ(formatSize5(int64_t{20000} * 1024 * 1024 * 1024), "  19T");
  EXPECT_EQ(formatSize5(int64_t{1} << 62), "4096P");
}

TEST(ProgressMeterTest, DurationsFitInEightCharacters) {
  EXPECT_EQ(formatDuration8(0), "--:--:--");
  EXPECT_EQ(formatDuration8(-3), "--:--:--");
  EXPECT_EQ(formatDuration8(7), " 0:00:07");
  EXPECT_EQ(formatDuration8(3 * 3600 + 25 * 60 + 9), " 3:25:09");
  EXPECT_EQ(formatDuration8(99 * 3600 + 59 * 60 + 59), "99:59:59");
  EXPECT_EQ(formatDuration8(100 * 3600), "  4d 04h");
  EXPECT_EQ(formatDuration8(int64_t{1000} * 86400), "   1000d");
}

TEST(ProgressMeterTest, HeaderIsCurls) {
  EXPECT_EQ(meterHeader(),
            "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n"
            "                                 Dload  Upload   Total   Spent    Left  Speed\n");
}

TEST(ProgressMeterTest, LineForAKnownSizeHalfwayThere) {
  ProgressState state;
  state.downloadTotal = int64_t{100} * 1024 * 1024;
  state.downloaded = int64_t{50} * 1024 * 1024;
  state.elapsedSeconds = 2.0;
  state.currentSpeed = int64_t{25} * 1024 * 1024;
  // 25 MiB/s on average: 4 s in all, 2 spent, 2 left. The columns line up under the header.
  EXPECT_EQ(meterLine(state),
            "\r 50  100M   50 50.0M    0     0  25.0M      0  0:00:04  0:00:02  0:00:02 25.0M");
  EXPECT_EQ(meterLine(state).size(), 1u + 78u);  // curl's lines are 78 columns.
}

TEST(ProgressMeterTest, LineForAnUnknownSizeCountsWhatArrived) {
  ProgressState state;
  state.downloaded = 12345;
  state.elapsedSeconds = 1.5;
  EXPECT_EQ(meterLine(state),
            "\r100 12345    0 12345    0     0   8230      0 --:--:--  0:00:01 --:--:--     0");
}

TEST(ProgressMeterTest, LineForAnUploadAndADownload) {
  ProgressState state;
  state.uploadTotal = 1000;
  state.uploaded = 1000;
  state.downloadTotal = 1000;
  state.downloaded = 500;
  state.elapsedSeconds = 1.0;
  EXPECT_EQ(meterLine(state),
            "\r 75  2000   50   500  100  1000    500   1000  0:00:02  0:00:01  0:00:01     0");
}

TEST(ProgressMeterTest, BarFillsItsShareOfTheWidth) {
  ProgressState state;
  state.downloadTotal = 1000;
  state.downloaded = 500;
  std::string line = progressBarLine(state, 27, 0);  // A 20-column bar.
  EXPECT_EQ(line, "\r##########            50.0%");
  state.downloaded = 1000;
  EXPECT_EQ(progressBarLine(state, 27, 0), "\r#################### 100.0%");
}

TEST(ProgressMeterTest, BarForAnUnknownSizeMovesAMarker) {
  ProgressState state;
  state.downloaded = 5;
  EXPECT_EQ(progressBarLine(state, 12, 0), "\r-=O=-      ");
  EXPECT_EQ(progressBarLine(state, 12, 3), "\r   -=O=-   ");
  EXPECT_EQ(progressBarLine(state, 12, 99), "\r      -=O=-");  // Kept on the line.
}

// A meter on a clock the test moves.
struct MeterFixture {
  std::ostringstream err;
  ProgressMeter::Clock::time_point now{};
  ProgressMeter meter{err, ProgressMeter::Style::kMeter, 79, [this] { return now; }};
};

TEST(ProgressMeterTest, TransferShorterThanASecondShowsCurlsZerosAndFinalLine) {
  MeterFixture f;
  f.meter.start();
  f.meter.setDownloadTotal(100);
  f.now += 900ms;
  f.meter.update(100);
  EXPECT_EQ(f.err.str(), "");  // Nothing while it runs.
  f.meter.finish();
  // What curl 7.88 wrote for a 78-byte transfer in a millisecond.
  std::string out = f.err.str();
  EXPECT_EQ(
      out.find(meterHeader() + "\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- "
                               "--:--:--     0\r100   100  100   100    0     0 "),
      0u)
      << out;
  EXPECT_EQ(out.back(), '\n');
  EXPECT_TRUE(f.meter.shown());
}

TEST(ProgressMeterTest, LongerTransferShowsHeaderThenALineASecondThenTheEnd) {
  MeterFixture f;
  f.meter.start();
  f.meter.setDownloadTotal(4000);
  f.now += 1s;
  f.meter.update(1000);
  f.now += 500ms;
  f.meter.update(1500);  // Within the second: not drawn.
  f.now += 500ms;
  f.meter.update(2000);
  f.now += 300ms;
  f.meter.finish();
  std::string out = f.err.str();
  EXPECT_EQ(out.find(meterHeader()), 0u);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\r'), 3);  // 1 s, 2 s, and the end.
  EXPECT_NE(out.find("\r 25  4000   25  1000"), std::string::npos);
  EXPECT_NE(out.find("\r 50  4000   50  2000"), std::string::npos);
  EXPECT_EQ(out.back(), '\n');
  EXPECT_TRUE(f.meter.shown());
}

TEST(ProgressMeterTest, CurrentSpeedLooksAtTheLastSecondsOnly) {
  MeterFixture f;
  f.meter.start();
  int64_t bytes = 0;
  for (int second = 1; second <= 10; ++second) {  // 10 KB/s for 5 s, then 1 KB/s.
    f.now += 1s;
    bytes += second <= 5 ? 10000 : 1000;
    f.meter.update(bytes);
  }
  std::string out = f.err.str();
  std::string last = out.substr(out.rfind('\r'));
  EXPECT_EQ(last.substr(last.size() - 5), " 1000");  // Not the 5500 B/s average.
}

TEST(ProgressMeterTest, StartResetsForTheNextTransfer) {
  MeterFixture f;
  f.meter.start();
  f.now += 2s;
  f.meter.update(10);
  f.meter.finish();
  f.err.str("");
  f.meter.start();
  f.now += 100ms;
  f.meter.update(10);
  f.meter.finish();
  // The second transfer draws its own meter from the header, as curl does for each URL.
  const std::string second = f.err.str();
  EXPECT_EQ(second.find(meterHeader()), 0u);
  EXPECT_EQ(std::count(second.begin(), second.end(), '\r'), 2);
}

}  // namespace
}  // namespace tern::tool
