// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/dns.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tern/exceptions.h"

namespace tern {
namespace {

using namespace std::chrono_literals;

TEST(DnsTest, SystemResolvesLocalhostToLoopbackWithTheHostName) {
  std::vector<InetAddress> addresses = Dns::system()->lookup("localhost");
  ASSERT_FALSE(addresses.empty());
  for (const InetAddress& address : addresses) {
    EXPECT_TRUE(address.isLoopbackAddress()) << address.toString();
    EXPECT_EQ("localhost", address.hostName());
  }
  // No address twice, though getaddrinfo may list one per protocol.
  for (size_t i = 0; i < addresses.size(); ++i) {
    for (size_t j = i + 1; j < addresses.size(); ++j) {
      EXPECT_NE(addresses[i], addresses[j]);
    }
  }
}

TEST(DnsTest, SystemReturnsIpLiteralsWithoutALookup) {
  EXPECT_EQ(std::vector<InetAddress>{InetAddress::loopbackIpv4()},
            Dns::system()->lookup("127.0.0.1"));
  EXPECT_EQ(std::vector<InetAddress>{InetAddress::loopbackIpv6()}, Dns::system()->lookup("::1"));
  std::vector<InetAddress> bracketed = Dns::system()->lookup("[::1]");
  ASSERT_EQ(1u, bracketed.size());
  EXPECT_EQ(InetAddress::loopbackIpv6(), bracketed[0]);
  EXPECT_EQ("", bracketed[0].hostName());  // A literal was not looked up for any name.
}

TEST(DnsTest, SystemThrowsUnknownHostNamingTheHost) {
  // RFC 6761 reserves .invalid; a 64-octet label is also longer than DNS allows (RFC 1035
  // §2.3.4), so glibc refuses it before building a query: this never touches the network.
  const std::string host = std::string(64, 'a') + ".invalid";
  try {
    Dns::system()->lookup(host);
    FAIL() << "expected UnknownHostException";
  } catch (const UnknownHostException& e) {
    const std::string message = e.what();
    EXPECT_EQ(0u, message.find("Unable to resolve host \"" + host + "\": ")) << message;
    EXPECT_GT(message.size(), host.size() + 26) << "no reason given: " << message;
  }
}

TEST(DnsTest, SystemRejectsEmptyAndNulNamesWithoutALookup) {
  EXPECT_THROW(Dns::system()->lookup(""), UnknownHostException);
  EXPECT_THROW(Dns::system()->lookup(std::string("localhost\0.evil", 15)), UnknownHostException);
}

TEST(DnsTest, SystemLookupAsyncAnswersEachFamilyAndCompletesOnce) {
  struct Recorder final : Dns::Callback {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<InetAddress> addresses;
    int completions = 0;
    std::exception_ptr failure;
    void onAddresses(std::vector<InetAddress> more) override {
      std::lock_guard lock(mutex);
      EXPECT_FALSE(more.empty());
      EXPECT_EQ(completions, 0) << "addresses after the end";
      addresses.insert(addresses.end(), more.begin(), more.end());
    }
    void onComplete(std::exception_ptr e) override {
      std::lock_guard lock(mutex);
      ++completions;
      failure = e;
      changed.notify_all();
    }
  };
  auto recorder = std::make_shared<Recorder>();
  Dns::system()->lookupAsync("localhost", recorder);
  std::unique_lock lock(recorder->mutex);
  ASSERT_TRUE(recorder->changed.wait_for(lock, 10s, [&] { return recorder->completions > 0; }));
  EXPECT_FALSE(recorder->failure);
  EXPECT_THAT(recorder->addresses, ::testing::Contains(*InetAddress::parse("127.0.0.1")));
  lock.unlock();
  std::this_thread::sleep_for(100ms);  // Nothing more comes.
  std::lock_guard after(recorder->mutex);
  EXPECT_EQ(recorder->completions, 1);
}

TEST(DnsTest, SystemLookupAsyncOfAnUnknownHostFailsOnce) {
  struct Recorder final : Dns::Callback {
    std::promise<std::exception_ptr> done;
    int addressCalls = 0;
    void onAddresses(std::vector<InetAddress>) override { ++addressCalls; }
    void onComplete(std::exception_ptr e) override { done.set_value(e); }
  };
  // Refused by glibc before any query (see SystemThrowsUnknownHostNamingTheHost).
  const std::string host = std::string(64, 'a') + ".invalid";
  auto recorder = std::make_shared<Recorder>();
  std::future<std::exception_ptr> done = recorder->done.get_future();
  Dns::system()->lookupAsync(host, recorder);
  ASSERT_EQ(done.wait_for(30s), std::future_status::ready);
  std::exception_ptr failure = done.get();
  ASSERT_TRUE(failure);
  try {
    std::rethrow_exception(failure);
  } catch (const UnknownHostException& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr(host));
  }
  EXPECT_EQ(recorder->addressCalls, 0);
}

TEST(DnsTest, SystemIsShared) { EXPECT_EQ(Dns::system().get(), Dns::system().get()); }

TEST(DnsTest, OfAdaptsALambda) {
  std::vector<std::string> asked;
  std::shared_ptr<Dns> dns = Dns::of([&](const std::string& host) {
    asked.push_back(host);
    if (host == "unknown.test") {
      throw UnknownHostException("Unable to resolve host \"" + host + "\"");
    }
    return std::vector<InetAddress>{InetAddress::loopbackIpv6().withHostName(host),
                                    InetAddress::loopbackIpv4().withHostName(host)};
  });
  std::vector<InetAddress> result = dns->lookup("api.test");
  ASSERT_EQ(2u, result.size());
  EXPECT_EQ("[::1]:0", InetSocketAddress(result[0], 0).toString());  // Order kept.
  EXPECT_EQ("api.test", result[1].hostName());
  EXPECT_THROW(dns->lookup("unknown.test"), UnknownHostException);
  EXPECT_EQ((std::vector<std::string>{"api.test", "unknown.test"}), asked);
  EXPECT_THROW(Dns::of(nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace tern
