// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "argument_words.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tern::tool {
namespace {

using ::testing::ElementsAre;

OptionTable table() {
  OptionTable t;
  for (auto [letter, name, value] : {std::tuple{'s', "--silent", false},
                                     {'S', "--show-error", false},
                                     {'L', "--location", false},
                                     {'d', "--data", true},
                                     {'o', "--output", true},
                                     {'#', "--progress-bar", false}}) {
    t.shortNames[letter] = {name, value};
    t.longNames[name] = {name, value};
  }
  t.longNames["--data-ascii"] = {"--data", true};
  return t;
}

std::vector<std::string> words(const std::vector<std::string>& args) {
  ArgumentWords result = normalizeArguments(args, table());
  EXPECT_EQ(result.error, "");
  return result.words;
}

TEST(ArgumentWordsTest, ShortOptionsCluster) {
  EXPECT_THAT(words({"-sSL", "u"}),
              ElementsAre("--silent", "--show-error", "--location", "--url=u"));
  EXPECT_THAT(words({"-sS#"}), ElementsAre("--silent", "--show-error", "--progress-bar"));
}

TEST(ArgumentWordsTest, AValuedShortOptionTakesTheRestOrTheNextWord) {
  EXPECT_THAT(words({"-sdx=1"}), ElementsAre("--silent", "--data=x=1"));
  EXPECT_THAT(words({"-so", "file", "u"}), ElementsAre("--silent", "--output=file", "--url=u"));
  EXPECT_THAT(words({"-d", "-x"}), ElementsAre("--data=-x"));
  EXPECT_THAT(words({"--data-ascii", "--silent"}), ElementsAre("--data=--silent"));
  EXPECT_THAT(words({"-d", "", "u"}), ElementsAre("--data", "", "--url=u"));
}

TEST(ArgumentWordsTest, DoubleDashEndsOptions) {
  EXPECT_THAT(words({"-s", "--", "-d", "--silent"}),
              ElementsAre("--silent", "--url=-d", "--url=--silent"));
  EXPECT_THAT(words({"-", "u", "-s"}), ElementsAre("--url=-", "--url=u", "--silent"));
}

TEST(ArgumentWordsTest, ErrorsAreCurls) {
  EXPECT_EQ(normalizeArguments({"--data=x"}, table()).error, "option --data=x: is unknown");
  EXPECT_EQ(normalizeArguments({"-s%"}, table()).error, "option -s%: is unknown");
  EXPECT_EQ(normalizeArguments({"--bogus"}, table()).error, "option --bogus: is unknown");
  EXPECT_EQ(normalizeArguments({"-sd"}, table()).error, "option -d: requires parameter");
  EXPECT_EQ(normalizeArguments({"--data"}, table()).error, "option --data: requires parameter");
}

}  // namespace
}  // namespace tern::tool
