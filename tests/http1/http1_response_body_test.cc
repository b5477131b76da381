// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// How Http1ExchangeCodec frames response bodies: fixed-length, chunked (with trailers) and
// close-delimited, bodiless responses, early close, and failures.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "http1/http1_codec_fixture.h"
#include "support/io_fakes.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

class Http1ResponseBodyTest : public Http1CodecTest {
 protected:
  // The message of the IOException reading the body of `response` throws; fails if none does.
  std::string bodyFailure(std::string_view response, const Request& request = get()) {
    Response r = exchange(request, response);
    try {
      readBody(r);
    } catch (const ProtocolException& e) {
      return std::string("ProtocolException: ") + e.what();
    } catch (const IOException& e) {
      return std::string("IOException: ") + e.what();
    }
    ADD_FAILURE() << "no exception";
    return "";
  }
};

TEST_F(Http1ResponseBodyTest, FixedLengthBodyStopsAtContentLength) {
  Response response = exchange(get(), "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcdef");
  EXPECT_EQ(codec->reportedContentLength(response), 3);
  EXPECT_EQ(readBody(response), "abc");
  EXPECT_EQ(server.readUtf8(), "def");  // The next response's bytes are untouched.
  EXPECT_TRUE(codec->isResponseComplete());
  EXPECT_TRUE(codec->trailers().empty());
  EXPECT_TRUE(reusable());
}

TEST_F(Http1ResponseBodyTest, TruncatedFixedLengthBodyIsAProtocolException) {
  EXPECT_EQ(bodyFailure("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"),
            "ProtocolException: unexpected end of stream on http://example.com/...");
  EXPECT_FALSE(codec->isResponseComplete());
  EXPECT_FALSE(reusable());
}

TEST_F(Http1ResponseBodyTest, ZeroContentLengthIsCompleteAtOnce) {
  Response response = exchange(get(), "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
  std::unique_ptr<Source> body = codec->openResponseBodySource(response);
  EXPECT_TRUE(codec->isResponseComplete());
  Buffer sink;
  EXPECT_EQ(body->read(sink, 10), -1);
}

TEST_F(Http1ResponseBodyTest, InvalidContentLengthIsAProtocolException) {
  for (std::string_view length : {"-1", "abc", "1.5", "", "99999999999999999999", "1, 2", "+3"}) {
    Response response =
        exchange(get(), "HTTP/1.1 200 OK\r\nContent-Length: " + std::string(length) + "\r\n\r\n");
    EXPECT_THROW(codec->openResponseBodySource(response), ProtocolException) << length;
    EXPECT_FALSE(reusable()) << length;
    nextExchange();
    server.clear();
  }
}

TEST_F(Http1ResponseBodyTest, ConflictingContentLengthsAreAProtocolException) {
  Response response =
      exchange(get(), "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd");
  try {
    codec->reportedContentLength(response);
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_THAT(e.what(), HasSubstr("Invalid Content-Length"));
  }
}

TEST_F(Http1ResponseBodyTest, RepeatedIdenticalContentLengthsAreAccepted) {
  Response response =
      exchange(get(), "HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\nContent-Length: 3\r\n\r\nabc");
  EXPECT_EQ(readBody(response), "abc");
}

TEST_F(Http1ResponseBodyTest, ChunkedBody) {
  Response response = exchange(get(),
                               "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                               "3\r\nabc\r\n"
                               "10\r\n0123456789abcdef\r\n"
                               "0\r\n\r\n"
                               "next");
  EXPECT_EQ(codec->reportedContentLength(response), -1);
  EXPECT_EQ(readBody(response), "abc0123456789abcdef");
  EXPECT_EQ(server.readUtf8(), "next");
  EXPECT_TRUE(codec->trailers().empty());
  EXPECT_TRUE(reusable());
}

TEST_F(Http1ResponseBodyTest, ChunkSizesInUpperCaseHexWithLeadingZeros) {
  Response response = exchange(get(),
                               "HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n"
                               "0000A\r\n0123456789\r\n"
                               "0\r\n\r\n");
  EXPECT_EQ(readBody(response), "0123456789");
}

TEST_F(Http1ResponseBodyTest, ChunkExtensionsAreIgnored) {
  Response response = exchange(get(),
                               "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                               "3;name=value\r\nabc\r\n"
                               "2 ; quoted=\"a;b\"\r\nde\r\n"
                               "0;last\r\n\r\n");
  EXPECT_EQ(readBody(response), "abcde");
}

TEST_F(Http1ResponseBodyTest, TrailersAreReadAfterTheLastChunk) {
  Response response = exchange(get(),
                               "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
                               "Trailer: Server-Timing, X-Checksum\r\n\r\n"
                               "3\r\nabc\r\n"
                               "0\r\n"
                               "Server-Timing: db;dur=53\r\n"
                               "X-Checksum: 900150983cd24fb0\r\n"
                               "\r\n");
  std::unique_ptr<Source> body = codec->openResponseBodySource(response);
  EXPECT_THROW(codec->trailers(), std::logic_error);  // Too early.
  EXPECT_EQ(tern::buffer(*body)->readUtf8(), "abc");
  EXPECT_THAT(codec->trailers(), ElementsAre(Pair("Server-Timing", "db;dur=53"),
                                             Pair("X-Checksum", "900150983cd24fb0")));
}

TEST_F(Http1ResponseBodyTest, ChunkedWinsOverContentLength) {
  Response response = exchange(get(),
                               "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
                               "Transfer-Encoding: chunked\r\n\r\n"
                               "5\r\nhello\r\n0\r\n\r\n");
  EXPECT_EQ(codec->reportedContentLength(response), -1);
  EXPECT_EQ(readBody(response), "hello");
  EXPECT_TRUE(reusable());
}

TEST_F(Http1ResponseBodyTest, ChunkedMustBeTheFinalTransferCoding) {
  Response chunked = exchange(get(),
                              "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                              "2\r\nhi\r\n0\r\n\r\n");
  EXPECT_EQ(readBody(chunked), "hi");
  nextExchange();
  Response closeDelimited =
      exchange(get(), "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, identity\r\n\r\nrest");
  EXPECT_EQ(readBody(closeDelimited), "rest");
  EXPECT_FALSE(reusable());
}

TEST_F(Http1ResponseBodyTest, MissingCrlfAfterChunkDataIsAProtocolException) {
  EXPECT_EQ(bodyFailure("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        "3\r\nabcd\r\n0\r\n\r\n"),
            "ProtocolException: Expected CRLF after chunk data but was 0x64");
  EXPECT_FALSE(reusable());
}

TEST_F(Http1ResponseBodyTest, BareLineFeedsInChunkFramingAreTolerated) {
  Response response = exchange(get(),
                               "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                               "3\nabc\n0\n\n");
  EXPECT_EQ(readBody(response), "abc");
}

TEST_F(Http1ResponseBodyTest, TruncatedChunkIsAProtocolException) {
  EXPECT_EQ(bodyFailure("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab"),
            "ProtocolException: unexpected end of stream on http://example.com/...");
  EXPECT_FALSE(reusable());
}

TEST_F(Http1ResponseBodyTest, MissingLastChunkIsAProtocolException) {
  EXPECT_EQ(bodyFailure("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n"),
            "ProtocolException: unexpected end of stream on http://example.com/...");
  nextExchange();
  EXPECT_EQ(bodyFailure("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: 1\r\n"),
            "ProtocolException: unexpected end of stream on http://example.com/...");
}

TEST_F(Http1ResponseBodyTest, MalformedChunkSizeIsAProtocolException) {
  EXPECT_EQ(bodyFailure("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
            "ProtocolException: Expected a hex chunk size but was \"zz\"");
  for (std::string_view size : {"", " 3", "3x", "-3", "0x3", "3\x01"}) {
    nextExchange();
    server.clear();
    EXPECT_THAT(bodyFailure("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
                            std::string(size) + "\r\nabc\r\n0\r\n\r\n"),
                HasSubstr("ProtocolException: Expected a hex chunk size but was"))
        << size;
  }
}

TEST_F(Http1ResponseBodyTest, ChunkSizeOverflowIsAProtocolException) {
  EXPECT_EQ(bodyFailure("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        "ffffffffffffffffff\r\n"),
            "ProtocolException: Chunk size too large: \"ffffffffffffffffff\"");
  nextExchange();
  server.clear();
  // 2^63 does not fit in a signed 64-bit length.
  EXPECT_THAT(bodyFailure("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "8000000000000000\r\n"),
              HasSubstr("Chunk size too large"));
}

TEST_F(Http1ResponseBodyTest, ChunkSizeLineIsBounded) {
  EXPECT_THAT(bodyFailure("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;" +
                          std::string(size_t{300} * 1024, 'e') + "\r\nabc\r\n0\r\n\r\n"),
              HasSubstr("ProtocolException: Chunk size line exceeds"));
}

TEST_F(Http1ResponseBodyTest, ChunkedBodyReadOneByteAtATime) {
  Buffer bytes;
  bytes.writeUtf8(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      "3;x=y\r\nabc\r\n1\r\nd\r\n0\r\nT: 1\r\n\r\n");
  TrickleSource trickle(bytes, 1);
  std::unique_ptr<BufferedSource> socket = tern::buffer(trickle);
  codec = std::make_unique<internal::Http1ExchangeCodec>(carrier, *socket, client);
  codec->writeRequestHeaders(get());
  Response response = readFinalResponse(get());
  EXPECT_EQ(readBody(response), "abcd");
  EXPECT_THAT(codec->trailers(), ElementsAre(Pair("T", "1")));
  EXPECT_TRUE(reusable());
}

TEST_F(Http1ResponseBodyTest, CloseDelimitedBodyReadsToTheEndAndEndsReuse) {
  Response response =
      exchange(get(), "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it");
  EXPECT_EQ(codec->reportedContentLength(response), -1);
  EXPECT_EQ(readBody(response), "all of it");
  EXPECT_TRUE(codec->isResponseComplete());
  EXPECT_FALSE(reusable());
}

TEST_F(Http1ResponseBodyTest, HeadResponseHasNoBodyWhateverItsHeadersSay) {
  Request head = Request::Builder().url("http://example.com/").head().build();
  Response response = exchange(
      head, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\nnext");
  EXPECT_EQ(codec->reportedContentLength(response), 0);
  EXPECT_EQ(readBody(response), "");
  EXPECT_TRUE(codec->isResponseComplete());
  EXPECT_EQ(server.readUtf8(), "next");
  EXPECT_TRUE(reusable());
}

TEST_F(Http1ResponseBodyTest, NotModifiedHasNoBodyEvenWithAContentLength) {
  Response response =
      exchange(get(), "HTTP/1.1 304 Not Modified\r\nContent-Length: 1234\r\nETag: \"x\"\r\n\r\n");
  EXPECT_EQ(codec->reportedContentLength(response), 0);
  EXPECT_EQ(readBody(response), "");
  EXPECT_TRUE(reusable());
}

TEST_F(Http1ResponseBodyTest, NoContentHasNoBody) {
  Response response = exchange(get(), "HTTP/1.1 204 No Content\r\n\r\nnext");
  EXPECT_EQ(codec->reportedContentLength(response), 0);
  EXPECT_EQ(readBody(response), "");
  EXPECT_EQ(server.readUtf8(), "next");
  EXPECT_TRUE(reusable());
}

TEST_F(Http1ResponseBodyTest, NoContentWithAContentLengthReportsItSoTheCallerCanReject) {
  // As OkHttp: the headers are honored, and CallServerInterceptor fails the call on a 204 whose
  // Content-Length is not zero.
  Response response = exchange(get(), "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nabcde");
  EXPECT_EQ(codec->reportedContentLength(response), 5);
}

TEST_F(Http1ResponseBodyTest, ClosingABufferedBodyEarlyDrainsItAndKeepsTheConnection) {
  Response response = exchange(get(),
                               "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                               "5\r\nhello\r\n5\r\nworld\r\n0\r\nT: 1\r\n\r\n"
                               "next");
  std::unique_ptr<Source> body = codec->openResponseBodySource(response);
  Buffer sink;
  EXPECT_EQ(body->read(sink, 2), 2);
  body->close();
  EXPECT_TRUE(codec->isResponseComplete());
  EXPECT_THAT(codec->trailers(), ElementsAre(Pair("T", "1")));
  EXPECT_EQ(server.readUtf8(), "next");
  EXPECT_TRUE(reusable());
  EXPECT_THROW(body->read(sink, 1), std::logic_error);  // Closed.
}

TEST_F(Http1ResponseBodyTest, ClosingABodyWhoseRestNeverArrivesEndsReuse) {
  Response response = exchange(get(), "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc");
  std::unique_ptr<Source> body = codec->openResponseBodySource(response);
  body->close();
  EXPECT_FALSE(codec->isResponseComplete());
  EXPECT_TRUE(codec->isClosed());
  EXPECT_FALSE(reusable());
}

TEST_F(Http1ResponseBodyTest, ClosingAnEndlessBodyGivesUpWithinTheDiscardTimeout) {
  EndlessSource endless('x');
  std::unique_ptr<BufferedSource> socket = tern::buffer(endless);
  socket->buffer().writeUtf8("HTTP/1.1 200 OK\r\nContent-Length: 1000000000000\r\n\r\n");
  codec = std::make_unique<internal::Http1ExchangeCodec>(carrier, *socket, client);
  codec->writeRequestHeaders(get());
  std::unique_ptr<Source> body = codec->openResponseBodySource(readFinalResponse(get()));
  auto start = std::chrono::steady_clock::now();
  body->close();
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_GE(elapsed, internal::ExchangeCodec::kDiscardStreamTimeout);
  EXPECT_LT(elapsed, std::chrono::seconds(5));
  EXPECT_FALSE(reusable());
  EXPECT_FALSE(socket->timeout().hasDeadline());  // The discard deadline is gone.
}

TEST_F(Http1ResponseBodyTest, ClosingACloseDelimitedBodyEarlyDoesNotDrainIt) {
  Response response = exchange(get(), "HTTP/1.1 200 OK\r\n\r\nabcdef");
  std::unique_ptr<Source> body = codec->openResponseBodySource(response);
  body->close();
  EXPECT_TRUE(codec->isClosed());
  EXPECT_EQ(server.readUtf8(), "abcdef");
}

// A socket that fails every read, as after a reset.
class FailingSource final : public Source {
 public:
  int64_t read(Buffer&, int64_t) override { throw IOException("connection reset"); }
  Timeout& timeout() override { return timeout_; }
  void close() override {}

 private:
  Timeout timeout_;
};

TEST_F(Http1ResponseBodyTest, ReadFailureEndsReuse) {
  FailingSource failing;
  std::unique_ptr<BufferedSource> socket = tern::buffer(failing);
  socket->buffer().writeUtf8("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nab");
  codec = std::make_unique<internal::Http1ExchangeCodec>(carrier, *socket, client);
  codec->writeRequestHeaders(get());
  std::unique_ptr<Source> body = codec->openResponseBodySource(readFinalResponse(get()));
  Buffer sink;
  EXPECT_EQ(body->read(sink, 10), 2);
  try {
    body->read(sink, 10);
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_STREQ(e.what(), "connection reset");
  }
  EXPECT_FALSE(reusable());
  EXPECT_FALSE(codec->isResponseComplete());
  body->close();  // Closing after a failure neither throws nor waits.
}

TEST_F(Http1ResponseBodyTest, BodyTimeoutIsTheSocketsUntilTheBodyEnds) {
  Buffer bytes;
  bytes.writeUtf8("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc");
  TrickleSource trickle(bytes, 100);
  std::unique_ptr<BufferedSource> socket = tern::buffer(trickle);
  codec = std::make_unique<internal::Http1ExchangeCodec>(carrier, *socket, client);
  codec->writeRequestHeaders(get());
  std::unique_ptr<Source> body = codec->openResponseBodySource(readFinalResponse(get()));
  body->timeout().timeout(std::chrono::seconds(3));
  EXPECT_EQ(trickle.timeout().timeoutNanos(), std::chrono::seconds(3));
  EXPECT_EQ(tern::buffer(*body)->readUtf8(), "abc");
  EXPECT_EQ(trickle.timeout().timeoutNanos(), std::chrono::nanoseconds(0));
}

TEST_F(Http1ResponseBodyTest, OpeningTwoBodiesIsMisuse) {
  Response response = exchange(get(), "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc");
  std::unique_ptr<Source> body = codec->openResponseBodySource(response);
  EXPECT_THROW(codec->openResponseBodySource(response), std::logic_error);
  Buffer sink;
  EXPECT_THROW(body->read(sink, -1), std::invalid_argument);
}

}  // namespace
}  // namespace tern::testing
