// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// How requests become HTTP/2 header blocks and header blocks become responses (RFC 9113 §8),
// and the names of HTTP/2 error codes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "http2/error_code.h"
#include "http2/http2_exchange_codec.h"

namespace tern::internal {
namespace {

TEST(Http2HeadersTest, RequestPseudoHeadersComeFirst) {
  Request request = Request::Builder()
                        .url("http://example.com:8080/a/b?c=d")
                        .header("Host", "example.com:8080")
                        .header("Accept", "text/plain")
                        .build();
  HeaderBlock block = Http2ExchangeCodec::http2HeadersList(request);
  ASSERT_GE(block.size(), 5u);
  EXPECT_EQ(block[0], (std::pair<std::string, std::string>{":method", "GET"}));
  EXPECT_EQ(block[1], (std::pair<std::string, std::string>{":path", "/a/b?c=d"}));
  EXPECT_EQ(block[2], (std::pair<std::string, std::string>{":authority", "example.com:8080"}));
  EXPECT_EQ(block[3], (std::pair<std::string, std::string>{":scheme", "http"}));
  EXPECT_EQ(block[4], (std::pair<std::string, std::string>{"accept", "text/plain"}));
}

TEST(Http2HeadersTest, ConnectionSpecificRequestHeadersAreDropped) {
  Request request = Request::Builder()
                        .url("http://example.com/")
                        .header("Connection", "upgrade")
                        .header("Keep-Alive", "timeout=5")
                        .header("Proxy-Connection", "keep-alive")
                        .header("Transfer-Encoding", "chunked")
                        .header("Upgrade", "h2c")
                        .header("Encoding", "x")
                        .header("TE", "gzip")
                        .build();
  HeaderBlock block = Http2ExchangeCodec::http2HeadersList(request);
  for (const auto& [name, value] : block) EXPECT_TRUE(name.starts_with(':')) << name;
}

TEST(Http2HeadersTest, TeTrailersIsKept) {
  Request request = Request::Builder().url("http://example.com/").header("TE", "trailers").build();
  HeaderBlock block = Http2ExchangeCodec::http2HeadersList(request);
  EXPECT_EQ(block.back(), (std::pair<std::string, std::string>{"te", "trailers"}));
}

// RFC 8441 §4-5: a WebSocket handshake as an extended CONNECT.
TEST(Http2HeadersTest, ExtendedConnectCarriesTheUpgradeAsProtocol) {
  Request request = Request::Builder()
                        .url("https://example.com/chat?room=1")
                        .header("Host", "example.com")
                        .header("Upgrade", " WebSocket ")
                        .header("Connection", "Upgrade")
                        .header("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
                        .header("Sec-WebSocket-Version", "13")
                        .header("Sec-WebSocket-Protocol", "chat")
                        .build();
  using Field = std::pair<std::string, std::string>;
  EXPECT_EQ(Http2ExchangeCodec::http2HeadersList(request, true),
            (HeaderBlock{Field{":method", "CONNECT"}, Field{":protocol", "websocket"},
                         Field{":path", "/chat?room=1"}, Field{":authority", "example.com"},
                         Field{":scheme", "https"}, Field{"sec-websocket-version", "13"},
                         Field{"sec-websocket-protocol", "chat"}}));
  // Without the peer's consent it is an ordinary GET: the Upgrade is dropped, the key kept.
  HeaderBlock plain = Http2ExchangeCodec::http2HeadersList(request);
  EXPECT_EQ(plain[0], (Field{":method", "GET"}));
  EXPECT_EQ(plain[1].first, ":path");
  EXPECT_THAT(plain, ::testing::Contains(Field{"sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ=="}));
  EXPECT_THAT(plain, ::testing::Not(::testing::Contains(::testing::Key("upgrade"))));
}

TEST(Http2HeadersTest, ResponseStatusAndHeaders) {
  auto response = Http2ExchangeCodec::readHttp2HeadersList(
      {{":status", "404"}, {"content-type", "text/plain"}, {"connection", "close"}});
  EXPECT_EQ(response.code, 404);
  EXPECT_EQ(response.headers.get("Content-Type"), "text/plain");
  EXPECT_FALSE(response.headers.get("connection"));
  EXPECT_EQ(response.headers.size(), 1);
}

TEST(Http2HeadersTest, ResponseWithoutStatusIsAProtocolError) {
  try {
    Http2ExchangeCodec::readHttp2HeadersList({{"content-type", "text/plain"}});
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "Expected ':status' header not present");
  }
}

TEST(Http2HeadersTest, MalformedStatusIsAProtocolError) {
  for (const char* status : {"20", "2000", "abc", "", "20x"}) {
    EXPECT_THROW(Http2ExchangeCodec::readHttp2HeadersList({{":status", status}}), ProtocolException)
        << status;
  }
}

// RFC 9110 §5.5, as over HTTP/1.1: CR, LF or NUL in a received value rejects the response.
TEST(Http2HeadersTest, NulCrOrLfInAValueIsAProtocolError) {
  for (std::string value : {std::string("a\0b", 3), std::string("a\rb"), std::string("a\nb")}) {
    try {
      Http2ExchangeCodec::readHttp2HeadersList({{":status", "200"}, {"x-bad", value}});
      FAIL() << "expected ProtocolException";
    } catch (const ProtocolException& e) {
      EXPECT_THAT(e.what(), ::testing::StartsWith("Unexpected char 0x")) << e.what();
      EXPECT_THAT(e.what(), ::testing::HasSubstr("in received header x-bad")) << e.what();
    }
  }
}

TEST(Http2ErrorCodeTest, NamesAsOkHttp) {
  EXPECT_EQ(errorCodeName(0x0), "NO_ERROR");
  EXPECT_EQ(errorCodeName(0x1), "PROTOCOL_ERROR");
  EXPECT_EQ(errorCodeName(0x7), "REFUSED_STREAM");
  EXPECT_EQ(errorCodeName(0x8), "CANCEL");
  EXPECT_EQ(errorCodeName(0xd), "HTTP_1_1_REQUIRED");
  EXPECT_EQ(errorCodeName(0x2a), "UNKNOWN(0x2a)");
}

TEST(Http2ErrorCodeTest, StreamResetExceptionCarriesCodeAndMessage) {
  StreamResetException e = streamResetException(0x8);
  EXPECT_EQ(e.errorCode(), 8u);
  EXPECT_STREQ(e.what(), "stream was reset: CANCEL");
  EXPECT_TRUE(isStreamReset(std::make_exception_ptr(e), ErrorCode::CANCEL));
  EXPECT_FALSE(isStreamReset(std::make_exception_ptr(e), ErrorCode::REFUSED_STREAM));
  EXPECT_FALSE(isStreamReset(std::make_exception_ptr(IOException("x")), ErrorCode::CANCEL));
}

}  // namespace
}  // namespace tern::internal
