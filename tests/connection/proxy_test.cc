// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Calls through proxies: MockWebServer standing in for an HTTP proxy (what the client sends it,
// OkHttp's habit), and real proxies started on loopback: tinyproxy (absolute-form requests,
// CONNECT tunnels, Basic auth) and microsocks (SOCKS5, with and without authentication).
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>

#include "call/call_fixture.h"
#include "support/proxy_servers.h"
#include "support/tls_certificates.h"
#include "tern/credentials.h"
#include "tern/proxy.h"
#include "tern/proxy_selector.h"
#include "tern/request_body.h"
#include "tern/tls/handshake_certificates.h"

namespace tern::testing {
namespace {

// A Dns that knows no host: a call through a proxy must never look up the origin (the proxy's
// host here is an IP literal, which needs no lookup either).
std::shared_ptr<Dns> noDns() {
  return Dns::of([](const std::string& host) -> std::vector<InetAddress> {
    throw UnknownHostException("no DNS in this test: " + host);
  });
}

// Answers 407s with the given credentials, counting the challenges it saw.
struct CountingAuthenticator final : Authenticator {
  explicit CountingAuthenticator(std::string credentials) : credentials(std::move(credentials)) {}
  std::optional<Request> authenticate(const Route* route, const Response& response) override {
    std::lock_guard lock(mutex);
    challenges.push_back(response.header("Proxy-Authenticate").value_or(""));
    if (route) proxies.push_back(route->proxy().toString());
    if (response.request().header("Proxy-Authorization")) return std::nullopt;  // Tried.
    return response.request().newBuilder().header("Proxy-Authorization", credentials).build();
  }
  std::string credentials;
  std::mutex mutex;
  std::vector<std::string> challenges;
  std::vector<std::string> proxies;
};

class ProxyTest : public CallFixture {
 protected:
  // A client whose every call goes through `proxy`.
  Client through(Proxy proxy) { return client.newBuilder().proxy(std::move(proxy)).build(); }
  // The events of the last call made.
  std::shared_ptr<RecordingEventListener> lastEvents() { return events->listeners().back(); }
};

TEST_F(ProxyTest, HttpProxySeesTheAbsoluteUrl) {
  server.enqueue(body("proxied"));
  Client proxied =
      client.newBuilder().proxy(Proxy::http("127.0.0.1", server.port())).dns(noDns()).build();
  Response response =
      proxied.newCall(Request::Builder().url("http://origin.test/a?b=c").build())->execute();
  EXPECT_EQ(response.body()->string(), "proxied");
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.requestLine(), "GET http://origin.test/a?b=c HTTP/1.1");
  EXPECT_EQ(request.headers().get("Host"), "origin.test");
  EXPECT_FALSE(request.headers().get("Proxy-Authorization"));
  // The events name the proxy; the only address connected to is the proxy's.
  EXPECT_EQ(lastEvents()->find("proxySelectEnd")->detail,
            "http://origin.test/ [HTTP @ 127.0.0.1:" + std::to_string(server.port()) + "]");
  EXPECT_EQ(lastEvents()->find("connectStart")->detail,
            "127.0.0.1:" + std::to_string(server.port()));
}

TEST_F(ProxyTest, ProxyCredentialsAreSentPreemptively) {
  server.enqueue(body("a"));
  Client proxied =
      through(Proxy::http("127.0.0.1", server.port()).withCredentials("ann", "s3cret"));
  proxied.newCall(Request::Builder().url("http://127.0.0.2:9/").build())->execute();
  EXPECT_EQ(server.takeRequest().headers().get("Proxy-Authorization"),
            Credentials::basic("ann", "s3cret"));
  EXPECT_EQ(Credentials::basic("ann", "s3cret"), "Basic YW5uOnMzY3JldA==");
}

TEST_F(ProxyTest, PlainProxied407GoesToTheProxyAuthenticator) {
  server.enqueue(MockResponse::Builder()
                     .code(407)
                     .addHeader("Proxy-Authenticate", "Basic realm=\"proxy\"")
                     .body("who are you")
                     .build());
  server.enqueue(body("welcome"));
  auto authenticator = std::make_shared<CountingAuthenticator>(Credentials::basic("a", "b"));
  Client proxied = client.newBuilder()
                       .proxy(Proxy::http("127.0.0.1", server.port()))
                       .proxyAuthenticator(authenticator)
                       .build();
  EXPECT_EQ(proxied.newCall(Request::Builder().url("http://127.0.0.2:9/").build())
                ->execute()
                .body()
                ->string(),
            "welcome");
  EXPECT_FALSE(server.takeRequest().headers().get("Proxy-Authorization"));
  EXPECT_EQ(server.takeRequest().headers().get("Proxy-Authorization"), "Basic YTpi");
  EXPECT_EQ(authenticator->challenges, (std::vector<std::string>{"Basic realm=\"proxy\""}));
  EXPECT_EQ(authenticator->proxies,
            (std::vector<std::string>{"HTTP @ 127.0.0.1:" + std::to_string(server.port())}));
}

TEST_F(ProxyTest, Plain407WithoutCredentialsIsTheResponse) {
  server.enqueue(MockResponse::Builder().code(407).body("no").build());
  Response response = through(Proxy::http("127.0.0.1", server.port()))
                          .newCall(Request::Builder().url("http://127.0.0.2:9/").build())
                          ->execute();
  EXPECT_EQ(response.code(), 407);
  EXPECT_EQ(response.body()->string(), "no");
}

TEST_F(ProxyTest, A407WithoutAProxyIsAProtocolError) {
  server.enqueue(MockResponse::Builder().code(407).build());
  EXPECT_THROW(execute(), ProtocolException);
}

TEST_F(ProxyTest, ConnectToThroughAnHttpProxyTunnelsToTheTarget) {
  // As curl's -x with --connect-to: a CONNECT to the rule's target, even for an http:// URL (an
  // absolute-form request would name the URL's origin); inside it, the request as to the origin.
  server.enqueue(MockResponse::Builder().inTunnel().build());
  server.enqueue(body("at the target"));
  Client proxied = client.newBuilder()
                       .proxy(Proxy::http("127.0.0.1", server.port()))
                       .connectTo({{"origin.test", 80, "target.test", 8080}})
                       .dns(noDns())
                       .build();
  EXPECT_EQ(proxied.newCall(Request::Builder().url("http://origin.test/a").build())
                ->execute()
                .body()
                ->string(),
            "at the target");
  RecordedRequest connect = server.takeRequest();
  EXPECT_EQ(connect.requestLine(), "CONNECT target.test:8080 HTTP/1.1");
  EXPECT_EQ(connect.headers().get("Host"), "target.test:8080");
  RecordedRequest get = server.takeRequest();
  EXPECT_EQ(get.requestLine(), "GET /a HTTP/1.1");
  EXPECT_EQ(get.headers().get("Host"), "origin.test");
}

TEST_F(ProxyTest, AConnectToRuleThatDoesNotMatchKeepsTheAbsoluteForm) {
  server.enqueue(body("proxied"));
  Client proxied = client.newBuilder()
                       .proxy(Proxy::http("127.0.0.1", server.port()))
                       .connectTo({{"elsewhere.test", 0, "target.test", 0}})
                       .dns(noDns())
                       .build();
  proxied.newCall(Request::Builder().url("http://origin.test/a").build())->execute();
  EXPECT_EQ(server.takeRequest().requestLine(), "GET http://origin.test/a HTTP/1.1");
}

TEST_F(ProxyTest, NoProxyHostsGoDirect) {
  server.enqueue(body("direct"));
  Client client2 = client.newBuilder()
                       .proxySelector(ProxySelector::of(Proxy::http("127.0.0.1", 9), "127.0.0.1"))
                       .build();
  EXPECT_EQ(client2.newCall(get())->execute().body()->string(), "direct");
  EXPECT_EQ(server.takeRequest().requestLine(), "GET / HTTP/1.1");
}

TEST_F(ProxyTest, ExplicitDirectProxyOverridesTheSelector) {
  server.enqueue(body("direct"));
  Client client2 = client.newBuilder()
                       .proxySelector(ProxySelector::of(Proxy::http("127.0.0.1", 9)))
                       .proxy(Proxy::direct())
                       .build();
  EXPECT_EQ(client2.newCall(get())->execute().body()->string(), "direct");
}

// A selector offering two proxies, the first one dead; remembers what it was told.
struct TwoProxies final : ProxySelector {
  TwoProxies(Proxy first, Proxy second) : first(std::move(first)), second(std::move(second)) {}
  std::vector<Proxy> select(const HttpUrl&) override { return {first, second}; }
  void connectFailed(const HttpUrl& url, const Proxy& proxy, const IOException& e) override {
    std::lock_guard lock(mutex);
    failures.push_back(url.host() + " " + proxy.toString() + " " +
                       (dynamic_cast<const ConnectException*>(&e) ? "ConnectException" : "other"));
  }
  Proxy first, second;
  std::mutex mutex;
  std::vector<std::string> failures;
};

TEST_F(ProxyTest, AFailedProxyFallsBackToTheNext) {
  server.enqueue(body("second"));
  server.enqueue(body("again"));
  const int dead = freeLoopbackPort();
  auto selector = std::make_shared<TwoProxies>(Proxy::http("127.0.0.1", dead),
                                               Proxy::http("127.0.0.1", server.port()));
  Client proxied = client.newBuilder().proxySelector(selector).build();
  Request request = Request::Builder().url("http://origin.test/").build();
  EXPECT_EQ(proxied.newCall(request)->execute().body()->string(), "second");
  EXPECT_EQ(selector->failures,
            (std::vector<std::string>{"origin.test HTTP @ 127.0.0.1:" + std::to_string(dead) +
                                      " ConnectException"}));
  EXPECT_EQ(server.takeRequest().requestLine(), "GET http://origin.test/ HTTP/1.1");
  // The pool keeps the working proxy's connection; the dead one is not tried again.
  EXPECT_EQ(proxied.newCall(request)->execute().body()->string(), "again");
  EXPECT_EQ(selector->failures.size(), 1u);
}

TEST_F(ProxyTest, UnresolvableProxyHostSaysSo) {
  Client proxied =
      client.newBuilder().proxy(Proxy::http("proxy.invalid", 3128)).dns(noDns()).build();
  try {
    proxied.newCall(Request::Builder().url("http://origin.test/").build())->execute();
    FAIL();
  } catch (const UnknownHostException& e) {
    EXPECT_STREQ(e.what(),
                 "no DNS in this test: proxy.invalid (the proxy HTTP @ proxy.invalid:3128)");
  }
}

// MockWebServer as a CONNECT proxy (inTunnel): the tunnel's CONNECTs, then TLS to itself.
class TunnelTest : public ProxyTest {
 protected:
  void SetUp() override {
    server.useHttps(certificates.server());
    client = client.newBuilder()
                 .handshakeCertificates(certificates.clientTrust())
                 .proxy(Proxy::http("127.0.0.1", server.port()))
                 .build();
  }
  static MockResponse tunnel(int code = 200) {
    return MockResponse::Builder().code(code).inTunnel().build();
  }
  // The server is the origin too: localhost is what its certificate names.
  Response call(std::string_view path = "/") {
    return client
        .newCall(Request::Builder().url("https://localhost:8443" + std::string(path)).build())
        ->execute();
  }
  TestCertificates certificates;
};

TEST_F(TunnelTest, ConnectThenTlsThenTheRequest) {
  server.enqueue(tunnel());
  server.enqueue(body("tunneled"));
  Response response = call("/a");
  EXPECT_EQ(response.body()->string(), "tunneled");
  EXPECT_EQ(response.protocol(), Protocol::HTTP_2);
  RecordedRequest connect = server.takeRequest();
  EXPECT_EQ(connect.requestLine(), "CONNECT localhost:8443 HTTP/1.1");
  EXPECT_EQ(connect.headers().get("Host"), "localhost:8443");
  EXPECT_EQ(connect.headers().get("Proxy-Connection"), "Keep-Alive");
  EXPECT_TRUE(connect.headers().get("User-Agent")->starts_with("tern/"));
  RecordedRequest get = server.takeRequest();
  EXPECT_EQ(get.path(), "/a");
  EXPECT_EQ(get.connectionIndex(), 0);
  ASSERT_TRUE(get.handshake());
}

TEST_F(TunnelTest, Connect407AnsweredOnTheSameConnection) {
  server.enqueue(MockResponse::Builder()
                     .code(407)
                     .addHeader("Proxy-Authenticate", "Basic realm=\"tunnel\"")
                     .inTunnel()
                     .build());
  server.enqueue(tunnel());
  server.enqueue(body("authenticated"));
  std::vector<std::string> challenges;
  client = client.newBuilder()
               .proxyAuthenticator(Authenticator::of(
                   [&](const Route*, const Response& response) -> std::optional<Request> {
                     challenges.push_back(response.header("Proxy-Authenticate").value_or(""));
                     if (response.header("Proxy-Authenticate") == "OkHttp-Preemptive") {
                       return std::nullopt;  // Wait to be asked.
                     }
                     return response.request()
                         .newBuilder()
                         .header("Proxy-Authorization", Credentials::basic("u", "p"))
                         .build();
                   }))
               .build();
  EXPECT_EQ(call().body()->string(), "authenticated");
  EXPECT_EQ(challenges, (std::vector<std::string>{"OkHttp-Preemptive", "Basic realm=\"tunnel\""}));
  RecordedRequest first = server.takeRequest();
  RecordedRequest second = server.takeRequest();
  EXPECT_EQ(first.method(), "CONNECT");
  EXPECT_FALSE(first.headers().get("Proxy-Authorization"));
  EXPECT_EQ(second.method(), "CONNECT");
  EXPECT_EQ(second.headers().get("Proxy-Authorization"), "Basic dTpw");
  // MockWebServer kept the connection open after its 407: the second CONNECT came on it.
  EXPECT_EQ(second.connectionIndex(), first.connectionIndex());
  EXPECT_EQ(server.takeRequest().connectionIndex(), first.connectionIndex());
}

TEST_F(TunnelTest, Connect407FromAnHttp10ProxyRetriesOnANewConnection) {
  // HTTP/1.0 closes after a response (no keep-alive): the authenticated CONNECT goes on a new
  // connection rather than after bytes that may still belong to the 407.
  server.enqueue(MockResponse::Builder()
                     .status("HTTP/1.0 407 Proxy Authentication Required")
                     .addHeader("Proxy-Authenticate", "Basic realm=\"old\"")
                     .inTunnel()
                     .build());
  server.enqueue(tunnel());
  server.enqueue(body("authenticated"));
  client = client.newBuilder()
               .proxyAuthenticator(Authenticator::of(
                   [](const Route*, const Response& response) -> std::optional<Request> {
                     if (response.header("Proxy-Authenticate") == "OkHttp-Preemptive") {
                       return std::nullopt;
                     }
                     return response.request()
                         .newBuilder()
                         .header("Proxy-Authorization", Credentials::basic("u", "p"))
                         .build();
                   }))
               .build();
  EXPECT_EQ(call().body()->string(), "authenticated");
  RecordedRequest first = server.takeRequest();
  RecordedRequest second = server.takeRequest();
  EXPECT_EQ(second.method(), "CONNECT");
  EXPECT_EQ(second.headers().get("Proxy-Authorization"), "Basic dTpw");
  EXPECT_NE(second.connectionIndex(), first.connectionIndex());
}

TEST_F(TunnelTest, PreemptiveCredentialsFromTheAuthenticator) {
  server.enqueue(tunnel());
  server.enqueue(body("ok"));
  client = client.newBuilder()
               .proxyAuthenticator(Authenticator::of(
                   [](const Route*, const Response& response) -> std::optional<Request> {
                     if (response.header("Proxy-Authenticate") != "OkHttp-Preemptive") {
                       return std::nullopt;
                     }
                     return response.request()
                         .newBuilder()
                         .header("Proxy-Authorization", Credentials::basic("pre", "emptive"))
                         .build();
                   }))
               .build();
  EXPECT_EQ(call().body()->string(), "ok");
  EXPECT_EQ(server.takeRequest().headers().get("Proxy-Authorization"),
            Credentials::basic("pre", "emptive"));
  // The tunneled request does not carry the proxy's credentials.
  EXPECT_FALSE(server.takeRequest().headers().get("Proxy-Authorization"));
}

TEST_F(TunnelTest, ConnectRefused) {
  server.enqueue(MockResponse::Builder().code(403).body("no").inTunnel().build());
  try {
    call();
    FAIL();
  } catch (const ProxyException& e) {
    EXPECT_EQ(e.responseCode(), 403);
    EXPECT_EQ(std::string(e.what()),
              "Unexpected response code for CONNECT: 403 (HTTP @ 127.0.0.1:" +
                  std::to_string(server.port()) + " to localhost:8443)");
  }
}

// Real proxies ----------------------------------------------------------------------------------

class RealProxyTest : public ProxyTest {
 protected:
  void useHttps(std::vector<Protocol> protocols = {Protocol::HTTP_2, Protocol::HTTP_1_1}) {
    server.useHttps(certificates.server());
    server.protocols(std::move(protocols));
    client = client.newBuilder().handshakeCertificates(certificates.clientTrust()).build();
  }
  TestCertificates certificates;
};

TEST_F(RealProxyTest, TinyproxyForwardsPlainHttp) {
  Tinyproxy proxy;
  if (!proxy.start()) GTEST_SKIP() << "tinyproxy: " << proxy.log();
  server.enqueue(body("via tinyproxy"));
  Client proxied = through(Proxy::http("127.0.0.1", proxy.port()));
  EXPECT_EQ(proxied.newCall(get("/plain"))->execute().body()->string(), "via tinyproxy");
  EXPECT_EQ(server.takeRequest().path(), "/plain");
}

TEST_F(RealProxyTest, TinyproxyTunnelsHttpsAndHttp2) {
  Tinyproxy proxy;
  if (!proxy.start()) GTEST_SKIP() << "tinyproxy: " << proxy.log();
  useHttps();
  server.enqueue(body("one"));
  server.enqueue(body("two"));
  Client proxied = through(Proxy::http("127.0.0.1", proxy.port()));
  Response first = proxied.newCall(Request::Builder().url(server.url("/")).build())->execute();
  EXPECT_EQ(first.protocol(), Protocol::HTTP_2);
  ASSERT_TRUE(first.handshake());
  EXPECT_EQ(first.body()->string(), "one");
  // The tunnel is pooled: the second call shares it.
  EXPECT_EQ(
      proxied.newCall(Request::Builder().url(server.url("/")).build())->execute().body()->string(),
      "two");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
}

TEST_F(RealProxyTest, TinyproxyTunnelOverHttp1) {
  Tinyproxy proxy;
  if (!proxy.start()) GTEST_SKIP() << "tinyproxy: " << proxy.log();
  useHttps({Protocol::HTTP_1_1});
  server.enqueue(body("h1"));
  Response response = through(Proxy::http("127.0.0.1", proxy.port()))
                          .newCall(Request::Builder().url(server.url("/")).build())
                          ->execute();
  EXPECT_EQ(response.protocol(), Protocol::HTTP_1_1);
  EXPECT_EQ(response.body()->string(), "h1");
}

TEST_F(RealProxyTest, TinyproxyBasicAuthWithCredentials) {
  Tinyproxy proxy;
  if (!proxy.start(std::pair<std::string, std::string>{"ann", "s3cret"})) {
    GTEST_SKIP() << "tinyproxy: " << proxy.log();
  }
  const Proxy withCredentials =
      Proxy::http("127.0.0.1", proxy.port()).withCredentials("ann", "s3cret");
  server.enqueue(body("plain"));
  EXPECT_EQ(through(withCredentials).newCall(get())->execute().body()->string(), "plain");
  MockWebServer tlsServer;
  tlsServer.useHttps(certificates.server());
  tlsServer.enqueue(body("tunneled"));
  Client proxied = client.newBuilder()
                       .handshakeCertificates(certificates.clientTrust())
                       .proxy(withCredentials)
                       .build();
  EXPECT_EQ(proxied.newCall(Request::Builder().url(tlsServer.url("/")).build())
                ->execute()
                .body()
                ->string(),
            "tunneled");
}

TEST_F(RealProxyTest, TinyproxyConnect407AnsweredByTheAuthenticatorOnANewConnection) {
  Tinyproxy proxy;
  if (!proxy.start(std::pair<std::string, std::string>{"ann", "s3cret"})) {
    GTEST_SKIP() << "tinyproxy: " << proxy.log();
  }
  useHttps();
  server.enqueue(body("authenticated"));
  auto authenticator = std::make_shared<CountingAuthenticator>(Credentials::basic("ann", "s3cret"));
  // An authenticator that answers only real challenges (not OkHttp-Preemptive).
  auto onlyReal = Authenticator::of(
      [authenticator](const Route* route, const Response& response) -> std::optional<Request> {
        if (response.header("Proxy-Authenticate") == "OkHttp-Preemptive") return std::nullopt;
        return authenticator->authenticate(route, response);
      });
  Client proxied = client.newBuilder()
                       .proxy(Proxy::http("127.0.0.1", proxy.port()))
                       .proxyAuthenticator(onlyReal)
                       .build();
  EXPECT_EQ(
      proxied.newCall(Request::Builder().url(server.url("/")).build())->execute().body()->string(),
      "authenticated");
  // tinyproxy closes after its 407: the second CONNECT came on a new connection, each attempt
  // reported as connectStart and connectEnd.
  EXPECT_EQ(authenticator->challenges, (std::vector<std::string>{"Basic realm=\"Tinyproxy\""}));
  EXPECT_EQ(lastEvents()->count("connectStart"), 2);
  EXPECT_EQ(lastEvents()->count("connectEnd"), 2);
}

TEST_F(RealProxyTest, TinyproxyConnect407WithoutCredentialsFails) {
  Tinyproxy proxy;
  if (!proxy.start(std::pair<std::string, std::string>{"ann", "s3cret"})) {
    GTEST_SKIP() << "tinyproxy: " << proxy.log();
  }
  useHttps();
  try {
    through(Proxy::http("127.0.0.1", proxy.port()))
        .newCall(Request::Builder().url(server.url("/")).build())
        ->execute();
    FAIL();
  } catch (const ProxyException& e) {
    EXPECT_EQ(e.responseCode(), 407);
    EXPECT_EQ(std::string(e.what()), "Failed to authenticate with proxy (HTTP @ 127.0.0.1:" +
                                         std::to_string(proxy.port()) +
                                         " to 127.0.0.1:" + std::to_string(server.port()) + ")");
  }
}

TEST_F(RealProxyTest, MicrosocksConnectsWithLocalAndRemoteDns) {
  Microsocks proxy;
  if (!proxy.start()) GTEST_SKIP() << "microsocks: " << proxy.log();
  server.enqueue(body("socks5"));
  server.enqueue(body("socks5h"));
  // socks5: the client resolves origin.test (to the server) and sends the address.
  Client local = client.newBuilder()
                     .proxy(Proxy::socks5("127.0.0.1", proxy.port()))
                     .dns(Dns::of([](const std::string& host) {
                       if (host != "origin.test") throw UnknownHostException(host);
                       return std::vector{InetAddress::loopbackIpv4()};
                     }))
                     .build();
  HttpUrl origin = server.url("/").newBuilder().host("origin.test").build();
  EXPECT_EQ(local.newCall(Request::Builder().url(origin).build())->execute().body()->string(),
            "socks5");
  // socks5h: the proxy resolves localhost; the client resolves nothing.
  Client remote =
      client.newBuilder().proxy(Proxy::socks5h("127.0.0.1", proxy.port())).dns(noDns()).build();
  HttpUrl localhost = server.url("/").newBuilder().host("localhost").build();
  Response response = remote.newCall(Request::Builder().url(localhost).build())->execute();
  EXPECT_EQ(response.body()->string(), "socks5h");
  EXPECT_EQ(lastEvents()
                ->find("proxySelectEnd")
                ->detail.ends_with("[SOCKS @ 127.0.0.1:" + std::to_string(proxy.port()) + "]"),
            true);
}

TEST_F(RealProxyTest, ConnectToThroughSocksAsksTheProxyForTheTarget) {
  Microsocks proxy;
  if (!proxy.start()) GTEST_SKIP() << "microsocks: " << proxy.log();
  server.enqueue(body("at the target"));
  // The URL names a port nothing listens on; the rule sends the connection to the server's.
  Client c = client.newBuilder()
                 .proxy(Proxy::socks5h("127.0.0.1", proxy.port()))
                 .connectTo({{"origin.test", 9, "localhost", server.port()}})
                 .dns(noDns())
                 .build();
  Response response =
      c.newCall(Request::Builder().url("http://origin.test:9/a").build())->execute();
  EXPECT_EQ(response.body()->string(), "at the target");
  RecordedRequest request = server.takeRequest();
  EXPECT_EQ(request.requestLine(), "GET /a HTTP/1.1");
  EXPECT_EQ(request.headers().get("Host"), "origin.test:9");
}

TEST_F(RealProxyTest, MicrosocksTlsAndHttp2ThroughSocks) {
  Microsocks proxy;
  if (!proxy.start()) GTEST_SKIP() << "microsocks: " << proxy.log();
  useHttps();
  server.enqueue(body("secure"));
  Response response = through(Proxy::socks5h("127.0.0.1", proxy.port()))
                          .newCall(Request::Builder().url(server.url("/")).build())
                          ->execute();
  EXPECT_EQ(response.protocol(), Protocol::HTTP_2);
  EXPECT_EQ(response.body()->string(), "secure");
}

TEST_F(RealProxyTest, MicrosocksUsernamePassword) {
  Microsocks proxy;
  if (!proxy.start(std::pair<std::string, std::string>{"ann", "s3cret"})) {
    GTEST_SKIP() << "microsocks: " << proxy.log();
  }
  server.enqueue(body("authenticated"));
  Client good = through(Proxy::socks5("127.0.0.1", proxy.port()).withCredentials("ann", "s3cret"));
  EXPECT_EQ(good.newCall(get())->execute().body()->string(), "authenticated");
  Client bad = through(Proxy::socks5("127.0.0.1", proxy.port()).withCredentials("ann", "wrong"));
  EXPECT_THROW(bad.newCall(get())->execute(), ProxyException);
  Client none = through(Proxy::socks5("127.0.0.1", proxy.port()));
  EXPECT_THROW(none.newCall(get())->execute(), ProxyException);
}

TEST_F(RealProxyTest, MicrosocksCannotReachTheOrigin) {
  Microsocks proxy;
  if (!proxy.start()) GTEST_SKIP() << "microsocks: " << proxy.log();
  const int dead = freeLoopbackPort();
  try {
    through(Proxy::socks5("127.0.0.1", proxy.port()))
        .newCall(Request::Builder().url("http://127.0.0.1:" + std::to_string(dead) + "/").build())
        ->execute();
    FAIL();
  } catch (const ProxyException& e) {
    EXPECT_EQ(e.responseCode(), 0);
    EXPECT_TRUE(std::string_view(e.what()).starts_with("SOCKS5 proxy could not connect: "))
        << e.what();
  }
}

// An HTTPS proxy: stunnel's TLS in front of tinyproxy, with the test's certificate for
// localhost (trusted by the client through its handshake certificates).
class HttpsProxyTest : public RealProxyTest {
 protected:
  bool startProxy() {
    if (!tinyproxy.start()) return false;
    return stunnel.start(tinyproxy.port(), certificates.localhost.certificatePem() +
                                               certificates.localhost.privateKeyPkcs8Pem());
  }
  std::string logs() const { return tinyproxy.log() + stunnel.log(); }
  Tinyproxy tinyproxy;
  Stunnel stunnel;
};

TEST_F(HttpsProxyTest, PlainHttpThroughTheProxysTls) {
  if (!startProxy()) GTEST_SKIP() << "stunnel or tinyproxy: " << logs();
  server.enqueue(body("via an https proxy"));
  Client proxied = client.newBuilder()
                       .proxy(Proxy::https("localhost", stunnel.port()))
                       .proxyHandshakeCertificates(certificates.clientTrust())
                       .build();
  EXPECT_EQ(proxied.newCall(get("/x"))->execute().body()->string(), "via an https proxy");
  EXPECT_EQ(server.takeRequest().path(), "/x");
}

TEST_F(HttpsProxyTest, TlsInsideTheProxysTlsWithHttp2) {
  if (!startProxy()) GTEST_SKIP() << "stunnel or tinyproxy: " << logs();
  useHttps();  // The client trusts the test root for both the proxy and the origin.
  server.enqueue(body("tls in tls"));
  server.enqueue(body("again"));
  Client proxied = through(Proxy::https("localhost", stunnel.port()));
  Response response = proxied.newCall(Request::Builder().url(server.url("/")).build())->execute();
  EXPECT_EQ(response.protocol(), Protocol::HTTP_2);
  EXPECT_EQ(response.body()->string(), "tls in tls");
  EXPECT_EQ(
      proxied.newCall(Request::Builder().url(server.url("/")).build())->execute().body()->string(),
      "again");
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
  EXPECT_EQ(server.takeRequest().connectionIndex(), 0);
}

TEST_F(HttpsProxyTest, TlsInsideTheProxysTlsWithHttp1AndALargeBody) {
  if (!startProxy()) GTEST_SKIP() << "stunnel or tinyproxy: " << logs();
  useHttps({Protocol::HTTP_1_1});
  std::string big(3 * 1024 * 1024 + 17, 'x');
  server.enqueue(body(big));
  Client proxied = through(Proxy::https("localhost", stunnel.port()));
  Response response =
      proxied
          .newCall(Request::Builder().url(server.url("/")).post(RequestBody::create(big)).build())
          ->execute();
  EXPECT_EQ(response.protocol(), Protocol::HTTP_1_1);
  EXPECT_EQ(response.body()->string().size(), big.size());
  EXPECT_EQ(server.takeRequest().bodySize(), static_cast<int64_t>(big.size()));
}

TEST_F(HttpsProxyTest, UntrustedProxyCertificate) {
  if (!startProxy()) GTEST_SKIP() << "stunnel or tinyproxy: " << logs();
  // The client trusts the system's roots only: the proxy's test certificate fails.
  Client proxied = client.newBuilder().proxy(Proxy::https("localhost", stunnel.port())).build();
  EXPECT_THROW(proxied.newCall(get())->execute(), SSLHandshakeException);
  // Unless the proxy is an insecure host (curl's --proxy-insecure).
  server.enqueue(body("insecure"));
  Client insecure =
      proxied.newBuilder()
          .proxyHandshakeCertificates(
              tls::HandshakeCertificates::Builder().addInsecureHost("localhost").build())
          .build();
  EXPECT_EQ(insecure.newCall(get())->execute().body()->string(), "insecure");
}

TEST_F(HttpsProxyTest, ProxyCertificateForAnotherHost) {
  if (!startProxy()) GTEST_SKIP() << "stunnel or tinyproxy: " << logs();
  // proxy.test reaches the proxy too, but its certificate is for localhost and 127.0.0.1.
  Client proxied =
      client.newBuilder()
          .dns(Dns::of([](const std::string&) { return std::vector{InetAddress::loopbackIpv4()}; }))
          .proxy(Proxy::https("proxy.test", stunnel.port()))
          .proxyHandshakeCertificates(certificates.clientTrust())
          .build();
  EXPECT_THROW(proxied.newCall(get())->execute(), SSLPeerUnverifiedException);
}

}  // namespace
}  // namespace tern::testing
