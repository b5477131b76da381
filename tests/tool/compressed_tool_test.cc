// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// --compressed against MockWebServer, beside curl 7.88 (built with brotli and zstd) on the same
// responses: the Accept-Encoding sent, the decoded bytes, and the exit codes of bodies that do
// not decode.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/compression.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tool_process.h"

namespace tern::tool {
namespace {

using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using ::testing::HasSubstr;
using testing::runCurl;
using testing::runTern;
using testing::ToolRun;

class CompressedToolTest : public ::testing::Test {
 protected:
  std::string url() { return server.url("/").toString(); }

  void enqueue(std::string_view coding, const std::string& body, int times = 1) {
    for (int i = 0; i < times; ++i) {
      server.enqueue(
          MockResponse::Builder().addHeader("Content-Encoding", coding).body(body).build());
    }
  }

  MockWebServer server;
};

TEST_F(CompressedToolTest, SendsCurlsAcceptEncoding) {
  server.enqueue(MockResponse::Builder().body("a").build());
  server.enqueue(MockResponse::Builder().body("a").build());
  ToolRun curl = runCurl({"-s", "--compressed", url()});
  ToolRun tern = runTern({"-s", "--compressed", url()});
  EXPECT_EQ(tern.exitCode, 0) << tern.err;
  std::string curls = *server.takeRequest().headers().get("Accept-Encoding");
  EXPECT_EQ(curls, "deflate, gzip, br, zstd");
  EXPECT_EQ(server.takeRequest().headers().get("Accept-Encoding"), curls);
}

TEST_F(CompressedToolTest, WithoutCompressedNoAcceptEncoding) {
  server.enqueue(MockResponse::Builder().body("a").build());
  ToolRun tern = runTern({"-s", url()});
  EXPECT_EQ(tern.exitCode, 0) << tern.err;
  EXPECT_FALSE(server.takeRequest().headers().get("Accept-Encoding"));
}

TEST_F(CompressedToolTest, DecodesEveryCodingAsCurl) {
  const std::string text = tern::testing::compressibleText(200 * 1024, 6);
  const std::pair<std::string, std::string> cases[] = {
      {"br", tern::testing::brotliCompress(text)},
      {"zstd", tern::testing::zstdCompress(text)},
      {"gzip", tern::testing::gzipCompress(text)},
      {"deflate", tern::testing::zlibCompress(text)},
      {"deflate", tern::testing::rawDeflate(text)},
      {"gzip, br", tern::testing::brotliCompress(tern::testing::gzipCompress(text))},
  };
  for (const auto& [coding, body] : cases) {
    enqueue(coding, body, 2);
    ToolRun curl = runCurl({"-s", "--compressed", url()});
    ToolRun tern = runTern({"-s", "--compressed", url()});
    EXPECT_EQ(curl.exitCode, 0) << coding;
    EXPECT_EQ(tern.exitCode, 0) << coding << ": " << tern.err;
    EXPECT_TRUE(curl.out == text) << coding;
    EXPECT_TRUE(tern.out == text) << coding;
  }
}

TEST_F(CompressedToolTest, CorruptBodyExitsAsCurl) {
  for (std::string coding : {"br", "zstd", "gzip"}) {
    enqueue(coding, "this is not " + coding, 2);
    ToolRun curl = runCurl({"-s", "--compressed", url()});
    ToolRun tern = runTern({"-s", "--compressed", url()});
    EXPECT_EQ(curl.exitCode, 61) << coding;
    EXPECT_EQ(tern.exitCode, curl.exitCode) << coding << ": " << tern.err;
    EXPECT_EQ(tern.out, curl.out) << coding;
  }
  enqueue("zstd", "not zstd");
  ToolRun tern = runTern({"-sS", "--compressed", url()});
  EXPECT_THAT(tern.err, HasSubstr("(61) Error while processing content unencoding: zstd decoding "
                                  "failed: Unknown frame descriptor"));
}

TEST_F(CompressedToolTest, UnknownCodingExitsAsCurl) {
  enqueue("xyz", "plain", 2);
  ToolRun curl = runCurl({"-sS", "--compressed", url()});
  ToolRun tern = runTern({"-sS", "--compressed", url()});
  EXPECT_EQ(curl.exitCode, 61);
  EXPECT_EQ(tern.exitCode, 61) << tern.err;
  EXPECT_EQ(tern.out, curl.out);
  EXPECT_THAT(tern.err, HasSubstr("Unrecognized content encoding type. libcurl understands "
                                  "deflate, gzip, br, zstd content encodings."));
}

TEST_F(CompressedToolTest, WithoutCompressedTheBodyIsAsSent) {
  const std::string br = tern::testing::brotliCompress("abc");
  enqueue("br", br, 2);
  ToolRun curl = runCurl({"-s", url()});
  ToolRun tern = runTern({"-s", "-o", "-", url()});
  EXPECT_EQ(curl.exitCode, 0);
  EXPECT_EQ(tern.exitCode, 0) << tern.err;
  EXPECT_TRUE(tern.out == curl.out);
  EXPECT_TRUE(tern.out == br);
}

TEST_F(CompressedToolTest, TruncatedBodyFails) {
  // Deliberately not curl's: curl 7.88 ends a truncated br, zstd or gzip body with exit 0 and
  // what it decoded so far; tern says the body was cut (docs/tool.md).
  std::string zstd = tern::testing::zstdCompress(tern::testing::compressibleText(64 * 1024, 2));
  enqueue("zstd", zstd.substr(0, zstd.size() / 2));
  ToolRun tern = runTern({"-sS", "--compressed", "-o", "/dev/null", url()});
  EXPECT_EQ(tern.exitCode, 61) << tern.err;
  EXPECT_THAT(tern.err, HasSubstr("zstd stream truncated"));
}

}  // namespace
}  // namespace tern::tool
