// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Flow control and large bodies: 16 MiB windows, updates as the application reads, and a slow
// reader of one stream never stalling the others. Each runs over h2c and over HTTP/3 (whose
// windows tern also sets to 16 MiB: Http3Connection::kClientWindowSize), except the one about a
// window the server's SETTINGS shrink, which is HTTP/2's.
#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <thread>

#include "http2_fixture.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

class Http2FlowControlTest : public Http2Fixture {
 protected:
  // Large bodies take a while under sanitizers on a loaded machine; timeouts are not the point.
  Http2FlowControlTest() {
    client = client.newBuilder().readTimeout(30s).writeTimeout(30s).build();
  }
};

class MultiplexedFlowControlTest : public Http2FlowControlTest,
                                   public ::testing::WithParamInterface<Transport> {
 protected:
  void SetUp() override { use(GetParam()); }
};

constexpr int64_t kWindow = 16 * 1024 * 1024;

// Reads `response`'s body to the end and returns how many bytes it had, checking each byte
// against pattern().
int64_t readPattern(Response& response) {
  BufferedSource& source = response.body()->source();
  const std::string period = Http2Fixture::pattern(26 * 4096);  // Repeats every 26 bytes.
  Buffer buffer;
  int64_t total = 0;
  while (source.read(buffer, 64 * 1024) != -1) {
    std::string chunk = buffer.readUtf8();
    for (size_t i = 0; i < chunk.size();) {
      size_t offset = static_cast<size_t>(total % 26);
      size_t count = std::min(chunk.size() - i, period.size() - offset);
      if (chunk.compare(i, count, period, offset, count) != 0) return -total - 1;
      i += count;
      total += static_cast<int64_t>(count);
    }
  }
  return total;
}

TEST_P(MultiplexedFlowControlTest, LargeResponseBody) {
  const int64_t size = 50 * 1024 * 1024;
  server.enqueue(body(pattern(size)));
  Response response = execute();
  EXPECT_EQ(response.body()->contentLength(), size);
  EXPECT_EQ(readPattern(response), size);
}

TEST_P(MultiplexedFlowControlTest, LargeRequestBody) {
  const int64_t size = 50 * 1024 * 1024;
  server.setBodyLimit(1024);
  server.enqueue(body("ok"));
  Response response = execute(
      Request::Builder().url(server.url("/")).post(RequestBody::create(pattern(size))).build());
  EXPECT_EQ(response.body()->string(), "ok");
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.bodySize(), size);
  EXPECT_EQ(request.bodyUtf8(), pattern(1024));
}

TEST_P(MultiplexedFlowControlTest, SlowReaderDoesNotStallOtherStreams) {
  // The first response is larger than the stream window and nobody reads it; the others on the
  // same connection still complete, since the connection window is freed as data arrives.
  server.enqueue(body(pattern(kWindow + 4 * 1024 * 1024)));
  server.enqueue(body(pattern(kWindow + 1024)));
  server.enqueue(body("small"));
  Response unread = execute();
  std::this_thread::sleep_for(200ms);  // Let the first stream fill its window.
  Response large = execute();
  EXPECT_EQ(readPattern(large), kWindow + 1024);
  EXPECT_EQ(fetch(), "small");
  // The slow reader still gets every byte once it reads.
  EXPECT_EQ(readPattern(unread), kWindow + 4 * 1024 * 1024);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
}

TEST_P(MultiplexedFlowControlTest, ConnectionWindowRecoversAfterCanceling) {
  server.enqueue(body(pattern(kWindow + 1)));
  server.enqueue(body("abc"));
  std::shared_ptr<Call> call = client.newCall(get());
  Response response1 = call->execute();
  std::this_thread::sleep_for(200ms);
  call->cancel();
  EXPECT_THROW(response1.body()->string(), IOException);
  EXPECT_EQ(fetch(), "abc");
}

TEST_P(MultiplexedFlowControlTest, ConnectionWindowRecoversAfterClosingAnUnreadBody) {
  server.enqueue(body(pattern(kWindow)));
  server.enqueue(body("abc"));
  server.enqueue(body("def"));
  {
    Response response1 = execute();
    EXPECT_EQ(response1.body()->source().readUtf8(8192), pattern(8192));
  }  // Closed with most of its body unread.
  EXPECT_EQ(fetch(), "abc");
  EXPECT_EQ(fetch(), "def");
}

// SETTINGS_INITIAL_WINDOW_SIZE from a response (MockResponse::settings()): HTTP/2 only.
TEST_F(Http2FlowControlTest, SmallInitialWindowFromTheServerStillCarriesLargeRequests) {
  Http2Settings settings;
  settings.initialWindowSize = 1024;
  server.enqueue(MockResponse::Builder().settings(settings).build());
  server.enqueue(body("ok"));
  EXPECT_EQ(fetch(), "");
  server.setBodyLimit(0);
  Response response = execute(Request::Builder()
                                  .url(server.url("/"))
                                  .post(RequestBody::create(pattern(1024 * 1024)))
                                  .build());
  EXPECT_EQ(response.body()->string(), "ok");
  server.takeRequest();
  EXPECT_EQ(server.takeRequest().bodySize(), 1024 * 1024);
}

TEST_P(MultiplexedFlowControlTest, ConcurrentLargeDownloadsOnOneConnection) {
  const int64_t size = 5 * 1024 * 1024;
  for (int i = 0; i < 4; ++i) server.enqueue(body(pattern(size)));
  std::vector<std::future<int64_t>> futures;
  for (int i = 0; i < 4; ++i) {
    futures.push_back(std::async(std::launch::async, [&] {
      Response response = execute();
      return readPattern(response);
    }));
  }
  for (auto& future : futures) EXPECT_EQ(future.get(), size);
  EXPECT_EQ(client.connectionPool()->connectionCount(), 1);
}

TEST_P(MultiplexedFlowControlTest, ThrottledBodyArrivesWhole) {
  server.enqueue(MockResponse::Builder().body(pattern(4096)).throttleBody(1024, 50ms).build());
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(fetch(), pattern(4096));
  EXPECT_GE(std::chrono::steady_clock::now() - start, 150ms);
}

INSTANTIATE_TEST_SUITE_P(Transports, MultiplexedFlowControlTest,
                         ::testing::Values(Transport::kH2c, Transport::kH3), transportName);

}  // namespace
}  // namespace tern::testing
