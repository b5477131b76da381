// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/protocol.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tern/exceptions.h"

namespace tern {
namespace {

TEST(ProtocolTest, ToStringGivesAlpnIdentifiers) {
  EXPECT_EQ(toString(Protocol::HTTP_1_0), "http/1.0");
  EXPECT_EQ(toString(Protocol::HTTP_1_1), "http/1.1");
  EXPECT_EQ(toString(Protocol::HTTP_2), "h2");
  EXPECT_EQ(toString(Protocol::H2_PRIOR_KNOWLEDGE), "h2_prior_knowledge");
  EXPECT_EQ(toString(Protocol::HTTP_3), "h3");  // As OkHttp's Protocol.HTTP_3 and RFC 9114 §3.1.
}

TEST(ProtocolTest, StreamsAsItsIdentifier) {
  std::ostringstream out;
  out << Protocol::HTTP_2 << " " << Protocol::HTTP_1_1;
  EXPECT_EQ(out.str(), "h2 http/1.1");
}

TEST(ProtocolTest, ParseRoundTripsEveryProtocol) {
  for (Protocol p : {Protocol::HTTP_1_0, Protocol::HTTP_1_1, Protocol::HTTP_2,
                     Protocol::H2_PRIOR_KNOWLEDGE, Protocol::HTTP_3}) {
    EXPECT_EQ(parseProtocol(toString(p)), p);
  }
}

TEST(ProtocolTest, ParseRejectsUnknownIdentifierNamingIt) {
  try {
    parseProtocol("http/3");
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_STREQ(e.what(), "Unexpected protocol: http/3");
  }
  EXPECT_THROW(parseProtocol("HTTP/1.1"), IOException);  // ALPN ids are case-sensitive.
  EXPECT_THROW(parseProtocol(""), IOException);
  EXPECT_THROW(parseProtocol("h3-29"), IOException);  // A draft's ID is not HTTP/3 itself.
}

}  // namespace
}  // namespace tern
