// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// --cache DIR, end to end: the built tern run twice on one directory against MockWebServer, what
// -i, -v and --trace-events show of the cache, -Z transfers collapsed into one fetch, and a
// directory another process holds.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "temp_dir.h"
#include "tern/cache.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tool_process.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::runTern;
using testing::TempDir;
using testing::ToolRun;

MockResponse fresh(std::string_view body) {
  return MockResponse::Builder().setHeader("Cache-Control", "max-age=60").body(body).build();
}

// Each test has its own server and its own cache directory (inside a TempDir).
class CacheToolTest : public ::testing::Test {
 protected:
  std::string url(std::string_view path) { return server_.url(path).toString(); }
  std::string cacheDir() const { return (temp_.path() / "cache").string(); }
  // tern with --cache and `args`.
  ToolRun tern(std::vector<std::string> args) {
    args.insert(args.begin(), {"--cache", cacheDir()});
    return runTern(args);
  }

  TempDir temp_;
  MockWebServer server_;
};

TEST_F(CacheToolTest, SecondRunIsServedFromTheCacheWithTheSameOutput) {
  server_.enqueue(fresh("stored body\n"));
  ToolRun first = tern({"-s", "-i", url("/doc")});
  ASSERT_EQ(first.exitCode, 0) << first.err;
  EXPECT_EQ(first.out,
            "HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: 12\r\n\r\n"
            "stored body\n");

  ToolRun second = tern({"-s", "-i", url("/doc")});
  EXPECT_EQ(second.exitCode, 0) << second.err;
  EXPECT_EQ(second.out, first.out);  // The stored head and body, byte for byte.

  // -w: the stored response's values; no connection was made.
  ToolRun written = tern({"-s", "-o", "/dev/null", "-w",
                          "%{http_code} %{num_connects} %{size_download}", url("/doc")});
  EXPECT_EQ(written.out, "200 0 12");
  EXPECT_EQ(server_.requestCount(), 1);
}

TEST_F(CacheToolTest, StaleResponseIsValidatedAndItsStoredBodyPrinted) {
  server_.enqueue(MockResponse::Builder()
                      .setHeader("Cache-Control", "max-age=0")
                      .setHeader("ETag", "\"v1\"")
                      .body("version one")
                      .build());
  server_.enqueue(MockResponse::Builder()
                      .status("HTTP/1.1 304 Not Modified")
                      .setHeader("ETag", "\"v1\"")
                      .build());
  ToolRun first = tern({"-s", url("/doc")});
  ASSERT_EQ(first.exitCode, 0) << first.err;

  ToolRun second = tern({"-v", "-i", url("/doc")});
  EXPECT_EQ(second.exitCode, 0) << second.err;
  // -i shows the response the caller got: the stored one, with the 304's headers.
  EXPECT_THAT(second.out, ::testing::StartsWith("HTTP/1.1 200 OK\r\n"));
  EXPECT_THAT(second.out, ::testing::EndsWith("\r\n\r\nversion one"));
  EXPECT_THAT(second.err, HasSubstr("* tern cache: stale, validating with the server\n"));
  EXPECT_THAT(second.err, HasSubstr("> If-None-Match: \"v1\"\r\n"));
  EXPECT_THAT(second.err, HasSubstr("< HTTP/1.1 304 Not Modified\r\n"));
  EXPECT_THAT(second.err, HasSubstr("* tern cache: conditional hit (validated with the server)\n"));
  ASSERT_EQ(server_.requestCount(), 2);
  server_.takeRequest();
  EXPECT_EQ(server_.takeRequest().headers().get("If-None-Match"), "\"v1\"");
}

TEST_F(CacheToolTest, ChangedResponseReplacesTheStoredOne) {
  server_.enqueue(MockResponse::Builder()
                      .setHeader("Cache-Control", "max-age=0")
                      .setHeader("ETag", "\"v1\"")
                      .body("version one")
                      .build());
  server_.enqueue(MockResponse::Builder()
                      .setHeader("Cache-Control", "max-age=60")
                      .setHeader("ETag", "\"v2\"")
                      .body("version two")
                      .build());
  ASSERT_EQ(tern({"-s", url("/doc")}).exitCode, 0);

  ToolRun second = tern({"-v", url("/doc")});
  EXPECT_EQ(second.out, "version two");
  EXPECT_THAT(second.err, HasSubstr("* tern cache: miss (the server sent a new response)\n"));

  ToolRun third = tern({"-s", url("/doc")});
  EXPECT_EQ(third.out, "version two");
  EXPECT_EQ(server_.requestCount(), 2);
}

TEST_F(CacheToolTest, StaleIfErrorShowsTheStoredHeadNotTheServers) {
  server_.enqueue(MockResponse::Builder()
                      .setHeader("Cache-Control", "max-age=0, stale-if-error=600")
                      .setHeader("ETag", "\"v1\"")
                      .body("kept")
                      .build());
  server_.enqueue(MockResponse::Builder().code(503).body("down").build());
  ToolRun first = tern({"-s", "-i", url("/doc")});
  ASSERT_EQ(first.exitCode, 0) << first.err;

  ToolRun second = tern({"-v", "-i", url("/doc")});
  EXPECT_EQ(second.exitCode, 0) << second.err;
  EXPECT_THAT(second.out, ::testing::StartsWith("HTTP/1.1 200 OK\r\n"));
  EXPECT_THAT(second.out, Not(HasSubstr("503")));
  EXPECT_THAT(second.out, ::testing::EndsWith("\r\n\r\nkept"));
  EXPECT_THAT(second.err, HasSubstr("< HTTP/1.1 503 "));
  EXPECT_THAT(second.err, HasSubstr("* tern cache: hit (stale, the server failed)\n"));
  EXPECT_EQ(server_.requestCount(), 2);
}

TEST_F(CacheToolTest, StaleWhileRevalidateServesTheStoredResponse) {
  server_.enqueue(MockResponse::Builder()
                      .setHeader("Cache-Control", "max-age=0, stale-while-revalidate=600")
                      .setHeader("ETag", "\"v1\"")
                      .body("kept")
                      .build());
  server_.enqueue(MockResponse::Builder()
                      .status("HTTP/1.1 304 Not Modified")
                      .setHeader("ETag", "\"v1\"")
                      .build());
  ASSERT_EQ(tern({"-s", url("/doc")}).exitCode, 0);

  // Served at once; the cache validates it in the background, and the run waits for that
  // before it closes the cache.
  ToolRun second = tern({"-v", url("/doc")});
  EXPECT_EQ(second.exitCode, 0) << second.err;
  EXPECT_EQ(second.out, "kept");
  EXPECT_THAT(second.err, HasSubstr("* tern cache: hit\n"));
  EXPECT_THAT(second.err, HasSubstr("> If-None-Match: \"v1\"\r\n"));
  EXPECT_EQ(server_.requestCount(), 2);
}

TEST_F(CacheToolTest, VerboseShowsEachOutcome) {
  server_.enqueue(fresh("a"));
  ToolRun miss = tern({"-v", url("/a")});
  EXPECT_EQ(miss.exitCode, 0) << miss.err;
  EXPECT_THAT(miss.err, HasSubstr("* tern cache: miss\n"));
  EXPECT_THAT(miss.err, HasSubstr("< HTTP/1.1 200 OK\r\n"));

  ToolRun hit = tern({"-v", url("/a")});
  EXPECT_EQ(hit.exitCode, 0) << hit.err;
  EXPECT_EQ(hit.out, "a");
  EXPECT_THAT(hit.err, HasSubstr("* tern cache: hit\n"));
  EXPECT_THAT(hit.err, Not(HasSubstr("Trying")));  // No connection at all.

  // only-if-cached for a URL the cache does not have: the cache's 504, as a response (exit 0
  // without -f, 22 with it, as for a server's).
  ToolRun unsatisfiable = tern({"-v", "-i", "-H", "Cache-Control: only-if-cached", url("/b")});
  EXPECT_EQ(unsatisfiable.exitCode, 0) << unsatisfiable.err;
  EXPECT_THAT(unsatisfiable.err, HasSubstr("* tern cache: unsatisfiable (only-if-cached)\n"));
  EXPECT_THAT(unsatisfiable.out,
              ::testing::StartsWith("HTTP/1.1 504 Unsatisfiable Request (only-if-cached)\r\n"));
  ToolRun failed = tern({"-sSf", "-H", "Cache-Control: only-if-cached", url("/b")});
  EXPECT_EQ(failed.exitCode, 22);
  EXPECT_EQ(server_.requestCount(), 1);
}

TEST_F(CacheToolTest, TraceEventsShowTheCacheEvents) {
  server_.enqueue(fresh("a"));
  ToolRun miss = tern({"--trace-events", url("/a")});
  EXPECT_EQ(miss.exitCode, 0) << miss.err;
  EXPECT_THAT(miss.err, HasSubstr(" 0 cacheMiss\n"));

  ToolRun hit = tern({"--trace-events", url("/a")});
  EXPECT_EQ(hit.exitCode, 0) << hit.err;
  EXPECT_THAT(hit.err, HasSubstr(" 0 cacheHit 200\n"));
  EXPECT_THAT(hit.err, Not(HasSubstr("connectStart")));
}

TEST_F(CacheToolTest, IncludeWithLocationShowsACachedRedirectsHead) {
  // The 301 is stored; the page it leads to is not, so the second run mixes a cached head and a
  // network one.
  server_.enqueue(MockResponse::Builder()
                      .status("HTTP/1.1 301 Moved Permanently")
                      .setHeader("Location", "/new")
                      .setHeader("Cache-Control", "max-age=60")
                      .body("moved")
                      .build());
  for (int i = 0; i < 2; ++i) {
    server_.enqueue(
        MockResponse::Builder().setHeader("Cache-Control", "no-store").body("new page").build());
  }
  ToolRun first = tern({"-s", "-i", "-L", url("/old")});
  ASSERT_EQ(first.exitCode, 0) << first.err;
  EXPECT_EQ(first.out,
            "HTTP/1.1 301 Moved Permanently\r\nLocation: /new\r\nCache-Control: max-age=60\r\n"
            "Content-Length: 5\r\n\r\n"
            "HTTP/1.1 200 OK\r\nCache-Control: no-store\r\nContent-Length: 8\r\n\r\n"
            "new page");

  ToolRun second = tern({"-v", "-i", "-L", url("/old")});
  EXPECT_EQ(second.exitCode, 0) << second.err;
  EXPECT_EQ(second.out, first.out);
  EXPECT_THAT(second.err, HasSubstr("* tern cache: hit\n"));
  EXPECT_THAT(second.err, HasSubstr("* tern cache: miss\n"));
  EXPECT_EQ(server_.requestCount(), 3);
  server_.takeRequest();
  server_.takeRequest();
  EXPECT_EQ(server_.takeRequest().path(), "/new");
}

TEST_F(CacheToolTest, ParallelTransfersOfOneUrlMakeOneRequest) {
  // A body slow enough (64 KiB at 8 KiB per 50 ms) that the second transfer asks while the
  // first is still reading: the cache collapses the two into one fetch.
  const std::string body(64 * 1024, 'x');
  server_.enqueue(MockResponse::Builder()
                      .setHeader("Cache-Control", "max-age=60")
                      .body(body)
                      .throttleBody(8 * 1024, 50ms)
                      .build());
  ToolRun run = runTern({"--cache", cacheDir(), "-s", "--trace-events", "-Z", url("/big"),
                         url("/big"), "-o", "one", "-o", "two"},
                        "", temp_.path());
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(temp_.read("one"), body);
  EXPECT_EQ(temp_.read("two"), body);
  EXPECT_EQ(server_.requestCount(), 1);
  // One call missed and fetched; the other was served from that fetch while it ran (its
  // cacheHit before any call ended), not from the entry it stored.
  size_t miss = run.err.find(" cacheMiss\n");
  size_t hit = run.err.find(" cacheHit 200\n");
  ASSERT_NE(miss, std::string::npos) << run.err;
  ASSERT_NE(hit, std::string::npos) << run.err;
  EXPECT_LT(hit, run.err.find(" callEnd\n")) << run.err;
}

TEST_F(CacheToolTest, LockedCacheDirectoryFallsBackToTheNetwork) {
  Cache holder(cacheDir(), 1024 * 1024);
  holder.initialize();  // This process holds the directory's lock now.
  server_.enqueue(fresh("from the network"));
  server_.enqueue(fresh("from the network"));

  ToolRun quiet = tern({"-s", url("/a")});
  EXPECT_EQ(quiet.exitCode, 0) << quiet.err;
  EXPECT_EQ(quiet.out, "from the network");
  EXPECT_EQ(quiet.err, "");

  ToolRun verbose = tern({"-v", url("/a")});
  EXPECT_EQ(verbose.exitCode, 0) << verbose.err;
  EXPECT_EQ(verbose.out, "from the network");
  EXPECT_THAT(verbose.err, HasSubstr("* tern cache: not used: Cache already open at '" +
                                     cacheDir() + "' in another process\n"));
  EXPECT_THAT(verbose.err, Not(HasSubstr("* tern cache: miss")));
  EXPECT_EQ(server_.requestCount(), 2);
}

TEST_F(CacheToolTest, DirectoryThatCannotBeMadeFallsBackToTheNetwork) {
  server_.enqueue(fresh("from the network"));
  temp_.write("file", "not a directory");
  ToolRun run = runTern({"-v", "--cache", (temp_.path() / "file" / "cache").string(), url("/a")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "from the network");
  EXPECT_THAT(run.err, HasSubstr("* tern cache: not used: "));
}

}  // namespace
}  // namespace tern::tool
