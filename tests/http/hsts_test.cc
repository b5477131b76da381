// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Strict-Transport-Security parsing (RFC 6797 §6.1), the Hsts store's rules (§8) and FileHsts's
// file in curl's --hsts format.
#include "tern/hsts.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "tern/exceptions.h"

namespace tern {
namespace {

using namespace std::chrono_literals;
using std::chrono::sys_days;
using std::chrono::sys_seconds;

std::optional<StrictTransportSecurity> parse(std::string_view value) {
  return StrictTransportSecurity::parse(value);
}

TEST(StrictTransportSecurityTest, MaxAgeAndIncludeSubDomains) {
  auto sts = parse("max-age=31536000; includeSubDomains");
  ASSERT_TRUE(sts);
  EXPECT_EQ(sts->maxAgeSeconds, 31536000);
  EXPECT_TRUE(sts->includeSubDomains);

  sts = parse("max-age=600");
  ASSERT_TRUE(sts);
  EXPECT_EQ(sts->maxAgeSeconds, 600);
  EXPECT_FALSE(sts->includeSubDomains);
}

TEST(StrictTransportSecurityTest, DirectiveNamesIgnoreCaseAndWhitespace) {
  auto sts = parse("  INCLUDESUBDOMAINS ;\tMax-Age = 10 ;");
  ASSERT_TRUE(sts);
  EXPECT_EQ(sts->maxAgeSeconds, 10);
  EXPECT_TRUE(sts->includeSubDomains);
}

TEST(StrictTransportSecurityTest, QuotedMaxAge) {
  auto sts = parse("max-age=\"42\"");
  ASSERT_TRUE(sts);
  EXPECT_EQ(sts->maxAgeSeconds, 42);
}

TEST(StrictTransportSecurityTest, EmptyDirectivesAndUnknownOnesAreIgnored) {
  auto sts = parse(";; preload; foo=\"a;b\"; max-age=5; bar=baz;");
  ASSERT_TRUE(sts);
  EXPECT_EQ(sts->maxAgeSeconds, 5);
  EXPECT_FALSE(sts->includeSubDomains);
}

TEST(StrictTransportSecurityTest, InvalidHeadersAreRejected) {
  EXPECT_FALSE(parse(""));                      // No max-age.
  EXPECT_FALSE(parse("includeSubDomains"));     // No max-age.
  EXPECT_FALSE(parse("max-age=1; max-age=2"));  // Repeated (§6.1).
  EXPECT_FALSE(parse("max-age=1; includeSubDomains; INCLUDESUBDOMAINS"));
  EXPECT_FALSE(parse("max-age=-1"));
  EXPECT_FALSE(parse("max-age=1.5"));
  EXPECT_FALSE(parse("max-age="));
  EXPECT_FALSE(parse("max-age"));
  EXPECT_FALSE(parse("max-age=\"12"));  // Unterminated quote.
  EXPECT_FALSE(parse("max-age=\"\""));
  EXPECT_FALSE(parse("max-age=1, max-age=2"));  // Two headers joined.
  EXPECT_FALSE(parse("max-age=1; includeSubDomains=yes"));
  EXPECT_FALSE(parse("=1; max-age=1"));
  EXPECT_FALSE(parse("max-age=1 2"));
}

TEST(StrictTransportSecurityTest, AbsurdMaxAgeIsCapped) {
  auto sts = parse("max-age=99999999999999999999999999999999999");
  ASSERT_TRUE(sts);
  EXPECT_EQ(sts->maxAgeSeconds, StrictTransportSecurity::kMaxAgeCapSeconds);
  EXPECT_EQ(parse("max-age=63072000")->maxAgeSeconds, StrictTransportSecurity::kMaxAgeCapSeconds);
  EXPECT_EQ(parse("max-age=0")->maxAgeSeconds, 0);
}

// A store on a clock the test moves.
struct FakeClock {
  std::chrono::system_clock::time_point now = sys_days(std::chrono::year(2026) / 12 / 2) + 12h;
  Hsts::Clock clock() {
    return [this] { return now; };
  }
};

Headers stsHeaders(std::string_view value) {
  return Headers::Builder().add("Strict-Transport-Security", value).build();
}

TEST(HstsTest, HttpsResponseMakesTheHostKnownAndUpgradesHttp) {
  FakeClock clock;
  Hsts hsts(clock.clock());
  EXPECT_TRUE(
      hsts.saveFromResponse(HttpUrl::get("https://Example.COM/"), stsHeaders("max-age=60")));
  EXPECT_EQ(hsts.upgrade(HttpUrl::get("http://example.com/a?b")).toString(),
            "https://example.com/a?b");
  EXPECT_EQ(hsts.upgrade(HttpUrl::get("http://example.com:80/")).toString(),
            "https://example.com/");
  // §8.3: another explicit port is kept.
  EXPECT_EQ(hsts.upgrade(HttpUrl::get("http://example.com:8080/")).toString(),
            "https://example.com:8080/");
  // Not a subdomain without includeSubDomains, nor another host.
  EXPECT_EQ(hsts.upgrade(HttpUrl::get("http://www.example.com/")).toString(),
            "http://www.example.com/");
  EXPECT_EQ(hsts.upgrade(HttpUrl::get("http://example.org/")).toString(), "http://example.org/");
  EXPECT_EQ(hsts.entries(),
            (std::vector<HstsEntry>{{"example.com", false,
                                     std::chrono::floor<std::chrono::seconds>(clock.now + 60s)}}));
}

TEST(HstsTest, IncludeSubDomainsCoversSubdomainsOnly) {
  Hsts hsts;
  hsts.saveFromResponse(HttpUrl::get("https://example.com/"),
                        stsHeaders("max-age=60; includeSubDomains"));
  EXPECT_TRUE(hsts.isKnownHost("example.com"));
  EXPECT_TRUE(hsts.isKnownHost("a.b.example.com"));
  EXPECT_TRUE(hsts.isKnownHost("www.example.com."));
  EXPECT_TRUE(hsts.isKnownHost("WWW.Example.COM"));
  EXPECT_FALSE(hsts.isKnownHost("badexample.com"));
  EXPECT_FALSE(hsts.isKnownHost("com"));
}

TEST(HstsTest, NeverFromHttpNorFromAnIpAddress) {
  Hsts hsts;
  EXPECT_FALSE(
      hsts.saveFromResponse(HttpUrl::get("http://example.com/"), stsHeaders("max-age=60")));
  EXPECT_FALSE(hsts.saveFromResponse(HttpUrl::get("https://127.0.0.1/"), stsHeaders("max-age=60")));
  EXPECT_FALSE(hsts.saveFromResponse(HttpUrl::get("https://[::1]/"), stsHeaders("max-age=60")));
  EXPECT_TRUE(hsts.entries().empty());
  EXPECT_THROW(hsts.add({"127.0.0.1", false, std::nullopt}), std::invalid_argument);
  EXPECT_THROW(hsts.add({"", false, std::nullopt}), std::invalid_argument);
  EXPECT_THROW(hsts.add({"example.com..", false, std::nullopt}), std::invalid_argument);
  EXPECT_THROW(hsts.add({".example.com", false, std::nullopt}), std::invalid_argument);
}

TEST(HstsTest, OnlyTheFirstHeaderCounts) {
  Hsts hsts;
  Headers headers = Headers::Builder()
                        .add("Strict-Transport-Security", "max-age=0")
                        .add("Strict-Transport-Security", "max-age=60")
                        .build();
  hsts.saveFromResponse(HttpUrl::get("https://example.com/"), headers);
  EXPECT_FALSE(hsts.isKnownHost("example.com"));

  Headers invalidFirst = Headers::Builder()
                             .add("Strict-Transport-Security", "max-age=1; max-age=1")
                             .add("Strict-Transport-Security", "max-age=60")
                             .build();
  EXPECT_FALSE(hsts.saveFromResponse(HttpUrl::get("https://example.com/"), invalidFirst));
  EXPECT_FALSE(hsts.isKnownHost("example.com"));
}

TEST(HstsTest, MaxAgeZeroForgetsTheHostButNotItsParent) {
  Hsts hsts;
  hsts.add({"example.com", true, std::nullopt});
  hsts.add({"www.example.com", false, std::nullopt});
  EXPECT_TRUE(
      hsts.saveFromResponse(HttpUrl::get("https://www.example.com/"), stsHeaders("max-age=0")));
  EXPECT_EQ(hsts.entries(), (std::vector<HstsEntry>{{"example.com", true, std::nullopt}}));
  // Still known, through the parent's includeSubDomains.
  EXPECT_TRUE(hsts.isKnownHost("www.example.com"));
}

TEST(HstsTest, EntriesExpire) {
  FakeClock clock;
  Hsts hsts(clock.clock());
  hsts.saveFromResponse(HttpUrl::get("https://example.com/"), stsHeaders("max-age=10"));
  clock.now += 9s;
  EXPECT_TRUE(hsts.isKnownHost("example.com"));
  clock.now += 2s;
  EXPECT_FALSE(hsts.isKnownHost("example.com"));
  EXPECT_EQ(hsts.upgrade(HttpUrl::get("http://example.com/")).toString(), "http://example.com/");
  EXPECT_TRUE(hsts.entries().empty());
}

TEST(HstsTest, AnExpiryCenturiesAwayIsNotExpired) {
  // Past 2262 a date no longer fits the system clock's nanoseconds.
  Hsts hsts;
  hsts.add({"far.test", false, sys_days(std::chrono::year(4060) / 2 / 2)});
  EXPECT_TRUE(hsts.isKnownHost("far.test"));
  hsts.add({"past.test", false, sys_days(std::chrono::year(1000) / 1 / 1)});
  EXPECT_FALSE(hsts.isKnownHost("past.test"));
}

TEST(HstsTest, AddCanonicalizesTheHost) {
  Hsts hsts;
  hsts.add({"EXAMPLE.com.", false, std::nullopt});
  EXPECT_EQ(hsts.entries(), (std::vector<HstsEntry>{{"example.com", false, std::nullopt}}));
  hsts.remove("example.com");
  EXPECT_TRUE(hsts.entries().empty());
}

// The file format.

sys_seconds at(int y, unsigned m, unsigned d, int hh, int mm, int ss) {
  return sys_days(std::chrono::year(y) / m / d) + std::chrono::hours(hh) +
         std::chrono::minutes(mm) + std::chrono::seconds(ss);
}

TEST(FileHstsTest, FormatIsCurls) {
  std::string text = FileHsts::format({{"example.com", true, at(2027, 12, 2, 20, 44, 4)},
                                       {"www.example.org", false, at(2026, 1, 9, 3, 0, 59)},
                                       {"forever.test", false, std::nullopt}});
  EXPECT_EQ(text,
            "# Your HSTS cache. https://curl.se/docs/hsts.html\n"
            "# This file was generated by libcurl! Edit at your own risk.\n"
            ".example.com \"20271202 20:44:04\"\n"
            "www.example.org \"20260109 03:00:59\"\n"
            "forever.test \"unlimited\"\n");
}

TEST(FileHstsTest, ExpiryPastYear9999IsWrittenAsUnlimited) {
  sys_seconds far = sys_days(std::chrono::year(32767) / 12 / 31);
  EXPECT_EQ(FileHsts::format({{"far.test", false, far}}),
            "# Your HSTS cache. https://curl.se/docs/hsts.html\n"
            "# This file was generated by libcurl! Edit at your own risk.\n"
            "far.test \"unlimited\"\n");
}

TEST(FileHstsTest, ParseRoundTrip) {
  std::vector<HstsEntry> entries{{"example.com", true, at(2027, 12, 2, 20, 44, 4)},
                                 {"b.test", false, std::nullopt},
                                 {"c.test", false, at(2100, 2, 28, 23, 59, 59)}};
  EXPECT_EQ(FileHsts::parse(FileHsts::format(entries)), entries);
}

TEST(FileHstsTest, JunkLinesAreSkipped) {
  std::string text =
      "# a comment\n"
      "\n"
      "   \t\n"
      "good.test \"20300101 00:00:00\"\r\n"
      "noquote.test 20300101 00:00:00\n"
      "badmonth.test \"20301301 00:00:00\"\n"
      "badday.test \"20300230 00:00:00\"\n"
      "badtime.test \"20300101 24:00:00\"\n"
      "short.test \"2030\"\n"
      "\"20300101 00:00:00\"\n"
      ". \"unlimited\"\n"
      "..double.test \"unlimited\"\n"
      "  spaced.test   \"unlimited\"  \n"
      "garbage \x01\xff\"\n"
      "last.test \"unlimited\"";  // No final newline.
  EXPECT_EQ(FileHsts::parse(text),
            (std::vector<HstsEntry>{{"good.test", false, at(2030, 1, 1, 0, 0, 0)},
                                    {"spaced.test", false, std::nullopt},
                                    {"last.test", false, std::nullopt}}));
}

class FileHstsFileTest : public ::testing::Test {
 protected:
  FileHstsFileTest() {
    static int counter = 0;
    dir = std::filesystem::temp_directory_path() /
          ("tern_hsts_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~FileHstsFileTest() override { std::filesystem::remove_all(dir); }

  static std::string read(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  static void write(const std::filesystem::path& path, std::string_view text) {
    std::ofstream(path) << text;
  }

  std::filesystem::path dir;
};

TEST_F(FileHstsFileTest, LoadDropsExpiredEntriesAndIpHostsAndSavesTheRest) {
  FakeClock clock;
  std::filesystem::path file = dir / "hsts.txt";
  write(file,
        "# old file\n"
        "expired.test \"20200101 00:00:00\"\n"
        "127.0.0.1 \"unlimited\"\n"
        ".kept.test \"20301231 23:59:59\"\n"
        "Upper.Test \"unlimited\"\n");
  FileHsts hsts(file, {.saveOnDestruction = false, .clock = clock.clock()});
  EXPECT_TRUE(hsts.isKnownHost("www.kept.test"));
  EXPECT_TRUE(hsts.isKnownHost("upper.test"));
  EXPECT_FALSE(hsts.isKnownHost("expired.test"));
  hsts.saveFromResponse(HttpUrl::get("https://new.test/"), stsHeaders("max-age=3600"));
  hsts.save();
  EXPECT_EQ(read(file),
            "# Your HSTS cache. https://curl.se/docs/hsts.html\n"
            "# This file was generated by libcurl! Edit at your own risk.\n"
            ".kept.test \"20301231 23:59:59\"\n"
            "new.test \"20261202 13:00:00\"\n"
            "upper.test \"unlimited\"\n");
}

TEST_F(FileHstsFileTest, MissingFileIsEmptyAndSaveOnDestructionWritesIt) {
  std::filesystem::path file = dir / "new.txt";
  {
    FileHsts hsts(file, {.saveOnDestruction = true, .clock = {}});
    EXPECT_TRUE(hsts.entries().empty());
    hsts.add({"example.com", true, std::nullopt});
  }
  EXPECT_EQ(FileHsts::readFile(file),
            (std::vector<HstsEntry>{{"example.com", true, std::nullopt}}));
  // A new file is private, as curl's: it lists the hosts one visits.
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST_F(FileHstsFileTest, SaveErrorNamesTheFileAndLeavesNoTemporaryFile) {
  std::filesystem::path file = dir / "missing-dir" / "hsts.txt";
  FileHsts hsts(file);
  hsts.add({"example.com", false, std::nullopt});
  try {
    hsts.save();
    FAIL() << "saved into a missing directory";
  } catch (const IOException& e) {
    EXPECT_NE(std::string(e.what()).find("Cannot save the HSTS cache to " + file.string()),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                          std::filesystem::directory_iterator()),
            0);
}

TEST_F(FileHstsFileTest, UnreadableFileThrowsNamingIt) {
  // A directory where the file should be: it exists and cannot be read as a file.
  std::filesystem::path file = dir / "is-a-dir";
  std::filesystem::create_directories(file);
  try {
    FileHsts hsts(file);
    FAIL() << "read a directory";
  } catch (const IOException& e) {
    EXPECT_NE(std::string(e.what()).find("Cannot read the HSTS cache from " + file.string()),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tern
