// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// How Http1ExchangeCodec writes requests: the request line, headers and both body framings.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "http1/http1_codec_fixture.h"
#include "support/io_fakes.h"
#include "tern/exceptions.h"
#include "tern/request_body.h"

namespace tern::testing {
namespace {

Request post(std::string_view body, bool chunked = false) {
  Request::Builder builder;
  builder.url("http://example.com/upload?x=1").post(RequestBody::create(std::string(body)));
  if (chunked) {
    builder.header("Transfer-Encoding", "chunked");
  } else {
    builder.header("Content-Length", std::to_string(body.size()));
  }
  return builder.build();
}

// Writes `body` to a sink the codec made for `request`, through a BufferedSink as the call
// layer does, and closes it.
void writeBody(internal::ExchangeCodec& codec, const Request& request, int64_t contentLength) {
  std::unique_ptr<Sink> sink = codec.createRequestBody(request, contentLength);
  std::unique_ptr<BufferedSink> buffered = tern::buffer(*sink);
  request.body()->writeTo(*buffered);
  buffered->close();
}

class Http1RequestTest : public Http1CodecTest {};

TEST_F(Http1RequestTest, WritesRequestLineAndHeadersInOrder) {
  Request request = Request::Builder()
                        .url("http://example.com/a/b?c=d")
                        .header("Host", "example.com")
                        .addHeader("Accept", "text/html")
                        .addHeader("accept", "*/*")
                        .build();
  codec->writeRequestHeaders(request);
  codec->finishRequest();
  EXPECT_EQ(client.readUtf8(),
            "GET /a/b?c=d HTTP/1.1\r\n"
            "Host: example.com\r\n"
            "Accept: text/html\r\n"
            "accept: */*\r\n"
            "\r\n");
  EXPECT_TRUE(reusable());
}

TEST_F(Http1RequestTest, WritesAbsoluteFormThroughAnHttpProxy) {
  codec = std::make_unique<internal::Http1ExchangeCodec>(carrier, server, client, true);
  codec->writeRequestHeaders(get("http://example.com:8080/a?b#c"));
  EXPECT_EQ(client.readUtf8(), "GET http://example.com:8080/a?b HTTP/1.1\r\n\r\n");
}

TEST_F(Http1RequestTest, WritesARawRequestLineForATunnel) {
  codec->writeRequest(Headers::of("Host", "example.com:443", "Proxy-Connection", "Keep-Alive"),
                      "CONNECT example.com:443 HTTP/1.1");
  EXPECT_EQ(client.readUtf8(),
            "CONNECT example.com:443 HTTP/1.1\r\n"
            "Host: example.com:443\r\n"
            "Proxy-Connection: Keep-Alive\r\n"
            "\r\n");
}

TEST_F(Http1RequestTest, RefusesHeadersThatWouldSplitTheRequest) {
  Headers smuggled = Headers::Builder().addLenient("X-Evil", "a\r\nInjected: 1").build();
  Request request = Request::Builder().url("http://example.com/").headers(smuggled).build();
  EXPECT_THROW(codec->writeRequestHeaders(request), std::invalid_argument);
  Headers emptyName = Headers::Builder().addLenient(":no-name").build();
  EXPECT_THROW(codec->writeRequest(emptyName, "GET / HTTP/1.1"), std::invalid_argument);
  EXPECT_EQ(client.size(), 0);  // Nothing was written.
}

TEST_F(Http1RequestTest, FixedLengthBodyFollowsTheHeaders) {
  Request request = post("hello");
  codec->writeRequestHeaders(request);
  writeBody(*codec, request, 5);
  codec->finishRequest();
  EXPECT_EQ(client.readUtf8(),
            "POST /upload?x=1 HTTP/1.1\r\n"
            "Content-Length: 5\r\n"
            "\r\n"
            "hello");
  EXPECT_TRUE(reusable());
}

TEST_F(Http1RequestTest, FixedLengthBodyRejectsTooManyBytes) {
  Request request = post("hello");
  codec->writeRequestHeaders(request);
  std::unique_ptr<Sink> sink = codec->createRequestBody(request, 3);
  Buffer bytes;
  bytes.writeUtf8("hell");
  try {
    sink->write(bytes, 4);
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "expected 3 bytes but received 4");
  }
  EXPECT_FALSE(reusable());
}

TEST_F(Http1RequestTest, FixedLengthBodyRejectsTooFewBytesOnClose) {
  Request request = post("hello");
  codec->writeRequestHeaders(request);
  std::unique_ptr<Sink> sink = codec->createRequestBody(request, 5);
  Buffer bytes;
  bytes.writeUtf8("hel");
  sink->write(bytes, 3);
  try {
    sink->close();
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "expected 5 bytes but received 3");
  }
  EXPECT_FALSE(reusable());
  sink->close();  // Closing again is harmless.
}

TEST_F(Http1RequestTest, WritingToAClosedBodyIsMisuse) {
  Request request = post("");
  codec->writeRequestHeaders(request);
  std::unique_ptr<Sink> sink = codec->createRequestBody(request, 0);
  sink->close();
  Buffer bytes;
  bytes.writeUtf8("x");
  EXPECT_THROW(sink->write(bytes, 1), std::logic_error);
  sink->flush();  // Flushing a closed body is tolerated, as OkHttp does.
}

TEST_F(Http1RequestTest, ChunkedBodyFramesEachWriteAsAChunk) {
  Request request = post("", true);
  codec->writeRequestHeaders(request);
  std::unique_ptr<Sink> sink = codec->createRequestBody(request, -1);
  Buffer bytes;
  bytes.writeUtf8("hello");
  sink->write(bytes, 5);
  bytes.writeUtf8(std::string(26, 'z'));
  sink->write(bytes, 26);
  bytes.writeUtf8("ignored");
  sink->write(bytes, 0);  // An empty write must not end the body.
  sink->close();
  EXPECT_EQ(client.readUtf8(),
            "POST /upload?x=1 HTTP/1.1\r\n"
            "Transfer-Encoding: chunked\r\n"
            "\r\n"
            "5\r\nhello\r\n"
            "1a\r\n" +
                std::string(26, 'z') +
                "\r\n"
                "0\r\n\r\n");
  EXPECT_TRUE(reusable());
}

TEST_F(Http1RequestTest, ChunkedBodyThroughABufferedSinkIsSentInSeveralChunks) {
  std::string body(20000, 'x');
  Request request = post(body, true);
  codec->writeRequestHeaders(request);
  writeBody(*codec, request, -1);
  std::string written = client.readUtf8();
  // Decode what was sent: "<hex>\r\n<data>\r\n" repeated, then "0\r\n\r\n".
  size_t pos = written.find("\r\n\r\n") + 4;
  std::string decoded;
  int chunks = 0;
  while (true) {
    size_t lineEnd = written.find("\r\n", pos);
    ASSERT_NE(lineEnd, std::string::npos);
    size_t size = std::stoul(written.substr(pos, lineEnd - pos), nullptr, 16);
    pos = lineEnd + 2;
    if (size == 0) {
      break;
    }
    ++chunks;
    decoded += written.substr(pos, size);
    pos += size;
    ASSERT_EQ(written.substr(pos, 2), "\r\n");
    pos += 2;
  }
  EXPECT_EQ(written.substr(pos), "\r\n");
  EXPECT_TRUE(decoded == body) << decoded.size() << " bytes decoded";
  EXPECT_GT(chunks, 1);
}

TEST_F(Http1RequestTest, ChunkedWinsOverAKnownLength) {
  Request request = post("abc", true);
  codec->writeRequestHeaders(request);
  writeBody(*codec, request, 3);
  std::string written = client.readUtf8();
  EXPECT_EQ(written.substr(written.find("\r\n\r\n") + 4), "3\r\nabc\r\n0\r\n\r\n");
}

TEST_F(Http1RequestTest, UnknownLengthWithoutChunkedEncodingIsMisuse) {
  Request request = Request::Builder()
                        .url("http://example.com/")
                        .post(RequestBody::create(std::string("abc")))
                        .build();
  codec->writeRequestHeaders(request);
  EXPECT_THROW(codec->createRequestBody(request, -1), std::logic_error);
}

// A body whose request and response stream at once, which HTTP/1.1 cannot do.
class DuplexBody final : public RequestBody {
 public:
  std::optional<MediaType> contentType() const override { return std::nullopt; }
  void writeTo(BufferedSink&) override {}
  bool isDuplex() const override { return true; }
};

TEST_F(Http1RequestTest, DuplexBodiesAreRejected) {
  Request request = Request::Builder()
                        .url("http://example.com/")
                        .post(std::make_shared<DuplexBody>())
                        .header("Transfer-Encoding", "chunked")
                        .build();
  codec->writeRequestHeaders(request);
  try {
    codec->createRequestBody(request, -1);
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "Duplex connections are not supported for HTTP/1");
  }
}

TEST_F(Http1RequestTest, CallsOutOfOrderAreMisuse) {
  Request request = post("abc");
  EXPECT_THROW(codec->createRequestBody(request, 3), std::logic_error);  // Headers first.
  codec->writeRequestHeaders(request);
  EXPECT_THROW(codec->writeRequestHeaders(request), std::logic_error);
  EXPECT_THROW(codec->openResponseBodySource(Response::Builder()
                                                 .request(request)
                                                 .protocol(Protocol::HTTP_1_1)
                                                 .code(200)
                                                 .message("OK")
                                                 .build()),
               std::logic_error);
  EXPECT_THROW(codec->trailers(), std::logic_error);
}

TEST_F(Http1RequestTest, ConnectionCloseOnTheRequestEndsReuse) {
  codec->writeRequestHeaders(
      Request::Builder().url("http://example.com/").header("Connection", "Close").build());
  EXPECT_FALSE(reusable());
}

TEST_F(Http1RequestTest, AFailedWriteEndsReuse) {
  RecordingSink socket;
  std::unique_ptr<BufferedSink> sink = tern::buffer(socket);
  codec = std::make_unique<internal::Http1ExchangeCodec>(carrier, server, *sink);
  codec->writeRequestHeaders(get());
  socket.failNext("broken pipe");
  EXPECT_THROW(codec->flushRequest(), IOException);
  EXPECT_FALSE(reusable());
}

TEST_F(Http1RequestTest, BodySinksTimeoutIsTheSocketsUntilClosed) {
  RecordingSink socket;
  std::unique_ptr<BufferedSink> sink = tern::buffer(socket);
  codec = std::make_unique<internal::Http1ExchangeCodec>(carrier, server, *sink);
  Request request = post("abc");
  codec->writeRequestHeaders(request);
  std::unique_ptr<Sink> body = codec->createRequestBody(request, 3);
  body->timeout().timeout(std::chrono::seconds(7));
  EXPECT_EQ(sink->timeout().timeoutNanos(), std::chrono::seconds(7));
  Buffer bytes;
  bytes.writeUtf8("abc");
  body->write(bytes, 3);
  body->close();
  // Detached: the pooled connection keeps nothing of this call's timeouts.
  EXPECT_EQ(sink->timeout().timeoutNanos(), std::chrono::nanoseconds(0));
}

TEST_F(Http1RequestTest, CancelBreaksTheConnectionThroughTheCarrier) {
  codec->cancel();
  EXPECT_EQ(carrier.cancelCount, 1);
}

}  // namespace
}  // namespace tern::testing
