// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "message_text.h"

#include <gtest/gtest.h>

namespace tern::tool {
namespace {

TEST(MessageTextTest, ResponseHeadAsReceived) {
  EXPECT_EQ(responseHead(Protocol::HTTP_1_1, 200, "OK",
                         Headers::of("Content-Type", "text/plain", "Content-Length", "5")),
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\n");
  EXPECT_EQ(responseHead(Protocol::HTTP_1_0, 404, "Not Found", Headers()),
            "HTTP/1.0 404 Not Found\r\n\r\n");
  EXPECT_EQ(responseHead(Protocol::HTTP_2, 204, "", Headers()), "HTTP/2 204\r\n\r\n");
  EXPECT_EQ(responseHead(Protocol::HTTP_3, 200, "", Headers()), "HTTP/3 200\r\n\r\n");
}

TEST(MessageTextTest, RequestHeadOverHttp2LeavesOutConnectionHeaders) {
  Request request = Request::Builder()
                        .url("https://example.com/a?b")
                        .header("Host", "example.com")
                        .header("Connection", "Keep-Alive")
                        .header("Accept", "*/*")
                        .build();
  EXPECT_EQ(requestHead(request, Protocol::HTTP_2),
            "GET /a?b HTTP/2\r\nHost: example.com\r\nAccept: */*\r\n\r\n");
  EXPECT_EQ(requestHead(request, Protocol::HTTP_3),
            "GET /a?b HTTP/3\r\nHost: example.com\r\nAccept: */*\r\n\r\n");
  EXPECT_EQ(requestHead(request, Protocol::HTTP_1_1),
            "GET /a?b HTTP/1.1\r\nHost: example.com\r\nConnection: Keep-Alive\r\nAccept: "
            "*/*\r\n\r\n");
}

TEST(MessageTextTest, RequestHeadWithPathAndQuery) {
  Request request = Request::Builder()
                        .url("http://example.com/a%20b/c?x=1&y#fragment")
                        .header("Host", "example.com")
                        .build();
  EXPECT_EQ(requestHead(request), "GET /a%20b/c?x=1&y HTTP/1.1\r\nHost: example.com\r\n\r\n");
  EXPECT_EQ(requestHead(Request::Builder().url("http://example.com").head().build()),
            "HEAD / HTTP/1.1\r\n\r\n");
}
}  // namespace
}  // namespace tern::tool
