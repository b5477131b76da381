// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// How Http1ExchangeCodec reads response heads: status lines, headers and their limit, interim
// responses, 100-continue, and when the connection may carry another exchange.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "http1/headers_reader.h"
#include "http1/http1_codec_fixture.h"
#include "tern/exceptions.h"
#include "tern/request_body.h"

namespace tern::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

class Http1ResponseTest : public Http1CodecTest {};

TEST_F(Http1ResponseTest, ReadsStatusLineAndHeaders) {
  Response response = exchange(get(),
                               "HTTP/1.1 200 OK\r\n"
                               "Content-Type: text/plain\r\n"
                               "Content-Length: 5\r\n"
                               "\r\n"
                               "hello");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_1_1);
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.message(), "OK");
  EXPECT_THAT(response.headers(),
              ElementsAre(Pair("Content-Type", "text/plain"), Pair("Content-Length", "5")));
  EXPECT_EQ(readBody(response), "hello");
  EXPECT_TRUE(codec->isResponseComplete());
  EXPECT_TRUE(reusable());
}

TEST_F(Http1ResponseTest, Http10ResponseWithoutKeepAliveEndsReuse) {
  Response response = exchange(get(), "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhi");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_1_0);
  EXPECT_EQ(readBody(response), "hi");
  EXPECT_FALSE(reusable());
}

TEST_F(Http1ResponseTest, Http10ResponseWithKeepAliveMayBeReused) {
  Response response =
      exchange(get(), "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nhi");
  EXPECT_EQ(readBody(response), "hi");
  EXPECT_TRUE(reusable());
}

TEST_F(Http1ResponseTest, ConnectionCloseEndsReuse) {
  Response response = exchange(
      get(), "HTTP/1.1 200 OK\r\nConnection: keep-alive, CLOSE\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(readBody(response), "");
  EXPECT_TRUE(codec->isResponseComplete());
  EXPECT_FALSE(reusable());
}

TEST_F(Http1ResponseTest, ConnectionTokensAreMatchedWhole) {
  Response response = exchange(
      get(), "HTTP/1.1 200 OK\r\nConnection: closed, x-close\r\nContent-Length: 0\r\n\r\n");
  readBody(response);
  EXPECT_TRUE(reusable());
}

TEST_F(Http1ResponseTest, GarbageStatusLineIsAProtocolExceptionAndEndsReuse) {
  server.writeUtf8("HTTP/1.1 2OO OK\r\n\r\n");
  codec->writeRequestHeaders(get());
  try {
    codec->readResponseHeaders(false);
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "Unexpected status line: HTTP/1.1 2OO OK");
  }
  EXPECT_FALSE(reusable());
}

TEST_F(Http1ResponseTest, EmptyResponseIsAnUnexpectedEndOfStreamNamingTheUrl) {
  codec->writeRequestHeaders(get("http://user:pw@example.com:8080/secret?token=1"));
  try {
    codec->readResponseHeaders(false);
    FAIL() << "expected IOException";
  } catch (const ProtocolException&) {
    FAIL() << "a closed connection is retryable, so not a ProtocolException";
  } catch (const IOException& e) {
    EXPECT_STREQ(e.what(), "unexpected end of stream on http://example.com:8080/...");
  }
  EXPECT_FALSE(reusable());
}

TEST_F(Http1ResponseTest, ResponseCutShortInTheHeadersIsAnUnexpectedEndOfStream) {
  server.writeUtf8("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n");
  codec->writeRequestHeaders(get());
  EXPECT_THROW(
      {
        try {
          codec->readResponseHeaders(false);
        } catch (const IOException& e) {
          EXPECT_THAT(e.what(), HasSubstr("unexpected end of stream"));
          throw;
        }
      },
      IOException);
  EXPECT_FALSE(reusable());
}

TEST_F(Http1ResponseTest, StatusLineAndHeadersOfExactlyTheLimitPass) {
  std::string statusLine = "HTTP/1.1 200 OK";
  std::string name = "X: ";
  std::string length = "Content-Length: 0";
  std::string value(
      internal::HeadersReader::kHeaderLimit - statusLine.size() - name.size() - length.size(), 'a');
  Response response =
      exchange(get(), statusLine + "\r\n" + name + value + "\r\n" + length + "\r\n\r\n");
  EXPECT_EQ(response.header("X")->size(), value.size());
}

TEST_F(Http1ResponseTest, StatusLineAndHeadersOneByteOverTheLimitFail) {
  std::string statusLine = "HTTP/1.1 200 OK";
  std::string name = "X: ";
  std::string value(internal::HeadersReader::kHeaderLimit - statusLine.size() - name.size() + 1,
                    'a');
  server.writeUtf8(statusLine + "\r\n" + name + value + "\r\n\r\n");
  codec->writeRequestHeaders(get());
  EXPECT_THROW(codec->readResponseHeaders(false), ProtocolException);
  EXPECT_FALSE(reusable());
}

TEST_F(Http1ResponseTest, TooLongStatusLineFails) {
  server.writeUtf8("HTTP/1.1 200 " + std::string(size_t{300} * 1024, 'K') + "\r\n\r\n");
  codec->writeRequestHeaders(get());
  EXPECT_THROW(codec->readResponseHeaders(false), ProtocolException);
}

TEST_F(Http1ResponseTest, LenientHeaderLinesReachTheResponse) {
  Response response = exchange(get(),
                               "HTTP/1.1 200 OK\r\n"
                               "Content-Length: 0\r\n"
                               "X-Name:caf\xc3\xa9\r\n"
                               "X-Folded: a\r\n"
                               " b\r\n"
                               "\r\n");
  EXPECT_EQ(response.header("X-Name"), "caf\xc3\xa9");
  EXPECT_EQ(response.header("X-Folded"), "a b");
}

TEST_F(Http1ResponseTest, NonAsciiReasonPhraseIsKept) {
  Response response = exchange(get(), "HTTP/1.1 200 \xc3\x96K\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(response.message(), "\xc3\x96K");
}

TEST_F(Http1ResponseTest, InterimResponsesAreReturnedForTheCallerToSkip) {
  server.writeUtf8(
      "HTTP/1.1 102 Processing\r\n\r\n"
      "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
  codec->writeRequestHeaders(get());
  codec->finishRequest();
  Response first = codec->readResponseHeaders(false)->request(get()).build();
  EXPECT_EQ(first.code(), 102);
  Response second = codec->readResponseHeaders(false)->request(get()).build();
  EXPECT_EQ(second.code(), 103);
  EXPECT_EQ(second.header("Link"), "</style.css>; rel=preload");
  Response final = codec->readResponseHeaders(false)->request(get()).build();
  EXPECT_EQ(final.code(), 200);
  EXPECT_EQ(readBody(final), "ok");
  EXPECT_TRUE(reusable());
}

TEST_F(Http1ResponseTest, UnexpectedContinueIsSkippedLikeAnyInterimResponse) {
  Response response = exchange(get(),
                               "HTTP/1.1 100 Continue\r\n\r\n"
                               "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(response.code(), 200);
  EXPECT_TRUE(reusable());
}

TEST_F(Http1ResponseTest, SwitchingProtocolsIsFinal) {
  Response response =
      exchange(get(), "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\nframes");
  EXPECT_EQ(response.code(), 101);
  EXPECT_EQ(codec->reportedContentLength(response), 0);
  EXPECT_EQ(server.readUtf8(), "frames");  // Left for the new protocol.
}

TEST_F(Http1ResponseTest, InterimInformationalCodesAreTheOnesToSkip) {
  EXPECT_TRUE(internal::isInformational(100));
  EXPECT_FALSE(internal::isInformational(101));
  EXPECT_TRUE(internal::isInformational(102));
  EXPECT_TRUE(internal::isInformational(199));
  EXPECT_FALSE(internal::isInformational(200));
}

Request postExpectingContinue() {
  return Request::Builder()
      .url("http://example.com/upload")
      .post(RequestBody::create(std::string("body")))
      .header("Content-Length", "4")
      .header("Expect", "100-continue")
      .build();
}

TEST_F(Http1ResponseTest, ContinueLetsTheCallerSendTheBody) {
  Request request = postExpectingContinue();
  server.writeUtf8("HTTP/1.1 100 Continue\r\n\r\n");
  codec->writeRequestHeaders(request);
  codec->flushRequest();
  EXPECT_FALSE(codec->readResponseHeaders(true).has_value());

  std::unique_ptr<Sink> sink = codec->createRequestBody(request, 4);
  Buffer bytes;
  bytes.writeUtf8("body");
  sink->write(bytes, 4);
  sink->close();
  codec->finishRequest();
  EXPECT_THAT(client.readUtf8(), HasSubstr("\r\n\r\nbody"));

  server.writeUtf8("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n");
  Response response = readFinalResponse(request);
  EXPECT_EQ(response.code(), 201);
  EXPECT_EQ(readBody(response), "");
  EXPECT_TRUE(reusable());
}

TEST_F(Http1ResponseTest, EarlyHintsWhileWaitingForContinueAreSkipped) {
  Request request = postExpectingContinue();
  server.writeUtf8(
      "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n"
      "HTTP/1.1 100 Continue\r\n\r\n");
  codec->writeRequestHeaders(request);
  codec->flushRequest();
  EXPECT_FALSE(codec->readResponseHeaders(true).has_value());
  EXPECT_NO_THROW(codec->createRequestBody(request, 4));
}

TEST_F(Http1ResponseTest, FinalResponseInsteadOfContinueEndsReuse) {
  Request request = postExpectingContinue();
  server.writeUtf8("HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\n\r\n");
  codec->writeRequestHeaders(request);
  codec->flushRequest();
  std::optional<Response::Builder> builder = codec->readResponseHeaders(true);
  ASSERT_TRUE(builder.has_value());
  Response response = builder->request(request).build();
  EXPECT_EQ(response.code(), 413);
  EXPECT_EQ(readBody(response), "");
  EXPECT_FALSE(reusable());  // The server may still be waiting for the body we never sent.
}

TEST_F(Http1ResponseTest, ResponseReadWhileTheBodyIsStillOpenIsAllowed) {
  // A server may answer before the request body is done (an early 4xx).
  Request request = postExpectingContinue();
  server.writeUtf8("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
  codec->writeRequestHeaders(request);
  std::unique_ptr<Sink> sink = codec->createRequestBody(request, 4);
  EXPECT_EQ(readFinalResponse(request).code(), 400);
}

TEST_F(Http1ResponseTest, TwoExchangesShareTheConnection) {
  server.writeUtf8(
      "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none"
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\ntwo\r\n0\r\n\r\n"
      "HTTP/1.1 204 No Content\r\n\r\n");
  for (std::string_view expected : {"one", "two", ""}) {
    codec->writeRequestHeaders(get());
    codec->finishRequest();
    EXPECT_EQ(readBody(readFinalResponse(get())), expected);
    EXPECT_TRUE(codec->isResponseComplete());
    nextExchange();
  }
  EXPECT_EQ(client.readUtf8(),
            "GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n");
  EXPECT_TRUE(server.exhausted());
  EXPECT_TRUE(reusable());
}

TEST_F(Http1ResponseTest, TunnelResponseBodyIsSkipped) {
  server.writeUtf8(
      "HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 6\r\n\r\ndenied"
      "next");
  codec->writeRequest(Headers::of("Host", "example.com:443"), "CONNECT example.com:443 HTTP/1.1");
  codec->finishRequest();
  Request connect =
      Request::Builder().url("https://example.com/").method("CONNECT", nullptr).build();
  Response response = codec->readResponseHeaders(false)->request(connect).build();
  EXPECT_EQ(response.code(), 407);
  codec->skipConnectBody(response);
  EXPECT_EQ(server.readUtf8(), "next");
}

TEST_F(Http1ResponseTest, TunnelEstablishedHasNoBody) {
  server.writeUtf8("HTTP/1.1 200 Connection established\r\n\r\n\x16\x03\x01");
  codec->writeRequest(Headers(), "CONNECT example.com:443 HTTP/1.1");
  Request connect =
      Request::Builder().url("https://example.com/").method("CONNECT", nullptr).build();
  Response response = codec->readResponseHeaders(false)->request(connect).build();
  codec->skipConnectBody(response);
  EXPECT_EQ(codec->reportedContentLength(response), 0);
  EXPECT_EQ(server.size(), 3);  // The TLS handshake is untouched.
}

}  // namespace
}  // namespace tern::testing
