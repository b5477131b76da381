// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The built `tern` binary against MockWebServer: what a user sees on stdout, stderr and in the
// exit code, and what the server receives.
#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <nghttp2/nghttp2.h>
#include <nghttp3/nghttp3.h>
#include <ngtcp2/ngtcp2.h>

#include "temp_dir.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tern/version.h"
#include "tool_process.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;
using ::testing::HasSubstr;
using testing::runTern;
using ::testing::StartsWith;
using testing::TempDir;
using testing::ToolRun;

MockResponse body(std::string_view text) { return MockResponse::Builder().body(text).build(); }

// A loopback port whose listen backlog is full, so a new connection attempt gets no answer and
// waits until its connect timeout: the socket listens with a backlog of 0 and never accepts, and
// a few connections fill its queue (Linux then drops further SYNs).
class UnansweredPort {
 public:
  UnansweredPort() {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    ::listen(listener_, 0);
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    for (int i = 0; i < 4; ++i) {
      int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
      ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
      fillers_.push_back(fd);
    }
    std::this_thread::sleep_for(200ms);  // Let the handshakes that can complete complete.
  }
  ~UnansweredPort() {
    for (int fd : fillers_) {
      ::close(fd);
    }
    ::close(listener_);
  }
  UnansweredPort(const UnansweredPort&) = delete;
  UnansweredPort& operator=(const UnansweredPort&) = delete;

  int port() const { return port_; }

 private:
  int listener_ = -1;
  int port_ = 0;
  std::vector<int> fillers_;
};

class ToolEndToEndTest : public ::testing::Test {
 protected:
  std::string url(std::string_view path) { return server_.url(path).toString(); }

  RecordedRequest takeRequest() {
    std::optional<RecordedRequest> request = server_.takeRequest(10s);
    if (!request) {
      ADD_FAILURE() << "the server received no request";
      throw std::runtime_error("no request");
    }
    return *request;
  }

  MockWebServer server_;
};

TEST_F(ToolEndToEndTest, GetWritesTheBodyToStdout) {
  server_.enqueue(body("hello, tern"));
  ToolRun run = runTern({url("/greeting?x=1")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "hello, tern");
  EXPECT_EQ(run.err, "");
  RecordedRequest request = takeRequest();
  EXPECT_EQ(request.requestLine(), "GET /greeting?x=1 HTTP/1.1");
  EXPECT_EQ(request.headers().get("User-Agent"), "tern/" + std::string(tern::version()));
  EXPECT_EQ(request.headers().get("Accept"), "*/*");
}

TEST_F(ToolEndToEndTest, UrlWithoutSchemeIsHttp) {
  server_.enqueue(body("plain"));
  ToolRun run = runTern({"127.0.0.1:" + std::to_string(server_.port()) + "/p"});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "plain");
}

TEST_F(ToolEndToEndTest, OutputOptionWritesAFile) {
  TempDir dir;
  server_.enqueue(body("to a file"));
  std::string path = (dir.path() / "body.txt").string();
  ToolRun run = runTern({"-o", path, url("/")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(dir.read("body.txt"), "to a file");
}

TEST_F(ToolEndToEndTest, RemoteNameWritesToTheUrlsFileName) {
  TempDir dir;
  server_.enqueue(body("remote"));
  ToolRun run = runTern({"-O", url("/files/report.csv?version=2")}, "", dir.path());
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(dir.read("report.csv"), "remote");
}

TEST_F(ToolEndToEndTest, GlobFetchesEachUrlIntoItsNumberedFile) {
  TempDir dir;
  server_.enqueue(body("one"));
  server_.enqueue(body("two"));
  ToolRun run = runTern({"-o", "page_#1.txt", url("/page/[1-2]")}, "", dir.path());
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(dir.read("page_1.txt"), "one");
  EXPECT_EQ(dir.read("page_2.txt"), "two");
  EXPECT_EQ(takeRequest().path(), "/page/1");
  EXPECT_EQ(takeRequest().path(), "/page/2");
}

TEST_F(ToolEndToEndTest, GlobOffSendsBracketsAsTheyAre) {
  server_.enqueue(body("literal"));
  ToolRun run = runTern({"-g", url("/") + "a[1-2]"});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(server_.requestCount(), 1);
  EXPECT_EQ(takeRequest().path(), "/a[1-2]");
}

TEST_F(ToolEndToEndTest, BadGlobIsExitThreeWithCurlsMessage) {
  std::string pattern = url("/[1-");
  ToolRun run = runTern({pattern});
  EXPECT_EQ(run.exitCode, 3);
  size_t position = pattern.size() + 1;
  EXPECT_EQ(run.err, "tern: (3) bad range in URL position " + std::to_string(position) + ":\n" +
                         pattern + "\n" + std::string(position - 1, ' ') + "^\n");
  EXPECT_EQ(server_.requestCount(), 0);
}

TEST_F(ToolEndToEndTest, IncludePrintsTheResponseHeadBeforeTheBody) {
  server_.enqueue(MockResponse::Builder().addHeader("X-Custom", "yes").body("body").build());
  ToolRun run = runTern({"-i", url("/")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_THAT(run.out, StartsWith("HTTP/1.1 200 OK\r\n"));
  EXPECT_THAT(run.out, HasSubstr("X-Custom: yes\r\n"));
  EXPECT_THAT(run.out, HasSubstr("Content-Length: 4\r\n\r\nbody"));
}

TEST_F(ToolEndToEndTest, HeadSendsHeadAndPrintsOnlyTheHead) {
  server_.enqueue(MockResponse::Builder().addHeader("X-Custom", "yes").build());
  ToolRun run = runTern({"-I", url("/")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_THAT(run.out, StartsWith("HTTP/1.1 200 OK\r\n"));
  EXPECT_THAT(run.out, HasSubstr("X-Custom: yes\r\n"));
  EXPECT_EQ(run.out.substr(run.out.size() - 4), "\r\n\r\n");
  EXPECT_EQ(takeRequest().method(), "HEAD");
}

TEST_F(ToolEndToEndTest, DataIsPostedFormEncoded) {
  server_.enqueue(body("ok"));
  ToolRun run = runTern({"-d", "a=1", "-d", "b=2", url("/form")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  RecordedRequest request = takeRequest();
  EXPECT_EQ(request.method(), "POST");
  EXPECT_EQ(request.bodyUtf8(), "a=1&b=2");
  EXPECT_EQ(request.headers().get("Content-Type"), "application/x-www-form-urlencoded");
  EXPECT_EQ(request.headers().get("Content-Length"), "7");
}

TEST_F(ToolEndToEndTest, BinaryDataFromStdinKeepsEveryByte) {
  server_.enqueue(body("ok"));
  std::string data("line1\r\nline2\n\x01\xff", 15);
  ToolRun run = runTern(
      {"--data-binary", "@-", "-H", "Content-Type: application/octet-stream", url("/upload")},
      data);
  EXPECT_EQ(run.exitCode, 0) << run.err;
  RecordedRequest request = takeRequest();
  EXPECT_EQ(request.bodyUtf8(), data);
  EXPECT_EQ(request.headers().get("Content-Type"), "application/octet-stream");
}

TEST_F(ToolEndToEndTest, DataFromAFileLosesItsNewlines) {
  TempDir dir;
  std::filesystem::path file = dir.write("data.txt", "a=1\r\nb=2\n");
  server_.enqueue(body("ok"));
  ToolRun run = runTern({"-d", "@" + file.string(), url("/")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(takeRequest().bodyUtf8(), "a=1b=2");
}

TEST_F(ToolEndToEndTest, FormIsPostedAsMultipart) {
  TempDir dir;
  std::filesystem::path file = dir.write("notes.txt", "file body");
  server_.enqueue(body("ok"));
  ToolRun run = runTern({"-F", "field=value", "-F", "upload=@" + file.string(), url("/")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  RecordedRequest request = takeRequest();
  EXPECT_EQ(request.method(), "POST");
  std::string contentType = request.headers().get("Content-Type").value_or("");
  ASSERT_THAT(contentType, StartsWith("multipart/form-data; boundary="));
  std::string boundary = contentType.substr(contentType.find('=') + 1);
  EXPECT_EQ(request.bodyUtf8(),
            "--" + boundary +
                "\r\nContent-Disposition: form-data; name=\"field\"\r\n\r\nvalue\r\n"
                "--" +
                boundary +
                "\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"notes.txt\"\r\n"
                "Content-Type: text/plain\r\n\r\nfile body\r\n"
                "--" +
                boundary + "--\r\n");
}

TEST_F(ToolEndToEndTest, MissingFormFileIsExit26) {
  ToolRun run = runTern({"-F", "upload=@/nonexistent/tern/file", url("/")});
  EXPECT_EQ(run.exitCode, 26);
  EXPECT_EQ(run.err, "tern: (26) Failed to open/read local data from file/application\n");
  EXPECT_EQ(server_.requestCount(), 0);
}

TEST_F(ToolEndToEndTest, HeadersAreAddedReplacedAndDropped) {
  server_.enqueue(body("ok"));
  ToolRun run = runTern({"-H", "X-One: 1", "-H", "User-Agent: custom/9", "-H",
                         "Accept-Encoding:", "-H", "X-Empty;", "-X", "PUT", url("/")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  RecordedRequest request = takeRequest();
  EXPECT_EQ(request.method(), "PUT");
  EXPECT_EQ(request.headers().get("X-One"), "1");
  EXPECT_EQ(request.headers().values("User-Agent"), std::vector<std::string>{"custom/9"});
  EXPECT_EQ(request.headers().get("Accept-Encoding"), std::nullopt);
  EXPECT_EQ(request.headers().get("X-Empty"), "");
}

TEST_F(ToolEndToEndTest, UserSendsBasicAuthorization) {
  server_.enqueue(body("ok"));
  ToolRun run = runTern({"-u", "Aladdin:open sesame", url("/")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(takeRequest().headers().get("Authorization"), "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
}

TEST_F(ToolEndToEndTest, UserAgentOption) {
  server_.enqueue(body("ok"));
  ToolRun run = runTern({"-A", "agent/7", url("/")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(takeRequest().headers().get("User-Agent"), "agent/7");
}

TEST_F(ToolEndToEndTest, FailOnHttpErrorIsExit22WithoutBody) {
  server_.enqueue(MockResponse::Builder().code(404).body("not here").build());
  ToolRun run = runTern({"-f", url("/missing")});
  EXPECT_EQ(run.exitCode, 22);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "tern: (22) The requested URL returned error: 404\n");
}

TEST_F(ToolEndToEndTest, WithoutFailAnHttpErrorIsSuccess) {
  server_.enqueue(MockResponse::Builder().code(500).body("oops").build());
  ToolRun run = runTern({url("/")});
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_EQ(run.out, "oops");
}

TEST_F(ToolEndToEndTest, SilentHidesErrorsUnlessShowError) {
  server_.enqueue(MockResponse::Builder().code(404).build());
  server_.enqueue(MockResponse::Builder().code(404).build());
  ToolRun silent = runTern({"-sf", url("/")});
  EXPECT_EQ(silent.exitCode, 22);
  EXPECT_EQ(silent.err, "");
  ToolRun shown = runTern({"-sSf", url("/")});
  EXPECT_EQ(shown.exitCode, 22);
  EXPECT_EQ(shown.err, "tern: (22) The requested URL returned error: 404\n");
}

TEST_F(ToolEndToEndTest, WriteOutReportsTheTransfer) {
  server_.enqueue(
      MockResponse::Builder().addHeader("Content-Type", "text/plain").body("12345").build());
  std::string target = url("/w");
  ToolRun run = runTern({"-s", "-o", "/dev/null", "-w",
                         "%{http_code} %{http_version} %{size_download} %{url_effective} "
                         "%{content_type} %{method} %{exitcode} %{num_connects} "
                         "%{remote_ip} %{remote_port}\\n",
                         target});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "200 1.1 5 " + target + " text/plain GET 0 1 127.0.0.1 " +
                         std::to_string(server_.port()) + "\n");
}

TEST_F(ToolEndToEndTest, WriteOutTimeTotalHasSixDecimals) {
  server_.enqueue(MockResponse::Builder().body("slow").headersDelay(200ms).build());
  ToolRun run = runTern({"-s", "-o", "/dev/null", "-w", "%{time_total}", url("/")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  ASSERT_THAT(run.out, ::testing::MatchesRegex("[0-9]+\\.[0-9]{6}"));
  EXPECT_GE(std::stod(run.out), 0.2);
}

TEST_F(ToolEndToEndTest, WriteOutAfterAFailure) {
  ToolRun run =
      runTern({"-s", "-w", "%{http_code} %{exitcode} %{errormsg}", "http://nowhere.invalid/"});
  EXPECT_EQ(run.exitCode, 6);
  EXPECT_EQ(run.out, "000 6 Could not resolve host: nowhere.invalid");
}

TEST_F(ToolEndToEndTest, TwoUrlsShareOneConnection) {
  server_.enqueue(body("first"));
  server_.enqueue(body("second"));
  ToolRun run = runTern({"-w", " %{num_connects}\\n", url("/a"), url("/b")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "first 1\nsecond 0\n");
  RecordedRequest first = takeRequest();
  RecordedRequest second = takeRequest();
  EXPECT_EQ(first.connectionIndex(), second.connectionIndex());
  EXPECT_EQ(second.sequenceNumber(), 1);
}

TEST_F(ToolEndToEndTest, ConnectionClosedByTheServerIsCountedAgain) {
  server_.enqueue(MockResponse::Builder().body("first").addHeader("Connection", "close").build());
  server_.enqueue(body("second"));
  ToolRun run = runTern({"-w", " %{num_connects}\\n", url("/a"), url("/b")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "first 1\nsecond 1\n");
}

TEST_F(ToolEndToEndTest, RedirectsAreFollowedWithL) {
  server_.enqueue(MockResponse::Builder().code(302).addHeader("Location", "/next").build());
  server_.enqueue(body("arrived"));
  ToolRun run =
      runTern({"-L", "-w", " %{num_redirects} %{url_effective} %{http_code}", url("/start")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "arrived 1 " + url("/next") + " 200");
  EXPECT_EQ(takeRequest().path(), "/start");
  EXPECT_EQ(takeRequest().path(), "/next");
}

TEST_F(ToolEndToEndTest, IncludeShowsEveryRedirectsHead) {
  server_.enqueue(MockResponse::Builder().code(301).addHeader("Location", "/next").build());
  server_.enqueue(body("arrived"));
  ToolRun run = runTern({"-L", "-i", url("/start")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_THAT(run.out, StartsWith("HTTP/1.1 301 Redirection\r\n"));
  EXPECT_THAT(run.out, HasSubstr("\r\n\r\nHTTP/1.1 200 OK\r\n"));
  EXPECT_THAT(run.out, ::testing::EndsWith("\r\n\r\narrived"));
}

TEST_F(ToolEndToEndTest, MaxRedirsStopsAtTheRedirectPastTheLimit) {
  server_.enqueue(MockResponse::Builder().code(302).addHeader("Location", "/1").build());
  server_.enqueue(MockResponse::Builder().code(302).addHeader("Location", "/2").build());
  server_.enqueue(body("never"));
  ToolRun run = runTern({"-L", "--max-redirs", "1", url("/")});
  EXPECT_EQ(run.exitCode, 47);
  EXPECT_EQ(run.err, "tern: (47) Maximum (1) redirects followed\n");
  EXPECT_EQ(server_.requestCount(), 2);
}

TEST_F(ToolEndToEndTest, MaxRedirsZeroRefusesAnyRedirect) {
  server_.enqueue(MockResponse::Builder().code(307).addHeader("Location", "/1").build());
  ToolRun run = runTern({"-L", "--max-redirs", "0", url("/")});
  EXPECT_EQ(run.exitCode, 47);
  EXPECT_EQ(server_.requestCount(), 1);
}

TEST_F(ToolEndToEndTest, MaxRedirsAllowsRedirectsUpToTheLimit) {
  server_.enqueue(MockResponse::Builder().code(302).addHeader("Location", "/1").build());
  server_.enqueue(MockResponse::Builder().code(302).addHeader("Location", "/2").build());
  server_.enqueue(body("arrived"));
  ToolRun run = runTern({"-L", "--max-redirs", "2", url("/")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "arrived");
}

TEST_F(ToolEndToEndTest, UnknownHostIsExitSix) {
  ToolRun run = runTern({"http://nowhere.invalid/"});
  EXPECT_EQ(run.exitCode, 6);
  EXPECT_EQ(run.err, "tern: (6) Could not resolve host: nowhere.invalid\n");
}

TEST_F(ToolEndToEndTest, RefusedPortIsExitSeven) {
  int port = 0;
  {
    MockWebServer closed;
    port = closed.port();
  }  // Closed: nothing listens on the port now.
  ToolRun run = runTern({"http://127.0.0.1:" + std::to_string(port) + "/"});
  EXPECT_EQ(run.exitCode, 7);
  EXPECT_THAT(run.err, StartsWith("tern: (7) Failed to connect to 127.0.0.1 port " +
                                  std::to_string(port) + " after "));
  EXPECT_THAT(run.err, HasSubstr(" ms: Couldn't connect to server\n"));
}

TEST_F(ToolEndToEndTest, ConnectTimeoutIsExit28) {
  UnansweredPort unanswered;
  auto start = std::chrono::steady_clock::now();
  ToolRun run = runTern(
      {"--connect-timeout", "0.3", "http://127.0.0.1:" + std::to_string(unanswered.port()) + "/"});
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(run.exitCode, 28);
  EXPECT_THAT(run.err, StartsWith("tern: (28) Failed to connect to 127.0.0.1 port " +
                                  std::to_string(unanswered.port()) + " after "));
  EXPECT_THAT(run.err, HasSubstr(" ms: Timeout was reached\n"));
  EXPECT_GE(elapsed, 300ms);
  EXPECT_LT(elapsed, 5s);
}

TEST_F(ToolEndToEndTest, RedirectLoopStopsAfterFiftyAsCurl) {
  server_.setDispatcher([](const RecordedRequest&) {
    return MockResponse::Builder().code(302).addHeader("Location", "/again").build();
  });
  ToolRun run = runTern({"-L", "-w", "%{http_code}", url("/")});
  EXPECT_EQ(run.exitCode, 47);
  EXPECT_EQ(run.err, "tern: (47) Maximum (50) redirects followed\n");
  EXPECT_EQ(server_.requestCount(), 51);
}

TEST_F(ToolEndToEndTest, RedirectIsShownNotFollowedWithoutL) {
  server_.enqueue(
      MockResponse::Builder().code(302).addHeader("Location", "/next").body("moved").build());
  ToolRun run = runTern({"-w", " %{http_code}", url("/start")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "moved 302");
  EXPECT_EQ(server_.requestCount(), 1);
}

TEST_F(ToolEndToEndTest, MaxTimeIsExit28) {
  server_.enqueue(MockResponse::Builder().body("late").headersDelay(5s).build());
  auto start = std::chrono::steady_clock::now();
  ToolRun run = runTern({"-m", "0.5", url("/")});
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(run.exitCode, 28);
  EXPECT_THAT(run.err, StartsWith("tern: (28) Operation timed out after "));
  EXPECT_THAT(run.err, HasSubstr(" milliseconds with 0 bytes received\n"));
  EXPECT_LT(elapsed, 4s);
}

TEST_F(ToolEndToEndTest, MaxTimeCoversTheBody) {
  server_.enqueue(MockResponse::Builder().body("slow body").bodyDelay(5s).build());
  ToolRun run = runTern({"-m", "0.5", url("/")});
  EXPECT_EQ(run.exitCode, 28);
}

TEST_F(ToolEndToEndTest, LastTransfersResultIsTheExitCode) {
  server_.enqueue(body("fine"));
  ToolRun failedLast = runTern({url("/"), "http://nowhere.invalid/"});
  EXPECT_EQ(failedLast.exitCode, 6);
  EXPECT_EQ(failedLast.out, "fine");
  server_.enqueue(body("fine"));
  ToolRun failedFirst = runTern({"http://nowhere.invalid/", url("/")});
  EXPECT_EQ(failedFirst.exitCode, 0);
  EXPECT_EQ(failedFirst.out, "fine");
}

TEST_F(ToolEndToEndTest, VerboseShowsTheExchangeOnStderr) {
  server_.enqueue(body("v"));
  server_.enqueue(body("w"));
  ToolRun run = runTern({"-v", url("/one"), url("/two")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.out, "vw");
  EXPECT_THAT(run.err, HasSubstr("* Connected to 127.0.0.1 (127.0.0.1) port " +
                                 std::to_string(server_.port()) + " (#0)\n"));
  EXPECT_THAT(run.err, HasSubstr("> GET /one HTTP/1.1\r\n"));
  EXPECT_THAT(run.err, HasSubstr("> Host: 127.0.0.1:" + std::to_string(server_.port()) + "\r\n"));
  EXPECT_THAT(run.err, HasSubstr("< HTTP/1.1 200 OK\r\n< Content-Length: 1\r\n< \r\n"));
  EXPECT_THAT(run.err, HasSubstr("* Re-using existing connection #0 with host 127.0.0.1\n"
                                 "> GET /two HTTP/1.1\r\n"));
}

TEST_F(ToolEndToEndTest, UnsupportedProtocolIsExitOne) {
  ToolRun run = runTern({"ftp://example.com/file"});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_EQ(run.err, "tern: (1) Protocol \"ftp\" not supported\n");
}

TEST_F(ToolEndToEndTest, UnwritableOutputIsExit23) {
  server_.enqueue(body("nowhere to go"));
  ToolRun run = runTern({"-o", "/nonexistent/tern/out", url("/")});
  EXPECT_EQ(run.exitCode, 23);
  EXPECT_THAT(run.err, StartsWith("tern: (23) Failure writing output to destination"));
}

TEST_F(ToolEndToEndTest, VersionNamesTheLibraries) {
  ToolRun run = runTern({"-V"});
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_THAT(run.out, StartsWith("tern " + std::string(tern::version()) + " ("));
  EXPECT_THAT(run.out, HasSubstr(") libtern/" + std::string(tern::version()) + " OpenSSL/"));
  EXPECT_THAT(run.out,
              HasSubstr(" nghttp2/" + std::string(nghttp2_version(0)->version_str) + " ngtcp2/" +
                        std::string(ngtcp2_version(0)->version_str) + " nghttp3/" +
                        std::string(nghttp3_version(0)->version_str) + "\n"));
  EXPECT_THAT(run.out, HasSubstr("\nProtocols: http https\n"));
  EXPECT_THAT(run.out,
              ::testing::EndsWith(
                  "\nFeatures: alt-svc HTTP2 HTTP3 IDN IPv6 Largefile libz PSL SSL threadsafe\n"));
}

// Each feature tern names is one curl names (the same word, as scripts grep for it).
TEST_F(ToolEndToEndTest, VersionFeaturesAreCurlsNames) {
  std::string curl = testing::findCurl();
  if (curl.empty()) GTEST_SKIP() << "curl is not installed";
  ToolRun curls = testing::runCurl({"--version"});
  ToolRun ours = runTern({"--version"});
  auto features = [](const std::string& out) {
    size_t start = out.find("Features: ");
    std::string line = out.substr(start + 10, out.find('\n', start) - start - 10);
    std::vector<std::string> words;
    for (size_t i = 0; i < line.size();) {
      size_t end = line.find(' ', i);
      if (end == std::string::npos) end = line.size();
      words.push_back(line.substr(i, end - i));
      i = end + 1;
    }
    return words;
  };
  for (const std::string& feature : features(ours.out)) {
    // curl's word for HTTP/3 (curl_version_info's CURL_VERSION_HTTP3), which Debian 12's curl
    // 7.88 lacks: it is built without QUIC.
    if (feature == "HTTP3") continue;
    EXPECT_THAT(features(curls.out), ::testing::Contains(feature));
  }
}

TEST_F(ToolEndToEndTest, UsageErrorIsExitTwo) {
  ToolRun run = runTern({"--no-such-option", url("/")});
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_THAT(run.err, StartsWith("tern: option --no-such-option: is unknown\n"));
}

}  // namespace
}  // namespace tern::tool
