// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Bodies over HTTP/2: trailers, duplex request bodies, content coding. Each runs over h2c and
// over HTTP/3 (MultiplexedBodyTest; Transport in http2_fixture.h), but for the one call over
// HTTP/1.1.
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "http2_fixture.h"
#include "io/gzip_sink.h"
#include "tern/buffered_sink.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

class MultiplexedBodyTest : public Http2Fixture, public ::testing::WithParamInterface<Transport> {
 protected:
  void SetUp() override { use(GetParam()); }
};

// Tests that need no multiplexed transport (a call over HTTP/1.1): not parameterized.
using Http2BodyTest = Http2Fixture;

// A duplex body: writes "first", waits for `proceed`, writes "second" and ends.
class DuplexBody final : public RequestBody {
 public:
  explicit DuplexBody(std::shared_future<void> proceed) : proceed_(std::move(proceed)) {}
  std::optional<MediaType> contentType() const override { return std::nullopt; }
  bool isDuplex() const override { return true; }
  void writeTo(BufferedSink& sink) override {
    // A server that answers early may reset the stream meanwhile; writing then fails, which is
    // fine here: what matters is that the response does not wait for this body.
    try {
      sink.writeUtf8("first");
      sink.flush();
    } catch (const IOException&) {
    }
    proceed_.wait();
    sink.writeUtf8("second");
    finished.set_value();
  }
  std::promise<void> finished;

 private:
  std::shared_future<void> proceed_;
};

TEST_P(MultiplexedBodyTest, TrailersFollowTheBody) {
  server.enqueue(MockResponse::Builder()
                     .body("abc")
                     .trailers(Headers::of("grpc-status", "0", "grpc-message", "done"))
                     .build());
  Response response = execute();
  EXPECT_EQ(response.body()->string(), "abc");
  Headers trailers = response.trailers();
  EXPECT_EQ(trailers.get("grpc-status"), "0");
  EXPECT_EQ(trailers.get("grpc-message"), "done");
}

TEST_P(MultiplexedBodyTest, TrailersWithAnEmptyBody) {
  server.enqueue(MockResponse::Builder().body("").trailers(Headers::of("t", "1")).build());
  Response response = execute();
  EXPECT_EQ(response.body()->string(), "");
  EXPECT_EQ(response.trailers().get("t"), "1");
}

TEST_P(MultiplexedBodyTest, NoTrailersIsEmpty) {
  server.enqueue(body("abc"));
  Response response = execute();
  EXPECT_EQ(response.body()->string(), "abc");
  EXPECT_EQ(response.trailers().size(), 0);
}

TEST_P(MultiplexedBodyTest, TrailersBeforeTheBodyIsReadIsMisuse) {
  server.enqueue(MockResponse::Builder().body("abc").trailers(Headers::of("t", "1")).build());
  Response response = execute();
  EXPECT_THROW(response.trailers(), std::logic_error);
  EXPECT_EQ(response.body()->string(), "abc");
}

TEST_P(MultiplexedBodyTest, ChunkedScriptedBodyIsSentAsPlainData) {
  server.enqueue(MockResponse::Builder().chunkedBody("hello world", 3).build());
  Response response = execute();
  EXPECT_EQ(response.body()->string(), "hello world");
  EXPECT_FALSE(response.header("transfer-encoding"));
}

TEST_P(MultiplexedBodyTest, DuplexBodyStreamsWhileTheResponseArrives) {
  // The server answers as soon as the headers arrive; the request body is still being written
  // when the call returns its response.
  server.enqueue(MockResponse::Builder()
                     .body("response")
                     .socketPolicy(SocketPolicy::DoNotReadRequestBody{0})
                     .build());
  std::promise<void> proceed;
  auto requestBody = std::make_shared<DuplexBody>(proceed.get_future().share());
  std::future<void> finished = requestBody->finished.get_future();
  Response response = execute(Request::Builder().url(server.url("/")).post(requestBody).build());
  EXPECT_EQ(finished.wait_for(0s), std::future_status::timeout);  // Still writing.
  EXPECT_EQ(response.body()->string(), "response");
  proceed.set_value();
  EXPECT_EQ(finished.wait_for(5s), std::future_status::ready);
}

// RFC 9113 §8.1: a server that sent its whole response may reset the stream with NO_ERROR to
// stop the request body; that is no error, so what the body still writes is dropped quietly.
// HTTP/3 says the same with STOP_SENDING(H3_NO_ERROR) (RFC 9114 §4.1).
TEST_P(MultiplexedBodyTest, NoErrorResetAfterACompleteResponseStopsTheBodyQuietly) {
  class LateBody final : public RequestBody {
   public:
    explicit LateBody(std::shared_future<void> proceed) : proceed_(std::move(proceed)) {}
    std::optional<MediaType> contentType() const override { return std::nullopt; }
    bool isDuplex() const override { return true; }
    void writeTo(BufferedSink& sink) override {
      proceed_.wait();
      try {
        sink.writeUtf8(std::string(100000, 'x'));
        sink.flush();
        outcome.set_value("written");
      } catch (const IOException& e) {
        outcome.set_value(e.what());
      }
    }
    std::promise<std::string> outcome;

   private:
    std::shared_future<void> proceed_;
  };
  server.enqueue(MockResponse::Builder()
                     .body("complete")
                     .socketPolicy(SocketPolicy::DoNotReadRequestBody{0})
                     .build());
  std::promise<void> proceed;
  auto requestBody = std::make_shared<LateBody>(proceed.get_future().share());
  std::future<std::string> outcome = requestBody->outcome.get_future();
  Response response = execute(Request::Builder().url(server.url("/")).post(requestBody).build());
  EXPECT_EQ(response.body()->string(), "complete");
  std::this_thread::sleep_for(100ms);  // The server's RST_STREAM or STOP_SENDING arrives.
  proceed.set_value();
  ASSERT_EQ(outcome.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(outcome.get(), "written");
  server.enqueue(body("next"));
  EXPECT_EQ(fetch(), "next");  // The connection carries on.
}

TEST_P(MultiplexedBodyTest, DuplexBodyIsSentWhole) {
  server.enqueue(body("ok"));
  std::promise<void> proceed;
  auto requestBody = std::make_shared<DuplexBody>(proceed.get_future().share());
  auto call = std::async(std::launch::async, [&] {
    return execute(Request::Builder().url(server.url("/")).post(requestBody).build())
        .body()
        ->string();
  });
  std::this_thread::sleep_for(100ms);
  proceed.set_value();
  EXPECT_EQ(call.get(), "ok");
  EXPECT_EQ(server.takeRequest().bodyUtf8(), "firstsecond");
}

TEST_F(Http2BodyTest, DuplexBodyOverHttp1IsRefused) {
  MockWebServer http1;
  http1.enqueue(body("never"));
  Client http1Client = Client::Builder().readTimeout(5s).build();
  std::promise<void> proceed;
  proceed.set_value();
  auto requestBody = std::make_shared<DuplexBody>(proceed.get_future().share());
  EXPECT_THROW(
      http1Client.newCall(Request::Builder().url(http1.url("/")).post(requestBody).build())
          ->execute(),
      ProtocolException);
}

TEST_P(MultiplexedBodyTest, GzipResponseIsDecodedTransparently) {
  Buffer gzipped;
  {
    internal::GzipSink sink(gzipped);
    Buffer in;
    in.writeUtf8("ABCABCABC");
    sink.write(in, in.size());
    sink.close();
  }
  server.enqueue(
      MockResponse::Builder().addHeader("Content-Encoding", "gzip").body(gzipped).build());
  EXPECT_EQ(fetch(), "ABCABCABC");
  EXPECT_EQ(server.takeRequest().headers().get("accept-encoding"), "br, zstd, gzip");
}

TEST_P(MultiplexedBodyTest, LargeRequestHeadersAreSent) {
  server.enqueue(body("ok"));
  std::string value(60 * 1024, 'v');
  execute(Request::Builder().url(server.url("/")).header("X-Large", value).build());
  EXPECT_EQ(server.takeRequest().headers().get("x-large"), value);
}

TEST_P(MultiplexedBodyTest, InformationalResponsesAreSkipped) {
  server.enqueue(MockResponse::Builder()
                     .addInformationalResponse(MockResponse::Builder().code(103).build())
                     .body("final")
                     .build());
  Response response = execute();
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "final");
}

INSTANTIATE_TEST_SUITE_P(Transports, MultiplexedBodyTest,
                         ::testing::Values(Transport::kH2c, Transport::kH3), transportName);

}  // namespace
}  // namespace tern::testing
