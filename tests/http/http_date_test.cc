// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/http_date.h"

#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace tern {
namespace {

using std::chrono::seconds;
using std::chrono::system_clock;

system_clock::time_point at(int64_t epochSeconds) {
  return system_clock::time_point(seconds(epochSeconds));
}

// 2014-06-06T12:30:30Z, the instant OkHttp's date tests use.
constexpr int64_t kJune2014 = 1402057830;
// 1994-11-06T08:49:37Z, the instant of RFC 9110's examples.
constexpr int64_t kRfcExample = 784111777;

TEST(HttpDateTest, ParsesImfFixdate) {
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00:00 GMT"), at(0));
  EXPECT_EQ(parseHttpDate("Fri, 06 Jun 2014 12:30:30 GMT"), at(kJune2014));
}

TEST(HttpDateTest, ParsesRfc850) {
  EXPECT_EQ(parseHttpDate("Thursday, 01-Jan-70 00:00:00 GMT"), at(0));
  EXPECT_EQ(parseHttpDate("Friday, 06-Jun-14 12:30:30 GMT"), at(kJune2014));
}

TEST(HttpDateTest, ParsesAsctimeAsGmt) {
  EXPECT_EQ(parseHttpDate("Thu Jan 1 00:00:00 1970"), at(0));
  EXPECT_EQ(parseHttpDate("Fri Jun 6 12:30:30 2014"), at(kJune2014));
}

TEST(HttpDateTest, Rfc9110ExamplesAreTheSameInstant) {
  EXPECT_EQ(parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT"), at(kRfcExample));
  EXPECT_EQ(parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT"), at(kRfcExample));
  EXPECT_EQ(parseHttpDate("Sun Nov  6 08:49:37 1994"), at(kRfcExample));
}

TEST(HttpDateTest, HonorsOtherTimeZones) {
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00:00 GMT-01:00"), at(3600));
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00:00 PST"), at(8 * 3600));
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00:00 EDT"), at(4 * 3600));
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 02:00:00 +0200"), at(0));
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00:00 -01:30"), at(5400));
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00:00 GMT+1"), at(-3600));
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00:00 GMT+1:30"), at(-5400));
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00:00 GMT+01"), at(-3600));
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00:00 UTC"), at(0));
  EXPECT_EQ(parseHttpDate("Thursday, 01-Jan-1970 00:00:00 GMT-01:00"), at(3600));
  EXPECT_EQ(parseHttpDate("Thursday, 01-Jan-1970 00:00:00 PST"), at(8 * 3600));
}

TEST(HttpDateTest, IgnoresTextAfterACompleteDate) {
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00:00 GMT JUNK"), at(0));
  EXPECT_EQ(parseHttpDate("Thursday, 01-Jan-1970 00:00:00 PST JUNK"), at(8 * 3600));
  // asctime has no zone, so a zone after it is junk too.
  EXPECT_EQ(parseHttpDate("Fri Jun 6 12:30:30 2014 PST"), at(kJune2014));
  EXPECT_EQ(parseHttpDate("Fri Jun 6 12:30:30 2014 JUNK"), at(kJune2014));
}

TEST(HttpDateTest, RejectsMissingTimeZone) {
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00:00"), std::nullopt);
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00:00 XYZ"), std::nullopt);
}

TEST(HttpDateTest, RejectsMissingSeconds) {
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00 GMT"), std::nullopt);
  EXPECT_EQ(parseHttpDate("Thu,  01 Jan 1970 00:00 GMT"), std::nullopt);
  EXPECT_EQ(parseHttpDate("Thu, 1 Jan 1970 00:00 GMT"), std::nullopt);
}

TEST(HttpDateTest, RejectsOutOfRangeFields) {
  EXPECT_EQ(parseHttpDate("Thu, 32 Jan 1970 00:00:00 GMT"), std::nullopt);
  EXPECT_EQ(parseHttpDate("Thu, 00 Jan 1970 00:00:00 GMT"), std::nullopt);
  EXPECT_EQ(parseHttpDate("Sat, 29 Feb 2014 00:00:00 GMT"), std::nullopt);
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 24:00:00 GMT"), std::nullopt);
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:60:00 GMT"), std::nullopt);
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00:61 GMT"), std::nullopt);
  EXPECT_EQ(parseHttpDate("Thu, 01-13-1970 00:00:00 GMT"), std::nullopt);
  EXPECT_EQ(parseHttpDate("Thu, 01 Jan 1970 00:00:00 GMT+24:00"), at(0));  // Bad offset: junk.
}

TEST(HttpDateTest, AcceptsLeapDayAndLeapSecond) {
  EXPECT_EQ(parseHttpDate("Thu, 29 Feb 2024 00:00:00 GMT"), at(1709164800));
  // 23:59:60 is the leap second before 2017; like POSIX it counts as the next second.
  EXPECT_EQ(parseHttpDate("Sat, 31 Dec 2016 23:59:60 GMT"), at(1483228800));
}

TEST(HttpDateTest, AcceptsBrowserVariants) {
  for (const char* text : {
           "Thu, 01-Jan-1970 00:00:00 GMT",
           "Thu, 01-Jan-1970 00-00-00 GMT",
           "Thu, 01 Jan 70 00:00:00 GMT",
           "Thu 01-Jan-1970 00:00:00 GMT",
           "Thu 01 Jan 1970 00:00:00 GMT",
           "Thu 01-Jan-1970 00-00-00 GMT",
           "Thu 01-Jan-70 00:00:00 GMT",
           "Thu,01-Jan-70 00:00:00 GMT",
           "Thu,01-Jan-1970 00:00:00 GMT",
           "Thu, 01-01-1970 00:00:00 GMT",
           "Thu Jan 1 1970 00:00:00 GMT",
           "Thu Jan 01 1970 01:00:00 GMT+0100 (Central European Standard Time)",
           "Thu, 01 January 1970 00:00:00 GMT",
           "  Thu, 01 Jan 1970 00:00:00 GMT",
       }) {
    EXPECT_EQ(parseHttpDate(text), at(0)) << text;
  }
}

TEST(HttpDateTest, NamesIgnoreCase) {
  EXPECT_EQ(parseHttpDate("THU, 01 JAN 1970 00:00:00 gmt"), at(0));
  EXPECT_EQ(parseHttpDate("thursday, 01-jan-70 00:00:00 Gmt"), at(0));
}

TEST(HttpDateTest, WeekdayIsReadButNotChecked) {
  EXPECT_EQ(parseHttpDate("Mon, 01 Jan 1970 00:00:00 GMT"), at(0));
  EXPECT_EQ(parseHttpDate("Xyz, 01 Jan 1970 00:00:00 GMT"), std::nullopt);
}

TEST(HttpDateTest, TwoDigitYearIsWithin80YearsBeforeAnd20After) {
  int64_t now = system_clock::to_time_t(system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  int year = utc.tm_year + 1900;
  // {years ahead of now written with two digits, years ahead of now that it means}
  for (auto [ahead, meaning] : {std::pair{0, 0}, {19, 19}, {20, -80}, {51, -49}, {-79, -79}}) {
    char text[64];
    std::snprintf(text, sizeof(text), "Sunday, 01-Jan-%02d 00:00:00 GMT", (year + ahead) % 100);
    char expected[64];
    std::snprintf(expected, sizeof(expected), "Sunday, 01-Jan-%04d 00:00:00 GMT", year + meaning);
    EXPECT_TRUE(parseHttpDate(text).has_value()) << text;
    EXPECT_EQ(parseHttpDate(text), parseHttpDate(expected)) << text;
  }
}

TEST(HttpDateTest, ClampsInstantsBeyondSystemClock) {
  auto latest = std::chrono::floor<seconds>(system_clock::time_point::max());
  auto earliest = std::chrono::ceil<seconds>(system_clock::time_point::min());
  EXPECT_EQ(parseHttpDate("Fri, 31 Dec 9999 23:59:59 GMT"), latest);
  EXPECT_EQ(parseHttpDate("Mon, 01 Jan 0001 00:00:00 GMT"), earliest);
  EXPECT_EQ(parseHttpDate("Fri, 31 Dec 999999999 23:59:59 GMT"), latest);
}

TEST(HttpDateTest, RejectsGarbage) {
  for (const char* text :
       {"", " ", "GMT", "Thu", "1970", "Thu, 01 Jan", "0", "-1", "Thu, 01 Jan 1970 00:00:00GMT",
        "Thu, 1234567890 Jan 1970 00:00:00 GMT", "Thu, 01 Jan 99999999999999999999 00:00:00 GMT"}) {
    EXPECT_EQ(parseHttpDate(text), std::nullopt) << text;
  }
}

TEST(HttpDateTest, EveryTruncationOfADateIsRejected) {
  std::string date = "Thu, 01 Jan 1970 00:00:00 GMT";
  for (std::size_t length = 0; length < date.size(); ++length) {
    EXPECT_EQ(parseHttpDate(date.substr(0, length)), std::nullopt) << date.substr(0, length);
  }
}

TEST(HttpDateTest, ArbitraryBytesNeverCrash) {
  std::mt19937 random(42);  // Fixed seed: the same inputs every run.
  std::string date = "Thu, 01 Jan 1970 00:00:00 GMT";
  for (int i = 0; i < 20000; ++i) {
    std::string text = date;
    // Overwrite a few bytes with anything, NUL and 0xff included.
    for (int j = 0; j < 3; ++j) {
      text[random() % text.size()] = static_cast<char>(random() % 256);
    }
    std::optional<system_clock::time_point> parsed = parseHttpDate(text);
    if (parsed) {
      EXPECT_EQ(parseHttpDate(formatHttpDate(*parsed)), parsed) << text;
    }
  }
  EXPECT_EQ(parseHttpDate(std::string(1 << 20, '9')), std::nullopt);
  EXPECT_EQ(parseHttpDate(std::string("Thu, 01 Jan 1970 00:00:00 GMT\0junk", 34)), at(0));
}

TEST(HttpDateTest, FormatsImfFixdate) {
  EXPECT_EQ(formatHttpDate(at(0)), "Thu, 01 Jan 1970 00:00:00 GMT");
  EXPECT_EQ(formatHttpDate(at(kJune2014)), "Fri, 06 Jun 2014 12:30:30 GMT");
  EXPECT_EQ(formatHttpDate(at(kRfcExample)), "Sun, 06 Nov 1994 08:49:37 GMT");
  EXPECT_EQ(formatHttpDate(at(951782400)), "Tue, 29 Feb 2000 00:00:00 GMT");
}

TEST(HttpDateTest, FormatDropsFractionsTowardThePast) {
  EXPECT_EQ(formatHttpDate(at(0) + std::chrono::milliseconds(999)),
            "Thu, 01 Jan 1970 00:00:00 GMT");
  EXPECT_EQ(formatHttpDate(at(0) - std::chrono::milliseconds(1)), "Wed, 31 Dec 1969 23:59:59 GMT");
}

TEST(HttpDateTest, FormatThenParseIsTheSameInstant) {
  // Every ~9.7 days across 1900..2200, at varying times of day.
  for (int64_t t = -2208988800; t < 7258118400; t += 838861) {
    std::string text = formatHttpDate(at(t));
    EXPECT_EQ(parseHttpDate(text), at(t)) << text;
  }
}

TEST(HttpDateTest, IgnoresTheLocalTimeZone) {
  const char* old = std::getenv("TZ");
  std::string saved = old ? old : "";
  setenv("TZ", "America/Los_Angeles", 1);
  tzset();
  EXPECT_EQ(parseHttpDate("Thu Jan 1 00:00:00 1970"), at(0));
  EXPECT_EQ(formatHttpDate(at(0)), "Thu, 01 Jan 1970 00:00:00 GMT");
  if (old) {
    setenv("TZ", saved.c_str(), 1);
  } else {
    unsetenv("TZ");
  }
  tzset();
}

TEST(HttpDateTest, ParsesConcurrently) {
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&failures, i] {
      for (int j = 0; j < 2000; ++j) {
        if (parseHttpDate("Fri, 06 Jun 2014 12:30:30 GMT") != at(kJune2014)) {
          ++failures[i];
        }
        if (formatHttpDate(at(kJune2014)) != "Fri, 06 Jun 2014 12:30:30 GMT") {
          ++failures[i];
        }
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(failures, std::vector<int>(4, 0));
}

}  // namespace
}  // namespace tern
