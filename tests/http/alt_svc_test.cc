// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Alt-Svc field parsing (RFC 7838 §3, §3.1): the RFC's examples, and how a malformed field or
// alt-value is skipped rather than failing the response.
#include "http/alt_svc.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tern::internal {
namespace {

using namespace std::chrono_literals;

AltService service(std::string protocolId, std::string host, int port,
                   std::chrono::seconds maxAge = 86400s, bool persist = false) {
  return AltService{std::move(protocolId), std::move(host), port, maxAge, persist};
}

std::vector<AltService> alternatives(std::string_view value) {
  AltSvcField field = AltSvcField::parse(value);
  EXPECT_FALSE(field.clear) << value;
  return field.alternatives;
}

// The single alternative `value` holds, or a failure naming the value.
AltService only(std::string_view value) {
  std::vector<AltService> result = alternatives(value);
  if (result.size() != 1) {
    ADD_FAILURE() << "expected one alternative in " << value << ", got " << result.size();
    return {};
  }
  return result.front();
}

TEST(AltSvcTest, RfcExamples) {
  // §3.
  EXPECT_EQ(only("h2=\":8000\""), service("h2", "", 8000));
  EXPECT_EQ(only("h2=\"new.example.org:80\""), service("h2", "new.example.org", 80));
  EXPECT_EQ(alternatives("h2=\"alt.example.com:8000\", h2=\":443\""),
            (std::vector{service("h2", "alt.example.com", 8000), service("h2", "", 443)}));
  // §3.1.
  EXPECT_EQ(only("h2=\":443\"; ma=3600"), service("h2", "", 443, 3600s));
  EXPECT_EQ(only("h2=\":443\"; ma=2592000; persist=1"), service("h2", "", 443, 2592000s, true));
}

TEST(AltSvcTest, ClearAlone) {
  AltSvcField field = AltSvcField::parse("clear");
  EXPECT_TRUE(field.clear);
  EXPECT_TRUE(field.alternatives.empty());
  EXPECT_FALSE(field.empty());
  EXPECT_TRUE(AltSvcField::parse(" \tclear ").clear);
}

TEST(AltSvcTest, ClearIsCaseSensitiveAndOnlyAlone) {
  // %s"clear" (§3): any other spelling is an alt-value without '=', and malformed.
  EXPECT_TRUE(AltSvcField::parse("Clear").empty());
  EXPECT_TRUE(AltSvcField::parse("CLEAR").empty());
  EXPECT_TRUE(AltSvcField::parse("clear;").empty());
  // Beside alt-values it is one more malformed alt-value; the others count.
  AltSvcField field = AltSvcField::parse("clear, h3=\":443\"");
  EXPECT_FALSE(field.clear);
  EXPECT_EQ(field.alternatives, std::vector{service("h3", "", 443)});
}

TEST(AltSvcTest, MultipleAlternativesKeepTheServersOrder) {
  EXPECT_EQ(
      alternatives("h3=\":443\"; ma=86400, h3-29=\":443\"; ma=86400, h2=\":443\""),
      (std::vector{service("h3", "", 443), service("h3-29", "", 443), service("h2", "", 443)}));
}

TEST(AltSvcTest, MultipleFieldLines) {
  std::vector<std::string> lines = {"h3=\":443\"; ma=60", "h2=\"b.example.com:8443\""};
  AltSvcField field = AltSvcField::parse(lines);
  EXPECT_FALSE(field.clear);
  EXPECT_EQ(field.alternatives,
            (std::vector{service("h3", "", 443, 60s), service("h2", "b.example.com", 8443)}));

  // Lines joined as RFC 9110 §5.3 allows read the same.
  EXPECT_EQ(alternatives("h3=\":443\"; ma=60, h2=\"b.example.com:8443\""), field.alternatives);
}

TEST(AltSvcTest, UnterminatedQuoteOnOneLineDoesNotSwallowTheNext) {
  std::vector<std::string> lines = {"h3=\":443", "h2=\":8443\""};
  EXPECT_EQ(AltSvcField::parse(lines).alternatives, std::vector{service("h2", "", 8443)});
  // Joined, the quote runs to the end: nothing is left.
  EXPECT_TRUE(AltSvcField::parse("h3=\":443, h2=\":8443\"").empty());
}

TEST(AltSvcTest, ClearAmongFieldLines) {
  EXPECT_TRUE(AltSvcField::parse(std::vector<std::string>{"clear"}).clear);
  EXPECT_TRUE(AltSvcField::parse(std::vector<std::string>{"", "clear", "junk"}).clear);
  AltSvcField field = AltSvcField::parse(std::vector<std::string>{"clear", "h3=\":443\""});
  EXPECT_FALSE(field.clear);
  EXPECT_EQ(field.alternatives, std::vector{service("h3", "", 443)});
  EXPECT_TRUE(AltSvcField::parse(std::vector<std::string>{}).empty());
}

TEST(AltSvcTest, ProtocolIdIsPercentDecoded) {
  // §3's example: the ALPN ID "w=x:y".
  EXPECT_EQ(only("w%3Dx%3Ay=\":443\"").protocolId, "w=x:y");
  EXPECT_EQ(only("h3-29=\":443\"").protocolId, "h3-29");
  EXPECT_EQ(only("a%2cb=\":443\"").protocolId, "a,b");  // Lowercase hex too.
  EXPECT_EQ(only("%25=\":443\"").protocolId, "%");
  EXPECT_EQ(only("%00=\":443\"").protocolId, std::string(1, '\0'));
  // Decoding happens once: "%2541" is "%41".
  EXPECT_EQ(only("%2541=\":443\"").protocolId, "%41");
}

TEST(AltSvcTest, ProtocolIdIsCaseSensitive) { EXPECT_EQ(only("H3=\":443\"").protocolId, "H3"); }

TEST(AltSvcTest, BadPercentEscapesAreSkipped) {
  for (std::string_view value :
       {"h%=\":443\"", "h%3=\":443\"", "h%zz=\":443\"", "%=\":443\"", "h%3G=\":443\""}) {
    EXPECT_TRUE(AltSvcField::parse(value).empty()) << value;
  }
  EXPECT_EQ(alternatives("h%3=\":443\", h3=\":443\""), std::vector{service("h3", "", 443)});
}

TEST(AltSvcTest, ProtocolIdLengthIsBounded) {
  std::string longest(255, 'a');
  EXPECT_EQ(only(longest + "=\":443\"").protocolId, longest);
  EXPECT_TRUE(AltSvcField::parse(longest + "a=\":443\"").empty());
  // Counted after decoding: 255 escapes are 255 bytes.
  std::string escaped;
  for (int i = 0; i < 255; ++i) escaped += "%41";
  EXPECT_EQ(only(escaped + "=\":443\"").protocolId, std::string(255, 'A'));
}

TEST(AltSvcTest, AuthorityQuotedPairsAreUnescaped) {
  EXPECT_EQ(only("h2=\"\\:443\""), service("h2", "", 443));
  EXPECT_EQ(only("h2=\"ex\\ample.com:\\4\\43\""), service("h2", "example.com", 443));
  EXPECT_EQ(only("h2=\"[\\:\\:1]:443\""), service("h2", "::1", 443));
  // An escaped quote is part of the authority, which then is not one.
  EXPECT_TRUE(AltSvcField::parse("h2=\"\\\":443\"").empty());
  // A backslash at the end leaves the string unterminated.
  EXPECT_TRUE(AltSvcField::parse("h2=\":443\\\"").empty());
}

TEST(AltSvcTest, Ipv6Hosts) {
  EXPECT_EQ(only("h3=\"[2001:db8::1]:443\""), service("h3", "2001:db8::1", 443));
  // Canonical as HttpUrl::host(): compressed, lowercase, no brackets.
  EXPECT_EQ(only("h3=\"[2001:DB8:0:0:0:0:0:1]:8443\"").host, "2001:db8::1");
  EXPECT_EQ(only("h3=\"[::ffff:192.0.2.128]:443\"").host, "::ffff:c000:280");
  for (std::string_view value : {"h3=\"2001:db8::1:443\"",  // Not bracketed.
                                 "h3=\"[2001:db8::1]\"",    // No port.
                                 "h3=\"[2001:db8::1]443\"", "h3=\"[2001:db8::1:443\"",
                                 "h3=\"[]:443\"", "h3=\"[zz::1]:443\"", "h3=\"[::1]x:443\""}) {
    EXPECT_TRUE(AltSvcField::parse(value).empty()) << value;
  }
}

TEST(AltSvcTest, HostsAreCanonical) {
  EXPECT_EQ(only("h2=\"Alt.Example.COM:443\"").host, "alt.example.com");
  EXPECT_EQ(only("h2=\"192.0.2.1:443\"").host, "192.0.2.1");
  EXPECT_EQ(only("h2=\"localhost:443\"").host, "localhost");
  for (std::string_view value :
       {"h2=\"a b:443\"", "h2=\"a%41:443\"", "h2=\"user@host:443\"", "h2=\"a/b:443\"",
        "h2=\"caf\xc3\xa9.example:443\"",  // Not ASCII.
        "h2=\"192.0.2.300:443\""}) {       // Ends in a number, but no IPv4 address.
    EXPECT_TRUE(AltSvcField::parse(value).empty()) << value;
  }
  EXPECT_TRUE(AltSvcField::parse("h2=\"" + std::string(256, 'a') + ":443\"").empty());
}

TEST(AltSvcTest, EmptyHostMeansTheOrigins) { EXPECT_EQ(only("h3=\":443\"").host, ""); }

TEST(AltSvcTest, Ports) {
  EXPECT_EQ(only("h3=\":1\"").port, 1);
  EXPECT_EQ(only("h3=\":65535\"").port, 65535);
  EXPECT_EQ(only("h3=\":0443\"").port, 443);
  for (std::string_view value :
       {"h3=\":0\"", "h3=\":65536\"", "h3=\":99999999999999999999\"", "h3=\":\"", "h3=\"\"",
        "h3=\"example.com\"", "h3=\"example.com:\"", "h3=\":44x\"", "h3=\":-1\"", "h3=\":+1\"",
        "h3=\": 443\"", "h3=\":443 \"", "h3=\":0x1bb\""}) {
    EXPECT_TRUE(AltSvcField::parse(value).empty()) << value;
  }
}

TEST(AltSvcTest, MaxAge) {
  EXPECT_EQ(only("h3=\":443\"").maxAge, 86400s);  // The default (§3.1).
  EXPECT_EQ(only("h3=\":443\"; ma=0").maxAge, 0s);
  EXPECT_EQ(only("h3=\":443\"; ma=60").maxAge, 60s);
  EXPECT_EQ(only("h3=\":443\"; ma=\"60\"").maxAge, 60s);  // A quoted-string value.
  EXPECT_EQ(only("h3=\":443\"; MA=60").maxAge, 60s);
  EXPECT_EQ(only("h3=\":443\"; ma=60; ma=120").maxAge, 60s);  // The first counts.
}

TEST(AltSvcTest, HugeMaxAgeIsCapped) {
  EXPECT_EQ(only("h3=\":443\"; ma=31536000").maxAge, AltService::kMaxAgeCap);
  EXPECT_EQ(only("h3=\":443\"; ma=31536001").maxAge, AltService::kMaxAgeCap);
  EXPECT_EQ(only("h3=\":443\"; ma=18446744073709551616").maxAge, AltService::kMaxAgeCap);
  EXPECT_EQ(only("h3=\":443\"; ma=" + std::string(1000, '9')).maxAge, AltService::kMaxAgeCap);
  EXPECT_EQ(only("h3=\":443\"; ma=0000000000000000000000000000000000000042").maxAge, 42s);
}

TEST(AltSvcTest, InvalidMaxAgeSkipsTheAlternative) {
  for (std::string_view value : {"h3=\":443\"; ma=-1", "h3=\":443\"; ma=1.5", "h3=\":443\"; ma=",
                                 "h3=\":443\"; ma", "h3=\":443\"; ma=abc", "h3=\":443\"; ma=\"\"",
                                 "h3=\":443\"; ma=\" 60\"", "h3=\":443\"; ma=60; ma=x"}) {
    EXPECT_TRUE(AltSvcField::parse(value).empty()) << value;
  }
}

TEST(AltSvcTest, Persist) {
  EXPECT_FALSE(only("h3=\":443\"").persist);
  EXPECT_TRUE(only("h3=\":443\"; persist=1").persist);
  EXPECT_TRUE(only("h3=\":443\"; persist=\"1\"").persist);
  // §3.1: values other than 1 are ignored.
  EXPECT_FALSE(only("h3=\":443\"; persist=0").persist);
  EXPECT_FALSE(only("h3=\":443\"; persist=true").persist);
  EXPECT_FALSE(only("h3=\":443\"; persist=01").persist);
}

TEST(AltSvcTest, UnknownParametersAreIgnored) {
  EXPECT_EQ(only("h3=\":443\"; v=\"1,2\"; ma=60; foo=bar; x=\"a;b\\\"c\""),
            service("h3", "", 443, 60s));
  // A comma inside a quoted parameter does not end the alt-value.
  EXPECT_EQ(alternatives("h3=\":443\"; quic=\"1,h2=\\\":1\\\"\", h2=\":8443\""),
            (std::vector{service("h3", "", 443), service("h2", "", 8443)}));
}

TEST(AltSvcTest, MalformedAltValuesAreSkippedAndTheRestKept) {
  const std::vector<AltService> good = {service("h2", "", 8443)};
  for (std::string_view bad : {
           "h3=:443",               // Authority not quoted.
           "h3",                    // No '='.
           "h3 \":443\"",           // No '='.
           "=\":443\"",             // No protocol-id.
           "h3=\":443\" x",         // Trailing garbage.
           "h3=\":443\"x",          // Trailing garbage.
           "h3=\":443\"; ma=60 x",  // Trailing garbage after a parameter.
           "h3=\":443\"; persist",  // A parameter without '='.
           "h3=\":443\"; =1",       // A parameter without a name.
           "h3=\":443\"; foo=",     // A parameter without a value.
           "h3=\":65536\"",         // Port out of range.
           "h3=\":0\"",             // Port 0.
           "h3=\":http\"",          // Port not digits.
           "h3=\":443\":443",       // Garbage after the authority.
           "\"h3\"=\":443\"",       // A quoted protocol-id.
           "h3=\":443\"; ma=-5",    // Bad ma.
           "h\xff=\":443\"",        // Not a token.
           "{}",                    // Nothing like it.
       }) {
    std::string before = std::string(bad) + ", h2=\":8443\"";
    std::string after = "h2=\":8443\", " + std::string(bad);
    EXPECT_EQ(alternatives(before), good) << before;
    EXPECT_EQ(alternatives(after), good) << after;
  }
  // An unterminated quote runs to the end of the value: only what came before it survives.
  for (std::string_view bad : {"h3=\":443", "h3=\":443\"; foo=\"x, h3=\":1\""}) {
    EXPECT_EQ(alternatives("h2=\":8443\", " + std::string(bad)), good) << bad;
    EXPECT_TRUE(AltSvcField::parse(std::string(bad) + ", h2=\":8443\"").empty()) << bad;
  }
}

TEST(AltSvcTest, GarbageYieldsNothing) {
  for (std::string_view value :
       {"", " ", ",", " , ,, ", "garbage", "\"\"", ";;;", "h3=", "=", "h3=\"", "\"", "\\",
        "h3=\":443\" \"", "\x01\x02\xff", "h3=\":443\"; ma=1;; \"unterminated"}) {
    AltSvcField field = AltSvcField::parse(value);
    EXPECT_TRUE(field.empty()) << value;
    EXPECT_FALSE(field.clear) << value;
  }
}

TEST(AltSvcTest, WhitespaceVariants) {
  const std::vector<AltService> expected = {service("h3", "", 443, 60s, true),
                                            service("h2", "a.example", 8443)};
  for (std::string_view value : {
           "h3=\":443\";ma=60;persist=1,h2=\"a.example:8443\"",
           "  h3=\":443\" ; ma=60 ;\tpersist=1 ,\th2=\"a.example:8443\"  ",
           "h3 = \":443\"; ma = 60; persist = 1, h2= \"a.example:8443\"",
           ", h3=\":443\"; ma=60; persist=1,, ,h2=\"a.example:8443\",",
           "h3=\":443\"; ; ma=60;; persist=1;, h2=\"a.example:8443\";",
       }) {
    EXPECT_EQ(alternatives(value), expected) << value;
  }
  // Whitespace inside the quoted authority is not OWS: the authority is wrong.
  EXPECT_TRUE(AltSvcField::parse("h3=\" :443\"").empty());
}

TEST(AltSvcTest, AtMostMaxAlternativesAreKept) {
  std::string value;
  for (int i = 1; i <= 1000; ++i) value += "h3=\":" + std::to_string(i) + "\", ";
  AltSvcField field = AltSvcField::parse(value);
  ASSERT_EQ(field.alternatives.size(), AltSvcField::kMaxAlternatives);
  EXPECT_EQ(field.alternatives.front().port, 1);
  EXPECT_EQ(field.alternatives.back().port, static_cast<int>(AltSvcField::kMaxAlternatives));

  // Across field lines too.
  std::vector<std::string> lines(100, "h3=\":443\", h2=\":443\"");
  EXPECT_EQ(AltSvcField::parse(lines).alternatives.size(), AltSvcField::kMaxAlternatives);
}

TEST(AltSvcTest, MalformedAltValuesDoNotCountTowardsTheBound) {
  std::string value;
  for (int i = 0; i < 1000; ++i) value += "bad, ";
  value += "h3=\":443\"";
  EXPECT_EQ(alternatives(value), std::vector{service("h3", "", 443)});
}

}  // namespace
}  // namespace tern::internal
