// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// InMemoryCookieJar and FileCookieJar on a Client, end to end against MockWebServer: cookies a
// response sets go back on the next request by the domain, path, Secure and expiry rules; and
// cookie files round-trip with curl's (what curl writes tern reads and sends the same, what tern
// writes curl reads and sends the same).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "call/call_fixture.h"
#include "call/https_fixture.h"
#include "support/call_fakes.h"
#include "tern/file_cookie_jar.h"
#include "tern/in_memory_cookie_jar.h"

extern char** environ;

namespace tern::testing {
namespace {

constexpr const char* kCurl = "/usr/bin/curl";

// Runs curl with `args` (output and errors discarded) and returns its exit status.
int runCurl(const std::vector<std::string>& args) {
  std::vector<std::string> argvStrings{kCurl};
  argvStrings.insert(argvStrings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argvStrings) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  int spawned = ::posix_spawn(&pid, kCurl, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class TempDirectory {
 public:
  TempDirectory() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("tern_cookie_jars_call_test_" + std::to_string(::getpid()) + "_" +
             std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDirectory() {
    std::error_code ignored;  // Best effort: a leftover temporary directory fails nothing.
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Calls to names under example.test, all resolved to the server on 127.0.0.1.
class CookieJarsCallTest : public CallFixture {
 protected:
  CookieJarsCallTest() {
    dns->set("*", {*InetAddress::parse("127.0.0.1")});
    server.start();
  }

  Client withJar(std::shared_ptr<CookieJar> jar) {
    return client.newBuilder().dns(dns).cookieJar(std::move(jar)).build();
  }

  // http://HOST:PORT/PATH on the server.
  std::string on(const std::string& host, const std::string& path = "/") {
    return "http://" + host + ":" + std::to_string(server.port()) + path;
  }

  // Fetches `url` and returns the Cookie header the server received (empty: none).
  std::string cookieSent(const Client& c, const std::string& url) {
    server.enqueue(body("ok"));
    c.newCall(Request::Builder().url(url).build())->execute().body()->string();
    return server.takeRequest().headers().get("Cookie").value_or("");
  }

  // Fetches `url`, answered with these Set-Cookie headers.
  void receive(const Client& c, const std::string& url,
               const std::vector<std::string>& setCookies) {
    MockResponse::Builder response;
    for (const std::string& setCookie : setCookies) response.addHeader("Set-Cookie", setCookie);
    server.enqueue(response.body("ok").build());
    c.newCall(Request::Builder().url(url).build())->execute().body()->string();
    server.takeRequest();
  }

  // curl's arguments to reach `host` on the server.
  std::vector<std::string> curlResolve(const std::string& host) {
    return {"--resolve", host + ":" + std::to_string(server.port()) + ":127.0.0.1"};
  }

  std::shared_ptr<FakeDns> dns = std::make_shared<FakeDns>();
};

TEST_F(CookieJarsCallTest, CookiesSetByAResponseGoOnTheNextRequest) {
  Client c = withJar(std::make_shared<InMemoryCookieJar>());
  receive(c, on("www.example.test"), {"a=1", "b=2; Max-Age=3600"});
  EXPECT_EQ(cookieSent(c, on("www.example.test")), "a=1; b=2");
  EXPECT_EQ(cookieSent(c, on("www.example.test", "/other/page")), "a=1; b=2");
}

TEST_F(CookieJarsCallTest, DomainAndPathRules) {
  Client c = withJar(std::make_shared<InMemoryCookieJar>());
  receive(c, on("www.example.test", "/shop/cart"),
          {"host=1", "dom=2; Domain=example.test; Path=/", "deep=3; Path=/shop/cart",
           "foreign=4; Domain=other.test", "suffix=5; Domain=test"});
  EXPECT_EQ(cookieSent(c, on("www.example.test", "/shop/cart")), "deep=3; host=1; dom=2");
  EXPECT_EQ(cookieSent(c, on("www.example.test", "/shop")), "host=1; dom=2");
  EXPECT_EQ(cookieSent(c, on("www.example.test", "/")), "dom=2");
  EXPECT_EQ(cookieSent(c, on("api.example.test", "/shop/cart")), "dom=2");
  EXPECT_EQ(cookieSent(c, on("other.test", "/")), "");
}

TEST_F(CookieJarsCallTest, ExpiredCookiesAreNotSent) {
  // The bridge measures Max-Age by the system clock; the jar's clock runs ahead on demand.
  auto ahead = std::make_shared<std::atomic<int64_t>>(0);
  auto jar = std::make_shared<InMemoryCookieJar>(InMemoryCookieJar::Limits{}, [ahead] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
               .count() +
           ahead->load();
  });
  Client c = withJar(jar);
  receive(c, on("example.test"), {"short=1; Max-Age=60", "long=2; Max-Age=7200", "session=3"});
  EXPECT_EQ(cookieSent(c, on("example.test")), "short=1; long=2; session=3");
  *ahead = 120'000;
  EXPECT_EQ(cookieSent(c, on("example.test")), "long=2; session=3");
  receive(c, on("example.test"), {"long=gone; Expires=Thu, 01 Jan 1970 00:00:00 GMT"});
  EXPECT_EQ(cookieSent(c, on("example.test")), "session=3");
}

TEST_F(CookieJarsCallTest, CookiesFromARedirectGoToItsTarget) {
  Client c = withJar(std::make_shared<InMemoryCookieJar>());
  server.enqueue(MockResponse::Builder()
                     .code(302)
                     .addHeader("Location", on("www.example.test", "/landing"))
                     .addHeader("Set-Cookie", "login=ok; Domain=example.test")
                     .build());
  server.enqueue(body("landed"));
  c.newCall(Request::Builder().url(on("auth.example.test", "/login")).build())
      ->execute()
      .body()
      ->string();
  EXPECT_FALSE(server.takeRequest().headers().get("Cookie"));
  EXPECT_EQ(server.takeRequest().headers().get("Cookie"), "login=ok");
}

using SecureCookieCallTest = HttpsFixture;

TEST_F(SecureCookieCallTest, SecureCookiesGoOnlyOverHttps) {
  auto jar = std::make_shared<InMemoryCookieJar>();
  Client c = clientBuilder().cookieJar(jar).build();
  server.enqueue(MockResponse::Builder()
                     .addHeader("Set-Cookie", "s=1; Secure")
                     .addHeader("Set-Cookie", "p=2")
                     .body("ok")
                     .build());
  c.newCall(Request::Builder().url(server.url("/")).build())->execute().body()->string();
  server.takeRequest();
  server.enqueue(body("ok"));
  c.newCall(Request::Builder().url(server.url("/")).build())->execute().body()->string();
  EXPECT_EQ(server.takeRequest().headers().get("Cookie"), "s=1; p=2");

  // The same host over http (another server, as cookies ignore ports) gets only the plain one,
  // and cannot replace the Secure one.
  MockWebServer plain;
  plain.enqueue(MockResponse::Builder().addHeader("Set-Cookie", "s=evil").body("ok").build());
  plain.enqueue(body("ok"));
  for (int i = 0; i < 2; ++i) {
    c.newCall(Request::Builder().url(plain.url("/")).build())->execute().body()->string();
    EXPECT_EQ(plain.takeRequest().headers().get("Cookie"), "p=2");
  }
  std::vector<Cookie> cookies = jar->cookies();
  ASSERT_EQ(cookies.size(), 2u);
  EXPECT_EQ(cookies[0].value(), "1");
}

// Cookies whose Cookie header order is the same by curl's rule (path length, then domain and
// name length, then newest) and RFC 6265bis's (path length, then oldest): one per path length.
const std::vector<std::string> kSetCookies = {
    "sess=1; Path=/",                                                      // A session cookie.
    "dom=2; Domain=example.test; Path=/a; Max-Age=3600",                   // A domain cookie.
    "http=3; HttpOnly; Path=/a/b; Expires=Fri, 01 Jan 2100 00:00:00 GMT",  // HttpOnly.
    "sec=4; Secure; Path=/a/b/c; Max-Age=3600",  // Refused over http by both.
};

TEST_F(CookieJarsCallTest, TernReadsAndSendsWhatCurlWrote) {
  if (::access(kCurl, X_OK) != 0) GTEST_SKIP() << "curl is not installed at " << kCurl;
  TempDirectory dir;
  std::filesystem::path file = dir.path() / "curl-cookies.txt";
  MockResponse::Builder response;
  for (const std::string& setCookie : kSetCookies) response.addHeader("Set-Cookie", setCookie);
  server.enqueue(response.body("ok").build());
  std::vector<std::string> args = curlResolve("www.example.test");
  args.insert(args.end(), {"-s", "-c", file.string(), on("www.example.test", "/a/b/page")});
  ASSERT_EQ(runCurl(args), 0);
  server.takeRequest();

  std::vector<Cookie> written = FileCookieJar::readFile(file);
  ASSERT_EQ(written.size(), 3u);  // curl wrote the session, domain and HttpOnly cookies.
  auto jar = std::make_shared<FileCookieJar>(file);
  Client c = withJar(jar);
  EXPECT_EQ(cookieSent(c, on("www.example.test", "/a/b/c")), "http=3; dom=2; sess=1");
  EXPECT_EQ(cookieSent(c, on("api.example.test", "/a/b/c")), "dom=2");

  // curl, reading its own file for the same URLs, sends the same.
  for (std::string host : {"www.example.test", "api.example.test"}) {
    server.enqueue(body("ok"));
    args = curlResolve(host);
    args.insert(args.end(), {"-s", "-b", file.string(), on(host, "/a/b/c")});
    ASSERT_EQ(runCurl(args), 0);
    EXPECT_EQ(server.takeRequest().headers().get("Cookie").value_or(""),
              host == "www.example.test" ? "http=3; dom=2; sess=1" : "dom=2");
  }
}

TEST_F(CookieJarsCallTest, CurlReadsAndSendsWhatTernWrote) {
  if (::access(kCurl, X_OK) != 0) GTEST_SKIP() << "curl is not installed at " << kCurl;
  TempDirectory dir;
  std::filesystem::path file = dir.path() / "tern-cookies.txt";
  auto jar = std::make_shared<FileCookieJar>(file);
  Client c = withJar(jar);
  receive(c, on("www.example.test", "/a/b/page"), kSetCookies);
  jar->save();

  for (std::string host : {"www.example.test", "api.example.test"}) {
    std::string tern = cookieSent(c, on(host, "/a/b/c"));
    server.enqueue(body("ok"));
    std::vector<std::string> args = curlResolve(host);
    args.insert(args.end(), {"-s", "-b", file.string(), on(host, "/a/b/c")});
    ASSERT_EQ(runCurl(args), 0);
    EXPECT_EQ(server.takeRequest().headers().get("Cookie").value_or(""), tern) << host;
    EXPECT_EQ(tern, host == "www.example.test" ? "http=3; dom=2; sess=1" : "dom=2");
  }

  // And curl writing the jar again (-b and -c) keeps every cookie, field for field.
  std::filesystem::path again = dir.path() / "again.txt";
  server.enqueue(body("ok"));
  std::vector<std::string> args = curlResolve("www.example.test");
  args.insert(args.end(),
              {"-s", "-b", file.string(), "-c", again.string(), on("www.example.test", "/")});
  ASSERT_EQ(runCurl(args), 0);
  server.takeRequest();
  std::vector<Cookie> ours = FileCookieJar::readFile(file);
  std::vector<Cookie> theirs = FileCookieJar::readFile(again);
  auto byName = [](const Cookie& a, const Cookie& b) { return a.name() < b.name(); };
  std::sort(ours.begin(), ours.end(), byName);
  std::sort(theirs.begin(), theirs.end(), byName);
  EXPECT_EQ(ours, theirs);
}

}  // namespace
}  // namespace tern::testing
