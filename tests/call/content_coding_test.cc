// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Transparent content decoding end to end: what the bridge asks for, and what it makes of each
// coding the server picks, over HTTP/1.1 and cleartext HTTP/2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <string>

#include "call/call_fixture.h"
#include "support/compression.h"
#include "tern/exceptions.h"
#include "tern/request_body.h"

namespace tern::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

class ContentCodingTest : public CallFixture, public ::testing::WithParamInterface<Protocol> {
 protected:
  ContentCodingTest() {
    if (GetParam() == Protocol::H2_PRIOR_KNOWLEDGE) {
      server.setProtocols({Protocol::H2_PRIOR_KNOWLEDGE});
      client = client.newBuilder().protocols({Protocol::H2_PRIOR_KNOWLEDGE}).build();
    }
  }

  // A 200 whose body is `encoded`, sent with "Content-Encoding: `coding`".
  MockResponse encoded(std::string_view coding, const std::string& encoded) {
    return MockResponse::Builder()
        .addHeader("Content-Encoding", coding)
        .addHeader("Content-Type", "text/plain")
        .body(encoded)
        .build();
  }
};

TEST_P(ContentCodingTest, AsksForBrotliZstdAndGzip) {
  server.enqueue(MockResponse::Builder().body("plain").build());
  EXPECT_EQ(fetch(), "plain");
  // okhttp-brotli's and okhttp-zstd's codings, with gzip, when the caller chose none.
  EXPECT_EQ(server.takeRequest().headers().get("Accept-Encoding"), "br, zstd, gzip");
}

TEST_P(ContentCodingTest, EachCodingIsDecodedAndItsHeadersStripped) {
  const std::string text = compressibleText(300 * 1024, 3);
  const std::pair<std::string, std::string> cases[] = {
      {"br", brotliCompress(text)},
      {"zstd", zstdCompress(text)},
      {"gzip", gzipCompress(text)},
      {"BR", brotliCompress(text)},  // Coding names are case-insensitive (RFC 9110 §8.4.1).
  };
  for (const auto& [coding, body] : cases) {
    server.enqueue(encoded(coding, body));
    Response response = execute();
    EXPECT_FALSE(response.header("Content-Encoding")) << coding;
    EXPECT_FALSE(response.header("Content-Length")) << coding;
    EXPECT_EQ(response.body()->contentLength(), -1) << coding;
    EXPECT_EQ(response.body()->contentType()->toString(), "text/plain") << coding;
    EXPECT_TRUE(response.body()->string() == text) << coding;
  }
}

TEST_P(ContentCodingTest, StackedCodingsAreDecoded) {
  server.enqueue(encoded("gzip, br", brotliCompress(gzipCompress("twice encoded"))));
  Response response = execute();
  EXPECT_FALSE(response.header("Content-Encoding"));
  EXPECT_EQ(response.body()->string(), "twice encoded");
}

TEST_P(ContentCodingTest, CodingsNotAskedForAreLeftAlone) {
  // deflate was not offered: the caller gets the bytes and headers as sent (as okhttp-zstd does).
  const std::string deflated = zlibCompress("abc");
  server.enqueue(encoded("deflate", deflated));
  Response response = execute();
  EXPECT_EQ(response.header("Content-Encoding"), "deflate");
  EXPECT_TRUE(response.body()->string() == deflated);
  server.enqueue(encoded("gzip, compress", "not decodable"));
  Response stacked = execute();
  EXPECT_EQ(stacked.header("Content-Encoding"), "gzip, compress");
  EXPECT_EQ(stacked.body()->string(), "not decodable");
}

TEST_P(ContentCodingTest, CallerChosenEncodingLeavesTheBodyUntouched) {
  const std::string br = brotliCompress("abc");
  server.enqueue(encoded("br", br));
  Response response =
      execute(Request::Builder().url(server.url("/")).header("Accept-Encoding", "br").build());
  EXPECT_EQ(server.takeRequest().headers().get("Accept-Encoding"), "br");
  EXPECT_EQ(response.header("Content-Encoding"), "br");
  EXPECT_EQ(response.header("Content-Length"), std::to_string(br.size()));
  EXPECT_TRUE(response.body()->string() == br);
}

TEST_P(ContentCodingTest, HeadAnd204And304HaveNothingToDecode) {
  // A HEAD's answer has the GET's headers and no body (MockWebServer would send one).
  server.enqueue(MockResponse::Builder()
                     .addHeader("Content-Encoding", "zstd")
                     .setHeader("Content-Length", "12")
                     .build());
  Response head = execute(Request::Builder().url(server.url("/")).head().build());
  EXPECT_EQ(head.header("Content-Encoding"), "zstd");
  EXPECT_EQ(head.header("Content-Length"), "12");
  EXPECT_EQ(head.body()->string(), "");

  for (int code : {204, 304}) {
    server.enqueue(MockResponse::Builder().code(code).addHeader("Content-Encoding", "br").build());
    Response response = execute();
    EXPECT_EQ(response.code(), code);
    EXPECT_EQ(response.header("Content-Encoding"), "br") << code;
    EXPECT_EQ(response.body()->string(), "") << code;
  }
}

TEST_P(ContentCodingTest, EmptyEncodedBodyIsEmpty) {
  server.enqueue(encoded("br", ""));
  EXPECT_EQ(fetch(), "");
}

TEST_P(ContentCodingTest, CorruptBodyFailsWhenRead) {
  for (std::string coding : {"br", "zstd", "gzip"}) {
    server.enqueue(encoded(coding, "this is not " + coding));
    Response response = execute();
    EXPECT_THROW(response.body()->string(), IOException) << coding;
  }
  // The connection was not left mid-body in a way that breaks the next call.
  server.enqueue(MockResponse::Builder().body("after").build());
  EXPECT_EQ(fetch(), "after");
}

TEST_P(ContentCodingTest, DecompressionBombIsRefused) {
  const std::string zeros(64 * 1024 * 1024, '\0');
  server.enqueue(encoded("zstd", zstdCompress(zeros, 19)));
  Response response = execute();
  try {
    response.body()->string();
    FAIL() << "no exception";
  } catch (const IOException& e) {
    EXPECT_THAT(std::string(e.what()), StartsWith("decompressed body over 1000\xC3\x97 its "
                                                  "compressed size ("));
    EXPECT_THAT(std::string(e.what()), HasSubstr("refusing a possible decompression bomb"));
  }
}

TEST_P(ContentCodingTest, MaxDecompressionRatioIsConfigurable) {
  const std::string zeros(8 * 1024 * 1024, '\0');
  const std::string body = brotliCompress(zeros);
  server.enqueue(encoded("br", body));
  server.enqueue(encoded("br", body));
  Client unlimited = client.newBuilder().maxDecompressionRatio(0).build();
  EXPECT_EQ(unlimited.maxDecompressionRatio(), 0);
  EXPECT_TRUE(unlimited.newCall(get("/"))->execute().body()->string() == zeros);
  Client strict = client.newBuilder().maxDecompressionRatio(2).build();
  EXPECT_THROW(strict.newCall(get("/"))->execute().body()->string(), IOException);
}

TEST_P(ContentCodingTest, GzipRequestBodyIsCompressed) {
  server.enqueue(MockResponse::Builder().body("ok").build());
  const std::string json = "{\"message\":\"" + compressibleText(100 * 1024, 8) + "\"}";
  std::shared_ptr<RequestBody> body =
      RequestBody::gzip(RequestBody::create(json, MediaType::get("application/json")));
  EXPECT_EQ(body->contentLength(), -1);
  EXPECT_FALSE(body->isOneShot());
  Response response = execute(Request::Builder()
                                  .url(server.url("/"))
                                  .header("Content-Encoding", "gzip")
                                  .post(body)
                                  .build());
  EXPECT_EQ(response.body()->string(), "ok");
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.headers().get("Content-Encoding"), "gzip");
  EXPECT_EQ(request.headers().get("Content-Type"), "application/json; charset=utf-8");
  EXPECT_FALSE(request.headers().get("Content-Length"));
  if (GetParam() == Protocol::HTTP_1_1) {
    EXPECT_EQ(request.headers().get("Transfer-Encoding"), "chunked");
  }
  std::string sent = request.body().readUtf8();
  EXPECT_LT(sent.size(), json.size() / 2);
  // zlib itself (windowBits 16 + 15: gzip) agrees it is one gzip member of the JSON.
  std::string inflated(json.size() + 1, '\0');
  z_stream z{};
  ASSERT_EQ(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(sent.data());
  z.avail_in = static_cast<uInt>(sent.size());
  z.next_out = reinterpret_cast<Bytef*>(inflated.data());
  z.avail_out = static_cast<uInt>(inflated.size());
  EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
  inflated.resize(z.total_out);
  inflateEnd(&z);
  EXPECT_TRUE(inflated == json);
}

TEST(GzipRequestBodyTest, KeepsOneShotAndRejectsNull) {
  auto oneShot = RequestBody::fromSource(std::make_unique<Buffer>(), std::nullopt, 0);
  EXPECT_TRUE(RequestBody::gzip(oneShot)->isOneShot());
  EXPECT_FALSE(RequestBody::gzip(oneShot)->contentType());
  EXPECT_THROW(RequestBody::gzip(nullptr), std::invalid_argument);
}

TEST(MaxDecompressionRatioTest, DefaultsTo1000AndRejectsNegatives) {
  EXPECT_EQ(Client::Builder().build().maxDecompressionRatio(), 1000);
  EXPECT_THROW(Client::Builder().maxDecompressionRatio(-1), std::invalid_argument);
  EXPECT_THROW(Client::Builder().maxDecompressionRatio(std::nan("")), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Protocols, ContentCodingTest,
                         ::testing::Values(Protocol::HTTP_1_1, Protocol::H2_PRIOR_KNOWLEDGE),
                         [](const auto& info) {
                           return info.param == Protocol::HTTP_1_1 ? std::string("http1")
                                                                   : std::string("h2c");
                         });

}  // namespace
}  // namespace tern::testing
