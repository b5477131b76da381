// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http/request_line.h"

#include <gtest/gtest.h>

#include "tern/request.h"
#include "tern/request_body.h"

namespace tern::internal {
namespace {

Request request(std::string_view url) { return Request::Builder().url(url).build(); }

TEST(RequestLineTest, UsesOriginFormWithPathAndQuery) {
  EXPECT_EQ(requestLine(request("http://example.com/a/b?q=1&r"), false), "GET /a/b?q=1&r HTTP/1.1");
  EXPECT_EQ(requestLine(request("http://example.com"), false), "GET / HTTP/1.1");
  EXPECT_EQ(requestLine(request("https://example.com/x?"), false), "GET /x? HTTP/1.1");
}

TEST(RequestLineTest, NeverSendsTheFragment) {
  EXPECT_EQ(requestLine(request("http://example.com/a#frag"), false), "GET /a HTTP/1.1");
  EXPECT_EQ(requestLine(request("http://example.com/a?b#frag"), true),
            "GET http://example.com/a?b HTTP/1.1");
}

TEST(RequestLineTest, UsesTheMethod) {
  Request post = Request::Builder()
                     .url("http://example.com/form")
                     .post(RequestBody::create(std::string("a=1")))
                     .build();
  EXPECT_EQ(requestLine(post, false), "POST /form HTTP/1.1");
  EXPECT_EQ(requestLine(Request::Builder().url("http://example.com/").head().build(), false),
            "HEAD / HTTP/1.1");
}

TEST(RequestLineTest, UsesAbsoluteFormForHttpThroughAProxy) {
  EXPECT_EQ(requestLine(request("http://example.com:8080/a?b"), true),
            "GET http://example.com:8080/a?b HTTP/1.1");
}

TEST(RequestLineTest, DropsUserinfoFromTheAbsoluteForm) {
  EXPECT_EQ(requestLine(request("http://user:secret@example.com/a"), true),
            "GET http://example.com/a HTTP/1.1");
}

TEST(RequestLineTest, UsesOriginFormForHttpsThroughAProxyBecauseItTunnels) {
  EXPECT_EQ(requestLine(request("https://example.com/a"), true), "GET /a HTTP/1.1");
}

TEST(RequestLineTest, RequestPathKeepsPercentEncoding) {
  EXPECT_EQ(requestPath(HttpUrl::get("http://example.com/a%20b/c?d=%2F")), "/a%20b/c?d=%2F");
}

}  // namespace
}  // namespace tern::internal
