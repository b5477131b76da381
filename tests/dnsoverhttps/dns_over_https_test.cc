// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/dns_over_https.h"
#include "tern/dispatcher.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>

#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "io/base64.h"
#include "support/dns_message.h"
#include "support/tls_certificates.h"
#include "tern/client.h"
#include "tern/exceptions.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;
using ::testing::HasSubstr;

std::vector<std::string> texts(const std::vector<InetAddress>& addresses) {
  std::vector<std::string> result;
  for (const InetAddress& address : addresses) result.push_back(address.hostAddress());
  return result;
}

// The DNS query a DoH request carries: GET's dns parameter or POST's body.
DnsBytes queryOf(const RecordedRequest& request) {
  if (request.method() == "POST") {
    const std::string& body = request.bodyUtf8();
    return DnsBytes(body.begin(), body.end());
  }
  std::optional<std::string> dns = request.url().queryParameter("dns");
  auto decoded = internal::decodeBase64(dns.value_or(""));
  return decoded ? *decoded : DnsBytes();
}

MockResponse dnsMessage(const DnsBytes& message) {
  return MockResponse::Builder()
      .setHeader("Content-Type", "application/dns-message")
      .body(std::span(reinterpret_cast<const std::byte*>(message.data()), message.size()))
      .build();
}

class DnsOverHttpsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_.useHttps(certificates_.server());
    server_.protocols({Protocol::HTTP_2, Protocol::HTTP_1_1});
    // A: 127.0.0.1 (TTL 300) and 10.0.0.1 (TTL 60); AAAA: ::1 (TTL 30); NXDOMAIN elsewhere.
    server_.setDispatcher([](const RecordedRequest& request) {
      auto question = dnsQuestion(queryOf(request));
      if (!question) return MockResponse::Builder().code(400).build();
      auto [name, type] = *question;
      if (name != "app.test") return dnsMessage(dnsResponse(name, type, {}, 3));
      std::vector<uint8_t> loopback6(16, 0);
      loopback6[15] = 1;
      return dnsMessage(type == 1
                            ? dnsResponse(name, type,
                                          {aRecord(dnsPointer(12), {127, 0, 0, 1}, 300),
                                           aRecord(dnsPointer(12), {10, 0, 0, 1}, 60)})
                            : dnsResponse(name, type, {aaaaRecord(dnsPointer(12), loopback6, 30)}));
    });
    server_.start();
  }

  DnsOverHttps::Builder doh() {
    return DnsOverHttps::Builder()
        .client(Client::Builder()
                    .handshakeCertificates(certificates_.clientTrust())
                    .readTimeout(5s)
                    .build())
        .url(server_.url("/dns-query"));
  }

  // What `lookup` throws, or "nothing thrown".
  static std::string failureOf(Dns& dns, const std::string& host) {
    try {
      dns.lookup(host);
    } catch (const UnknownHostException& e) {
      return e.what();
    }
    return "nothing thrown";
  }

  TestCertificates certificates_;
  MockWebServer server_;
};

TEST_F(DnsOverHttpsTest, GetResolvesBothFamiliesOverHttp2) {
  auto dns = doh().build();
  DnsAnswer answer = dns->lookupWithTtl("app.test");
  EXPECT_EQ(texts(answer.addresses), (std::vector<std::string>{"::1", "127.0.0.1", "10.0.0.1"}));
  EXPECT_EQ(answer.addresses[0].hostName(), "app.test");
  EXPECT_EQ(answer.ttl, 30s);  // The smallest record TTL of both answers.

  std::map<std::string, RecordedRequest> byType;
  for (int i = 0; i < 2; ++i) {
    RecordedRequest request = server_.takeRequest();
    EXPECT_EQ(request.method(), "GET");
    EXPECT_EQ(request.version(), "HTTP/2");
    EXPECT_EQ(request.headers().get("Accept"), "application/dns-message");
    EXPECT_THAT(request.path(), ::testing::StartsWith("/dns-query?dns="));
    byType.emplace(std::to_string(dnsQuestion(queryOf(request))->second), request);
  }
  ASSERT_EQ(byType.size(), 2u);
  // RFC 8484 §4.1: base64url without padding (the A query is 26 bytes: 35 characters).
  std::string parameter = *byType.at("1").url().queryParameter("dns");
  EXPECT_EQ(parameter, "AAABAAABAAAAAAAAA2FwcAR0ZXN0AAABAAE");
}

TEST_F(DnsOverHttpsTest, PostSendsTheQueryAsTheBody) {
  auto dns = doh().post(true).build();
  EXPECT_EQ(texts(dns->lookup("app.test")),
            (std::vector<std::string>{"::1", "127.0.0.1", "10.0.0.1"}));
  for (int i = 0; i < 2; ++i) {
    RecordedRequest request = server_.takeRequest();
    EXPECT_EQ(request.method(), "POST");
    EXPECT_EQ(request.headers().get("Content-Type"), "application/dns-message");
    EXPECT_EQ(request.headers().get("Accept"), "application/dns-message");
    EXPECT_FALSE(request.url().queryParameter("dns"));
    EXPECT_TRUE(dnsQuestion(queryOf(request)));
  }
}

TEST_F(DnsOverHttpsTest, WithoutIpv6OnlyTheARecordsAreAskedFor) {
  auto dns = doh().includeIPv6(false).build();
  DnsAnswer answer = dns->lookupWithTtl("app.test");
  EXPECT_EQ(texts(answer.addresses), (std::vector<std::string>{"127.0.0.1", "10.0.0.1"}));
  EXPECT_EQ(answer.ttl, 60s);
  EXPECT_EQ(dnsQuestion(queryOf(server_.takeRequest()))->second, 1);
  EXPECT_EQ(server_.requestCount(), 1);
}

TEST_F(DnsOverHttpsTest, BootstrapHostsReachTheServerWithoutAnotherResolver) {
  // The DoH server is "dns.test", which only the bootstrap addresses know; the system resolver
  // given here fails the test if it is asked.
  tls::HeldCertificate dnsTest = tls::HeldCertificate::Builder()
                                     .commonName("dns.test")
                                     .addSubjectAlternativeName("dns.test")
                                     .signedBy(certificates_.root)
                                     .build();
  server_.close();
  MockWebServer named;
  named.useHttps(tls::HandshakeCertificates::Builder().heldCertificate(dnsTest).build());
  named.enqueue(
      dnsMessage(dnsResponse("app.test", 1, {aRecord(dnsPointer(12), {192, 0, 2, 7}, 100)})));
  named.start();
  auto dns = doh()
                 .url(HttpUrl::get("https://dns.test:" + std::to_string(named.port()) + "/q"))
                 .includeIPv6(false)
                 .bootstrapDnsHosts({InetAddress::loopbackIpv4()})
                 .systemDns(Dns::of([](const std::string& host) -> std::vector<InetAddress> {
                   ADD_FAILURE() << "the system resolver was asked for " << host;
                   throw UnknownHostException(host);
                 }))
                 .build();
  EXPECT_EQ(texts(dns->lookup("app.test")), std::vector<std::string>{"192.0.2.7"});
  RecordedRequest request = named.takeRequest();
  EXPECT_EQ(
      request.headers().get(":authority").value_or(request.headers().get("Host").value_or("")),
      "dns.test:" + std::to_string(named.port()));
}

TEST_F(DnsOverHttpsTest, NxdomainNamesTheHostAndTheServer) {
  auto dns = doh().build();
  EXPECT_EQ(failureOf(*dns, "nowhere.test"),
            "Unable to resolve host \"nowhere.test\" over DNS over HTTPS (" +
                server_.url("/dns-query").toString() + "): NXDOMAIN");
}

TEST_F(DnsOverHttpsTest, HttpErrorsAndMalformedAnswersAreUnknownHosts) {
  server_.setDispatcher([](const RecordedRequest&) {
    return MockResponse::Builder().code(500).body("oops").build();
  });
  auto dns = doh().includeIPv6(false).build();
  EXPECT_THAT(failureOf(*dns, "app.test"),
              HasSubstr("over DNS over HTTPS (" + server_.url("/dns-query").toString() +
                        "): HTTP 500 for A"));  // HTTP/2 has no reason phrase.

  server_.setDispatcher([](const RecordedRequest&) { return dnsMessage({0, 0, 0x81}); });
  EXPECT_THAT(failureOf(*dns, "app.test"),
              HasSubstr("): malformed DNS response for app.test: shorter than a header (3 bytes)"));
}

TEST_F(DnsOverHttpsTest, AnUnreachableServerIsAnUnknownHost) {
  HttpUrl url = server_.url("/dns-query");
  server_.close();
  auto dns = doh().url(url).build();
  EXPECT_THAT(failureOf(*dns, "app.test"),
              HasSubstr("Unable to resolve host \"app.test\" over DNS over HTTPS (" +
                        url.toString() + "): Failed to connect to"));
}

TEST_F(DnsOverHttpsTest, OneFamilyFailingIsNoFailure) {
  server_.setDispatcher([](const RecordedRequest& request) {
    auto [name, type] = *dnsQuestion(queryOf(request));
    if (type == 28) return MockResponse::Builder().code(503).build();
    return dnsMessage(dnsResponse(name, type, {aRecord(dnsPointer(12), {127, 0, 0, 1}, 300)}));
  });
  auto dns = doh().build();
  EXPECT_EQ(texts(dns->lookup("app.test")), std::vector<std::string>{"127.0.0.1"});
}

TEST_F(DnsOverHttpsTest, PrivateHostsAreRefusedUnlessAllowed) {
  auto dns = doh().build();
  EXPECT_THAT(failureOf(*dns, "localhost"), HasSubstr("): private hosts not resolved"));
  EXPECT_EQ(server_.requestCount(), 0);
  auto publicOff = doh().resolvePublicAddresses(false).build();
  EXPECT_THAT(failureOf(*publicOff, "app.test"), HasSubstr("): public hosts not resolved"));
  // IP literals need no lookup.
  EXPECT_EQ(texts(dns->lookup("10.1.2.3")), std::vector<std::string>{"10.1.2.3"});
}

TEST_F(DnsOverHttpsTest, BuilderRequiresClientAndUrl) {
  EXPECT_THROW(DnsOverHttps::Builder().url(server_.url("/")).build(), std::invalid_argument);
  EXPECT_THROW(DnsOverHttps::Builder().client(Client()).build(), std::invalid_argument);
}

// Records what an asynchronous lookup reports, in order.
class RecordingCallback final : public Dns::Callback {
 public:
  void onAddresses(std::vector<InetAddress> addresses) override {
    std::lock_guard lock(mutex_);
    events_.push_back("addresses " + texts(addresses).front());
  }
  void onTtl(std::chrono::seconds ttl) override {
    std::lock_guard lock(mutex_);
    events_.push_back("ttl " + std::to_string(ttl.count()));
  }
  void onComplete(std::exception_ptr failure) override {
    std::lock_guard lock(mutex_);
    events_.push_back(failure ? "failed" : "complete");
    done_ = true;
    changed_.notify_all();
  }
  std::vector<std::string> await() {
    std::unique_lock lock(mutex_);
    EXPECT_TRUE(changed_.wait_for(lock, 10s, [&] { return done_; }));
    return events_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> events_;
  bool done_ = false;
};

TEST_F(DnsOverHttpsTest, LookupAsyncReportsEachFamilyAsItArrives) {
  auto dns = doh().build();
  auto callback = std::make_shared<RecordingCallback>();
  dns->lookupAsync("app.test", callback);
  std::vector<std::string> events = callback->await();
  ASSERT_EQ(events.size(), 5u);
  EXPECT_EQ(events.back(), "complete");
  // Each family on its own, in whichever order the answers came.
  std::vector<std::string> sorted(events.begin(), events.end() - 1);
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted,
            (std::vector<std::string>{"addresses 127.0.0.1", "addresses ::1", "ttl 30", "ttl 60"}));
}

TEST_F(DnsOverHttpsTest, AClientUsesItAsItsDns) {
  MockWebServer origin;
  origin.enqueue(MockResponse::Builder().body("hello from app.test").build());
  origin.start();
  auto dns = doh().includeIPv6(false).build();
  Client client = Client::Builder().dns(dns).build();
  Response response =
      client
          .newCall(Request::Builder()
                       .url("http://app.test:" + std::to_string(origin.port()) + "/")
                       .build())
          ->execute();
  EXPECT_EQ(response.body()->string(), "hello from app.test");
  EXPECT_EQ(origin.takeRequest().headers().get("Host"),
            "app.test:" + std::to_string(origin.port()));
}

TEST_F(DnsOverHttpsTest, AClientBuiltOnItsOwnDispatcherDoesNotStarveTheQueries) {
  // One call at a time on the client's dispatcher: the enqueued call waiting for its lookup holds
  // that place. The queries go through the same client, yet run.
  MockWebServer origin;
  origin.enqueue(MockResponse::Builder().body("resolved").build());
  origin.start();
  auto dispatcher = std::make_shared<Dispatcher>();
  dispatcher->setMaxRequests(1);
  Client base = Client::Builder()
                    .dispatcher(dispatcher)
                    .handshakeCertificates(certificates_.clientTrust())
                    .readTimeout(5s)
                    .build();
  auto dns = DnsOverHttps::Builder()
                 .client(base)
                 .url(server_.url("/dns-query"))
                 .includeIPv6(false)
                 .build();
  Client client = base.newBuilder().dns(dns).build();
  std::promise<std::string> result;
  client
      .newCall(
          Request::Builder().url("http://app.test:" + std::to_string(origin.port()) + "/").build())
      ->enqueue([&](Call&, Response response) { result.set_value(response.body()->string()); },
                [&](Call&, const IOException& e) { result.set_value(e.what()); });
  std::future<std::string> future = result.get_future();
  ASSERT_EQ(future.wait_for(10s), std::future_status::ready) << "the lookup starved";
  EXPECT_EQ(future.get(), "resolved");
}

}  // namespace
}  // namespace tern::testing
