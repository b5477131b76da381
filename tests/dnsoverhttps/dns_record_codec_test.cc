// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "dnsoverhttps/dns_record_codec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/dns_message.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

using namespace std::chrono_literals;
using testing::aaaaRecord;
using testing::aRecord;
using testing::cnameRecord;
using testing::DnsBytes;
using testing::dnsName;
using testing::dnsPointer;
using testing::dnsResponse;
using ::testing::HasSubstr;

std::vector<std::string> texts(const DnsAnswer& answer) {
  std::vector<std::string> result;
  for (const InetAddress& address : answer.addresses) result.push_back(address.hostAddress());
  return result;
}

// What decoding `message` throws, as "Type: message".
std::string failureOf(const DnsBytes& message, uint16_t type = kDnsTypeA,
                      const std::string& host = "app.test") {
  try {
    decodeDnsAnswers(host, type, message);
  } catch (const UnknownHostException& e) {
    return std::string("UnknownHostException: ") + e.what();
  } catch (const IOException& e) {
    return std::string("IOException: ") + e.what();
  }
  return "nothing thrown";
}

TEST(DnsRecordCodecTest, EncodesAQueryAsRfc8484Shows) {
  // RFC 8484 §4.1.1's example query for www.example.com A: ID 0, RD, one question.
  std::vector<uint8_t> query = encodeDnsQuery("www.example.com", kDnsTypeA);
  DnsBytes expected = {0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0};
  DnsBytes name = dnsName("www.example.com");
  expected.insert(expected.end(), name.begin(), name.end());
  expected.insert(expected.end(), {0, 1, 0, 1});
  EXPECT_EQ(query, expected);
  // A trailing dot names the same host; AAAA is type 28.
  std::vector<uint8_t> aaaa = encodeDnsQuery("www.example.com.", kDnsTypeAaaa);
  EXPECT_EQ(aaaa.size(), expected.size());
  EXPECT_EQ(aaaa[aaaa.size() - 3], 28);
}

TEST(DnsRecordCodecTest, RefusesNamesDnsCannotCarry) {
  EXPECT_THROW(encodeDnsQuery("", kDnsTypeA), UnknownHostException);
  EXPECT_THROW(encodeDnsQuery("a..b", kDnsTypeA), UnknownHostException);
  EXPECT_THROW(encodeDnsQuery(std::string(64, 'a') + ".test", kDnsTypeA), UnknownHostException);
  try {
    encodeDnsQuery(std::string(300, 'a'), kDnsTypeA);
    FAIL();
  } catch (const UnknownHostException& e) {
    EXPECT_THAT(e.what(), HasSubstr("not a valid DNS name (longer than 253 bytes)"));
  }
}

TEST(DnsRecordCodecTest, DecodesARecordsWithTheirSmallestTtl) {
  DnsAnswer answer =
      decodeDnsAnswers("app.test", kDnsTypeA,
                       dnsResponse("app.test", kDnsTypeA,
                                   {aRecord(dnsPointer(12), {127, 0, 0, 1}, 300),
                                    aRecord(dnsName("app.test"), {10, 0, 0, 2}, 60)}));
  EXPECT_EQ(texts(answer), (std::vector<std::string>{"127.0.0.1", "10.0.0.2"}));
  EXPECT_EQ(answer.addresses[0].hostName(), "app.test");
  EXPECT_EQ(answer.ttl, 60s);
}

TEST(DnsRecordCodecTest, DecodesAaaaRecords) {
  std::vector<uint8_t> loopback(16, 0);
  loopback[15] = 1;
  DnsAnswer answer = decodeDnsAnswers(
      "App.Test", kDnsTypeAaaa,
      dnsResponse("app.test", kDnsTypeAaaa, {aaaaRecord(dnsPointer(12), loopback, 7)}));
  EXPECT_EQ(texts(answer), std::vector<std::string>{"::1"});
  EXPECT_EQ(answer.ttl, 7s);
}

TEST(DnsRecordCodecTest, FollowsACnameChainAndCountsItsTtl) {
  // app.test -> edge.cdn.test (compressed against the first CNAME's data) -> 10.1.1.1; a record
  // for an unrelated name is ignored.
  DnsBytes message = dnsResponse("app.test", kDnsTypeA,
                                 {cnameRecord(dnsPointer(12), dnsName("edge.cdn.test"), 30),
                                  aRecord(dnsName("other.test"), {10, 9, 9, 9}, 1),
                                  aRecord(dnsPointer(12 + 10 + 4 + 12), {10, 1, 1, 1}, 600)});
  DnsAnswer answer = decodeDnsAnswers("app.test", kDnsTypeA, message);
  EXPECT_EQ(texts(answer), std::vector<std::string>{"10.1.1.1"});
  EXPECT_EQ(answer.ttl, 30s);
}

TEST(DnsRecordCodecTest, NoDataIsAnEmptyAnswer) {
  DnsAnswer answer =
      decodeDnsAnswers("app.test", kDnsTypeAaaa, dnsResponse("app.test", kDnsTypeAaaa, {}));
  EXPECT_TRUE(answer.addresses.empty());
  EXPECT_FALSE(answer.ttl);
}

TEST(DnsRecordCodecTest, TtlWithTheTopBitSetCountsAsZero) {
  DnsAnswer answer = decodeDnsAnswers(
      "app.test", kDnsTypeA,
      dnsResponse("app.test", kDnsTypeA, {aRecord(dnsPointer(12), {1, 2, 3, 4}, 0x80000000u)}));
  EXPECT_EQ(answer.ttl, 0s);
}

TEST(DnsRecordCodecTest, ErrorRcodesNameTheHost) {
  EXPECT_EQ(failureOf(dnsResponse("app.test", kDnsTypeA, {}, 3)),
            "UnknownHostException: app.test: NXDOMAIN");
  EXPECT_EQ(failureOf(dnsResponse("app.test", kDnsTypeA, {}, 2)),
            "UnknownHostException: app.test: SERVFAIL");
  EXPECT_EQ(failureOf(dnsResponse("app.test", kDnsTypeA, {}, 5)),
            "UnknownHostException: app.test: REFUSED");
}

TEST(DnsRecordCodecTest, TruncatedMessagesAreMalformedAtEveryLength) {
  DnsBytes message = dnsResponse(
      "app.test", kDnsTypeA,
      {cnameRecord(dnsPointer(12), dnsName("b.test")), aRecord(dnsName("b.test"), {1, 2, 3, 4})});
  for (size_t length = 0; length < message.size(); ++length) {
    DnsBytes truncated(message.begin(), message.begin() + static_cast<ptrdiff_t>(length));
    EXPECT_THAT(failureOf(truncated),
                HasSubstr("IOException: malformed DNS response for app.test: "))
        << "at length " << length;
  }
  // "app.test" starts at 12: its second label (at 16) runs past the end.
  EXPECT_EQ(failureOf(DnsBytes(message.begin(), message.begin() + 20)),
            "IOException: malformed DNS response for app.test: truncated at byte 16 of 20");
}

TEST(DnsRecordCodecTest, CompressionPointerLoopsAreRefused) {
  // An answer whose name points at itself, and one pointing forward.
  DnsBytes self = dnsResponse("app.test", kDnsTypeA, {aRecord(dnsPointer(26), {1, 2, 3, 4})});
  EXPECT_EQ(failureOf(self),
            "IOException: malformed DNS response for app.test: compression pointer at byte 26 "
            "does not point back (to 26)");
  DnsBytes forward = dnsResponse("app.test", kDnsTypeA, {aRecord(dnsPointer(40), {1, 2, 3, 4})});
  EXPECT_THAT(failureOf(forward), HasSubstr("does not point back (to 40)"));
}

TEST(DnsRecordCodecTest, CnameLoopsAreRefused) {
  DnsBytes message = dnsResponse("app.test", kDnsTypeA,
                                 {cnameRecord(dnsName("app.test"), dnsName("b.test")),
                                  cnameRecord(dnsName("b.test"), dnsName("app.test"))});
  EXPECT_EQ(failureOf(message),
            "IOException: malformed DNS response for app.test: CNAME loop at app.test");
}

TEST(DnsRecordCodecTest, TheQuestionMustBeOurs) {
  EXPECT_EQ(failureOf(dnsResponse("evil.test", kDnsTypeA, {})),
            "IOException: malformed DNS response for app.test: the question is for evil.test "
            "type 1 class 1, not app.test type 1");
  EXPECT_THAT(failureOf(dnsResponse("app.test", kDnsTypeAaaa, {})),
              HasSubstr("the question is for app.test type 28"));
}

TEST(DnsRecordCodecTest, HeaderIsChecked) {
  EXPECT_THAT(failureOf(dnsResponse("app.test", kDnsTypeA, {}, 0, 0x0100)),
              HasSubstr("not a response (QR is 0)"));
  EXPECT_THAT(failureOf(dnsResponse("app.test", kDnsTypeA, {}, 0, 0x8380)),
              HasSubstr("truncated (TC is set)"));
  DnsBytes withId = dnsResponse("app.test", kDnsTypeA, {});
  withId[1] = 7;
  EXPECT_THAT(failureOf(withId), HasSubstr("ID 7 instead of 0"));
}

TEST(DnsRecordCodecTest, AddressesOfTheWrongLengthAreRefused) {
  EXPECT_EQ(
      failureOf(dnsResponse("app.test", kDnsTypeA, {aRecord(dnsPointer(12), {1, 2, 3, 4, 5})})),
      "IOException: malformed DNS response for app.test: A record of 5 bytes");
}

}  // namespace
}  // namespace tern::internal
