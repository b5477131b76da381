// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/challenge.h"

#include <map>
#include <random>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tern {
namespace {

using ::testing::ElementsAre;
using Params = std::map<std::string, std::string>;

std::vector<Challenge> challengesOf(std::string_view value) {
  return parseChallenges(Headers::Builder().add("WWW-Authenticate", value).build(),
                         "WWW-Authenticate");
}

const Params kDigestParams = {{"realm", "myrealm"},
                              {"nonce", "fjalskdflwejrlaskdfjlaskdjflaksjdflkasdf"},
                              {"qop", "auth"},
                              {"stale", "FALSE"}};

TEST(ChallengeTest, DigestChallengeWithStrictRfc2617Header) {
  auto challenges = challengesOf(
      "Digest realm=\"myrealm\", nonce=\"fjalskdflwejrlaskdfjlaskdjflaksjdflkasdf\", "
      "qop=\"auth\", stale=\"FALSE\"");
  ASSERT_EQ(challenges.size(), 1u);
  EXPECT_EQ(challenges[0].scheme(), "Digest");
  EXPECT_EQ(challenges[0].realm(), "myrealm");
  EXPECT_EQ(challenges[0].authParams(), kDigestParams);
}

TEST(ChallengeTest, AuthParamsInAnyOrder) {
  for (const char* value :
       {"Digest qop=\"auth\", realm=\"myrealm\", "
        "nonce=\"fjalskdflwejrlaskdfjlaskdjflaksjdflkasdf\", "
        "stale=\"FALSE\"",
        "Digest qop=\"auth\", nonce=\"fjalskdflwejrlaskdfjlaskdjflaksjdflkasdf\", "
        "realm=\"myrealm\", stale=\"FALSE\""}) {
    EXPECT_THAT(challengesOf(value), ElementsAre(Challenge("Digest", kDigestParams))) << value;
  }
}

TEST(ChallengeTest, MissingRealmIsNullopt) {
  auto challenges = challengesOf(
      "Digest qop=\"auth\", underrealm=\"myrealm\", "
      "nonce=\"fjalskdflwejrlaskdfjlaskdjflaksjdflkasdf\", stale=\"FALSE\"");
  ASSERT_EQ(challenges.size(), 1u);
  EXPECT_EQ(challenges[0].realm(), std::nullopt);
  EXPECT_EQ(challenges[0].authParams().at("underrealm"), "myrealm");
}

TEST(ChallengeTest, AdditionalSpacesAreSkipped) {
  EXPECT_THAT(challengesOf("Digest qop=\"auth\",    realm=\"myrealm\", "
                           "nonce=\"fjalskdflwejrlaskdfjlaskdjflaksjdflkasdf\", stale=\"FALSE\""),
              ElementsAre(Challenge("Digest", kDigestParams)));
  EXPECT_THAT(challengesOf("Digest    realm=\"myrealm\", "
                           "nonce=\"fjalskdflwejrlaskdfjlaskdjflaksjdflkasdf\", qop=\"auth\", "
                           "stale=\"FALSE\""),
              ElementsAre(Challenge("Digest", kDigestParams)));
}

TEST(ChallengeTest, SchemeKeepsCaseAndParamNamesAreLowerCased) {
  auto challenges = challengesOf(
      "DiGeSt qop=\"auth\", rEaLm=\"myrealm\", "
      "nonce=\"fjalskdflwejrlaskdfjlaskdjflaksjdflkasdf\", STALE=\"FALSE\"");
  ASSERT_EQ(challenges.size(), 1u);
  EXPECT_EQ(challenges[0].scheme(), "DiGeSt");
  EXPECT_EQ(challenges[0].realm(), "myrealm");
  EXPECT_EQ(challenges[0].authParams(), kDigestParams);
}

TEST(ChallengeTest, TokenFormOfAuthParam) {
  EXPECT_THAT(challengesOf("Digest realm=myrealm"),
              ElementsAre(Challenge("Digest", Params{{"realm", "myrealm"}})));
}

TEST(ChallengeTest, SchemeWithoutAuthParams) {
  auto challenges = challengesOf("Digest");
  ASSERT_EQ(challenges.size(), 1u);
  EXPECT_EQ(challenges[0].scheme(), "Digest");
  EXPECT_EQ(challenges[0].realm(), std::nullopt);
  EXPECT_TRUE(challenges[0].authParams().empty());
}

TEST(ChallengeTest, BasicChallenge) {
  Headers headers =
      Headers::Builder().add("WWW-Authenticate: Basic realm=\"protected area\"").build();
  EXPECT_THAT(parseChallenges(headers, "www-authenticate"),
              ElementsAre(Challenge("Basic", "protected area")));
}

TEST(ChallengeTest, BasicChallengeWithCharset) {
  auto challenges = challengesOf("Basic realm=\"protected area\", charset=\"UTF-8\"");
  EXPECT_THAT(challenges, ElementsAre(Challenge(
                              "Basic", Params{{"realm", "protected area"}, {"charset", "UTF-8"}})));
  EXPECT_EQ(challenges[0].charset(), "UTF-8");
}

TEST(ChallengeTest, CharsetDefaultsToIso88591) {
  EXPECT_EQ(Challenge("Basic", "x").charset(), "ISO-8859-1");
  // Unusable charset names fall back too.
  EXPECT_EQ(challengesOf("Basic realm=x, charset=\"!!\"")[0].charset(), "ISO-8859-1");
  EXPECT_EQ(challengesOf("Basic realm=x, charset=\"US-ASCII\"")[0].charset(), "US-ASCII");
}

TEST(ChallengeTest, WithCharsetReplacesCharset) {
  Challenge challenge = Challenge("Basic", Params{{"realm", "x"}, {"charset", "US-ASCII"}});
  Challenge utf8 = challenge.withCharset("UTF-8");
  EXPECT_EQ(utf8.charset(), "UTF-8");
  EXPECT_EQ(utf8.realm(), "x");
  EXPECT_EQ(challenge.charset(), "US-ASCII");  // The original is unchanged.
}

TEST(ChallengeTest, ConstructorLowerCasesKeys) {
  Challenge challenge("Basic", Params{{"ReAlM", "x"}});
  EXPECT_EQ(challenge.realm(), "x");
  EXPECT_EQ(challenge, Challenge("Basic", "x"));
  EXPECT_NE(challenge, Challenge("basic", "x"));
  EXPECT_EQ(challenge.toString(), "Basic authParams={realm=x}");
}

TEST(ChallengeTest, SeparatorsBeforeFirstChallenge) {
  EXPECT_THAT(challengesOf(" ,  , Basic realm=myrealm"),
              ElementsAre(Challenge("Basic", "myrealm")));
}

TEST(ChallengeTest, SpacesAroundKeyValueSeparator) {
  EXPECT_THAT(challengesOf("Basic realm = \"myrealm\""),
              ElementsAre(Challenge("Basic", "myrealm")));
}

TEST(ChallengeTest, MultipleChallengesInOneHeader) {
  EXPECT_THAT(challengesOf("Basic realm = \"myrealm\",Digest"),
              ElementsAre(Challenge("Basic", "myrealm"), Challenge("Digest", Params{})));
  EXPECT_THAT(challengesOf("Basic realm = \"myrealm\",Basic realm=myotherrealm"),
              ElementsAre(Challenge("Basic", "myrealm"), Challenge("Basic", "myotherrealm")));
}

TEST(ChallengeTest, SeparatorsBetweenChallenges) {
  for (const char* value : {"Digest, Basic ,,realm=\"myrealm\"", "Digest,Basic realm=\"myrealm\"",
                            "Digest,,,, Basic ,,realm=\"myrealm\""}) {
    EXPECT_THAT(challengesOf(value),
                ElementsAre(Challenge("Digest", Params{}), Challenge("Basic", "myrealm")))
        << value;
  }
}

TEST(ChallengeTest, UnknownAuthParamsAreKept) {
  EXPECT_THAT(challengesOf("Digest,,,, Basic ,,foo=bar,realm=\"myrealm\""),
              ElementsAre(Challenge("Digest", Params{}),
                          Challenge("Basic", Params{{"realm", "myrealm"}, {"foo", "bar"}})));
}

TEST(ChallengeTest, EscapedCharactersInQuotedString) {
  EXPECT_THAT(challengesOf("Digest,,,, Basic ,,,realm=\"my\\\\\\\"r\\ealm\""),
              ElementsAre(Challenge("Digest", Params{}), Challenge("Basic", "my\\\"realm")));
}

TEST(ChallengeTest, CommaInQuotedStringAndBeforeFirstChallenge) {
  EXPECT_THAT(challengesOf(",Digest,,,, Basic ,,,realm=\"my, realm,\""),
              ElementsAre(Challenge("Digest", Params{}), Challenge("Basic", "my, realm,")));
}

TEST(ChallengeTest, UnescapedDoubleQuoteEndsTheHeader) {
  // An even number of backslashes leaves the quote unescaped: the value ends early and the
  // challenge is malformed, so only the challenges before it survive.
  EXPECT_THAT(challengesOf("Digest,,,, Basic ,,,realm=\"my\\\\\\\\\"r\\ealm\""),
              ElementsAre(Challenge("Digest", Params{})));
  EXPECT_THAT(challengesOf("Digest,,,, Basic ,,,realm=\"my\"realm\""),
              ElementsAre(Challenge("Digest", Params{})));
}

TEST(ChallengeTest, UnterminatedQuotedStringIsSkipped) {
  EXPECT_THAT(challengesOf("Digest, Basic realm=\"unterminated"),
              ElementsAre(Challenge("Digest", Params{})));
  EXPECT_THAT(challengesOf("Digest, Basic realm=\"dangling\\"),
              ElementsAre(Challenge("Digest", Params{})));
}

TEST(ChallengeTest, Token68InsteadOfAuthParams) {
  EXPECT_THAT(challengesOf("Other abc=="), ElementsAre(Challenge("Other", Params{{"", "abc=="}})));
  EXPECT_THAT(challengesOf("Negotiate a87421000492aa874209af8bc028"),
              ElementsAre(Challenge("Negotiate", Params{{"", "a87421000492aa874209af8bc028"}})));
}

TEST(ChallengeTest, Token68FollowedByAnotherChallenge) {
  EXPECT_THAT(challengesOf("Other abc==, Basic realm=x"),
              ElementsAre(Challenge("Other", Params{{"", "abc=="}}), Challenge("Basic", "x")));
}

TEST(ChallengeTest, Token68AndAuthParamsStopsAfterToken68) {
  EXPECT_THAT(challengesOf("Other abc==, realm=myrealm"),
              ElementsAre(Challenge("Other", Params{{"", "abc=="}})));
}

TEST(ChallengeTest, RepeatedAuthParamKeyDropsTheChallenge) {
  EXPECT_TRUE(challengesOf("Other realm=myotherrealm, realm=myrealm").empty());
}

TEST(ChallengeTest, RepeatedKeyInOtherCaseLastWins) {
  // OkHttp compares keys exactly before lower-casing them, so both are read; the last wins.
  EXPECT_THAT(challengesOf("Basic realm=a, REALM=b"), ElementsAre(Challenge("Basic", "b")));
}

TEST(ChallengeTest, UnexpectedEqualsSignsDropTheChallenge) {
  EXPECT_TRUE(challengesOf("Basic realm==x, foo=bar").empty());
  EXPECT_THAT(challengesOf("Digest, Basic realm=x,, =,"),
              ElementsAre(Challenge("Digest", Params{})));
}

TEST(ChallengeTest, MultipleAuthenticateHeaders) {
  Headers headers = Headers::Builder()
                        .add("WWW-Authenticate", "Digest")
                        .add("Proxy-Authenticate", "Basic realm=proxy")
                        .add("www-authenticate", "Basic realm=myrealm")
                        .build();
  EXPECT_THAT(parseChallenges(headers, "WWW-Authenticate"),
              ElementsAre(Challenge("Digest", Params{}), Challenge("Basic", "myrealm")));
  EXPECT_THAT(parseChallenges(headers, "Proxy-Authenticate"),
              ElementsAre(Challenge("Basic", "proxy")));
}

TEST(ChallengeTest, MalformedHeaderDoesNotAffectTheNext) {
  Headers headers = Headers::Builder()
                        .add("WWW-Authenticate", "Basic realm=\"oops")
                        .add("WWW-Authenticate", "Bearer realm=api")
                        .build();
  EXPECT_THAT(parseChallenges(headers, "WWW-Authenticate"),
              ElementsAre(Challenge("Bearer", "api")));
}

TEST(ChallengeTest, EmptyAndBlankValuesHaveNoChallenges) {
  EXPECT_TRUE(challengesOf("").empty());
  EXPECT_TRUE(challengesOf(" , ,, ").empty());
  EXPECT_TRUE(parseChallenges(Headers(), "WWW-Authenticate").empty());
}

TEST(ChallengeTest, ArbitraryBytesNeverCrash) {
  std::mt19937 random(7);  // Fixed seed: the same inputs every run.
  const std::string alphabet = "ab=,\" \t\\\x01\xff";
  for (int i = 0; i < 20000; ++i) {
    std::string value;
    std::size_t length = random() % 24;
    for (std::size_t j = 0; j < length; ++j) {
      value += alphabet[random() % alphabet.size()];
    }
    Headers headers = Headers::Builder().addLenient("WWW-Authenticate", value).build();
    for (const Challenge& challenge : parseChallenges(headers, "WWW-Authenticate")) {
      EXPECT_FALSE(challenge.scheme().empty()) << value;
    }
  }
  std::string many;
  for (int i = 0; i < 20000; ++i) {
    many += "k" + std::to_string(i) + "=v, ";
  }
  auto challenges = challengesOf("Basic " + many);
  ASSERT_EQ(challenges.size(), 1u);
  EXPECT_EQ(challenges[0].authParams().size(), 20000u);
}

}  // namespace
}  // namespace tern
