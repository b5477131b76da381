// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The url layer's building blocks that HttpUrl's API reaches only indirectly: Punycode (RFC 3492),
// UTF-8 repair, and the IPv4/IPv6 parsers and serializers.
#include <gtest/gtest.h>

#include <string>

#include "url/ip_address.h"
#include "url/punycode.h"
#include "url/utf8.h"

namespace tern::internal {
namespace {

TEST(PunycodeTest, EncodesRfc3492Examples) {
  EXPECT_EQ(punycodeEncode(U"b\u00fccher"), "bcher-kva");
  EXPECT_EQ(punycodeEncode(U"\u00fc"), "tda");
  EXPECT_EQ(punycodeEncode(U"\u2603"), "n3h");
  EXPECT_EQ(punycodeEncode(U"fa\u00df"), "fa-hia");
  // RFC 3492 §7.1 (S): only basic code points, so the delimiter ends the output.
  EXPECT_EQ(punycodeEncode(U"-> $1.00 <-"), "-> $1.00 <--");
  // RFC 3492 §7.1 (L): 3<nen>B<gumi><kinpachi><sensei>.
  EXPECT_EQ(punycodeEncode(U"3\u5e74B\u7d44\u91d1\u516b\u5148\u751f"), "3B-ww4c5e180e575a65lsy2b");
  EXPECT_EQ(punycodeEncode(U""), "");
}

TEST(PunycodeTest, DecodesWhatItEncodes) {
  for (const std::u32string& text :
       {std::u32string(U"b\u00fccher"), std::u32string(U"\U0001F369x"),
        std::u32string(U"3\u5e74B\u7d44\u91d1\u516b\u5148\u751f"), std::u32string(U"-\u2020")}) {
    const std::optional<std::string> encoded = punycodeEncode(text);
    ASSERT_TRUE(encoded);
    EXPECT_EQ(punycodeDecode(*encoded), text);
  }
  // Digits are case-insensitive; basic code points keep their case.
  EXPECT_EQ(punycodeDecode("BCHER-KVA"), std::u32string(U"B\u00fcCHER"));
}

TEST(PunycodeTest, RejectsMalformedInput) {
  EXPECT_EQ(punycodeDecode("ls8h="), std::nullopt);        // Not a base-36 digit.
  EXPECT_EQ(punycodeDecode("a\xc3\xa9-x"), std::nullopt);  // Non-ASCII basic code point.
  EXPECT_EQ(punycodeDecode("99999999999"), std::nullopt);  // Overflow.
  EXPECT_EQ(punycodeDecode("zzzzzzzzzzzzzzzzzzzzzzzzz"), std::nullopt);
  EXPECT_EQ(punycodeDecode("b"), std::nullopt);  // Truncated: the digit needs more.
  EXPECT_EQ(punycodeDecode(std::string(kMaxPunycodeLength + 1, 'a')), std::nullopt);
  EXPECT_EQ(punycodeEncode(std::u32string(kMaxPunycodeLength + 1, U'\u00e9')), std::nullopt);
}

TEST(Utf8Test, SanitizeReplacesMaximalSubparts) {
  EXPECT_EQ(sanitizeUtf8("abc"), "abc");
  EXPECT_EQ(sanitizeUtf8("\xff"), "\xef\xbf\xbd");
  EXPECT_EQ(sanitizeUtf8("\xe2\x98x"), "\xef\xbf\xbdx");  // One U+FFFD for a truncated sequence.
  EXPECT_EQ(sanitizeUtf8("\xc0\x80"), "\xef\xbf\xbd\xef\xbf\xbd");                  // Overlong.
  EXPECT_EQ(sanitizeUtf8("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // Surrogate.
  EXPECT_EQ(sanitizeUtf8("\xf4\x90\x80\x80"),
            "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // Above U+10FFFF.
  EXPECT_EQ(sanitizeUtf8("\xf0\x9f\x8d\xa9"), "\xf0\x9f\x8d\xa9");
  EXPECT_EQ(sanitizeUtf8(std::string("a\0b", 3)), std::string("a\0b", 3));
}

TEST(IpAddressTest, Ipv4PartsAndRadixes) {
  EXPECT_EQ(parseIpv4("1.2.3.4"), 0x01020304u);
  EXPECT_EQ(parseIpv4("0x1.02.3"), 0x01020003u);
  EXPECT_EQ(parseIpv4("4294967295"), 0xFFFFFFFFu);
  EXPECT_EQ(parseIpv4("4294967296"), std::nullopt);
  EXPECT_EQ(parseIpv4("1.2.3.4.5"), std::nullopt);
  EXPECT_EQ(parseIpv4("1.2.65536"), std::nullopt);
  EXPECT_EQ(parseIpv4("1.2.65535"), 0x0102FFFFu);
  EXPECT_EQ(parseIpv4("08"), std::nullopt);
  EXPECT_EQ(parseIpv4("0x" + std::string(10000, 'f')), std::nullopt);
  EXPECT_EQ(serializeIpv4(0x7F000001u), "127.0.0.1");
}

TEST(IpAddressTest, EndsInANumber) {
  EXPECT_TRUE(endsInANumber("a.1"));
  EXPECT_TRUE(endsInANumber("a.0x"));
  EXPECT_TRUE(endsInANumber("a.0XfF."));
  EXPECT_TRUE(endsInANumber("09"));
  EXPECT_FALSE(endsInANumber("a.1a"));
  EXPECT_FALSE(endsInANumber("a.0xg"));
  EXPECT_FALSE(endsInANumber("."));
  EXPECT_FALSE(endsInANumber("a.."));
}

TEST(IpAddressTest, Ipv6RoundTrip) {
  const std::optional<Ipv6Address> address = parseIpv6("2001:DB8::1:0:0:1");
  ASSERT_TRUE(address);
  EXPECT_EQ(*address, (Ipv6Address{0x2001, 0xdb8, 0, 0, 1, 0, 0, 1}));
  EXPECT_EQ(serializeIpv6(*address), "2001:db8::1:0:0:1");
  EXPECT_EQ(serializeIpv6(Ipv6Address{0, 0xf, 0, 0, 0xf, 0xf, 0, 0}), "0:f::f:f:0:0");
  EXPECT_EQ(serializeIpv6(Ipv6Address{1, 0, 1, 0, 1, 0, 1, 0}), "1:0:1:0:1:0:1:0");
  EXPECT_EQ(parseIpv6(""), std::nullopt);
  EXPECT_EQ(parseIpv6("::"), (Ipv6Address{}));
}

}  // namespace
}  // namespace tern::internal
