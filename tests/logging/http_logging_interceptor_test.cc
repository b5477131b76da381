// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// HttpLoggingInterceptor's output at each level (OkHttp's HttpLoggingInterceptorTest), as an
// application and as a network interceptor.
#include "tern/http_logging_interceptor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>

#include "call/call_fixture.h"
#include "support/compression.h"

namespace tern::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::MatchesRegex;

class HttpLoggingInterceptorTest : public CallFixture {
 protected:
  // Installs a logging interceptor at `level`, as a network interceptor unless `application`.
  std::shared_ptr<HttpLoggingInterceptor> install(HttpLoggingInterceptor::Level level,
                                                  bool application = false) {
    auto logging = std::make_shared<HttpLoggingInterceptor>([this](std::string_view line) {
      std::lock_guard lock(mutex_);
      lines_.emplace_back(line);
    });
    logging->setLevel(level);
    client = application ? client.newBuilder().addInterceptor(logging).build()
                         : client.newBuilder().addNetworkInterceptor(logging).build();
    return logging;
  }
  std::vector<std::string> lines() {
    std::lock_guard lock(mutex_);
    return lines_;
  }
  std::string post(std::shared_ptr<RequestBody> requestBody) {
    return execute(Request::Builder().url(server.url("/")).post(std::move(requestBody)).build())
        .body()
        ->string();
  }
  std::string hostHeader() { return "Host: 127.0.0.1:" + std::to_string(server.port()); }

 private:
  std::mutex mutex_;
  std::vector<std::string> lines_;
};

using Level = HttpLoggingInterceptor::Level;

TEST_F(HttpLoggingInterceptorTest, LevelNoneLogsNothing) {
  install(Level::NONE);
  server.enqueue(body("hello"));
  EXPECT_EQ(fetch(), "hello");
  EXPECT_TRUE(lines().empty());
}

TEST_F(HttpLoggingInterceptorTest, LevelIsNoneUntilSet) {
  HttpLoggingInterceptor logging([](std::string_view) {});
  EXPECT_EQ(logging.level(), Level::NONE);
  EXPECT_EQ(logging.setLevel(Level::BODY).level(), Level::BODY);
}

TEST_F(HttpLoggingInterceptorTest, BasicLogsRequestAndResponseLines) {
  install(Level::BASIC);
  server.enqueue(body("hello"));
  EXPECT_EQ(fetch(), "hello");
  EXPECT_THAT(lines(),
              ElementsAre("--> GET " + url() + " http/1.1",
                          MatchesRegex("<-- 200 OK " + url() + " \\([0-9]+ms, 5-byte body\\)")));
}

TEST_F(HttpLoggingInterceptorTest, BasicShowsTheRequestBodySizeAndUnknownLengths) {
  install(Level::BASIC, true);
  server.enqueue(MockResponse::Builder().chunkedBody("chunked", 3).build());
  post(RequestBody::create("hi?"));
  EXPECT_THAT(lines(),
              ElementsAre("--> POST " + url() + " (3-byte body)",
                          MatchesRegex("<-- 200 OK .* \\([0-9]+ms, unknown-length body\\)")));
}

TEST_F(HttpLoggingInterceptorTest, HeadersLogsTheHeadersBothWays) {
  install(Level::HEADERS);
  server.enqueue(MockResponse::Builder().addHeader("X-Answer", "42").body("hello").build());
  fetch();
  std::vector<std::string> logged = lines();
  ASSERT_GE(logged.size(), 6u);
  EXPECT_EQ(logged.front(), "--> GET " + url() + " http/1.1");
  EXPECT_THAT(logged, ::testing::Contains(hostHeader()));
  EXPECT_THAT(logged, ::testing::Contains("Accept-Encoding: br, zstd, gzip"));
  EXPECT_THAT(logged, ::testing::Contains("--> END GET"));
  EXPECT_THAT(logged, ::testing::Contains(MatchesRegex("<-- 200 OK .* \\([0-9]+ms\\)")));
  EXPECT_THAT(logged, ::testing::Contains("X-Answer: 42"));
  EXPECT_EQ(logged.back(), "<-- END HTTP");
}

TEST_F(HttpLoggingInterceptorTest, ApplicationInterceptorShowsTheBodysHeaders) {
  install(Level::HEADERS, true);
  server.enqueue(body("ok"));
  post(RequestBody::create("abc", MediaType::get("text/plain; charset=utf-8")));
  EXPECT_THAT(lines(),
              ::testing::IsSupersetOf({std::string("Content-Type: text/plain; charset=utf-8"),
                                       std::string("Content-Length: 3")}));
}

TEST_F(HttpLoggingInterceptorTest, RedactedHeadersShowNoValue) {
  auto logging = install(Level::HEADERS);
  logging->redactHeader("authorization").redactHeader("Set-Cookie");
  server.enqueue(MockResponse::Builder().addHeader("Set-Cookie", "secret=1").body("x").build());
  execute(Request::Builder().url(server.url("/")).header("Authorization", "Bearer t0k3n").build())
      .body()
      ->string();
  std::vector<std::string> logged = lines();
  EXPECT_THAT(logged, ::testing::Contains("Authorization: ██"));
  EXPECT_THAT(logged, ::testing::Contains("Set-Cookie: ██"));
  for (const std::string& line : logged) EXPECT_EQ(line.find("t0k3n"), std::string::npos);
}

TEST_F(HttpLoggingInterceptorTest, BodyLogsTextBodies) {
  install(Level::BODY);
  server.enqueue(MockResponse::Builder()
                     .addHeader("Content-Type", "text/plain; charset=utf-8")
                     .body("Hello!")
                     .build());
  EXPECT_EQ(post(RequestBody::create("Hi?")), "Hello!");
  std::vector<std::string> logged = lines();
  auto requestEnd = std::find(logged.begin(), logged.end(), "--> END POST (3-byte body)");
  ASSERT_NE(requestEnd, logged.end());
  EXPECT_EQ(*(requestEnd - 1), "Hi?");
  EXPECT_EQ(*(requestEnd - 2), "");
  EXPECT_EQ(logged.back(), "<-- END HTTP (6-byte body)");
  EXPECT_EQ(logged[logged.size() - 2], "Hello!");
}

TEST_F(HttpLoggingInterceptorTest, BodyOmitsBinaryBodies) {
  install(Level::BODY);
  std::vector<std::byte> binary = {std::byte{0x89}, std::byte{'P'},  std::byte{'N'},
                                   std::byte{'G'},  std::byte{0x0d}, std::byte{0x0a},
                                   std::byte{0x1a}, std::byte{0x0a}, std::byte{0x00}};
  server.enqueue(MockResponse::Builder()
                     .addHeader("Content-Type", "image/png")
                     .body(std::span<const std::byte>(binary))
                     .build());
  EXPECT_EQ(execute().body()->bytes().size(), binary.size());
  EXPECT_EQ(lines().back(), "<-- END HTTP (binary 9-byte body omitted)");
}

TEST_F(HttpLoggingInterceptorTest, BodyOmitsBinaryRequestBodies) {
  install(Level::BODY);
  server.enqueue(body("ok"));
  post(RequestBody::create(
      std::vector<std::byte>{std::byte{0x00}, std::byte{0x01}, std::byte{0x02}}));
  EXPECT_THAT(lines(), ::testing::Contains("--> END POST (binary 3-byte body omitted)"));
}

TEST_F(HttpLoggingInterceptorTest, BodyDecodesGzipForDisplay) {
  install(Level::BODY);  // A network interceptor sees the body still gzipped.
  Buffer compressed = gzip("Uncompressed text");
  int64_t gzippedSize = compressed.size();
  server.enqueue(MockResponse::Builder()
                     .addHeader("Content-Encoding", "gzip")
                     .addHeader("Content-Type", "text/plain")
                     .body(compressed)
                     .build());
  EXPECT_EQ(fetch(), "Uncompressed text");  // The application still gets all of it, decoded.
  std::vector<std::string> logged = lines();
  EXPECT_EQ(logged[logged.size() - 2], "Uncompressed text");
  EXPECT_EQ(logged.back(),
            "<-- END HTTP (17-byte, " + std::to_string(gzippedSize) + "-gzipped-byte body)");
}

TEST_F(HttpLoggingInterceptorTest, BodyDecodesBrotliZstdAndStackedCodingsForDisplay) {
  install(Level::BODY);
  const std::string text = "{\"items\": [1, 2, 3]}";
  for (const auto& [coding, encoded] : std::vector<std::pair<std::string, std::string>>{
           {"br", brotliCompress(text)},
           {"zstd", zstdCompress(text)},
           {"br, zstd", zstdCompress(brotliCompress(text))}}) {
    Buffer body;
    body.writeUtf8(encoded);
    server.enqueue(MockResponse::Builder()
                       .addHeader("Content-Encoding", coding)
                       .addHeader("Content-Type", "application/json")
                       .body(body)
                       .build());
    EXPECT_EQ(fetch(), text) << coding;  // The application's body is decoded once, by the bridge.
    std::vector<std::string> logged = lines();
    EXPECT_EQ(logged[logged.size() - 2], text) << coding;
    EXPECT_EQ(logged.back(), "<-- END HTTP (" + std::to_string(text.size()) + "-byte, " +
                                 std::to_string(encoded.size()) + "-byte " + coding +
                                 "-encoded body)");
  }
}

TEST_F(HttpLoggingInterceptorTest, BodyThatDoesNotDecodeIsSaidSo) {
  install(Level::BODY);
  server.enqueue(MockResponse::Builder()
                     .addHeader("Content-Encoding", "br")
                     .body("this is not brotli at all")
                     .build());
  Response response = execute();
  EXPECT_THROW(response.body()->string(), IOException);
  EXPECT_THAT(lines().back(), ::testing::StartsWith("<-- END HTTP (br body not decodable: "));
}

TEST_F(HttpLoggingInterceptorTest, BodyOmitsUnknownEncodings) {
  install(Level::BODY);
  server.enqueue(
      MockResponse::Builder().addHeader("Content-Encoding", "compress").body("???").build());
  execute().body()->bytes();
  EXPECT_EQ(lines().back(), "<-- END HTTP (encoded body omitted)");
}

TEST_F(HttpLoggingInterceptorTest, BodyOmitsOneShotRequestBodies) {
  install(Level::BODY);
  server.enqueue(body("ok"));
  auto content = std::make_unique<Buffer>();
  content->writeUtf8("once");
  post(RequestBody::fromSource(std::move(content), std::nullopt, 4));
  EXPECT_THAT(lines(), ::testing::Contains("--> END POST (one-shot body omitted)"));
  EXPECT_EQ(server.takeRequest().bodyUtf8(), "once");
}

TEST_F(HttpLoggingInterceptorTest, BodyOfAHeadResponseIsNotRead) {
  install(Level::BODY);
  server.enqueue(MockResponse::Builder().setHeader("Content-Length", "10").build());
  execute(Request::Builder().url(server.url("/")).head().build());
  EXPECT_EQ(lines().back(), "<-- END HTTP");
}

TEST_F(HttpLoggingInterceptorTest, FailureIsLogged) {
  install(Level::BASIC, true);
  ClosedPort closed;
  std::string target = "http://127.0.0.1:" + std::to_string(closed.port()) + "/";
  EXPECT_THROW(client.newCall(Request::Builder().url(target).build())->execute(), IOException);
  EXPECT_THAT(lines(), ElementsAre("--> GET " + target,
                                   MatchesRegex("<-- HTTP FAILED: Failed to connect to .*")));
}

TEST_F(HttpLoggingInterceptorTest, NetworkInterceptorLogsEveryRedirectHop) {
  install(Level::BASIC);
  server.enqueue(MockResponse::Builder().code(302).addHeader("Location", "/b").build());
  server.enqueue(body("there"));
  EXPECT_EQ(fetch("/a"), "there");
  EXPECT_THAT(
      lines(),
      ElementsAre("--> GET " + url("/a") + " http/1.1", MatchesRegex("<-- 302 Redirection .*"),
                  "--> GET " + url("/b") + " http/1.1", MatchesRegex("<-- 200 OK .*")));
}

}  // namespace
}  // namespace tern::testing
