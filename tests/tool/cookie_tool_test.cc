// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The tool's cookie options (-b data, -b FILE, -c FILE, -j) against curl 7.88 with the same
// arguments and the same MockWebServer: the same Cookie headers (the server echoes them), the
// same stdout and exit code, and the same cookie files but for the comment lines. Skipped where
// curl is not installed.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "temp_dir.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tool_process.h"

namespace tern::tool {
namespace {

using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;
using testing::findCurl;
using testing::runCurl;
using testing::runTern;
using testing::TempDir;
using testing::ToolRun;

// A session cookie, a domain cookie, an HttpOnly one, one for a deeper path, and a Secure one
// both clients refuse over http. Fixed dates, so two runs write the same files.
MockResponse setCookies() {
  return MockResponse::Builder()
      .addHeader("Set-Cookie", "sess=1; Path=/")
      .addHeader("Set-Cookie",
                 "dom=2; Domain=example.test; Path=/a; Expires=Fri, 01 Jan 2100 00:00:00 GMT")
      .addHeader("Set-Cookie", "http=3; HttpOnly; Path=/a/b; Expires=Sat, 01 Jan 2050 00:00:00 GMT")
      .addHeader("Set-Cookie", "sec=4; Secure; Path=/")
      .body("set\n")
      .build();
}

// /set... sets the cookies above; /redirect answers 302 to /echo with a cookie; anything else
// echoes the Cookie headers it got, one a line.
MockResponse respond(const RecordedRequest& request) {
  if (request.path().find("/set") != std::string::npos) return setCookies();
  if (request.path() == "/redirect") {
    return MockResponse::Builder()
        .code(302)
        .addHeader("Location", "/a/b/echo")
        .addHeader("Set-Cookie", "hop=1; Path=/")
        .build();
  }
  std::string text;
  for (const std::string& value : request.headers().values("Cookie")) text += value + "\n";
  return MockResponse::Builder().body(text.empty() ? "(no cookie)\n" : text).build();
}

// The lines of a cookie file that are cookies (comments and blanks dropped; "#HttpOnly_" lines
// kept), sorted: curl writes them in its hash order.
std::vector<std::string> cookieLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || (line.starts_with('#') && !line.starts_with("#HttpOnly_"))) continue;
    lines.push_back(line);
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

class CookieToolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (findCurl().empty()) GTEST_SKIP() << "curl is not installed";
    server_.setDispatcher(respond);
    server_.start();
  }

  // http://www.example.test:PORT/PATH, which --resolve (first in every run) sends to the server.
  std::string url(const std::string& path, const std::string& host = "www.example.test") {
    return "http://" + host + ":" + std::to_string(server_.port()) + path;
  }

  std::vector<std::string> withResolve(std::vector<std::string> args) {
    std::string port = std::to_string(server_.port());
    args.insert(args.begin(), {"-s", "--resolve", "www.example.test:" + port + ":127.0.0.1",
                               "--resolve", "api.example.test:" + port + ":127.0.0.1"});
    return args;
  }

  // Runs tern, then curl, with `args` (each "{dir}" is a directory of its own for each) and
  // expects the same stdout and exit code. Returns tern's run.
  ToolRun expectSameAsCurl(const std::vector<std::string>& args) {
    ToolRun tern = runTern(withResolve(inDirectory(args, ternDir_)));
    ToolRun curl = runCurl(withResolve(inDirectory(args, curlDir_)));
    EXPECT_EQ(tern.out, curl.out) << "tern's stderr: " << tern.err;
    EXPECT_EQ(tern.exitCode, curl.exitCode) << "tern's stderr: " << tern.err;
    return tern;
  }

  static std::vector<std::string> inDirectory(std::vector<std::string> args, const TempDir& dir) {
    for (std::string& arg : args) {
      if (size_t at = arg.find("{dir}"); at != std::string::npos) {
        arg.replace(at, 5, dir.path().string());
      }
    }
    return args;
  }

  // Writes the same file into both directories.
  void writeBoth(const std::string& name, const std::string& content) {
    ternDir_.write(name, content);
    curlDir_.write(name, content);
  }

  MockWebServer server_;
  TempDir ternDir_;
  TempDir curlDir_;
};

TEST_F(CookieToolTest, DataIsSentAsItIs) {
  ToolRun run = expectSameAsCurl({"-b", "x=1", "-b", "y=2; z= 3", url("/echo")});
  EXPECT_EQ(run.out, "x=1;y=2; z= 3\n");
}

TEST_F(CookieToolTest, DataWithoutTheEngineKeepsNothing) {
  // -b data alone does not turn the engine on: cookies set by the first URL are not sent on.
  ToolRun run = expectSameAsCurl({"-b", "x=1", url("/a/b/set"), url("/a/b/echo")});
  EXPECT_EQ(run.out, "set\nx=1\n");
}

TEST_F(CookieToolTest, FileCookiesGoInCurlsOrder) {
  // Same path length: longer domains, then longer names, then the newer (later line) first.
  writeBoth("cookies.txt",
            "# Netscape HTTP Cookie File\n"
            "www.example.test\tFALSE\t/\tFALSE\t0\ta\t1\n"
            ".example.test\tTRUE\t/\tFALSE\t0\tbbb\t2\n"
            ".example.test\tTRUE\t/\tFALSE\t4102444800\tcc\t3\n"
            "www.example.test\tFALSE\t/\tFALSE\t0\tn1\tx\n"
            "#HttpOnly_www.example.test\tFALSE\t/\tFALSE\t4102444800\tn2\ty\n"
            "www.example.test\tFALSE\t/a/b\tFALSE\t0\tdeep\t1\n"
            "www.example.test\tFALSE\t/\tFALSE\t1000\texpired\t1\n"
            "other.test\tFALSE\t/\tFALSE\t0\tother\t1\n");
  ToolRun run = expectSameAsCurl({"-b", "{dir}/cookies.txt", url("/a/b/echo")});
  EXPECT_EQ(run.out, "deep=1; n2=y; n1=x; a=1; bbb=2; cc=3\n");
  expectSameAsCurl({"-b", "{dir}/cookies.txt", url("/echo", "api.example.test")});
  // -j drops the session cookies read; -b data follows the file's cookies.
  run = expectSameAsCurl({"-j", "-b", "{dir}/cookies.txt", "-b", "x=1", url("/a/b/echo")});
  EXPECT_EQ(run.out, "n2=y; cc=3; x=1\n");
}

TEST_F(CookieToolTest, MissingCookieFileIsNoCookiesButTurnsTheEngineOn) {
  ToolRun run = expectSameAsCurl({"-b", "{dir}/absent.txt", url("/a/b/set"), url("/a/b/echo")});
  EXPECT_EQ(run.out, "set\nhttp=3; dom=2; sess=1\n");
  run = expectSameAsCurl({"-b", "@{dir}/absent=1", url("/echo")});  // '@': a file, even with '='.
  EXPECT_EQ(run.out, "(no cookie)\n");
}

TEST_F(CookieToolTest, CookieJarIsWrittenAsCurlWritesIt) {
  ToolRun run = expectSameAsCurl({"-c", "{dir}/jar.txt", url("/a/b/set"), url("/a/b/echo")});
  EXPECT_EQ(run.out, "set\nhttp=3; dom=2; sess=1\n");
  std::string ternJar = ternDir_.read("jar.txt");
  std::string curlJar = curlDir_.read("jar.txt");
  EXPECT_TRUE(ternJar.starts_with("# Netscape HTTP Cookie File\n")) << ternJar;
  EXPECT_EQ(cookieLines(ternJar), cookieLines(curlJar)) << ternJar << "\n---\n" << curlJar;
  EXPECT_EQ(cookieLines(ternJar),
            (std::vector<std::string>{
                "#HttpOnly_www.example.test\tFALSE\t/a/b\tFALSE\t2524608000\thttp\t3",
                ".example.test\tTRUE\t/a\tFALSE\t4102444800\tdom\t2",
                "www.example.test\tFALSE\t/\tFALSE\t0\tsess\t1"}));
}

TEST_F(CookieToolTest, CookieJarReadBackByBothClients) {
  expectSameAsCurl({"-c", "{dir}/jar.txt", url("/a/b/set")});
  // Each reads its own jar, then the other's: the same cookies go out.
  ToolRun run = expectSameAsCurl({"-b", "{dir}/jar.txt", url("/a/b/echo")});
  EXPECT_EQ(run.out, "http=3; dom=2; sess=1\n");
  ToolRun ternReadsCurls = runTern(withResolve(
      {"-b", (curlDir_.path() / "jar.txt").string(), url("/a/b/echo", "api.example.test")}));
  ToolRun curlReadsTerns = runCurl(withResolve(
      {"-b", (ternDir_.path() / "jar.txt").string(), url("/a/b/echo", "api.example.test")}));
  EXPECT_EQ(ternReadsCurls.out, "dom=2\n");
  EXPECT_EQ(curlReadsTerns.out, "dom=2\n");
}

TEST_F(CookieToolTest, EmptyJarIsStillWritten) {
  expectSameAsCurl({"-c", "{dir}/jar.txt", url("/echo")});
  EXPECT_TRUE(cookieLines(ternDir_.read("jar.txt")).empty());
  EXPECT_TRUE(ternDir_.read("jar.txt").starts_with("# Netscape HTTP Cookie File\n"));
  EXPECT_TRUE(curlDir_.read("jar.txt").starts_with("# Netscape HTTP Cookie File\n"));
}

TEST_F(CookieToolTest, JarToStdout) {
  ToolRun tern = runTern(withResolve({"-c", "-", url("/a/b/set")}));
  ToolRun curl = runCurl(withResolve({"-c", "-", url("/a/b/set")}));
  EXPECT_EQ(cookieLines(tern.out), cookieLines(curl.out)) << tern.out << "---\n" << curl.out;
  EXPECT_TRUE(tern.out.starts_with("set\n# Netscape HTTP Cookie File\n")) << tern.out;
}

TEST_F(CookieToolTest, UpdatingAJarKeepsTheOthersAndDropsTheDeleted) {
  writeBoth("jar.txt",
            "www.example.test\tFALSE\t/\tFALSE\t0\tsess\told\n"
            "www.example.test\tFALSE\t/\tFALSE\t4102444800\tkeep\t1\n"
            "www.example.test\tFALSE\t/\tFALSE\t0\tjunk\t1\n");
  expectSameAsCurl({"-j", "-b", "{dir}/jar.txt", "-c", "{dir}/jar.txt", url("/a/b/set")});
  EXPECT_EQ(cookieLines(ternDir_.read("jar.txt")), cookieLines(curlDir_.read("jar.txt")));
  EXPECT_EQ(cookieLines(ternDir_.read("jar.txt")).size(), 4u);  // keep, sess, dom, http.
}

TEST_F(CookieToolTest, CookiesFollowRedirects) {
  ToolRun run = expectSameAsCurl({"-L", "-c", "{dir}/jar.txt", url("/redirect")});
  EXPECT_EQ(run.out, "hop=1\n");
}

TEST_F(CookieToolTest, UnwritableJarIsNotAnError) {
  ToolRun run = expectSameAsCurl({"-c", "{dir}/no/such/dir/jar.txt", url("/a/b/set")});
  EXPECT_EQ(run.exitCode, 0);
  ToolRun verbose = runTern(
      withResolve({"-v", "-c", (ternDir_.path() / "no/jar.txt").string(), url("/a/b/set")}));
  EXPECT_NE(verbose.err.find("* WARNING: failed to save cookies in "), std::string::npos)
      << verbose.err;
}

TEST_F(CookieToolTest, CustomCookieHeaderReplacesTheData) {
  expectSameAsCurl({"-H", "Cookie: mine=1", "-b", "x=1", url("/echo")});
}

}  // namespace
}  // namespace tern::tool
