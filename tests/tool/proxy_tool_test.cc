// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The built `tern` and curl itself through real proxies on loopback: tinyproxy (HTTP proxy,
// CONNECT tunnels, Basic authentication) and microsocks (SOCKS5, with and without a username and
// password), with the same arguments and environment: the same stdout bytes and exit code (curl
// 7.88's are the specification), and tern's message for each failure. Skipped where curl,
// tinyproxy or microsocks is not installed (scripts/setup.sh installs them).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "support/child_process.h"
#include "support/proxy_servers.h"
#include "support/tls_certificates.h"
#include "temp_dir.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tool_process.h"

namespace tern::tool {
namespace {

using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;
using tern::testing::freeLoopbackPort;
using tern::testing::TestCertificates;
using testing::findCurl;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;
using testing::runProgram;
using testing::TempDir;
using testing::ToolRun;

// The variables curl and tern read a proxy from: every run starts without them, so the test's
// own environment cannot change what it checks.
constexpr const char* kProxyVariables[] = {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY",
                                           "all_proxy",  "ALL_PROXY",  "no_proxy",    "NO_PROXY"};

// The request as the origin read it, without User-Agent (it names the client) and HTTP/2's
// pseudo-headers (whose order differs), so what the two clients sent through the proxy shows in
// their stdout.
MockResponse echo(const RecordedRequest& request) {
  std::string text = request.requestLine() + "\n";
  for (const auto& [name, value] : request.headers()) {
    if (name != "User-Agent" && name != "user-agent" && !name.starts_with(':')) {
      text += name + ": " + value + "\n";
    }
  }
  return MockResponse::Builder().body(text).build();
}

// tinyproxy on 127.0.0.1 (tests/support/proxy_servers.h): an HTTP proxy that tunnels (CONNECT)
// to `connectPorts` only, and asks for Basic credentials `user`:`password` if given.
class Tinyproxy : public tern::testing::Tinyproxy {
 public:
  Tinyproxy(const std::vector<int>& connectPorts,
            const std::optional<std::pair<std::string, std::string>>& auth)
      : running_(start(auth, connectPorts)) {}
  bool running() const { return running_; }

 private:
  bool running_;
};

// microsocks on 127.0.0.1: a SOCKS5 proxy, asking for `user`:`password` if given.
class Microsocks : public tern::testing::Microsocks {
 public:
  explicit Microsocks(const std::optional<std::pair<std::string, std::string>>& auth)
      : running_(start(auth)) {}
  bool running() const { return running_; }

 private:
  bool running_;
};

class ProxyToolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (findCurl().empty()) {
      GTEST_SKIP() << "curl is not installed (apt-get install curl), so tern cannot be compared";
    }
    origin_.setDispatcher(echo);
    origin_.start();
  }

  std::string url(std::string_view path = "/echo") { return origin_.url(path).toString(); }
  std::string proxyAt(int port, std::string_view scheme = "") {
    return std::string(scheme) + "127.0.0.1:" + std::to_string(port);
  }

  // Runs `program` with `args` and no proxy variable but those in `environment` ("name=value").
  static ToolRun run(const std::string& program, const std::vector<std::string>& args,
                     const std::vector<std::string>& environment) {
    std::vector<std::string> envArgs;
    for (const char* name : kProxyVariables) envArgs.insert(envArgs.end(), {"-u", name});
    envArgs.insert(envArgs.end(), environment.begin(), environment.end());
    envArgs.push_back(program);
    envArgs.insert(envArgs.end(), args.begin(), args.end());
    return runProgram("/usr/bin/env", envArgs);
  }

  // Runs curl and then tern with `args` (and `environment`), expects the same stdout and exit
  // code, and returns tern's run.
  ToolRun expectSameAsCurl(const std::vector<std::string>& args,
                           const std::vector<std::string>& environment = {}) {
    ToolRun curl = run(findCurl(), args, environment);
    ToolRun tern = run(TERN_TOOL_PATH, args, environment);
    EXPECT_EQ(tern.out, curl.out) << "stderr of curl:\n"
                                  << curl.err << "stderr of tern:\n"
                                  << tern.err;
    EXPECT_EQ(tern.exitCode, curl.exitCode) << "stderr of curl:\n"
                                            << curl.err << "stderr of tern:\n"
                                            << tern.err;
    return tern;
  }

  MockWebServer origin_;
};

#define SKIP_UNLESS_RUNNING(proxy, package)                                                    \
  if (!(proxy).running()) {                                                                    \
    GTEST_SKIP() << package " did not start (apt-get install " package "): " << (proxy).log(); \
  }

TEST_F(ProxyToolTest, PlainHttpThroughTheProxy) {
  Tinyproxy proxy({}, std::nullopt);
  SKIP_UNLESS_RUNNING(proxy, "tinyproxy");
  ToolRun run = expectSameAsCurl({"-sS", "-x", proxyAt(proxy.port()), url()});
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_THAT(run.out, HasSubstr("tinyproxy"));  // Its Via header: the request went through it.
  // The same with the scheme, and with --proxy.
  expectSameAsCurl({"-sS", "--proxy", proxyAt(proxy.port(), "http://"), url()});
}

TEST_F(ProxyToolTest, VerboseNamesTheProxy) {
  Tinyproxy proxy({}, std::nullopt);
  SKIP_UNLESS_RUNNING(proxy, "tinyproxy");
  ToolRun run = expectSameAsCurl({"-sS", "-v", "-x", proxyAt(proxy.port()), url()});
  const std::string port = std::to_string(proxy.port());
  EXPECT_THAT(run.err, HasSubstr("*   Trying 127.0.0.1:" + port + "...\n"));
  EXPECT_THAT(run.err, HasSubstr("* Connected to 127.0.0.1 (127.0.0.1) port " + port + " (#0)\n"));
  EXPECT_THAT(run.err, HasSubstr("> GET " + url() + " HTTP/1.1\r\n"));
  EXPECT_THAT(run.err, HasSubstr("* Connection #0 to host 127.0.0.1 left intact\n"));
}

TEST_F(ProxyToolTest, EnvironmentVariables) {
  Tinyproxy proxy({}, std::nullopt);
  SKIP_UNLESS_RUNNING(proxy, "tinyproxy");
  const std::string at = proxyAt(proxy.port());
  ToolRun viaEnv = expectSameAsCurl({"-sS", url()}, {"http_proxy=" + at});
  EXPECT_THAT(viaEnv.out, HasSubstr("tinyproxy"));
  expectSameAsCurl({"-sS", url()}, {"all_proxy=" + at});
  // HTTP_PROXY is never read (httpoxy): a proxy that refuses would fail the transfer.
  ToolRun upper = expectSameAsCurl({"-sS", url()}, {"HTTP_PROXY=127.0.0.1:1"});
  EXPECT_THAT(upper.out, Not(HasSubstr("tinyproxy")));
  // no_proxy, --noproxy over it, and -x "" turning the environment's proxy off.
  expectSameAsCurl({"-sS", url()}, {"http_proxy=127.0.0.1:1", "no_proxy=127.0.0.1"});
  expectSameAsCurl({"-sS", "--noproxy", "", url()}, {"http_proxy=" + at, "no_proxy=127.0.0.1"});
  ToolRun off = expectSameAsCurl({"-sS", "-x", "", url()}, {"http_proxy=127.0.0.1:1"});
  EXPECT_EQ(off.exitCode, 0);
  // A variable that does not parse fails each transfer, as curl's.
  ToolRun bad = expectSameAsCurl({"-sS", url()}, {"http_proxy=foo://127.0.0.1:1"});
  EXPECT_EQ(bad.err, "tern: (7) Unsupported proxy scheme for 'foo://127.0.0.1:1'\n");
}

TEST_F(ProxyToolTest, ConnectToThroughTheProxies) {
  // --connect-to with -x: the proxy is asked for the rule's target (tinyproxy gets a CONNECT to
  // it, even for an http:// URL; microsocks the target's name), and the request inside names the
  // URL's host. The URL's own port has nothing listening.
  const std::string rule = "origin.test:9:localhost:" + std::to_string(origin_.port());
  const std::string target = "http://origin.test:9/echo";
  Tinyproxy http({origin_.port()}, std::nullopt);
  SKIP_UNLESS_RUNNING(http, "tinyproxy");
  ToolRun viaHttp =
      expectSameAsCurl({"-sS", "-x", proxyAt(http.port()), "--connect-to", rule, target});
  EXPECT_EQ(viaHttp.exitCode, 0);
  EXPECT_THAT(viaHttp.out, HasSubstr("GET /echo HTTP/1.1\nHost: origin.test:9\n"));
  Microsocks socks(std::nullopt);
  SKIP_UNLESS_RUNNING(socks, "microsocks");
  for (const char* scheme : {"socks5://", "socks5h://"}) {
    SCOPED_TRACE(scheme);
    ToolRun viaSocks = expectSameAsCurl(
        {"-sS", "-x", proxyAt(socks.port(), scheme), "--connect-to", rule, target});
    EXPECT_EQ(viaSocks.exitCode, 0);
    EXPECT_THAT(viaSocks.out, HasSubstr("Host: origin.test:9\n"));
  }
}

TEST_F(ProxyToolTest, NoProxyGoesDirect) {
  // The proxy refuses connections: only a direct transfer succeeds.
  for (std::string list : {"127.0.0.1", "*", "localhost,127.0.0.0/8", "example.com, 127.0.0.1"}) {
    SCOPED_TRACE(list);
    ToolRun run = expectSameAsCurl({"-sS", "--noproxy", list, "-x", "127.0.0.1:1", url()});
    EXPECT_EQ(run.exitCode, 0);
  }
  // -x's proxy skips no_proxy's hosts too, as curl's.
  expectSameAsCurl({"-sS", "-x", "127.0.0.1:1", url()}, {"no_proxy=127.0.0.1"});
  ToolRun other = expectSameAsCurl({"-sS", "--noproxy", "example.com", "-x", "127.0.0.1:1", url()});
  EXPECT_EQ(other.exitCode, 7);
}

TEST_F(ProxyToolTest, ProxyAuthentication) {
  Tinyproxy proxy({}, std::pair{"user", "pass"});
  SKIP_UNLESS_RUNNING(proxy, "tinyproxy");
  const std::string at = proxyAt(proxy.port());
  ToolRun withU = expectSameAsCurl({"-sS", "-x", at, "-U", "user:pass", url()});
  EXPECT_THAT(withU.out, HasSubstr("GET /echo"));
  expectSameAsCurl({"-sS", "-x", "http://user:pass@" + at, url()});
  expectSameAsCurl({"-sS", "--proxy-basic", "--proxy-user", "user:pass", "-x", at, url()});
  // The proxy URL's credentials win over -U's, as in curl.
  expectSameAsCurl({"-sS", "-x", "http://user:pass@" + at, "-U", "user:wrong", url()});
  expectSameAsCurl({"-sS", "-x", "http://user:wrong@" + at, "-U", "user:pass", url()});
  // -U with the environment's proxy.
  expectSameAsCurl({"-sS", "-U", "user:pass", url()}, {"http_proxy=" + at});
  // Without credentials the proxy's 407 is the response: its page, exit 0.
  ToolRun without = expectSameAsCurl({"-sS", "-x", at, url()});
  EXPECT_EQ(without.exitCode, 0);
  EXPECT_THAT(without.out, HasSubstr("407"));
  expectSameAsCurl({"-sS", "-w", "%{http_code}", "-o", "/dev/null", "-x", at, url()});
}

// https origins (over HTTP/1.1, and HTTP/2 in HttpsThroughAConnectTunnelOverHttp2).
class ProxyToolTlsTest : public ProxyToolTest {
 protected:
  void SetUp() override {
    if (findCurl().empty()) GTEST_SKIP() << "curl is not installed";
    origin_.useHttps(certificates_.server());
    ProxyToolTest::SetUp();
    caFile_ = files_.write("ca.pem", certificates_.root.certificatePem()).string();
  }

  TestCertificates certificates_;
  TempDir files_;
  std::string caFile_;
};

TEST_F(ProxyToolTlsTest, HttpsThroughAConnectTunnel) {
  Tinyproxy proxy({origin_.port()}, std::pair{"user", "pass"});
  SKIP_UNLESS_RUNNING(proxy, "tinyproxy");
  const std::string at = proxyAt(proxy.port());
  ToolRun ok = expectSameAsCurl(
      {"-sS", "--http1.1", "--cacert", caFile_, "-x", at, "-U", "user:pass", url()});
  EXPECT_THAT(ok.out, HasSubstr("GET /echo"));
  // Without credentials the CONNECT is refused: curl's 56.
  ToolRun refused = expectSameAsCurl({"-sS", "--http1.1", "--cacert", caFile_, "-x", at, url()});
  EXPECT_EQ(refused.exitCode, 56);
  EXPECT_EQ(refused.err, "tern: (56) CONNECT tunnel failed, response 407\n");
  ToolRun wrong = expectSameAsCurl(
      {"-sS", "--http1.1", "--cacert", caFile_, "-x", at, "-U", "user:wrong", url()});
  EXPECT_EQ(wrong.err, "tern: (56) CONNECT tunnel failed, response 401\n");
  // -v says where the tunnel goes.
  ToolRun verbose = expectSameAsCurl(
      {"-sS", "-v", "--http1.1", "--cacert", caFile_, "-x", at, "-U", "user:pass", url()});
  EXPECT_THAT(verbose.err, HasSubstr("* Establish HTTP proxy tunnel to 127.0.0.1:" +
                                     std::to_string(origin_.port()) + "\n"));
  EXPECT_THAT(verbose.err, HasSubstr("* Proxy auth using Basic with user 'user'\n"));
}

TEST_F(ProxyToolTlsTest, HttpsThroughAConnectTunnelOverHttp2) {
  Tinyproxy proxy({origin_.port()}, std::nullopt);
  SKIP_UNLESS_RUNNING(proxy, "tinyproxy");
  // A relaying proxy may split a body's last DATA from its END_STREAM: many times, to see that a
  // connection released between them stays usable (it once was closed, failing the last read).
  for (int i = 0; i < 10; ++i) {
    ToolRun ok = expectSameAsCurl(
        {"-sS", "--cacert", caFile_, "-x", proxyAt(proxy.port()), url(), url("/two")});
    EXPECT_THAT(ok.out, HasSubstr("GET /two"));
  }
}

// An HTTPS proxy: stunnel's TLS (a certificate for localhost) in front of tinyproxy.
TEST_F(ProxyToolTlsTest, HttpsProxy) {
  Tinyproxy proxy({origin_.port()}, std::nullopt);
  SKIP_UNLESS_RUNNING(proxy, "tinyproxy");
  tern::testing::Stunnel tls;
  if (!tls.start(proxy.port(), certificates_.localhost.certificatePem() +
                                   certificates_.localhost.privateKeyPkcs8Pem())) {
    GTEST_SKIP() << "stunnel4 did not start (apt-get install stunnel4): " << tls.log();
  }
  const std::string at = "https://localhost:" + std::to_string(tls.port());
  // TLS to the origin inside the proxy's TLS, over HTTP/2 and HTTP/1.1.
  ToolRun h2 =
      expectSameAsCurl({"-sS", "--cacert", caFile_, "--proxy-cacert", caFile_, "-x", at, url()});
  EXPECT_EQ(h2.exitCode, 0);
  EXPECT_THAT(h2.out, HasSubstr("GET /echo"));
  expectSameAsCurl(
      {"-sS", "--http1.1", "--cacert", caFile_, "--proxy-cacert", caFile_, "-x", at, url()});
  // --proxy-insecure instead of the proxy's CA.
  expectSameAsCurl({"-sS", "--cacert", caFile_, "--proxy-insecure", "-x", at, url()});
  // --cacert is for the origin only: the proxy's certificate is checked against the system's
  // roots, which do not have the test's (curl's 60).
  ToolRun untrusted = expectSameAsCurl({"-sS", "--cacert", caFile_, "-x", at, url()});
  EXPECT_EQ(untrusted.exitCode, 60);
}

TEST_F(ProxyToolTlsTest, HttpsThroughSocks5) {
  Microsocks proxy(std::nullopt);
  SKIP_UNLESS_RUNNING(proxy, "microsocks");
  ToolRun run = expectSameAsCurl(
      {"-sS", "--http1.1", "--cacert", caFile_, "-x", proxyAt(proxy.port(), "socks5://"), url()});
  EXPECT_THAT(run.out, HasSubstr("GET /echo"));
}

TEST_F(ProxyToolTest, Socks5) {
  Microsocks proxy(std::nullopt);
  SKIP_UNLESS_RUNNING(proxy, "microsocks");
  const std::string at = proxyAt(proxy.port());
  const std::string byName = "http://localhost:" + std::to_string(origin_.port()) + "/echo";
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"-x", "socks5://" + at, url()},
           {"-x", "socks5h://" + at, byName},
           {"-x", "socks5://" + at, byName},
           {"--socks5", at, url()},
           {"--socks5-hostname", at, byName},
           {"-x", "127.0.0.1:1", "--socks5", at, url()}}) {  // The last proxy option wins.
    SCOPED_TRACE(args[1]);
    std::vector<std::string> all{"-sS"};
    all.insert(all.end(), args.begin(), args.end());
    ToolRun run = expectSameAsCurl(all);
    EXPECT_EQ(run.exitCode, 0);
    EXPECT_THAT(run.out, HasSubstr("GET /echo"));
  }
  ToolRun verbose = expectSameAsCurl({"-sS", "-v", "-x", "socks5h://" + at, byName});
  EXPECT_THAT(verbose.err,
              HasSubstr("* SOCKS5 connect to localhost:" + std::to_string(origin_.port()) +
                        " (remotely resolved)\n* SOCKS5 request granted.\n"));
  // The proxy cannot reach the origin: curl's 97 with the SOCKS5 reply code.
  const int closed = freeLoopbackPort();
  ToolRun refused =
      expectSameAsCurl({"-sS", "-x", "socks5://" + at, proxyAt(closed, "http://") + "/"});
  EXPECT_EQ(refused.exitCode, 97);
  EXPECT_EQ(refused.err, "tern: (97) Can't complete SOCKS5 connection to 127.0.0.1. (5)\n");
}

TEST_F(ProxyToolTest, Socks5WithUsernameAndPassword) {
  Microsocks proxy(std::pair{"user", "pass"});
  SKIP_UNLESS_RUNNING(proxy, "microsocks");
  const std::string at = proxyAt(proxy.port());
  const std::string byName = "http://localhost:" + std::to_string(origin_.port()) + "/echo";
  EXPECT_EQ(expectSameAsCurl({"-sS", "-x", "socks5://user:pass@" + at, url()}).exitCode, 0);
  EXPECT_EQ(expectSameAsCurl({"-sS", "-x", "socks5h://user:pass@" + at, byName}).exitCode, 0);
  EXPECT_EQ(expectSameAsCurl({"-sS", "-U", "user:pass", "-x", "socks5h://" + at, byName}).exitCode,
            0);
  ToolRun none = expectSameAsCurl({"-sS", "-x", "socks5://" + at, url()});
  EXPECT_EQ(none.exitCode, 97);
  EXPECT_EQ(none.err, "tern: (97) No authentication method was acceptable.\n");
  ToolRun wrong = expectSameAsCurl({"-sS", "-x", "socks5://user:wrong@" + at, url()});
  EXPECT_EQ(wrong.exitCode, 97);
  EXPECT_THAT(wrong.err, HasSubstr("tern: (97) User was rejected by the SOCKS5 server"));
}

TEST_F(ProxyToolTest, ProxyThatCannotBeReached) {
  // A name that does not resolve: 5 for an HTTP proxy, 6 for a SOCKS one (curl 7.88).
  ToolRun unresolved = expectSameAsCurl({"-sS", "-x", "nowhere.invalid:3128", url()});
  EXPECT_EQ(unresolved.exitCode, 5);
  EXPECT_EQ(unresolved.err, "tern: (5) Could not resolve proxy: nowhere.invalid\n");
  // curl 7.88 says 6 for a SOCKS proxy's name, usually: its threaded resolver sometimes makes it
  // 5 (seen once in many runs), so tern is checked against the usual answer, not a curl run.
  ToolRun socks = run(TERN_TOOL_PATH, {"-sS", "-x", "socks5h://nowhere.invalid", url()}, {});
  EXPECT_EQ(socks.exitCode, 6);
  EXPECT_EQ(socks.err, "tern: (6) Could not resolve host: nowhere.invalid\n");
  // A port that refuses: 7, naming the proxy.
  const int closed = freeLoopbackPort();
  for (std::string scheme : {"", "socks5://"}) {
    ToolRun refused = expectSameAsCurl({"-sS", "-x", proxyAt(closed, scheme), url()});
    EXPECT_EQ(refused.exitCode, 7);
    EXPECT_THAT(refused.err, MatchesRegex("tern: \\(7\\) Failed to connect to 127.0.0.1 port " +
                                          std::to_string(closed) +
                                          " after [0-9]+ ms: Couldn't connect to server\n"));
  }
}

TEST_F(ProxyToolTest, ProxiesThatDoNotParse) {
  ToolRun scheme = expectSameAsCurl({"-sS", "-x", "foo://127.0.0.1:1", url()});
  EXPECT_EQ(scheme.err, "tern: (7) Unsupported proxy scheme for 'foo://127.0.0.1:1'\n");
  ToolRun port = expectSameAsCurl({"-sS", "-x", "http://127.0.0.1:99999", url()});
  EXPECT_EQ(port.err, "tern: (5) Unsupported proxy syntax in 'http://127.0.0.1:99999'\n");
}

// Where tern knowingly differs: it has no SOCKS4, and fails as a curl built without it
// (CURLE_NOT_BUILT_IN). --proxy-cacert's file is read only when an HTTPS proxy may be used.
TEST_F(ProxyToolTest, Socks4IsNotBuiltIn) {
  ToolRun socks4 = run(TERN_TOOL_PATH, {"-sS", "-x", "socks4://127.0.0.1:1", url()}, {});
  EXPECT_EQ(socks4.exitCode, 4);
  ToolRun accepted = expectSameAsCurl(
      {"-sS", "--proxy-insecure", "--proxy-cacert", "/nonexistent", "--noproxy", "*", url()});
  EXPECT_EQ(accepted.exitCode, 0);
}

}  // namespace
}  // namespace tern::tool
