// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Application and network interceptors (OkHttp's InterceptorTest).
#include <gtest/gtest.h>

#include <atomic>

#include "call/call_fixture.h"
#include "tern/connection.h"

namespace tern::testing {
namespace {

using InterceptorTest = CallFixture;

Response madeUpResponse(const Request& request, std::string_view text = "intercepted!") {
  return Response::Builder()
      .request(request)
      .protocol(Protocol::HTTP_1_1)
      .code(200)
      .message("Intercepted!")
      .body(ResponseBody::create(std::string(text), MediaType::get("text/plain; charset=utf-8")))
      .build();
}

TEST_F(InterceptorTest, ApplicationInterceptorsCanShortCircuitResponses) {
  client =
      client.newBuilder()
          .addInterceptor([](Interceptor::Chain& chain) { return madeUpResponse(chain.request()); })
          .build();
  Response response = execute();
  EXPECT_EQ(response.message(), "Intercepted!");
  EXPECT_EQ(response.body()->string(), "intercepted!");
  EXPECT_EQ(server.requestCount(), 0);
}

TEST_F(InterceptorTest, NetworkInterceptorsCannotShortCircuitResponses) {
  server.enqueue(MockResponse::Builder().code(500).build());
  client = client.newBuilder()
               .addNetworkInterceptor(
                   [](Interceptor::Chain& chain) { return madeUpResponse(chain.request()); })
               .build();
  try {
    execute();
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("must call proceed() exactly once"), std::string::npos)
        << e.what();
  }
}

TEST_F(InterceptorTest, NetworkInterceptorsCannotCallProceedMultipleTimes) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  client = client.newBuilder()
               .addNetworkInterceptor([](Interceptor::Chain& chain) {
                 chain.proceed(chain.request()).body()->close();
                 return chain.proceed(chain.request());
               })
               .build();
  try {
    execute();
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("must call proceed() exactly once"), std::string::npos)
        << e.what();
  }
}

TEST_F(InterceptorTest, NetworkInterceptorsCannotChangeServerAddress) {
  server.enqueue(MockResponse::Builder().code(500).build());
  client = client.newBuilder()
               .addNetworkInterceptor([](Interceptor::Chain& chain) {
                 HttpUrl elsewhere = chain.request().url().newBuilder().host("localhost").build();
                 return chain.proceed(chain.request().newBuilder().url(elsewhere).build());
               })
               .build();
  try {
    execute();
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("must retain the same host and port"), std::string::npos)
        << e.what();
  }
}

TEST_F(InterceptorTest, NetworkInterceptorsHaveConnectionAccess) {
  server.enqueue(body("ok"));
  std::optional<int> remotePort;
  std::optional<Protocol> protocol;
  std::string localHost;
  client = client.newBuilder()
               .addNetworkInterceptor([&](Interceptor::Chain& chain) {
                 Connection* connection = chain.connection();
                 if (connection) {
                   remotePort = connection->remoteAddress().port();
                   protocol = connection->protocol();
                   localHost = connection->localAddress().address().hostAddress();
                   EXPECT_EQ(connection->route().address().url().host(), "127.0.0.1");
                 }
                 return chain.proceed(chain.request());
               })
               .build();
  fetch();
  EXPECT_EQ(remotePort, server.port());
  EXPECT_EQ(protocol, Protocol::HTTP_1_1);
  EXPECT_EQ(localHost, "127.0.0.1");
}

TEST_F(InterceptorTest, ApplicationInterceptorsHaveNoConnection) {
  server.enqueue(body("ok"));
  bool sawConnection = true;
  client = client.newBuilder()
               .addInterceptor([&](Interceptor::Chain& chain) {
                 sawConnection = chain.connection() != nullptr;
                 return chain.proceed(chain.request());
               })
               .build();
  fetch();
  EXPECT_FALSE(sawConnection);
}

TEST_F(InterceptorTest, ChainCallIsTheCallBeingRun) {
  server.enqueue(body("ok"));
  Call* seenByApplication = nullptr;
  Call* seenByNetwork = nullptr;
  client = client.newBuilder()
               .addInterceptor([&](Interceptor::Chain& chain) {
                 seenByApplication = &chain.call();
                 return chain.proceed(chain.request());
               })
               .addNetworkInterceptor([&](Interceptor::Chain& chain) {
                 seenByNetwork = &chain.call();
                 return chain.proceed(chain.request());
               })
               .build();
  std::shared_ptr<Call> call = client.newCall(get());
  call->execute().body()->string();
  EXPECT_EQ(seenByApplication, call.get());
  EXPECT_EQ(seenByNetwork, call.get());
}

TEST_F(InterceptorTest, NetworkInterceptorsSeeTheRequestAndResponseOnTheWire) {
  server.enqueue(MockResponse::Builder()
                     .addHeader("Content-Encoding", "gzip")
                     .body(gzip("abcabcabc"))
                     .build());
  std::optional<std::string> acceptEncoding;
  std::optional<std::string> host;
  std::optional<std::string> contentEncoding;
  client = client.newBuilder()
               .addNetworkInterceptor([&](Interceptor::Chain& chain) {
                 acceptEncoding = chain.request().header("Accept-Encoding");
                 host = chain.request().header("Host");
                 Response response = chain.proceed(chain.request());
                 contentEncoding = response.header("Content-Encoding");
                 return response;
               })
               .build();
  Response response = execute();
  EXPECT_EQ(response.body()->string(), "abcabcabc");
  EXPECT_EQ(acceptEncoding, "br, zstd, gzip");
  EXPECT_EQ(host, "127.0.0.1:" + std::to_string(server.port()));
  EXPECT_EQ(contentEncoding, "gzip");
  EXPECT_FALSE(response.header("Content-Encoding"));
}

TEST_F(InterceptorTest, ApplicationInterceptorsSeeTheCallersRequestAndTheDecodedResponse) {
  server.enqueue(
      MockResponse::Builder().addHeader("Content-Encoding", "gzip").body(gzip("abc")).build());
  std::optional<std::string> host = "unset";
  std::optional<std::string> contentEncoding = "unset";
  client = client.newBuilder()
               .addInterceptor([&](Interceptor::Chain& chain) {
                 host = chain.request().header("Host");
                 Response response = chain.proceed(chain.request());
                 contentEncoding = response.header("Content-Encoding");
                 return response;
               })
               .build();
  EXPECT_EQ(fetch(), "abc");
  EXPECT_EQ(host, std::nullopt);
  EXPECT_EQ(contentEncoding, std::nullopt);
}

TEST_F(InterceptorTest, ApplicationInterceptorsCanRewriteTheRequest) {
  server.enqueue(body("ok"));
  client = client.newBuilder()
               .addInterceptor([](Interceptor::Chain& chain) {
                 Request rewritten =
                     chain.request()
                         .newBuilder()
                         .url(chain.request().url().newBuilder().encodedPath("/rewritten").build())
                         .header("OkHttp-Intercepted", "yep")
                         .method("POST", RequestBody::create("abc"))
                         .build();
                 return chain.proceed(rewritten);
               })
               .build();
  fetch("/original");
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.requestLine(), "POST /rewritten HTTP/1.1");
  EXPECT_EQ(request.headers().get("OkHttp-Intercepted"), "yep");
  EXPECT_EQ(request.bodyUtf8(), "abc");
}

TEST_F(InterceptorTest, NetworkInterceptorsCanRewriteTheRequest) {
  server.enqueue(body("ok"));
  client = client.newBuilder()
               .addNetworkInterceptor([](Interceptor::Chain& chain) {
                 return chain.proceed(chain.request()
                                          .newBuilder()
                                          .header("User-Agent", "rewritten by network interceptor")
                                          .removeHeader("Accept-Encoding")
                                          .build());
               })
               .build();
  fetch();
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.headers().get("User-Agent"), "rewritten by network interceptor");
  EXPECT_FALSE(request.headers().get("Accept-Encoding"));
}

TEST_F(InterceptorTest, ApplicationInterceptorsCanRewriteTheResponse) {
  server.enqueue(MockResponse::Builder().addHeader("Original-Header", "foo").body("abc").build());
  client = client.newBuilder()
               .addInterceptor([](Interceptor::Chain& chain) {
                 Response original = chain.proceed(chain.request());
                 std::string text = original.body()->string();
                 return std::move(original)
                     .newBuilder()
                     .body(ResponseBody::create(text + "!"))
                     .header("OkHttp-Intercepted", "yep")
                     .build();
               })
               .build();
  Response response = execute();
  EXPECT_EQ(response.body()->string(), "abc!");
  EXPECT_EQ(response.header("OkHttp-Intercepted"), "yep");
  EXPECT_EQ(response.header("Original-Header"), "foo");
}

TEST_F(InterceptorTest, NetworkInterceptorsCanRewriteTheResponse) {
  server.enqueue(body("abc"));
  client =
      client.newBuilder()
          .addNetworkInterceptor([](Interceptor::Chain& chain) {
            Response original = chain.proceed(chain.request());
            return std::move(original).newBuilder().header("OkHttp-Intercepted", "network").build();
          })
          .build();
  Response response = execute();
  EXPECT_EQ(response.header("OkHttp-Intercepted"), "network");
  EXPECT_EQ(response.body()->string(), "abc");
}

TEST_F(InterceptorTest, ApplicationInterceptorsRunInOrder) {
  server.enqueue(body("ok"));
  std::vector<std::string> order;
  auto recording = [&](std::string name) {
    return [&order, name](Interceptor::Chain& chain) {
      order.push_back(name + " before");
      Response response = chain.proceed(
          chain.request().newBuilder().addHeader("Request-Interceptor", name).build());
      order.push_back(name + " after");
      return std::move(response).newBuilder().addHeader("Response-Interceptor", name).build();
    };
  };
  client =
      client.newBuilder().addInterceptor(recording("a")).addInterceptor(recording("b")).build();
  Response response = execute();
  EXPECT_EQ(order, (std::vector<std::string>{"a before", "b before", "b after", "a after"}));
  EXPECT_EQ(response.headers("Response-Interceptor"), (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(server.takeRequest().headers().values("Request-Interceptor"),
            (std::vector<std::string>{"a", "b"}));
}

TEST_F(InterceptorTest, NetworkInterceptorsRunInOrderAfterApplicationInterceptors) {
  server.enqueue(body("ok"));
  std::vector<std::string> order;
  auto recording = [&](std::string name) {
    return [&order, name](Interceptor::Chain& chain) {
      order.push_back(name);
      return chain.proceed(chain.request());
    };
  };
  client = client.newBuilder()
               .addNetworkInterceptor(recording("network 1"))
               .addInterceptor(recording("application"))
               .addNetworkInterceptor(recording("network 2"))
               .build();
  fetch();
  EXPECT_EQ(order, (std::vector<std::string>{"application", "network 1", "network 2"}));
}

TEST_F(InterceptorTest, NetworkInterceptorRunsForEachRedirectApplicationInterceptorOnce) {
  server.enqueue(MockResponse::Builder().code(302).addHeader("Location", "/b").build());
  server.enqueue(body("b"));
  std::atomic<int> applicationCalls{0};
  std::atomic<int> networkCalls{0};
  client = client.newBuilder()
               .addInterceptor([&](Interceptor::Chain& chain) {
                 ++applicationCalls;
                 return chain.proceed(chain.request());
               })
               .addNetworkInterceptor([&](Interceptor::Chain& chain) {
                 ++networkCalls;
                 return chain.proceed(chain.request());
               })
               .build();
  EXPECT_EQ(fetch("/a"), "b");
  EXPECT_EQ(applicationCalls.load(), 1);
  EXPECT_EQ(networkCalls.load(), 2);
}

TEST_F(InterceptorTest, ApplicationInterceptorsCanMakeMultipleRequestsToTheServer) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  client = client.newBuilder()
               .addInterceptor([](Interceptor::Chain& chain) {
                 Response first = chain.proceed(chain.request());
                 EXPECT_EQ(first.body()->string(), "a");
                 return chain.proceed(chain.request());
               })
               .build();
  EXPECT_EQ(fetch(), "b");
  EXPECT_EQ(server.takeRequest().sequenceNumber(), 0);
  EXPECT_EQ(server.takeRequest().sequenceNumber(), 1);
}

TEST_F(InterceptorTest, ProceedingAgainWithTheFirstResponseOpenIsMisuse) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  client = client.newBuilder()
               .addInterceptor([](Interceptor::Chain& chain) {
                 Response first = chain.proceed(chain.request());  // Left open.
                 return chain.proceed(chain.request());
               })
               .build();
  try {
    execute();
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("previous response is still open"), std::string::npos)
        << e.what();
  }
}

TEST_F(InterceptorTest, InterceptorIOExceptionFailsTheCall) {
  client = client.newBuilder()
               .addInterceptor(
                   [](Interceptor::Chain&) -> Response { throw IOException("interceptor failed"); })
               .build();
  try {
    execute();
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_STREQ(e.what(), "interceptor failed");
  }
}

TEST_F(InterceptorTest, InterceptorRuntimeErrorPropagatesFromExecute) {
  client =
      client.newBuilder()
          .addInterceptor([](Interceptor::Chain&) -> Response { throw std::runtime_error("bug"); })
          .build();
  EXPECT_THROW(execute(), std::runtime_error);
  EXPECT_EQ(client.dispatcher()->runningCallsCount(), 0);
}

TEST_F(InterceptorTest, NetworkInterceptorIOExceptionReleasesTheConnection) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  bool fail = true;
  client = client.newBuilder()
               .retryOnConnectionFailure(false)
               .addNetworkInterceptor([&](Interceptor::Chain& chain) -> Response {
                 if (fail) throw IOException("network interceptor failed");
                 return chain.proceed(chain.request());
               })
               .build();
  EXPECT_THROW(execute(), IOException);
  EXPECT_EQ(client.connectionPool()->idleConnectionCount(),
            client.connectionPool()->connectionCount());
  fail = false;
  EXPECT_EQ(fetch(), "a");
}

TEST_F(InterceptorTest, AsyncApplicationInterceptorsRun) {
  server.enqueue(body("abc"));
  client = client.newBuilder()
               .addInterceptor([](Interceptor::Chain& chain) {
                 return chain.proceed(chain.request())
                     .newBuilder()
                     .header("OkHttp-Intercepted", "yep")
                     .build();
               })
               .build();
  auto callback = std::make_shared<RecordingCallback>();
  client.newCall(get("/a"))->enqueue(callback);
  RecordedResponse recorded = callback->await(url("/a"));
  EXPECT_EQ(recorded.body, "abc");
  EXPECT_EQ(recorded.headers.get("OkHttp-Intercepted"), "yep");
}

TEST_F(InterceptorTest, AsyncInterceptorRuntimeErrorIsReportedAsCanceled) {
  client =
      client.newBuilder()
          .addInterceptor([](Interceptor::Chain&) -> Response { throw std::runtime_error("boom"); })
          .build();
  auto callback = std::make_shared<RecordingCallback>();
  std::shared_ptr<Call> call = client.newCall(get("/a"));
  call->enqueue(callback);
  RecordedResponse recorded = callback->await(url("/a"));
  EXPECT_EQ(recorded.failure, "canceled due to boom");
  EXPECT_TRUE(call->isCanceled());
}

TEST_F(InterceptorTest, ResponseWithoutABodyIsMisuse) {
  client = client.newBuilder()
               .addInterceptor([](Interceptor::Chain& chain) {
                 return Response::Builder()
                     .request(chain.request())
                     .protocol(Protocol::HTTP_1_1)
                     .code(200)
                     .message("OK")
                     .build();
               })
               .build();
  try {
    execute();
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "interceptor #0 returned a response with no body");
  }
}

TEST_F(InterceptorTest, InterceptorObjectsWork) {
  class AddHeader final : public Interceptor {
   public:
    Response intercept(Chain& chain) override {
      return chain.proceed(chain.request().newBuilder().header("X-Object", "yes").build());
    }
  };
  server.enqueue(body("ok"));
  client = client.newBuilder().addInterceptor(std::make_shared<AddHeader>()).build();
  fetch();
  EXPECT_EQ(server.takeRequest().headers().get("X-Object"), "yes");
}

}  // namespace
}  // namespace tern::testing
