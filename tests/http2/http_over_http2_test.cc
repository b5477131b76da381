// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// HTTP features over HTTP/2, in the spirit of OkHttp's HttpOverHttp2Test, each over h2c and
// over HTTP/3 (MockWebServer's QUIC side; Transport in http2_fixture.h).
#include <gtest/gtest.h>

#include "http2_fixture.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

class Http2Test : public Http2Fixture, public ::testing::WithParamInterface<Transport> {
 protected:
  void SetUp() override { use(GetParam()); }
};

TEST_P(Http2Test, GetOverPriorKnowledge) {
  server.enqueue(body("ABCDE"));
  Response response = execute("/foo");
  EXPECT_EQ(response.body()->string(), "ABCDE");
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.message(), "");
  EXPECT_EQ(response.protocol(), protocol());
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.requestLine(), "GET /foo " + httpVersion());
  EXPECT_EQ(request.headers().get(":scheme"), scheme());
  EXPECT_EQ(request.headers().get(":authority"),
            server.hostName() + ":" + std::to_string(server.port()));
  EXPECT_EQ(request.headers().get(":method"), "GET");
  EXPECT_EQ(request.headers().get(":path"), "/foo");
  EXPECT_EQ(request.streamId(), streamId(0));
}

TEST_P(Http2Test, RequestHeadersAreLowerCaseWithoutConnectionSpecificFields) {
  server.enqueue(MockResponse());
  execute(Request::Builder()
              .url(server.url("/"))
              .header("X-Custom", "Value")
              .header("Connection", "keep-alive")
              .header("Transfer-Encoding", "identity")
              .header("TE", "trailers")
              .build());
  RecordedRequest request = server.takeRequest();
  bool sawUpperCase = false;
  for (const auto& [name, value] : request.headers()) {
    for (char c : name) sawUpperCase = sawUpperCase || (c >= 'A' && c <= 'Z');
  }
  EXPECT_FALSE(sawUpperCase);
  EXPECT_EQ(request.headers().get("x-custom"), "Value");
  EXPECT_EQ(request.headers().get("te"), "trailers");
  EXPECT_FALSE(request.headers().get("connection"));
  EXPECT_FALSE(request.headers().get("transfer-encoding"));
  EXPECT_FALSE(request.headers().get("host"));  // Carried as :authority.
}

TEST_P(Http2Test, Get204HasNoBody) {
  server.enqueue(
      MockResponse::Builder().status("HTTP/1.1 204").removeHeader("Content-Length").build());
  Response response = execute("/foo");
  EXPECT_EQ(response.code(), 204);
  EXPECT_EQ(response.body()->string(), "");
  EXPECT_EQ(response.body()->contentLength(), 0);
  EXPECT_FALSE(response.header("content-length"));
}

TEST_P(Http2Test, HeadKeepsContentLengthWithoutBody) {
  server.enqueue(MockResponse::Builder().setHeader("Content-Length", "5").build());
  Response response = execute(Request::Builder().url(server.url("/foo")).head().build());
  EXPECT_EQ(response.body()->string(), "");
  EXPECT_EQ(response.header("content-length"), "5");
  EXPECT_EQ(server.takeRequest().requestLine(), "HEAD /foo " + httpVersion());
}

TEST_P(Http2Test, StreamingPostHasNoContentLength) {
  class StreamingBody final : public RequestBody {
   public:
    std::optional<MediaType> contentType() const override { return MediaType::parse("text/plain"); }
    void writeTo(BufferedSink& sink) override { sink.writeUtf8("FGHIJ"); }
  };
  server.enqueue(body("ABCDE"));
  Response response = execute(
      Request::Builder().url(server.url("/foo")).post(std::make_shared<StreamingBody>()).build());
  EXPECT_EQ(response.body()->string(), "ABCDE");
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.requestLine(), "POST /foo " + httpVersion());
  EXPECT_EQ(request.bodyUtf8(), "FGHIJ");
  EXPECT_FALSE(request.headers().get("content-length"));
  EXPECT_FALSE(request.headers().get("transfer-encoding"));
}

TEST_P(Http2Test, PostWithKnownLengthSendsContentLength) {
  server.enqueue(body("ABCDE"));
  Response response = execute(
      Request::Builder().url(server.url("/foo")).post(RequestBody::create("FGHIJ")).build());
  EXPECT_EQ(response.body()->string(), "ABCDE");
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.bodyUtf8(), "FGHIJ");
  EXPECT_EQ(request.headers().get("content-length"), "5");
}

TEST_P(Http2Test, ConnectionReuseInterleavesTwoResponses) {
  server.enqueue(body("ABCDEF"));
  server.enqueue(body("GHIJKL"));
  Response response1 = execute("/r1");
  Response response2 = execute("/r1");
  EXPECT_EQ(response1.body()->source().readUtf8(3), "ABC");
  EXPECT_EQ(response2.body()->source().readUtf8(3), "GHI");
  EXPECT_EQ(response1.body()->source().readUtf8(3), "DEF");
  EXPECT_EQ(response2.body()->source().readUtf8(3), "JKL");
  RecordedRequest first = server.takeRequest();
  RecordedRequest second = server.takeRequest();
  EXPECT_EQ(first.connectionIndex(), 0);
  EXPECT_EQ(first.sequenceNumber(), 0);
  EXPECT_EQ(first.streamId(), streamId(0));
  EXPECT_EQ(second.connectionIndex(), 0);
  EXPECT_EQ(second.sequenceNumber(), 1);
  EXPECT_EQ(second.streamId(), streamId(1));
}

TEST_P(Http2Test, ReadAfterLastByteReturnsEndOfStream) {
  server.enqueue(body("ABC"));
  Response response = execute();
  BufferedSource& source = response.body()->source();
  EXPECT_EQ(source.readUtf8(3), "ABC");
  EXPECT_TRUE(source.exhausted());
  EXPECT_TRUE(source.exhausted());
}

TEST_P(Http2Test, EmptyResponse) {
  server.enqueue(MockResponse());
  Response response = execute();
  EXPECT_TRUE(response.body()->source().exhausted());
}

TEST_P(Http2Test, RedirectFollowsOnTheSameConnection) {
  server.enqueue(
      MockResponse::Builder().code(302).setHeader("Location", "/foo").body("moved").build());
  server.enqueue(body("This is the new location!"));
  EXPECT_EQ(fetch("/"), "This is the new location!");
  EXPECT_EQ(server.takeRequest().path(), "/");
  RecordedRequest second = server.takeRequest();
  EXPECT_EQ(second.path(), "/foo");
  EXPECT_EQ(second.connectionIndex(), 0);
}

TEST_P(Http2Test, ResponseHeadersArriveInLowerCase) {
  server.enqueue(MockResponse::Builder().addHeader("X-Mixed-Case", "Value").body("x").build());
  Response response = execute();
  EXPECT_EQ(response.header("x-mixed-case"), "Value");
  EXPECT_EQ(response.header("X-Mixed-Case"), "Value");  // Lookups ignore case.
  EXPECT_EQ(response.body()->string(), "x");
}

TEST_P(Http2Test, ConnectionPoolHoldsOneMultiplexedConnection) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(), "a");
  EXPECT_EQ(fetch(), "b");
  EXPECT_EQ(client.connectionPool()->connectionCount(), 1);
  EXPECT_EQ(client.connectionPool()->idleConnectionCount(), 1);
}

INSTANTIATE_TEST_SUITE_P(Transports, Http2Test, ::testing::Values(Transport::kH2c, Transport::kH3),
                         transportName);

}  // namespace
}  // namespace tern::testing
