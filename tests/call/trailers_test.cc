// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Response::trailers() over HTTP/1.1: the trailer section after a chunked body.
#include <gtest/gtest.h>

#include "call_fixture.h"

namespace tern::testing {
namespace {

using TrailersTest = CallFixture;

TEST_F(TrailersTest, ChunkedTrailersAfterTheBody) {
  server.enqueue(MockResponse::Builder()
                     .chunkedBody("abcdefgh", 3)
                     .trailers(Headers::of("Checksum", "42"))
                     .build());
  Response response = execute();
  EXPECT_EQ(response.body()->string(), "abcdefgh");
  EXPECT_EQ(response.trailers().get("Checksum"), "42");
}

TEST_F(TrailersTest, FixedLengthBodyHasNoTrailers) {
  server.enqueue(body("abc"));
  Response response = execute();
  EXPECT_EQ(response.body()->string(), "abc");
  EXPECT_EQ(response.trailers().size(), 0);
}

TEST_F(TrailersTest, TrailersBeforeTheEndOfTheBodyIsMisuse) {
  server.enqueue(MockResponse::Builder().chunkedBody("abcdefgh", 3).build());
  Response response = execute();
  EXPECT_THROW(response.trailers(), std::logic_error);
  response.body()->string();
}

TEST_F(TrailersTest, BuiltResponseWithoutASourceHasNoTrailers) {
  Response response = Response::Builder()
                          .request(get())
                          .protocol(Protocol::HTTP_1_1)
                          .code(200)
                          .message("OK")
                          .build();
  EXPECT_EQ(response.trailers().size(), 0);
}

TEST_F(TrailersTest, NewBuilderKeepsTheTrailersSource) {
  Response response = Response::Builder()
                          .request(get())
                          .protocol(Protocol::HTTP_1_1)
                          .code(200)
                          .message("OK")
                          .trailers([] { return Headers::of("a", "1"); })
                          .build();
  Response copy = std::move(response).newBuilder().build();
  EXPECT_EQ(copy.trailers().get("a"), "1");
}

}  // namespace
}  // namespace tern::testing
