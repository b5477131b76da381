// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// RetryPolicy: 429 and 503 sent again after Retry-After or backoff, through a Client.
#include "tern/retry_policy.h"

#include <gtest/gtest.h>

#include <thread>

#include "call/call_fixture.h"
#include "tern/http_date.h"
#include "tern/request_body.h"

namespace tern::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using std::chrono::steady_clock;
using std::chrono::system_clock;

Response responseFor(int code, Headers headers = {},
                     Request request = Request::Builder().url("https://a.test/").build()) {
  return Response::Builder()
      .request(std::move(request))
      .protocol(Protocol::HTTP_1_1)
      .code(code)
      .message("x")
      .headers(std::move(headers))
      .build();
}

// A body that can be read once, as a stream's.
std::shared_ptr<RequestBody> oneShotBody(std::string text) {
  auto source = std::make_unique<Buffer>();
  source->writeUtf8(text);
  return RequestBody::fromSource(std::move(source), MediaType::get("text/plain"),
                                 static_cast<int64_t>(text.size()));
}

RetryPolicy fixed(int retries, milliseconds initial) {
  return RetryPolicy::Builder().maxRetries(retries).initialDelay(initial).jitter(0).build();
}

TEST(RetryPolicyValueTest, OffByDefault) {
  RetryPolicy policy;
  EXPECT_FALSE(policy.enabled());
  EXPECT_FALSE(policy.delay(responseFor(503), 1));
  EXPECT_FALSE(Client::Builder().build().retryPolicy().enabled());
}

TEST(RetryPolicyValueTest, BuilderDefaults) {
  RetryPolicy policy = RetryPolicy::Builder().build();
  EXPECT_EQ(policy.maxRetries(), 3);
  EXPECT_EQ(policy.initialDelay(), seconds(1));
  EXPECT_EQ(policy.maxDelay(), seconds(30));
  EXPECT_EQ(policy.maxRetryAfter(), seconds(120));
  EXPECT_EQ(policy.jitter(), 0.5);
  EXPECT_EQ(policy.statusCodes(), (std::set<int>{429, 503}));
}

TEST(RetryPolicyValueTest, BadSettingsAreRefusedByName) {
  EXPECT_THROW(RetryPolicy::Builder().maxRetries(-1), std::invalid_argument);
  EXPECT_THROW(RetryPolicy::Builder().initialDelay(milliseconds(-1)), std::invalid_argument);
  EXPECT_THROW(RetryPolicy::Builder().jitter(1.5), std::invalid_argument);
  EXPECT_THROW(RetryPolicy::Builder().statusCodes({200}), std::invalid_argument);
  try {
    RetryPolicy::Builder().statusCodes({503, 401});
    FAIL() << "401 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("Authenticator"), std::string::npos) << e.what();
  }
}

TEST(RetryPolicyValueTest, RetryAfterSecondsAndDates) {
  system_clock::time_point date = *parseHttpDate("Wed, 02 Dec 2026 10:00:00 GMT");
  EXPECT_EQ(RetryPolicy::parseRetryAfter("120", date), seconds(120));
  EXPECT_EQ(RetryPolicy::parseRetryAfter(" 0 ", date), seconds(0));
  EXPECT_EQ(RetryPolicy::parseRetryAfter("Wed, 02 Dec 2026 10:00:30 GMT", date), seconds(30));
  EXPECT_EQ(RetryPolicy::parseRetryAfter("Wed, 02 Dec 2026 09:00:00 GMT", date), seconds(0));
  EXPECT_FALSE(RetryPolicy::parseRetryAfter("-5", date));
  EXPECT_FALSE(RetryPolicy::parseRetryAfter("soon", date));
  EXPECT_FALSE(RetryPolicy::parseRetryAfter("", date));
  EXPECT_GE(*RetryPolicy::parseRetryAfter("99999999999999999999999", date), seconds(1 << 30));
}

TEST(RetryPolicyValueTest, RetryAfterDateCountsFromTheResponsesDate) {
  RetryPolicy policy = RetryPolicy::Builder().build();
  Response response = responseFor(503, Headers::of("Date", "Wed, 02 Dec 2026 10:00:00 GMT",
                                                   "Retry-After", "Wed, 02 Dec 2026 10:00:07 GMT"));
  // The local clock (a year off) does not matter when the server sent its Date.
  EXPECT_EQ(policy.delay(response, 1, system_clock::now() + std::chrono::hours(24 * 365)),
            seconds(7));
}

TEST(RetryPolicyValueTest, BackoffDoublesUpToTheCapWithJitterBelowIt) {
  RetryPolicy exact = RetryPolicy::Builder()
                          .maxRetries(10)
                          .initialDelay(milliseconds(100))
                          .maxDelay(milliseconds(1000))
                          .jitter(0)
                          .build();
  Response busy = responseFor(429);
  EXPECT_EQ(exact.delay(busy, 1), milliseconds(100));
  EXPECT_EQ(exact.delay(busy, 2), milliseconds(200));
  EXPECT_EQ(exact.delay(busy, 4), milliseconds(800));
  EXPECT_EQ(exact.delay(busy, 5), milliseconds(1000));
  EXPECT_EQ(exact.delay(busy, 10), milliseconds(1000));
  EXPECT_FALSE(exact.delay(busy, 11));  // Out of retries.

  double random = 0.999;
  RetryPolicy jittered = RetryPolicy::Builder()
                             .initialDelay(milliseconds(1000))
                             .jitter(0.5)
                             .random([&random] { return random; })
                             .build();
  EXPECT_EQ(jittered.delay(busy, 1), milliseconds(501));
  random = 0;
  EXPECT_EQ(jittered.delay(busy, 1), milliseconds(1000));
  // The default generator stays within [half, all].
  RetryPolicy real = RetryPolicy::Builder().initialDelay(milliseconds(1000)).build();
  for (int i = 0; i < 100; ++i) {
    milliseconds d = *real.delay(busy, 1);
    EXPECT_GE(d, milliseconds(500));
    EXPECT_LE(d, milliseconds(1000));
  }
}

TEST(RetryPolicyValueTest, OnlyItsCodesAndNeverAOneShotBody) {
  RetryPolicy policy = fixed(3, milliseconds(10));
  EXPECT_FALSE(policy.delay(responseFor(500), 1));
  EXPECT_FALSE(policy.delay(responseFor(404), 1));
  EXPECT_TRUE(policy.delay(responseFor(503), 1));
  Request oneShot = Request::Builder().url("https://a.test/").post(oneShotBody("x")).build();
  EXPECT_FALSE(policy.delay(responseFor(503, {}, oneShot), 1));
  Request post = Request::Builder().url("https://a.test/").post(RequestBody::create("x")).build();
  EXPECT_TRUE(policy.delay(responseFor(503, {}, post), 1));
  // A Retry-After beyond the cap ends the retries; one we cannot read is backoff.
  EXPECT_FALSE(policy.delay(responseFor(503, Headers::of("Retry-After", "121")), 1));
  EXPECT_EQ(policy.delay(responseFor(503, Headers::of("Retry-After", "later")), 1),
            milliseconds(10));
}

class RetryPolicyCallTest : public CallFixture {
 protected:
  void use(RetryPolicy policy) { client = client.newBuilder().retryPolicy(policy).build(); }
  static MockResponse status(int code, std::string retryAfter = "") {
    MockResponse::Builder builder;
    builder.code(code).body("busy " + std::to_string(code));
    if (!retryAfter.empty()) builder.addHeader("Retry-After", retryAfter);
    return builder.build();
  }
};

TEST_F(RetryPolicyCallTest, RetryAfterSecondsIsWaitedThenTheRequestGoesAgain) {
  use(RetryPolicy::Builder().build());
  server.enqueue(status(503, "1"));
  server.enqueue(body("ready"));
  steady_clock::time_point start = steady_clock::now();
  Response response = execute();
  EXPECT_EQ(response.code(), 200);
  EXPECT_EQ(response.body()->string(), "ready");
  EXPECT_GE(steady_clock::now() - start, milliseconds(950));  // The server said one second.
  EXPECT_EQ(server.requestCount(), 2);
  ASSERT_NE(response.priorResponse(), nullptr);
  EXPECT_EQ(response.priorResponse()->code(), 503);
}

TEST_F(RetryPolicyCallTest, BackoffWithoutRetryAfterUntilSuccess) {
  use(fixed(3, milliseconds(20)));
  server.enqueue(status(429));
  server.enqueue(status(429));
  server.enqueue(status(503));
  server.enqueue(body("finally"));
  EXPECT_EQ(fetch(), "finally");
  EXPECT_EQ(server.requestCount(), 4);
  // The retries reported through retryDecision, with the code and the wait, then followUp.
  std::vector<CallEvent> all = events->listener(0)->events();
  std::vector<std::string> decisions;
  for (const CallEvent& e : all) {
    if (e.name == "retryDecision") decisions.push_back(e.detail);
  }
  ASSERT_EQ(decisions.size(), 3u);
  EXPECT_NE(decisions[0].find("retry "), std::string::npos) << decisions[0];
  EXPECT_NE(decisions[0].find("HTTP 429"), std::string::npos) << decisions[0];
  EXPECT_NE(decisions[0].find("retrying in 20 ms (retry 1 of 3)"), std::string::npos)
      << decisions[0];
  EXPECT_NE(decisions[2].find("HTTP 503"), std::string::npos) << decisions[2];
  EXPECT_NE(decisions[2].find("retrying in 80 ms (retry 3 of 3)"), std::string::npos)
      << decisions[2];
}

TEST_F(RetryPolicyCallTest, OutOfRetriesTheLastResponseIsReturnedWithItsBody) {
  use(fixed(2, milliseconds(10)));
  for (int i = 0; i < 3; ++i) server.enqueue(status(503));
  server.enqueue(body("never asked for"));
  Response response = execute();
  EXPECT_EQ(response.code(), 503);
  EXPECT_EQ(response.body()->string(), "busy 503");
  EXPECT_EQ(server.requestCount(), 3);
  std::optional<CallEvent> last;
  for (const CallEvent& e : events->listener(0)->events()) {
    if (e.name == "retryDecision") last = e;
  }
  ASSERT_TRUE(last);
  EXPECT_FALSE(last->retry);
  EXPECT_NE(last->detail.find("2 retries made"), std::string::npos) << last->detail;
}

TEST_F(RetryPolicyCallTest, RetryAfterLongerThanTheCapIsNotWaitedFor) {
  use(RetryPolicy::Builder().maxRetryAfter(seconds(5)).build());
  server.enqueue(status(429, "3600"));
  steady_clock::time_point start = steady_clock::now();
  Response response = execute();
  EXPECT_EQ(response.code(), 429);
  EXPECT_LT(steady_clock::now() - start, seconds(3));
  EXPECT_EQ(server.requestCount(), 1);
  std::optional<CallEvent> decision = events->listener(0)->find("retryDecision");
  ASSERT_TRUE(decision);
  EXPECT_FALSE(decision->retry);
  EXPECT_NE(decision->detail.find("Retry-After 3600"), std::string::npos) << decision->detail;
}

TEST_F(RetryPolicyCallTest, APostIsSentAgainWithItsBody) {
  use(fixed(1, milliseconds(10)));
  server.enqueue(status(503));
  server.enqueue(body("stored"));
  Request post = Request::Builder()
                     .url(server.url("/orders"))
                     .post(RequestBody::create("{\"n\":1}", MediaType::get("application/json")))
                     .build();
  EXPECT_EQ(execute(post).body()->string(), "stored");
  RecordedRequest first = server.takeRequest();
  RecordedRequest second = server.takeRequest();
  EXPECT_EQ(first.method(), "POST");
  EXPECT_EQ(second.method(), "POST");
  EXPECT_EQ(second.body().readUtf8(), "{\"n\":1}");
}

TEST_F(RetryPolicyCallTest, AOneShotBodyIsNeverSentTwice) {
  use(fixed(3, milliseconds(10)));
  server.enqueue(status(503));
  server.enqueue(body("never asked for"));
  Request post = Request::Builder().url(server.url("/")).post(oneShotBody("once")).build();
  Response response = execute(post);
  EXPECT_EQ(response.code(), 503);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(RetryPolicyCallTest, CancelEndsTheWaitAtOnce) {
  use(RetryPolicy::Builder().build());
  server.enqueue(status(503, "60"));
  std::shared_ptr<Call> call = client.newCall(get());
  std::thread canceler([&] {
    while (server.requestCount() < 1) std::this_thread::sleep_for(milliseconds(5));
    std::this_thread::sleep_for(milliseconds(100));
    call->cancel();
  });
  steady_clock::time_point start = steady_clock::now();
  EXPECT_THROW(call->execute(), InterruptedIOException);
  canceler.join();
  EXPECT_LT(steady_clock::now() - start, seconds(10));
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(RetryPolicyCallTest, AWaitPastTheCallTimeoutReturnsTheResponse) {
  client = client.newBuilder().callTimeout(seconds(2)).build();
  use(RetryPolicy::Builder().build());
  server.enqueue(status(503, "30"));
  Response response = execute();
  EXPECT_EQ(response.code(), 503);
  EXPECT_EQ(response.body()->string(), "busy 503");
  std::optional<CallEvent> decision = events->listener(0)->find("retryDecision");
  ASSERT_TRUE(decision);
  EXPECT_NE(decision->detail.find("call timeout"), std::string::npos) << decision->detail;
}

TEST_F(RetryPolicyCallTest, WithoutThePolicyA503WithADelayIsFinal) {
  server.enqueue(status(503, "1"));
  server.enqueue(body("not asked for"));
  EXPECT_EQ(execute().code(), 503);
  EXPECT_EQ(server.requestCount(), 1);
  EXPECT_FALSE(events->listener(0)->find("retryDecision"));
}

TEST_F(RetryPolicyCallTest, OtherCodesAreLeftAlone) {
  use(fixed(3, milliseconds(10)));
  server.enqueue(status(500));
  EXPECT_EQ(execute().code(), 500);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(RetryPolicyCallTest, ManyRetriesAreNotFollowUps) {
  use(RetryPolicy::Builder()
          .maxRetries(25)
          .initialDelay(milliseconds(1))
          .maxDelay(milliseconds(1))
          .build());
  for (int i = 0; i < 25; ++i) server.enqueue(status(429));
  server.enqueue(body("after 25"));
  EXPECT_EQ(fetch(), "after 25");  // More than kMaxFollowUps (20) retries, no ProtocolException.
}

TEST_F(RetryPolicyCallTest, AnEnqueuedCallRetriesToo) {
  use(fixed(1, milliseconds(10)));
  server.enqueue(status(503));
  server.enqueue(body("async"));
  auto callback = std::make_shared<RecordingCallback>();
  client.newCall(get())->enqueue(callback);
  RecordedResponse result = callback->await(url());
  ASSERT_FALSE(result.failure) << *result.failure;
  EXPECT_EQ(result.code, 200);
  EXPECT_EQ(result.body, "async");
  EXPECT_EQ(server.requestCount(), 2);
}

}  // namespace
}  // namespace tern::testing
