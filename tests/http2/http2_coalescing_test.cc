// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// HTTP/2 connection coalescing (OkHttp's ConnectionCoalescingTest): a connection over TLS carries
// calls for another host when that host resolves to the connection's IP address, the
// connection's certificate covers it and the pins allow it; a 421 Misdirected Request on such a
// call turns coalescing off for the connection and retries on a connection of the host's own.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "support/call_fakes.h"
#include "tern/buffered_sink.h"
#include "tern/certificate_pinner.h"
#include "tern/client.h"
#include "tern/connection_pool.h"
#include "tern/event_listener.h"
#include "tern/exceptions.h"
#include "tern/hostname_verifier.h"
#include "tern/inet_address.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tern/ok_hostname_verifier.h"
#include "tern/tls/handshake_certificates.h"
#include "tern/tls/held_certificate.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;

InetAddress ip(const char* literal) { return *InetAddress::parse(literal); }

// A request body that can be written only once (a stream, say).
class OneShotBody final : public RequestBody {
 public:
  std::optional<MediaType> contentType() const override { return std::nullopt; }
  int64_t contentLength() const override { return 5; }
  void writeTo(BufferedSink& sink) override { sink.writeUtf8("hello"); }
  bool isOneShot() const override { return true; }
};

// Counts connect attempts.
class ConnectCounter final : public EventListener {
 public:
  void connectStart(Call&, const InetSocketAddress&) override { ++count; }
  std::atomic<int> count{0};
};

class Http2CoalescingTest : public ::testing::Test {
 protected:
  Http2CoalescingTest() {
    server.useHttps(tls::HandshakeCertificates::Builder().heldCertificate(certificate).build());
    server.start("127.0.0.1", 0);
    // Every name resolves to the server, except elsewhere.example (in the certificate, but at
    // another address) and unresolved.example.
    for (const char* host :
         {"primary.example", "san.example", "www.wildcard.example", "nonsan.example"}) {
      dns->set(host, {ip("127.0.0.1")});
    }
    dns->set("elsewhere.example", {ip("127.0.0.2")});
    client = clientBuilder().build();
  }

  Client::Builder clientBuilder() {
    return Client::Builder()
        .dns(dns)
        .eventListener(connects)
        .handshakeCertificates(
            tls::HandshakeCertificates::Builder().addTrustedCertificate(root.certificate()).build())
        .connectTimeout(5s)
        .readTimeout(5s)
        .writeTimeout(5s);
  }

  // https://host:<server port>/path
  HttpUrl url(const std::string& host, const std::string& path = "/") {
    return server.url(path).newBuilder().host(host).build();
  }

  Response execute(const HttpUrl& url) {
    return client.newCall(Request::Builder().url(url).build())->execute();
  }

  // Executes a GET of `url` and returns its body, checking it came over h2 from `url`'s host.
  std::string fetch(const HttpUrl& url) {
    Response response = execute(url);
    EXPECT_EQ(response.protocol(), Protocol::HTTP_2);
    EXPECT_EQ(response.request().url().host(), url.host());
    return response.body()->string();
  }

  static MockResponse body(std::string_view text) {
    return MockResponse::Builder().body(text).build();
  }

  int connectionCount() const { return client.connectionPool()->connectionCount(); }

  tls::HeldCertificate root =
      tls::HeldCertificate::Builder().certificateAuthority(0).commonName("coalescing root").build();
  tls::HeldCertificate certificate = tls::HeldCertificate::Builder()
                                         .commonName("primary.example")
                                         .addSubjectAlternativeName("primary.example")
                                         .addSubjectAlternativeName("san.example")
                                         .addSubjectAlternativeName("*.wildcard.example")
                                         .addSubjectAlternativeName("elsewhere.example")
                                         .signedBy(root)
                                         .build();
  std::shared_ptr<FakeDns> dns = std::make_shared<FakeDns>();
  std::shared_ptr<ConnectCounter> connects = std::make_shared<ConnectCounter>();
  MockWebServer server;
  Client client = Client::Builder().build();
};

TEST_F(Http2CoalescingTest, CoalescesOntoConnectionWhoseCertificateCoversTheHost) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(url("primary.example")), "a");
  EXPECT_EQ(fetch(url("san.example")), "b");
  EXPECT_EQ(connectionCount(), 1);
  EXPECT_EQ(connects->count, 1);  // Found in the pool once san.example resolved.

  RecordedRequest first = server.takeRequest();
  RecordedRequest second = server.takeRequest();
  EXPECT_EQ(second.connectionIndex(), first.connectionIndex());
  // The coalesced request names its own host; the TLS handshake named the first.
  EXPECT_EQ(second.url().host(), "san.example");
  EXPECT_EQ(second.handshakeServerNames(), std::vector<std::string>{"primary.example"});
}

TEST_F(Http2CoalescingTest, CoalescesTheAlternativeNameOntoTheCommonOneAndBack) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  server.enqueue(body("c"));
  EXPECT_EQ(fetch(url("san.example")), "a");
  EXPECT_EQ(fetch(url("primary.example")), "b");
  EXPECT_EQ(fetch(url("san.example")), "c");
  EXPECT_EQ(connectionCount(), 1);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
}

TEST_F(Http2CoalescingTest, CoalescesForAWildcardName) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(url("primary.example")), "a");
  EXPECT_EQ(fetch(url("www.wildcard.example")), "b");
  EXPECT_EQ(connectionCount(), 1);
}

TEST_F(Http2CoalescingTest, ConcurrentCallsForBothHostsShareOneConnection) {
  server.enqueue(body("seed"));
  EXPECT_EQ(fetch(url("primary.example")), "seed");
  client.dispatcher()->setMaxRequestsPerHost(20);
  auto callback = std::make_shared<RecordingCallback>();
  for (int i = 0; i < 20; ++i) {
    server.enqueue(body("x"));
    std::string host = i % 2 == 0 ? "san.example" : "primary.example";
    client.newCall(Request::Builder().url(url(host, "/" + std::to_string(i))).build())
        ->enqueue(callback);
  }
  for (const RecordedResponse& response : callback->awaitCount(20)) {
    EXPECT_EQ(response.code, 200) << response.url << ": " << response.failure.value_or("");
  }
  EXPECT_EQ(connectionCount(), 1);
  for (int i = 0; i < 21; ++i) EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
}

// Listens to two calls so that both connect at once: san.example's starts connecting while
// primary.example's handshake waits, and finishes only after primary.example's connection is
// pooled.
class ConnectRace final : public EventListener {
 public:
  void connectStart(Call& call, const InetSocketAddress&) override {
    if (call.request().url().host() != "san.example") return;
    std::unique_lock lock(mutex_);
    sanConnecting_ = true;
    changed_.notify_all();
    changed_.wait_for(lock, 5s, [this] { return primaryAcquired_; });
  }
  void secureConnectStart(Call& call) override {
    if (call.request().url().host() != "primary.example") return;
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, 5s, [this] { return sanConnecting_; });
  }
  void connectionAcquired(Call& call, Connection&) override {
    if (call.request().url().host() != "primary.example") return;
    std::lock_guard lock(mutex_);
    primaryAcquired_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool sanConnecting_ = false;
  bool primaryAcquired_ = false;
};

TEST_F(Http2CoalescingTest, CallsThatConnectedAtOnceConvergeOnOneConnection) {
  client = clientBuilder().eventListener(std::make_shared<ConnectRace>()).build();
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  std::string primaryBody;
  std::thread primary([&] { primaryBody = fetch(url("primary.example")); });
  EXPECT_EQ(fetch(url("san.example")), "b");
  primary.join();
  EXPECT_EQ(primaryBody, "a");
  // san.example's own connection was made, then dropped for primary.example's.
  EXPECT_EQ(connectionCount(), 1);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
}

TEST_F(Http2CoalescingTest, DoesNotCoalesceWhenTheCertificateDoesNotCoverTheHost) {
  server.enqueue(body("a"));
  server.enqueue(body("never"));
  EXPECT_EQ(fetch(url("primary.example")), "a");
  // Its own connection, whose handshake then fails the hostname check.
  EXPECT_THROW(execute(url("nonsan.example")), SSLPeerUnverifiedException);
  EXPECT_EQ(server.requestCount(), 1);
  EXPECT_EQ(connectionCount(), 1);
}

TEST_F(Http2CoalescingTest, DoesNotCoalesceWhenTheHostResolvesToAnotherAddress) {
  MockWebServer other;
  other.useHttps(tls::HandshakeCertificates::Builder().heldCertificate(certificate).build());
  other.start("127.0.0.2", server.port());  // Same port, another loopback address.
  server.enqueue(body("from 127.0.0.1"));
  other.enqueue(body("from 127.0.0.2"));
  EXPECT_EQ(fetch(url("primary.example")), "from 127.0.0.1");
  EXPECT_EQ(fetch(url("elsewhere.example")), "from 127.0.0.2");
  EXPECT_EQ(other.takeRequest().url().host(), "elsewhere.example");
  EXPECT_EQ(connectionCount(), 2);
}

TEST_F(Http2CoalescingTest, DoesNotCoalesceWhenTheHostDoesNotResolve) {
  server.enqueue(body("a"));
  EXPECT_EQ(fetch(url("primary.example")), "a");
  dns->set("san.example", {});
  EXPECT_THROW(execute(url("san.example")), UnknownHostException);
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(Http2CoalescingTest, PrefersACoalescableConnectionToConnectingToTheFirstAddress) {
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(url("primary.example")), "a");
  // The first address has nothing listening: connecting there would fail over to the second and
  // make a new connection.
  dns->set("san.example", {ip("127.0.0.3"), ip("127.0.0.1")});
  EXPECT_EQ(fetch(url("san.example")), "b");
  EXPECT_EQ(connectionCount(), 1);
  EXPECT_EQ(connects->count, 1);
  server.takeRequest();
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
}

TEST_F(Http2CoalescingTest, CoalescesWhenThePinsMatch) {
  client = clientBuilder()
               .certificatePinner(
                   CertificatePinner::Builder()
                       .add("san.example", {CertificatePinner::pin(certificate.certificate())})
                       .build())
               .build();
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(url("primary.example")), "a");
  EXPECT_EQ(fetch(url("san.example")), "b");
  EXPECT_EQ(connectionCount(), 1);
}

TEST_F(Http2CoalescingTest, DoesNotCoalesceWhenThePinsFailForTheHost) {
  client = clientBuilder()
               .certificatePinner(
                   CertificatePinner::Builder()
                       .add("san.example", {"sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="})
                       .build())
               .build();
  server.enqueue(body("a"));
  server.enqueue(body("never"));
  EXPECT_EQ(fetch(url("primary.example")), "a");
  // A connection of its own, whose pin check fails.
  try {
    execute(url("san.example"));
    FAIL() << "expected SSLPeerUnverifiedException";
  } catch (const SSLPeerUnverifiedException& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("Certificate pinning failure!"));
  }
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(Http2CoalescingTest, DoesNotCoalesceWithACustomHostnameVerifier) {
  // What else a custom verifier accepts is unknown, so tern does not guess (as OkHttp).
  client = clientBuilder()
               .hostnameVerifier(HostnameVerifier::of(
                   [](std::string_view host, const std::vector<Certificate>& peer) {
                     return OkHostnameVerifier::instance()->verify(host, peer);
                   }))
               .build();
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  EXPECT_EQ(fetch(url("primary.example")), "a");
  EXPECT_EQ(fetch(url("san.example")), "b");
  EXPECT_EQ(connectionCount(), 2);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
}

TEST_F(Http2CoalescingTest, DoesNotCoalesceHttp11Connections) {
  client = clientBuilder().protocols({Protocol::HTTP_1_1}).build();
  server.enqueue(body("a"));
  server.enqueue(body("b"));
  Response first = execute(url("primary.example"));
  EXPECT_EQ(first.protocol(), Protocol::HTTP_1_1);
  EXPECT_EQ(first.body()->string(), "a");
  EXPECT_EQ(execute(url("san.example")).body()->string(), "b");
  EXPECT_EQ(connectionCount(), 2);
}

TEST_F(Http2CoalescingTest, DoesNotCoalesceCleartextHttp2) {
  // Without a certificate nothing says the server speaks for the other host.
  MockWebServer cleartext;
  cleartext.setProtocols({Protocol::H2_PRIOR_KNOWLEDGE});
  cleartext.enqueue(body("a"));
  cleartext.enqueue(body("b"));
  client = clientBuilder().protocols({Protocol::H2_PRIOR_KNOWLEDGE}).build();
  auto at = [&](const std::string& host) {
    return cleartext.url("/").newBuilder().host(host).build();
  };
  EXPECT_EQ(execute(at("primary.example")).body()->string(), "a");
  EXPECT_EQ(execute(at("san.example")).body()->string(), "b");
  EXPECT_EQ(connectionCount(), 2);
  EXPECT_EQ(cleartext.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(cleartext.takeRequest().connectionIndex(), 1);
}

TEST_F(Http2CoalescingTest, MisdirectedRequestOnACoalescedConnectionRetriesOnItsOwn) {
  server.enqueue(body("seed connection"));
  server.enqueue(MockResponse::Builder().code(421).body("misdirected!").build());
  server.enqueue(body("after misdirect"));
  server.enqueue(body("still own"));
  server.enqueue(body("primary again"));
  EXPECT_EQ(fetch(url("primary.example")), "seed connection");

  Response response = execute(url("san.example"));
  EXPECT_EQ(response.code(), 200);
  ASSERT_NE(response.priorResponse(), nullptr);
  EXPECT_EQ(response.priorResponse()->code(), 421);
  EXPECT_EQ(response.body()->string(), "after misdirect");
  EXPECT_EQ(connectionCount(), 2);

  RecordedRequest seed = server.takeRequest();
  RecordedRequest misdirected = server.takeRequest();
  RecordedRequest retried = server.takeRequest();
  EXPECT_EQ(seed.connectionIndex(), 0);
  EXPECT_EQ(misdirected.connectionIndex(), 0);
  EXPECT_EQ(retried.connectionIndex(), 1);  // A fresh connection, named san.example by SNI.
  EXPECT_EQ(retried.handshakeServerNames(), std::vector<std::string>{"san.example"});

  // From now on each host keeps to its own connection.
  EXPECT_EQ(fetch(url("san.example")), "still own");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 1);
  EXPECT_EQ(fetch(url("primary.example")), "primary again");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
}

TEST_F(Http2CoalescingTest, MisdirectedRequestTurnsCoalescingOffOnlyOnThatConnection) {
  server.enqueue(body("seed"));
  server.enqueue(MockResponse::Builder().code(421).build());
  server.enqueue(body("san"));
  server.enqueue(body("wildcard"));
  EXPECT_EQ(fetch(url("primary.example")), "seed");
  EXPECT_EQ(fetch(url("san.example")), "san");
  // Not onto primary.example's connection any more, but onto san.example's own, which the same
  // certificate covers.
  EXPECT_EQ(fetch(url("www.wildcard.example")), "wildcard");
  EXPECT_EQ(connectionCount(), 2);
  std::vector<int> connections;
  for (int i = 0; i < 4; ++i) connections.push_back(server.takeRequest().connectionIndex());
  EXPECT_EQ(connections, (std::vector<int>{0, 0, 1, 1}));
}

TEST_F(Http2CoalescingTest, MisdirectedRequestOnTheHostsOwnConnectionIsTheResponse) {
  server.enqueue(MockResponse::Builder().code(421).body("misdirected!").build());
  Response response = execute(url("primary.example"));
  EXPECT_EQ(response.code(), 421);
  EXPECT_EQ(response.body()->string(), "misdirected!");
  EXPECT_EQ(server.requestCount(), 1);
}

TEST_F(Http2CoalescingTest, MisdirectedRequestWithAOneShotBodyIsTheResponse) {
  server.enqueue(body("seed"));
  server.enqueue(MockResponse::Builder().code(421).body("misdirected!").build());
  EXPECT_EQ(fetch(url("primary.example")), "seed");
  Response response = client
                          .newCall(Request::Builder()
                                       .url(url("san.example"))
                                       .post(std::make_shared<OneShotBody>())
                                       .build())
                          ->execute();
  EXPECT_EQ(response.code(), 421);
  EXPECT_EQ(response.body()->string(), "misdirected!");
  EXPECT_EQ(server.requestCount(), 2);
}

TEST_F(Http2CoalescingTest, MisdirectedRequestWithARepeatableBodyIsSentAgain) {
  server.enqueue(body("seed"));
  server.enqueue(MockResponse::Builder().code(421).build());
  server.enqueue(body("posted"));
  EXPECT_EQ(fetch(url("primary.example")), "seed");
  Response response =
      client
          .newCall(
              Request::Builder().url(url("san.example")).post(RequestBody::create("hello")).build())
          ->execute();
  EXPECT_EQ(response.body()->string(), "posted");
  server.takeRequest();
  EXPECT_EQ(server.takeRequest().bodyUtf8(), "hello");
  RecordedRequest retried = server.takeRequest();
  EXPECT_EQ(retried.bodyUtf8(), "hello");
  EXPECT_EQ(retried.connectionIndex(), 1);
}

}  // namespace
}  // namespace tern::testing
