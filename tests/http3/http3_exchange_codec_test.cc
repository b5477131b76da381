// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http3/http3_exchange_codec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "http3/gtls_server.h"
#include "support/tls_certificates.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"
#include "tern/request.h"
#include "tern/request_body.h"

namespace tern::internal {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

class FakeCarrier final : public ExchangeCodec::Carrier {
 public:
  void noNewExchanges() override { ++noNewExchangesCalls; }
  void cancel() override { ++cancels; }
  std::atomic<int> noNewExchangesCalls{0};
  std::atomic<int> cancels{0};
};

class NullListener final : public Http3Connection::Listener {
 public:
  void onSettings(int) override {}
  void onShutdown() override {}
};

constexpr Protocol kProtocol = Protocol::HTTP_3;

class Http3ExchangeCodecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::GtlsServer::available()) {
      GTEST_SKIP() << testing::kGtlsServerPath
                   << " is absent: install Debian's ngtcp2-server to run the HTTP/3 tests";
    }
    char pattern[] = "/tmp/tern-h3-codec-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    directory_ = pattern;
    server_ = std::make_unique<testing::GtlsServer>(certificates_, directory_);
    server_->writeFile("hello.txt", "hello over h3\n");
    ASSERT_TRUE(server_->start()) << "gtlsserver did not start; see " << server_->log();
    connection_ = std::make_unique<Http3Connection>(
        "localhost", InetSocketAddress(InetAddress::loopbackIpv4(), server_->port()),
        [](const std::vector<Certificate>&) {}, listener_);
    connection_->connect(5s);
  }

  void TearDown() override {
    connection_.reset();
    server_.reset();
    if (!directory_.empty()) std::filesystem::remove_all(directory_);
  }

  Request::Builder requestTo(const std::string& path) const {
    Request::Builder builder;
    builder.url("https://localhost:" + std::to_string(server_->port()) + path)
        .header("Host", "localhost:" + std::to_string(server_->port()))
        .header("Connection", "keep-alive")  // Forbidden in HTTP/3: must not go out.
        .header("User-Agent", "tern-test");
    return builder;
  }

  testing::TestCertificates certificates_;
  std::filesystem::path directory_;
  std::unique_ptr<testing::GtlsServer> server_;
  NullListener listener_;
  std::unique_ptr<Http3Connection> connection_;
  FakeCarrier carrier_;
};

std::string readAll(Source& source) {
  Buffer buffer;
  while (source.read(buffer, 8192) != -1) {
  }
  return buffer.readUtf8();
}

TEST_F(Http3ExchangeCodecTest, GetThroughTheCodec) {
  Http3ExchangeCodec codec(carrier_, *connection_, kProtocol, 5000ms, 5000ms);
  Request request = requestTo("/hello.txt").build();
  codec.writeRequestHeaders(request);
  codec.finishRequest();
  std::optional<Response::Builder> builder = codec.readResponseHeaders(false);
  ASSERT_TRUE(builder.has_value());
  Response response = builder->request(request).build();
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.protocol(), kProtocol);
  EXPECT_EQ(response.message(), "");
  EXPECT_EQ(codec.reportedContentLength(response), 14);
  EXPECT_FALSE(codec.switchedProtocols(response));
  std::unique_ptr<Source> body = codec.openResponseBodySource(response);
  EXPECT_EQ(readAll(*body), "hello over h3\n");
  EXPECT_TRUE(codec.isResponseComplete());
  EXPECT_TRUE(codec.trailers().empty());
  EXPECT_EQ(carrier_.noNewExchangesCalls.load(), 0);
}

TEST_F(Http3ExchangeCodecTest, PostThroughTheCodec) {
  Http3ExchangeCodec codec(carrier_, *connection_, kProtocol, 5000ms, 5000ms);
  Request request = requestTo("/hello.txt").post(RequestBody::create("a=1&b=2")).build();
  codec.writeRequestHeaders(request);
  std::unique_ptr<Sink> sink = codec.createRequestBody(request, 7);
  Buffer body;
  body.writeUtf8("a=1&b=2");
  sink->write(body, body.size());
  sink->close();
  codec.finishRequest();
  Response response = codec.readResponseHeaders(false)->request(request).build();
  EXPECT_EQ(response.code(), 200);  // gtlsserver answers a POST with the file.
  EXPECT_EQ(readAll(*codec.openResponseBodySource(response)), "hello over h3\n");
}

TEST_F(Http3ExchangeCodecTest, HeadersListDropsConnectionSpecificFields) {
  Request request = requestTo("/a?b=c").header("TE", "trailers").build();
  HeaderBlock block = Http3ExchangeCodec::http3HeadersList(request);
  ASSERT_GE(block.size(), 4u);
  EXPECT_EQ(block[0], (std::pair<std::string, std::string>(":method", "GET")));
  EXPECT_EQ(block[1], (std::pair<std::string, std::string>(":path", "/a?b=c")));
  EXPECT_EQ(block[2].first, ":authority");
  EXPECT_EQ(block[3], (std::pair<std::string, std::string>(":scheme", "https")));
  for (const auto& [name, value] : block) {
    EXPECT_NE(name, "connection");
    EXPECT_NE(name, "host");
  }
  EXPECT_NE(
      std::find(block.begin(), block.end(), std::pair<std::string, std::string>("te", "trailers")),
      block.end());
}

TEST_F(Http3ExchangeCodecTest, CancelFromAnotherThreadUnblocksTheResponseRead) {
  Http3ExchangeCodec codec(carrier_, *connection_, kProtocol, 0ms, 0ms);
  Request request = requestTo("/hello.txt").post(RequestBody::create("x")).build();
  codec.writeRequestHeaders(request);  // The body never ends: no response comes.
  std::thread canceler([&] {
    std::this_thread::sleep_for(200ms);
    codec.cancel();
  });
  EXPECT_THROW(codec.readResponseHeaders(false), InterruptedIOException);
  canceler.join();
  EXPECT_TRUE(connection_->isHealthy());
}

TEST_F(Http3ExchangeCodecTest, OpenFailureIsWhatLaterCallsThrow) {
  connection_->close();
  Http3ExchangeCodec codec(carrier_, *connection_, kProtocol, 1000ms, 1000ms);
  Request request = requestTo("/hello.txt").build();
  EXPECT_THROW(codec.writeRequestHeaders(request), IOException);
  EXPECT_THROW(codec.readResponseHeaders(false), IOException);
}

}  // namespace
}  // namespace tern::internal
