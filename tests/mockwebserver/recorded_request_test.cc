// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/mockwebserver/recorded_request.h"

#include <gtest/gtest.h>

#include "tern/exceptions.h"

namespace tern::mockwebserver {
namespace {

TEST(RecordedRequestTest, SplitsTheRequestLine) {
  RecordedRequest request("POST /a/b?c=d HTTP/1.1", Headers::of("Host", "h"), {3, 2}, 5, "hello", 2,
                          7, HttpUrl::get("http://h/a/b?c=d"));
  EXPECT_EQ(request.requestLine(), "POST /a/b?c=d HTTP/1.1");
  EXPECT_EQ(request.toString(), "POST /a/b?c=d HTTP/1.1");
  EXPECT_EQ(request.method(), "POST");
  EXPECT_EQ(request.target(), "/a/b?c=d");
  EXPECT_EQ(request.path(), "/a/b?c=d");
  EXPECT_EQ(request.version(), "HTTP/1.1");
  EXPECT_EQ(request.url().toString(), "http://h/a/b?c=d");
  EXPECT_EQ(request.headers(), Headers::of("Host", "h"));
  EXPECT_EQ(request.chunkSizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(request.bodySize(), 5);
  EXPECT_EQ(request.bodyUtf8(), "hello");
  EXPECT_EQ(request.body().readUtf8(), "hello");
  EXPECT_EQ(request.sequenceNumber(), 2);
  EXPECT_EQ(request.connectionIndex(), 7);
  EXPECT_FALSE(request.failure());
  EXPECT_FALSE(request.failureMessage());
}

TEST(RecordedRequestTest, PathOfAnAbsoluteFormTargetComesFromTheUrl) {
  RecordedRequest request("GET http://example.com/x?y HTTP/1.1", Headers(), {}, 0, "", 0, 0,
                          HttpUrl::get("http://example.com/x?y"));
  EXPECT_EQ(request.target(), "http://example.com/x?y");
  EXPECT_EQ(request.path(), "/x?y");
}

TEST(RecordedRequestTest, BookkeepingRequestHasEmptyFields) {
  RecordedRequest request("", Headers(), {}, 0, "", 0, 3, HttpUrl::get("http://127.0.0.1:1/"));
  EXPECT_EQ(request.method(), "");
  EXPECT_EQ(request.target(), "");
  EXPECT_EQ(request.path(), "");
  EXPECT_EQ(request.version(), "");
}

TEST(RecordedRequestTest, MalformedLineFillsWhatItCan) {
  RecordedRequest request("GARBAGE", Headers(), {}, 0, "", 0, 0, HttpUrl::get("http://h/"),
                          std::make_exception_ptr(ProtocolException("bad line")));
  EXPECT_EQ(request.method(), "GARBAGE");
  EXPECT_EQ(request.target(), "");
  EXPECT_EQ(request.failureMessage(), "bad line");
  EXPECT_THROW(std::rethrow_exception(request.failure()), ProtocolException);
}

}  // namespace
}  // namespace tern::mockwebserver
