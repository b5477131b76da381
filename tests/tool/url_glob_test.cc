// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "url_glob.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tern::tool {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> urls(std::string_view pattern) {
  std::vector<std::string> result;
  for (const GlobExpansion& expansion : UrlGlob::parse(pattern).expandAll()) {
    result.push_back(expansion.url);
  }
  return result;
}

// The message curl prints after "curl: (3) " for a bad pattern.
std::string globError(std::string_view pattern) {
  try {
    UrlGlob::parse(pattern);
  } catch (const GlobException& e) {
    return e.what();
  }
  return "no error";
}

TEST(UrlGlobTest, PlainUrlIsOneExpansion) {
  EXPECT_THAT(urls("http://example.com/a?b=c#d"), ElementsAre("http://example.com/a?b=c#d"));
  EXPECT_EQ(UrlGlob::parse("http://example.com/").size(), 1u);
}

TEST(UrlGlobTest, NumericRange) {
  EXPECT_THAT(urls("http://x/[1-3].txt"),
              ElementsAre("http://x/1.txt", "http://x/2.txt", "http://x/3.txt"));
}

TEST(UrlGlobTest, NumericRangeKeepsZeroPaddingOfTheFirstNumber) {
  UrlGlob glob = UrlGlob::parse("http://x/[001-100]");
  ASSERT_EQ(glob.size(), 100u);
  EXPECT_EQ(glob.at(0).url, "http://x/001");
  EXPECT_EQ(glob.at(9).url, "http://x/010");
  EXPECT_EQ(glob.at(99).url, "http://x/100");
  EXPECT_THAT(urls("http://x/[08-11]"),
              ElementsAre("http://x/08", "http://x/09", "http://x/10", "http://x/11"));
}

TEST(UrlGlobTest, NumericRangeWithStep) {
  EXPECT_THAT(urls("http://x/[1-100:40]"), ElementsAre("http://x/1", "http://x/41", "http://x/81"));
  EXPECT_EQ(UrlGlob::parse("http://x/[1-100:10]").size(), 10u);
}

TEST(UrlGlobTest, LetterRangeWithAndWithoutStep) {
  EXPECT_THAT(urls("http://x/[a-d]"),
              ElementsAre("http://x/a", "http://x/b", "http://x/c", "http://x/d"));
  EXPECT_THAT(urls("http://x/[A-E:2]"), ElementsAre("http://x/A", "http://x/C", "http://x/E"));
  EXPECT_EQ(UrlGlob::parse("http://x/[a-z]").size(), 26u);
}

TEST(UrlGlobTest, SingleValueRanges) {
  EXPECT_THAT(urls("http://x/[5-5]"), ElementsAre("http://x/5"));
  EXPECT_THAT(urls("http://x/[q-q]"), ElementsAre("http://x/q"));
}

TEST(UrlGlobTest, SetOfAlternatives) {
  EXPECT_THAT(urls("http://{one,two,three}.example/"),
              ElementsAre("http://one.example/", "http://two.example/", "http://three.example/"));
}

TEST(UrlGlobTest, SetKeepsEmptyElementsAfterComma) {
  EXPECT_THAT(urls("http://x/a{,b}"), ElementsAre("http://x/a", "http://x/ab"));
}

TEST(UrlGlobTest, SetBackslashEscapesAnyCharacter) {
  EXPECT_THAT(urls("http://x/{a\\,b,c\\}}"), ElementsAre("http://x/a,b", "http://x/c}"));
}

TEST(UrlGlobTest, SeveralGlobsMultiplyRightmostFastest) {
  EXPECT_THAT(urls("http://x/{a,b}/[1-3]"),
              ElementsAre("http://x/a/1", "http://x/a/2", "http://x/a/3", "http://x/b/1",
                          "http://x/b/2", "http://x/b/3"));
  EXPECT_EQ(UrlGlob::parse("http://x/[1-10]/[a-z]/{p,q,r}").size(), 10u * 26u * 3u);
}

TEST(UrlGlobTest, ExpansionCarriesEachGlobsValue) {
  UrlGlob glob = UrlGlob::parse("http://{site,host}.example/[01-03]/[x-z]");
  GlobExpansion expansion = glob.at(1 * 9 + 2 * 3 + 1);
  EXPECT_EQ(expansion.url, "http://host.example/03/y");
  EXPECT_THAT(expansion.values, ElementsAre("host", "03", "y"));
}

TEST(UrlGlobTest, HugeRangeIsComputedOnDemand) {
  UrlGlob glob = UrlGlob::parse("http://x/[1-1000000000000]");
  EXPECT_EQ(glob.size(), 1000000000000u);
  EXPECT_EQ(glob.at(999999999999u).url, "http://x/1000000000000");
  EXPECT_THROW(glob.at(1000000000000u), std::out_of_range);
}

TEST(UrlGlobTest, BackslashEscapesBracesAndBracketsInText) {
  EXPECT_THAT(urls("http://x/\\{a\\}\\[1\\]"), ElementsAre("http://x/{a}[1]"));
  // A backslash before anything else stays.
  EXPECT_THAT(urls("http://x/a\\b"), ElementsAre("http://x/a\\b"));
}

TEST(UrlGlobTest, Ipv6LiteralAndEmptyBracketsAreText) {
  EXPECT_THAT(urls("http://[::1]:8080/[1-2]"),
              ElementsAre("http://[::1]:8080/1", "http://[::1]:8080/2"));
  EXPECT_THAT(urls("http://[fe80::1%25eth0]/"), ElementsAre("http://[fe80::1%25eth0]/"));
  EXPECT_THAT(urls("http://[2001:db8::7.1.2.3]/"), ElementsAre("http://[2001:db8::7.1.2.3]/"));
  EXPECT_THAT(urls("http://x/a[]b"), ElementsAre("http://x/a[]b"));
}

TEST(UrlGlobTest, LiteralIgnoresGlobSyntax) {
  UrlGlob glob = UrlGlob::literal("http://x/{a,b}[1-2]");
  ASSERT_EQ(glob.size(), 1u);
  EXPECT_EQ(glob.at(0).url, "http://x/{a,b}[1-2]");
  EXPECT_TRUE(glob.at(0).values.empty());
}

// The errors and positions below are what curl 7.88 prints for the same patterns.
TEST(UrlGlobTest, UnmatchedBraceNamesTheOpeningBrace) {
  EXPECT_EQ(globError("http://x/{a,b"),
            "unmatched brace in URL position 10:\nhttp://x/{a,b\n         ^");
  EXPECT_EQ(globError("http://x/a{b,c,d"),
            "unmatched brace in URL position 11:\nhttp://x/a{b,c,d\n          ^");
}

TEST(UrlGlobTest, SetErrors) {
  EXPECT_EQ(globError("http://x/{}"),
            "empty string within braces in URL position 11:\nhttp://x/{}\n          ^");
  EXPECT_EQ(globError("http://x/[1-2]{a,[b]}"),
            "nested brace in URL position 18:\nhttp://x/[1-2]{a,[b]}\n                 ^");
  EXPECT_EQ(globError("http://x/{a,]}"),
            "unexpected close bracket in URL position 13:\nhttp://x/{a,]}\n            ^");
}

TEST(UrlGlobTest, UnmatchedCloseBraceOrBracket) {
  EXPECT_EQ(globError("http://x/}"),
            "unmatched close brace/bracket in URL position 10:\nhttp://x/}\n         ^");
  EXPECT_EQ(globError("http://x/[1-5]]"),
            "unmatched close brace/bracket in URL position 15:\nhttp://x/[1-5]]\n              ^");
}

TEST(UrlGlobTest, PositionsAfterSetsAndLiteralsCountAsCurlCounts) {
  // curl does not count a set's closing brace, nor an IPv6 literal, in later positions.
  EXPECT_EQ(globError("http://x/{a}{b}]"),
            "unmatched close brace/bracket in URL position 14:\nhttp://x/{a}{b}]\n             ^");
  EXPECT_EQ(globError("http://x/[::1]]"),
            "unmatched close brace/bracket in URL position 10:\nhttp://x/[::1]]\n         ^");
  EXPECT_EQ(
      globError("http://x/\\{a\\}]"),
      "unmatched close brace/bracket in URL position 15:\nhttp://x/\\{a\\}]\n              ^");
}

TEST(UrlGlobTest, BadRangesReportTheirPosition) {
  EXPECT_EQ(globError("http://x/[1-"),
            "bad range in URL position 13:\nhttp://x/[1-\n            ^");
  EXPECT_EQ(globError("http://x/[1-5"),
            "bad range in URL position 13:\nhttp://x/[1-5\n            ^");
  EXPECT_EQ(globError("http://x/[5-1]"),
            "bad range in URL position 15:\nhttp://x/[5-1]\n              ^");
  EXPECT_EQ(globError("http://x/[1-5:0]"),
            "bad range in URL position 17:\nhttp://x/[1-5:0]\n                ^");
  EXPECT_EQ(globError("http://x/[1-5:2"),
            "bad range in URL position 15:\nhttp://x/[1-5:2\n              ^");
  EXPECT_EQ(globError("http://x/[1]"), "bad range in URL position 11:\nhttp://x/[1]\n          ^");
  EXPECT_EQ(globError("http://x/[1-99999999999999999999]"),
            "bad range in URL position 13:\nhttp://x/[1-99999999999999999999]\n            ^");
}

TEST(UrlGlobTest, BadLetterRanges) {
  EXPECT_EQ(globError("http://x/[a-5]"),
            "bad range in URL position 15:\nhttp://x/[a-5]\n              ^");
  EXPECT_EQ(globError("http://x/[a-Z]"),
            "bad range in URL position 15:\nhttp://x/[a-Z]\n              ^");
  EXPECT_EQ(globError("http://x/[a-b-c]"),
            "bad range in URL position 11:\nhttp://x/[a-b-c]\n          ^");
  EXPECT_EQ(globError("http://x/[A-z]"),
            "bad range in URL position 15:\nhttp://x/[A-z]\n              ^");
  EXPECT_EQ(globError("http://x/[a-c:5]"),
            "bad range in URL position 17:\nhttp://x/[a-c:5]\n                ^");
}

TEST(UrlGlobTest, BadRangeSpecification) {
  EXPECT_EQ(globError("http://x/["),
            "bad range specification in URL position 11:\nhttp://x/[\n          ^");
  EXPECT_EQ(globError("http://x/[:]"),
            "bad range specification in URL position 11:\nhttp://x/[:]\n          ^");
  EXPECT_EQ(globError("http://x/[ 1-2]"),
            "bad range specification in URL position 11:\nhttp://x/[ 1-2]\n          ^");
}

TEST(UrlGlobTest, OverflowingProductIsAnErrorWithoutPosition) {
  try {
    UrlGlob::parse("http://x/[1-4000000000][1-4000000000][1-4000000000]");
    FAIL() << "expected a GlobException";
  } catch (const GlobException& e) {
    EXPECT_EQ(e.reason(), "range overflow");
  }
}

TEST(UrlGlobTest, ArbitraryBytesNeverCrash) {
  std::string bytes;
  for (int i = 0; i < 2000; ++i) {
    bytes.push_back(static_cast<char>((i * 131 + 7) % 256));
    if (i % 3 == 0) {
      bytes.push_back("{}[],-:\\0a9"[i % 11]);
    }
    try {
      UrlGlob glob = UrlGlob::parse(bytes);
      if (glob.size() > 0) {
        glob.at(glob.size() - 1);
      }
    } catch (const GlobException&) {
      // A bad pattern is reported, which is all that is asked.
    }
  }
}

TEST(SubstituteGlobValuesTest, ReplacesNumberedReferences) {
  EXPECT_EQ(substituteGlobValues("file_#1_#2.txt", {"a", "07"}), "file_a_07.txt");
  EXPECT_EQ(substituteGlobValues("#2#1", {"x", "y"}), "yx");
}

TEST(SubstituteGlobValuesTest, KeepsReferencesToMissingGlobs) {
  EXPECT_EQ(substituteGlobValues("#0-#3-#1", {"a", "b"}), "#0-#3-a");
  EXPECT_EQ(substituteGlobValues("#1", {}), "#1");
  EXPECT_EQ(substituteGlobValues("a#b#", {"x"}), "a#b#");
}

TEST(SubstituteGlobValuesTest, ReferenceTakesAllItsDigits) {
  std::vector<std::string> values(12, "v");
  values[11] = "twelve";
  EXPECT_EQ(substituteGlobValues("#12", values), "twelve");
  EXPECT_EQ(substituteGlobValues("#13", values), "#13");
}

}  // namespace
}  // namespace tern::tool
