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
}

TEST(ProtocolTest, StreamsAsItsIdentifier) {
  std::ostringstream out;
  out << Protocol::HTTP_2 << " " << Protocol::HTTP_1_1;
  EXPECT_EQ(out.str(), "h2 http/1.1");
}

TEST(ProtocolTest, ParseRoundTripsEveryProtocol) {
  for (Protocol p :
       {Protocol::HTTP_1_0, Protocol::HTTP_1_1, Protocol::HTTP_2, Protocol::H2_PRIOR_KNOWLEDGE}) {
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
}

}  // namespace
}  // namespace tern
