// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Fast fallback (RFC 8305, OkHttp's FastFallbackTest): a host with several addresses, one of
// which never answers, is reached over the other without waiting for the first to time out; the
// loser is canceled and reported; with fast fallback off, addresses are tried one at a time.
// 127.0.0.2 (loopback on Linux) at the server's port is the address that never answers (a
// listener with a full accept queue), so everything stays on this machine.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "call/event_listener_fixture.h"
#include "connection/route_selector.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class FastFallbackTest : public EventListenerFixture {
 protected:
  void SetUp() override { server.start(); }

  InetAddress address(const char* literal) { return *InetAddress::parse(literal); }
  std::string at(const char* literal) {
    return InetSocketAddress(address(literal), server.port()).toString();
  }
  // A client resolving "fallback.test" to `addresses`.
  Client resolving(std::vector<InetAddress> addresses, bool fastFallback = true) {
    dns->set("fallback.test", std::move(addresses));
    return client.newBuilder().dns(dns).fastFallback(fastFallback).connectTimeout(10s).build();
  }
  Request request() { return Request::Builder().url(hostUrl("fallback.test")).build(); }

  // The connect events of the first call, as "name address[: exception type]".
  std::vector<std::string> connectEvents() {
    std::vector<std::string> out;
    for (const CallEvent& event : listener()->events()) {
      if (event.name != "connectStart" && event.name != "connectEnd" &&
          event.name != "connectFailed") {
        continue;
      }
      out.push_back(event.name + " " + event.socketAddress +
                    (event.exceptionType.empty() ? "" : ": " + event.exceptionType));
    }
    return out;
  }
};

TEST_F(FastFallbackTest, AnAddressThatNeverAnswersDoesNotHoldTheCallBack) {
  FullBacklog silent("127.0.0.2", server.port());
  server.enqueue(body("over the second address"));
  Client c = resolving({address("127.0.0.2"), address("127.0.0.1")});

  EXPECT_EQ(c.newCall(request())->execute().body()->string(), "over the second address");
  // The second attempt started while the first still waited, won, and the first was canceled
  // (not timed out: the 10 s connect timeout never came into it).
  EXPECT_THAT(connectEvents(),
              ElementsAre("connectStart " + at("127.0.0.2"), "connectStart " + at("127.0.0.1"),
                          "connectFailed " + at("127.0.0.2") + ": InterruptedIOException",
                          "connectEnd " + at("127.0.0.1")));
  std::optional<CallEvent> failed = listener()->find("connectFailed");
  ASSERT_TRUE(failed);
  EXPECT_THAT(failed->detail, HasSubstr("Canceled"));
}

TEST_F(FastFallbackTest, TheFirstAddressWinsWhenItAnswers) {
  server.enqueue(body("first"));
  Client c = resolving({address("127.0.0.1"), address("127.0.0.2")});
  EXPECT_EQ(c.newCall(request())->execute().body()->string(), "first");
  EXPECT_THAT(connectEvents(),
              ElementsAre("connectStart " + at("127.0.0.1"), "connectEnd " + at("127.0.0.1")));
}

TEST_F(FastFallbackTest, ARefusedAddressStartsTheNextAttemptAtOnce) {
  // Nothing listens at 127.0.0.2:port: refused, and the next address is tried right away.
  server.enqueue(body("second"));
  Client c = resolving({address("127.0.0.2"), address("127.0.0.1")});
  EXPECT_EQ(c.newCall(request())->execute().body()->string(), "second");
  EXPECT_THAT(connectEvents(),
              ElementsAre("connectStart " + at("127.0.0.2"),
                          "connectFailed " + at("127.0.0.2") + ": ConnectException",
                          "connectStart " + at("127.0.0.1"), "connectEnd " + at("127.0.0.1")));
}

TEST_F(FastFallbackTest, WhenEveryAddressFailsTheCallFailsWithTheFirstFailure) {
  const int port = server.port();
  server.shutdown();  // Nothing answers at either address now.
  dns->set("fallback.test", {address("127.0.0.3"), address("127.0.0.4")});
  Client c = client.newBuilder().dns(dns).connectTimeout(10s).build();
  HttpUrl url = HttpUrl::parse("http://fallback.test:" + std::to_string(port) + "/").value();
  try {
    c.newCall(Request::Builder().url(url).build())->execute();
    FAIL() << "expected a ConnectException";
  } catch (const ConnectException& e) {
    EXPECT_THAT(e.what(), HasSubstr("127.0.0.3:" + std::to_string(port))) << e.what();
  }
  EXPECT_EQ(listener()->count("connectStart"), 2);
  EXPECT_EQ(listener()->count("connectFailed"), 2);
}

TEST_F(FastFallbackTest, CancelStopsEveryAttemptInTheRace) {
  FullBacklog silent2("127.0.0.2", server.port());
  FullBacklog silent3("127.0.0.3", server.port());
  Client c = resolving({address("127.0.0.2"), address("127.0.0.3")});
  std::shared_ptr<Call> call = c.newCall(request());
  std::thread canceler([&] {
    // Once both attempts are under way.
    eventually(
        [&] { return events->listeners().size() == 1 && listener()->count("connectStart") == 2; },
        5s);
    call->cancel();
  });
  EXPECT_THROW(call->execute(), InterruptedIOException);
  canceler.join();
  EXPECT_EQ(listener()->count("connectStart"), 2);
  EXPECT_EQ(listener()->count("connectFailed"), 2);
}

TEST_F(FastFallbackTest, WithoutFastFallbackAddressesAreTriedOneAtATime) {
  FullBacklog silent("127.0.0.2", server.port());
  server.enqueue(body("after the timeout"));
  dns->set("fallback.test", {address("127.0.0.2"), address("127.0.0.1")});
  Client c = client.newBuilder().dns(dns).fastFallback(false).connectTimeout(300ms).build();
  EXPECT_EQ(c.newCall(request())->execute().body()->string(), "after the timeout");
  // The first address had its whole connect timeout before the second was tried.
  EXPECT_THAT(connectEvents(),
              ElementsAre("connectStart " + at("127.0.0.2"),
                          "connectFailed " + at("127.0.0.2") + ": SocketTimeoutException",
                          "connectStart " + at("127.0.0.1"), "connectEnd " + at("127.0.0.1")));
}

// A Dns answering in two parts, as the system resolver does for the two address families: the
// first at once, the second when the test releases it (or at the end of the test).
class TwoPartDns final : public Dns {
 public:
  TwoPartDns(std::vector<InetAddress> first, std::vector<InetAddress> second)
      : first_(std::move(first)), second_(std::move(second)) {}
  ~TwoPartDns() override { release(); }

  std::vector<InetAddress> lookup(const std::string&) override {
    std::vector<InetAddress> all = first_;
    all.insert(all.end(), second_.begin(), second_.end());
    return all;
  }

  void lookupAsync(const std::string&, std::shared_ptr<Callback> callback) override {
    callback->onAddresses(first_);
    std::lock_guard lock(mutex_);
    callbacks_.push_back(std::move(callback));
  }

  // Gives the second part to every lookup so far, and ends them.
  void release() {
    std::vector<std::shared_ptr<Callback>> callbacks;
    {
      std::lock_guard lock(mutex_);
      callbacks.swap(callbacks_);
    }
    for (const auto& callback : callbacks) {
      if (!second_.empty()) callback->onAddresses(second_);
      callback->onComplete(nullptr);
    }
  }

 private:
  const std::vector<InetAddress> first_;
  const std::vector<InetAddress> second_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<Callback>> callbacks_;
};

class AsyncDnsFastFallbackTest : public FastFallbackTest {
 protected:
  Client resolvingInParts(std::shared_ptr<TwoPartDns> twoPartDns) {
    return client.newBuilder().dns(std::move(twoPartDns)).connectTimeout(10s).build();
  }
};

TEST_F(AsyncDnsFastFallbackTest, TheFirstAnswerConnectsWithoutWaitingForTheSecond) {
  server.enqueue(body("before the other family"));
  // The second part never comes while the call runs.
  auto twoPartDns = std::make_shared<TwoPartDns>(std::vector{address("127.0.0.1")},
                                                 std::vector{address("127.0.0.2")});
  Client c = resolvingInParts(twoPartDns);
  EXPECT_EQ(c.newCall(request())->execute().body()->string(), "before the other family");
  EXPECT_THAT(connectEvents(),
              ElementsAre("connectStart " + at("127.0.0.1"), "connectEnd " + at("127.0.0.1")));
  // One lookup, ended (with what had come) before the connection was reported made.
  EXPECT_EQ(listener()->count("dnsStart"), 1);
  EXPECT_EQ(listener()->find("dnsEnd")->detail, "fallback.test [127.0.0.1]");
  std::vector<std::string> names = listener()->eventNames();
  auto position = [&](const std::string& name) {
    return std::find(names.begin(), names.end(), name) - names.begin();
  };
  EXPECT_LT(position("dnsStart"), position("connectStart"));
  EXPECT_LT(position("connectStart"), position("dnsEnd"));
  EXPECT_LT(position("dnsEnd"), position("connectEnd"));
}

TEST_F(AsyncDnsFastFallbackTest, ALateAnswerJoinsTheRace) {
  // The first answer's address never answers; the second answer's does, and is tried as soon as
  // it comes, not after the first address's 10 s connect timeout.
  FullBacklog silent("127.0.0.2", server.port());
  server.enqueue(body("over the late address"));
  auto twoPartDns = std::make_shared<TwoPartDns>(std::vector{address("127.0.0.2")},
                                                 std::vector{address("127.0.0.1")});
  Client c = resolvingInParts(twoPartDns);
  std::thread releaser([&] {
    eventually(
        [&] { return events->listeners().size() == 1 && listener()->count("connectStart") == 1; },
        5s);
    twoPartDns->release();
  });
  EXPECT_EQ(c.newCall(request())->execute().body()->string(), "over the late address");
  releaser.join();
  EXPECT_THAT(connectEvents(),
              ElementsAre("connectStart " + at("127.0.0.2"), "connectStart " + at("127.0.0.1"),
                          "connectFailed " + at("127.0.0.2") + ": InterruptedIOException",
                          "connectEnd " + at("127.0.0.1")));
  EXPECT_EQ(listener()->find("dnsEnd")->detail, "fallback.test [127.0.0.2, 127.0.0.1]");
}

TEST_F(AsyncDnsFastFallbackTest, WhenTheFirstAnswerFailsTheCallWaitsForTheSecond) {
  // Nothing listens at 127.0.0.3: refused at once, and the call waits for the other family.
  server.enqueue(body("over the second answer"));
  auto twoPartDns = std::make_shared<TwoPartDns>(std::vector{address("127.0.0.3")},
                                                 std::vector{address("127.0.0.1")});
  Client c = resolvingInParts(twoPartDns);
  std::thread releaser([&] {
    eventually(
        [&] { return events->listeners().size() == 1 && listener()->count("connectFailed") == 1; },
        5s);
    twoPartDns->release();
  });
  EXPECT_EQ(c.newCall(request())->execute().body()->string(), "over the second answer");
  releaser.join();
  EXPECT_THAT(connectEvents(),
              ElementsAre("connectStart " + at("127.0.0.3"),
                          "connectFailed " + at("127.0.0.3") + ": ConnectException",
                          "connectStart " + at("127.0.0.1"), "connectEnd " + at("127.0.0.1")));
}

TEST_F(AsyncDnsFastFallbackTest, ACallCanceledWhileWaitingForTheSecondAnswerEnds) {
  auto twoPartDns = std::make_shared<TwoPartDns>(std::vector{address("127.0.0.3")},
                                                 std::vector{address("127.0.0.1")});
  Client c = resolvingInParts(twoPartDns);
  std::shared_ptr<Call> call = c.newCall(request());
  std::thread canceler([&] {
    eventually(
        [&] { return events->listeners().size() == 1 && listener()->count("connectFailed") == 1; },
        5s);
    call->cancel();
  });
  EXPECT_THROW(call->execute(), InterruptedIOException);
  canceler.join();
  EXPECT_EQ(listener()->count("dnsEnd"), 1);  // The lookup was ended for the call.
}

TEST(InterleaveFamiliesTest, AlternatesFromTheFirstFamilyKeepingEachFamilysOrder) {
  auto parse = [](std::initializer_list<const char*> literals) {
    std::vector<InetAddress> out;
    for (const char* literal : literals) out.push_back(*InetAddress::parse(literal));
    return out;
  };
  EXPECT_EQ(internal::interleaveFamilies(parse({"::1", "::2", "127.0.0.1"})),
            parse({"::1", "127.0.0.1", "::2"}));
  EXPECT_EQ(internal::interleaveFamilies(parse({"127.0.0.1", "127.0.0.2", "::1", "::2"})),
            parse({"127.0.0.1", "::1", "127.0.0.2", "::2"}));
  EXPECT_EQ(internal::interleaveFamilies(parse({"127.0.0.1", "127.0.0.2"})),
            parse({"127.0.0.1", "127.0.0.2"}));
  EXPECT_EQ(internal::interleaveFamilies({}), std::vector<InetAddress>{});
}

}  // namespace
}  // namespace tern::testing
