// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Calls over MockWebServer: requests as sent, responses as seen (OkHttp's CallTest).
#include <gtest/gtest.h>

#include <thread>

#include "call/call_fixture.h"
#include "tern/version.h"

namespace tern::testing {
namespace {

// A body of unknown length: sent chunked.
class StreamingBody final : public RequestBody {
 public:
  explicit StreamingBody(std::string content) : content_(std::move(content)) {}
  std::optional<MediaType> contentType() const override { return MediaType::get("text/plain"); }
  void writeTo(BufferedSink& sink) override { sink.writeUtf8(content_); }

 private:
  std::string content_;
};

using CallTest = CallFixture;

TEST_F(CallTest, GetReturnsCodeMessageHeadersAndBody) {
  server.enqueue(MockResponse::Builder()
                     .code(200)
                     .addHeader("Content-Type", "text/plain")
                     .body("abc")
                     .build());
  Response response = execute("/path");
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.message(), "OK");
  EXPECT_TRUE(response.isSuccessful());
  EXPECT_EQ(response.header("Content-Type"), "text/plain");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_1_1);
  EXPECT_EQ(response.body()->contentLength(), 3);
  EXPECT_EQ(response.body()->string(), "abc");
  EXPECT_EQ(server.takeRequest().requestLine(), "GET /path HTTP/1.1");
}

TEST_F(CallTest, GetSendsDefaultHeaders) {
  server.enqueue(body("abc"));
  fetch("/");
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.headers().get("Host"), "127.0.0.1:" + std::to_string(server.port()));
  EXPECT_EQ(request.headers().get("Connection"), "Keep-Alive");
  EXPECT_EQ(request.headers().get("Accept-Encoding"), "br, zstd, gzip");
  EXPECT_EQ(request.headers().get("User-Agent"), "tern/" + std::string(version()));
  EXPECT_FALSE(request.headers().get("Content-Length"));
  EXPECT_FALSE(request.headers().get("Transfer-Encoding"));
}

TEST_F(CallTest, CallerHeadersWinOverDefaults) {
  server.enqueue(body("abc"));
  execute(Request::Builder()
              .url(server.url("/"))
              .header("User-Agent", "custom/1")
              .header("Host", "example.com")
              .header("Connection", "upgrade")
              .header("Accept-Encoding", "identity")
              .addHeader("X-Custom", "a")
              .addHeader("X-Custom", "b")
              .build())
      .body()
      ->string();
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.headers().get("User-Agent"), "custom/1");
  EXPECT_EQ(request.headers().get("Host"), "example.com");
  EXPECT_EQ(request.headers().get("Connection"), "upgrade");
  EXPECT_EQ(request.headers().get("Accept-Encoding"), "identity");
  EXPECT_EQ(request.headers().values("X-Custom"), (std::vector<std::string>{"a", "b"}));
}

// RFC 9110 §5.5: a NUL in a response header fails the call (as curl's "Nul byte in header"),
// never reaching the caller.
TEST_F(CallTest, NulInAResponseHeaderFailsTheCall) {
  server.enqueue(MockResponse::Builder()
                     .addHeaderLenient("X-Bad", std::string_view("a\0b", 3))
                     .body("abc")
                     .build());
  try {
    execute();
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "Unexpected char 0x00 at 1 in received header X-Bad: a\\x00b");
  }
}

TEST_F(CallTest, HeadResponseHasNoBody) {
  // A server answers HEAD with the headers a GET would get, and no body (RFC 9110 §9.3.2).
  server.enqueue(MockResponse::Builder().setHeader("Content-Length", "3").build());
  server.enqueue(body("next"));
  Response response = execute(Request::Builder().url(server.url("/")).head().build());
  EXPECT_EQ(response.header("Content-Length"), "3");
  EXPECT_EQ(response.body()->string(), "");
  EXPECT_EQ(fetch(), "next");  // The connection was left clean for the next exchange.
  EXPECT_EQ(server.takeRequest().method(), "HEAD");
  EXPECT_EQ(server.takeRequest().sequenceNumber(), 1);
}

TEST_F(CallTest, PostSendsContentLengthAndContentType) {
  server.enqueue(body("ok"));
  Response response = execute(Request::Builder()
                                  .url(server.url("/"))
                                  .post(RequestBody::create("hello", MediaType::get("text/plain")))
                                  .build());
  EXPECT_EQ(response.body()->string(), "ok");
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.method(), "POST");
  EXPECT_EQ(request.bodyUtf8(), "hello");
  EXPECT_EQ(request.headers().get("Content-Length"), "5");
  EXPECT_EQ(request.headers().get("Content-Type"), "text/plain; charset=utf-8");
  EXPECT_FALSE(request.headers().get("Transfer-Encoding"));
}

TEST_F(CallTest, PostWithUnknownLengthIsChunked) {
  server.enqueue(body("ok"));
  execute(Request::Builder()
              .url(server.url("/"))
              .post(std::make_shared<StreamingBody>("streamed"))
              .build())
      .body()
      ->string();
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.bodyUtf8(), "streamed");
  EXPECT_EQ(request.headers().get("Transfer-Encoding"), "chunked");
  EXPECT_FALSE(request.headers().get("Content-Length"));
  EXPECT_FALSE(request.chunkSizes().empty());
}

TEST_F(CallTest, EmptyPostSendsZeroContentLength) {
  server.enqueue(body("ok"));
  execute(Request::Builder().url(server.url("/")).post(RequestBody::create("")).build())
      .body()
      ->string();
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.headers().get("Content-Length"), "0");
  EXPECT_EQ(request.bodySize(), 0);
}

TEST_F(CallTest, PutPatchDeleteMethodsAndBodies) {
  server.enqueue(body("1"));
  server.enqueue(body("2"));
  server.enqueue(body("3"));
  execute(Request::Builder().url(server.url("/")).put(RequestBody::create("put")).build())
      .body()
      ->string();
  execute(Request::Builder().url(server.url("/")).patch(RequestBody::create("patch")).build())
      .body()
      ->string();
  execute(Request::Builder().url(server.url("/")).delete_().build()).body()->string();
  RecordedRequest put = server.takeRequest();
  RecordedRequest patch = server.takeRequest();
  RecordedRequest del = server.takeRequest();
  EXPECT_EQ(put.method() + ":" + put.bodyUtf8(), "PUT:put");
  EXPECT_EQ(patch.method() + ":" + patch.bodyUtf8(), "PATCH:patch");
  EXPECT_EQ(del.method(), "DELETE");
  EXPECT_EQ(del.bodySize(), 0);
}

TEST_F(CallTest, NoContentResponseHasAnEmptyBody) {
  server.enqueue(MockResponse::Builder().code(204).build());
  Response response = execute();
  EXPECT_EQ(response.code(), 204);
  EXPECT_EQ(response.body()->contentLength(), 0);
  EXPECT_EQ(response.body()->string(), "");
}

TEST_F(CallTest, NotModifiedResponseHasAnEmptyBody) {
  server.enqueue(MockResponse::Builder().code(304).build());
  Response response = execute();
  EXPECT_EQ(response.code(), 304);
  EXPECT_EQ(response.body()->string(), "");
}

TEST_F(CallTest, NoContentWithAContentLengthIsAProtocolError) {
  server.enqueue(MockResponse::Builder().code(204).setHeader("Content-Length", "5").build());
  try {
    execute();
    FAIL() << "expected ProtocolException";
  } catch (const ProtocolException& e) {
    EXPECT_STREQ(e.what(), "HTTP 204 had non-zero Content-Length: 5");
  }
}

TEST_F(CallTest, ChunkedResponseBodyIsReadWhole) {
  server.enqueue(MockResponse::Builder().chunkedBody("abcdefghijklmnopqrstuvwxyz", 3).build());
  Response response = execute();
  EXPECT_EQ(response.body()->contentLength(), -1);
  EXPECT_EQ(response.body()->string(), "abcdefghijklmnopqrstuvwxyz");
}

TEST_F(CallTest, CloseDelimitedResponseBodyEndsWithTheConnection) {
  server.enqueue(MockResponse::Builder()
                     .body("until the end")
                     .removeHeader("Content-Length")
                     .socketPolicy(SocketPolicy::DisconnectAtEnd{})
                     .build());
  server.enqueue(body("fresh"));
  EXPECT_EQ(fetch(), "until the end");
  EXPECT_EQ(fetch(), "fresh");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);  // Not reused.
}

TEST_F(CallTest, ExecutingTwiceIsMisuse) {
  server.enqueue(body("abc"));
  std::shared_ptr<Call> call = client.newCall(get());
  EXPECT_FALSE(call->isExecuted());
  call->execute().body()->string();
  EXPECT_TRUE(call->isExecuted());
  try {
    call->execute();
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "Already Executed");
  }
  EXPECT_THROW(call->enqueue(std::make_shared<RecordingCallback>()), std::logic_error);
}

TEST_F(CallTest, CloneMakesAFreshCallForTheSameRequest) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  std::shared_ptr<Call> call = client.newCall(get("/same"));
  EXPECT_EQ(call->execute().body()->string(), "a");
  std::shared_ptr<Call> clone = call->clone();
  EXPECT_FALSE(clone->isExecuted());
  EXPECT_EQ(clone->request().url(), call->request().url());
  EXPECT_EQ(clone->execute().body()->string(), "b");
  EXPECT_EQ(server.takeRequest().path(), "/same");
  EXPECT_EQ(server.takeRequest().path(), "/same");
}

TEST_F(CallTest, ResponseCarriesTheRequestAndTimestamps) {
  server.enqueue(body("abc"));
  auto before = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  Response response = execute("/a");
  auto after = std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
                   .count();
  EXPECT_EQ(response.request().url(), server.url("/a"));
  EXPECT_GE(response.sentRequestAtMillis(), before);
  EXPECT_LE(response.sentRequestAtMillis(), response.receivedResponseAtMillis());
  EXPECT_LE(response.receivedResponseAtMillis(), after);
  EXPECT_EQ(response.networkResponse(), nullptr);
  EXPECT_EQ(response.priorResponse(), nullptr);
}

TEST_F(CallTest, Http10ResponseIsNotReused) {
  server.enqueue(MockResponse::Builder().status("HTTP/1.0 200 OK").body("old").build());
  server.enqueue(body("new"));
  Response response = execute();
  EXPECT_EQ(response.protocol(), Protocol::HTTP_1_0);
  EXPECT_EQ(response.body()->string(), "old");
  EXPECT_EQ(fetch(), "new");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

TEST_F(CallTest, LargeBodiesBothWaysAreByteExact) {
  std::string big(1 << 20, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>('a' + i % 26);
  server.enqueue(body(big));
  Response response =
      execute(Request::Builder().url(server.url("/")).post(RequestBody::create(big)).build());
  EXPECT_EQ(response.body()->string(), big);
  EXPECT_EQ(server.takeRequest().bodyUtf8(), big);
}

TEST_F(CallTest, ExpectContinueSendsTheBodyAfter100Continue) {
  server.enqueue(MockResponse::Builder().add100Continue().body("ok").build());
  Response response = execute(Request::Builder()
                                  .url(server.url("/"))
                                  .header("Expect", "100-continue")
                                  .post(RequestBody::create("payload"))
                                  .build());
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "ok");
  EXPECT_EQ(server.takeRequest().bodyUtf8(), "payload");
}

TEST_F(CallTest, ExpectContinueRefusedSkipsTheBodyAndTheConnection) {
  server.enqueue(MockResponse::Builder()
                     .code(417)
                     .body("no thanks")
                     .socketPolicy(SocketPolicy::DoNotReadRequestBody{})
                     .build());
  server.enqueue(body("next"));
  Response response = execute(Request::Builder()
                                  .url(server.url("/"))
                                  .header("Expect", "100-continue")
                                  .post(RequestBody::create("payload"))
                                  .build());
  EXPECT_EQ(response.code(), 417);
  EXPECT_EQ(response.body()->string(), "no thanks");
  EXPECT_EQ(fetch(), "next");
  EXPECT_EQ(server.takeRequest().bodySize(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);  // The first could not be reused.
}

TEST_F(CallTest, InformationalResponsesAreSkipped) {
  server.enqueue(
      MockResponse::Builder()
          .addInformationalResponse(
              MockResponse::Builder().code(103).addHeader("Link", "</style.css>").build())
          .addInformationalResponse(MockResponse::Builder().code(102).build())
          .body("final")
          .build());
  Response response = execute();
  EXPECT_EQ(response.code(), 200);
  EXPECT_FALSE(response.header("Link"));
  EXPECT_EQ(response.body()->string(), "final");
}

TEST_F(CallTest, ResponseConnectionCloseIsHonoured) {
  server.enqueue(MockResponse::Builder().addHeader("Connection", "close").body("a").build());
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(), "a");
  EXPECT_EQ(fetch(), "b");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

// Connection is a token list (RFC 9110 §7.6.1), its tokens case-insensitive.
TEST_F(CallTest, ResponseConnectionCloseIsHonouredInATokenList) {
  server.enqueue(
      MockResponse::Builder().addHeader("Connection", "keep-alive, Close").body("a").build());
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(), "a");
  EXPECT_EQ(fetch(), "b");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

TEST_F(CallTest, RequestConnectionCloseIsHonoured) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  execute(Request::Builder().url(server.url("/")).header("Connection", "close").build())
      .body()
      ->string();
  EXPECT_EQ(fetch(), "b");
  EXPECT_EQ(server.takeRequest().headers().get("Connection"), "close");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

TEST_F(CallTest, GzipIsDecodedTransparently) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Content-Encoding", "gzip")
                     .addHeader("Content-Type", "text/plain")
                     .body(gzip("uncompressed text, uncompressed text"))
                     .build());
  Response response = execute();
  EXPECT_FALSE(response.header("Content-Encoding"));
  EXPECT_FALSE(response.header("Content-Length"));
  EXPECT_EQ(response.body()->contentLength(), -1);
  EXPECT_EQ(response.body()->contentType()->toString(), "text/plain");
  EXPECT_EQ(response.body()->string(), "uncompressed text, uncompressed text");
}

TEST_F(CallTest, GzipIsLeftAloneWhenTheCallerAskedForAnEncoding) {
  Buffer compressed = gzip("abc");
  int64_t size = compressed.size();
  server.enqueue(
      MockResponse::Builder().addHeader("Content-Encoding", "gzip").body(compressed).build());
  Response response =
      execute(Request::Builder().url(server.url("/")).header("Accept-Encoding", "gzip").build());
  EXPECT_EQ(response.header("Content-Encoding"), "gzip");
  EXPECT_EQ(response.body()->contentLength(), size);
  EXPECT_EQ(static_cast<int64_t>(response.body()->bytes().size()), size);
}

TEST_F(CallTest, RangeRequestsDoNotAskForGzip) {
  server.enqueue(body("bc"));
  execute(Request::Builder().url(server.url("/")).header("Range", "bytes=1-2").build())
      .body()
      ->string();
  EXPECT_FALSE(server.takeRequest().headers().get("Accept-Encoding"));
}

TEST_F(CallTest, CorruptGzipFailsWhenRead) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Content-Encoding", "gzip")
                     .body("not gzip at all")
                     .build());
  Response response = execute();
  EXPECT_THROW(response.body()->string(), IOException);
}

TEST_F(CallTest, GzipHeadResponseHasNoBodyToDecode) {
  server.enqueue(
      MockResponse::Builder().addHeader("Content-Encoding", "gzip").body(gzip("abc")).build());
  Response response = execute(Request::Builder().url(server.url("/")).head().build());
  EXPECT_EQ(response.header("Content-Encoding"), "gzip");
  EXPECT_EQ(response.body()->string(), "");
}

TEST_F(CallTest, BodyCanBeReadOnAnotherThread) {
  server.enqueue(MockResponse::Builder().chunkedBody("streamed across threads", 4).build());
  Response response = execute();
  std::string text;
  std::thread reader([&] { text = response.body()->string(); });
  reader.join();
  EXPECT_EQ(text, "streamed across threads");
}

TEST_F(CallTest, EmptyBodyReleasesTheConnectionAtOnce) {
  server.enqueue(MockResponse::Builder().build());  // Content-Length: 0.
  Response response = execute();
  EXPECT_EQ(client.connectionPool()->idleConnectionCount(), 1);
  EXPECT_EQ(response.body()->string(), "");
}

TEST_F(CallTest, ConnectionRefusedIsAConnectException) {
  ClosedPort closed;
  try {
    execute(
        Request::Builder().url("http://127.0.0.1:" + std::to_string(closed.port()) + "/").build());
    FAIL() << "expected ConnectException";
  } catch (const ConnectException& e) {
    EXPECT_EQ(std::string(e.what()).rfind(
                  "Failed to connect to 127.0.0.1:" + std::to_string(closed.port()), 0),
              0u)
        << e.what();
  }
}

TEST_F(CallTest, UnknownHostIsAnUnknownHostException) {
  auto dns = std::make_shared<FakeDns>();
  Client c = client.newBuilder().dns(dns).build();
  try {
    c.newCall(Request::Builder().url("http://unknown.test/").build())->execute();
    FAIL() << "expected UnknownHostException";
  } catch (const UnknownHostException& e) {
    EXPECT_NE(std::string(e.what()).find("unknown.test"), std::string::npos) << e.what();
  }
}

TEST_F(CallTest, DnsWithNoAddressesIsAnUnknownHostException) {
  Client c = client.newBuilder()
                 .dns(Dns::of([](const std::string&) { return std::vector<InetAddress>(); }))
                 .build();
  try {
    c.newCall(Request::Builder().url("http://empty.test/").build())->execute();
    FAIL() << "expected UnknownHostException";
  } catch (const UnknownHostException& e) {
    EXPECT_STREQ(e.what(), "Dns returned no addresses for empty.test");
  }
}

TEST_F(CallTest, HostNameIsResolvedThroughTheClientDns) {
  auto dns = std::make_shared<FakeDns>();
  dns->set("android.test", {InetAddress::loopbackIpv4()});
  server.enqueue(body("resolved"));
  Client c = client.newBuilder().dns(dns).build();
  HttpUrl url = server.url("/").newBuilder().host("android.test").build();
  EXPECT_EQ(c.newCall(Request::Builder().url(url).build())->execute().body()->string(), "resolved");
  EXPECT_EQ(dns->lookups(), std::vector<std::string>{"android.test"});
  EXPECT_EQ(server.takeRequest().headers().get("Host"),
            "android.test:" + std::to_string(server.port()));
}

TEST_F(CallTest, EveryDnsAddressIsTriedInOrder) {
  // Two unreachable loopback addresses first (nothing listens on the server's port there), then
  // the server's.
  auto dns = std::make_shared<FakeDns>();
  dns->set("multi.test", {*InetAddress::parse("127.0.0.2"), *InetAddress::parse("127.0.0.3"),
                          InetAddress::loopbackIpv4()});
  server.enqueue(body("third time"));
  Client c = client.newBuilder().dns(dns).build();
  HttpUrl url = server.url("/").newBuilder().host("multi.test").build();
  EXPECT_EQ(c.newCall(Request::Builder().url(url).build())->execute().body()->string(),
            "third time");
}

}  // namespace
}  // namespace tern::testing
