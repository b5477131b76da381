// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The built `tern` binary and curl itself, with the same arguments against the same
// MockWebServer: curl's stdout bytes and exit code are the specification (issue 14). Skipped
// only where curl is not installed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

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
using mockwebserver::SocketPolicy;
using testing::findCurl;
using testing::runCurl;
using testing::runTern;
using testing::TempDir;
using testing::ToolRun;

// The request as the server read it (every header but User-Agent, which names the client), so
// a difference in what the two clients send shows in their stdout.
std::string echo(const RecordedRequest& request) {
  std::string text = request.requestLine() + "\n";
  for (const auto& [name, value] : request.headers()) {
    if (name != "User-Agent" && name != "user-agent") text += name + ": " + value + "\n";
  }
  return text + "\n" + request.bodyUtf8();
}

MockResponse respond(const RecordedRequest& request) {
  const std::string& path = request.path();
  if (path.starts_with("/redirect/")) {
    // /redirect/CODE[/TARGET...]: a CODE to /TARGET (default /echo).
    std::string rest = path.substr(10);
    std::string code = rest.substr(0, 3);
    std::string target = rest.size() > 3 ? rest.substr(3) : "/echo";
    MockResponse::Builder redirect;
    redirect.code(std::stoi(code)).addHeader("Location", target);
    if (request.method() != "HEAD") redirect.body("redirect body");
    return redirect.build();
  }
  if (path == "/elsewhere") {  // A redirect to the same server by another name: another host.
    std::string host = request.headers().get("Host").value_or("");
    std::string port = host.substr(host.rfind(':') + 1);
    return MockResponse::Builder()
        .code(302)
        .addHeader("Location", "http://localhost:" + port + "/echo")
        .build();
  }
  if (path == "/loop") {
    return MockResponse::Builder().code(302).addHeader("Location", "/loop").build();
  }
  if (path == "/short") {
    return MockResponse::Builder()
        .body("0123456789")
        .socketPolicy(SocketPolicy::DisconnectDuringResponseBody{})
        .build();
  }
  if (path == "/empty") {
    return MockResponse::Builder().socketPolicy(SocketPolicy::DisconnectAfterRequest{}).build();
  }
  if (path == "/binary") {
    return MockResponse::Builder().body(std::string("\x01\x00\x02\xff", 4)).build();
  }
  if (path == "/range") {  // "0123456789", with byte ranges "bytes=N-".
    std::optional<std::string> range = request.headers().get("Range");
    if (!range) return MockResponse::Builder().body("0123456789").build();
    size_t start = std::stoul(range->substr(range->find('=') + 1));
    if (start >= 10) return MockResponse::Builder().code(416).body("bad").build();
    return MockResponse::Builder()
        .code(206)
        .addHeader("Content-Range", "bytes " + std::to_string(start) + "-9/10")
        .body(std::string("0123456789").substr(start))
        .build();
  }
  if (path == "/dated") {
    return MockResponse::Builder()
        .addHeader("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT")
        .body("dated")
        .build();
  }
  if (path == "/fail") {
    return MockResponse::Builder().code(404).body("not here\n").build();
  }
  if (request.method() == "HEAD") return MockResponse::Builder().build();  // No body for HEAD.
  return MockResponse::Builder().body(echo(request)).build();
}

class CurlComparisonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (findCurl().empty()) {
      GTEST_SKIP() << "curl is not installed (apt-get install curl), so tern cannot be "
                      "compared with it";
    }
    server_.setDispatcher(respond);
  }

  std::string url(std::string_view path) { return server_.url(path).toString(); }

  // Runs curl and then tern with `args` and expects the same stdout and exit code; returns
  // tern's run (its stderr still says "tern:" where curl's says "curl:").
  ToolRun expectSameAsCurl(const std::vector<std::string>& args) {
    ToolRun curl = runCurl(args);
    ToolRun tern = runTern(args);
    EXPECT_EQ(tern.out, curl.out) << "stderr of curl:\n"
                                  << curl.err << "stderr of tern:\n"
                                  << tern.err;
    EXPECT_EQ(tern.exitCode, curl.exitCode) << "stderr of curl:\n"
                                            << curl.err << "stderr of tern:\n"
                                            << tern.err;
    return tern;
  }

  MockWebServer server_;
};

TEST_F(CurlComparisonTest, GetSendsCurlsHeaders) { expectSameAsCurl({url("/echo")}); }

TEST_F(CurlComparisonTest, RedirectIsNotFollowedWithoutL) {
  expectSameAsCurl({"-w", " %{http_code} %{num_redirects}", url("/redirect/302")});
}

TEST_F(CurlComparisonTest, IncludeShowsTheRedirectWithoutL) {
  ToolRun run = expectSameAsCurl({"-s", "-i", url("/redirect/301")});
  EXPECT_THAT(run.out, ::testing::EndsWith("redirect body"));
}

TEST_F(CurlComparisonTest, LFollowsEachRedirectCode) {
  for (std::string code : {"301", "302", "303", "307", "308"}) {
    SCOPED_TRACE(code);
    expectSameAsCurl(
        {"-s", "-L", "-w", " %{http_code} %{num_redirects}", url("/redirect/" + code)});
  }
}

TEST_F(CurlComparisonTest, PostBecomesGetAfter302ButNotAfter307) {
  for (std::string code : {"301", "302", "303", "307", "308"}) {
    SCOPED_TRACE(code);
    expectSameAsCurl({"-s", "-L", "-d", "a=1", url("/redirect/" + code)});
  }
}

TEST_F(CurlComparisonTest, CustomMethodIsKeptAcrossRedirects) {
  for (std::string code : {"301", "302", "303", "307"}) {
    SCOPED_TRACE(code);
    expectSameAsCurl({"-s", "-L", "-X", "POST", "-d", "a=1", url("/redirect/" + code)});
    expectSameAsCurl({"-s", "-L", "-X", "PUT", url("/redirect/" + code)});
    expectSameAsCurl({"-s", "-L", "-X", "DELETE", url("/redirect/" + code)});
  }
}

TEST_F(CurlComparisonTest, HeadFollowsAsHead) {
  expectSameAsCurl({"-s", "-I", "-L", url("/redirect/302")});
}

TEST_F(CurlComparisonTest, IncludeWithLShowsEveryHead) {
  expectSameAsCurl({"-s", "-i", "-L", url("/redirect/302/redirect/307")});
}

TEST_F(CurlComparisonTest, RedirectLoopStopsAfterFifty) {
  ToolRun run = expectSameAsCurl({"-sS", "-L", "-w", "%{num_redirects}", url("/loop")});
  EXPECT_EQ(run.err, "tern: (47) Maximum (50) redirects followed\n");
  EXPECT_EQ(server_.requestCount(), 2 * 51);
}

TEST_F(CurlComparisonTest, MaxRedirsLimitsL) {
  expectSameAsCurl({"-s", "-L", "--max-redirs", "2", "-w", "%{num_redirects} %{http_code}",
                    url("/redirect/302/redirect/302/redirect/302")});
  expectSameAsCurl(
      {"-s", "-L", "--max-redirs", "3", url("/redirect/302/redirect/302/redirect/302")});
  expectSameAsCurl({"-s", "-L", "--max-redirs", "0", url("/redirect/302")});
  expectSameAsCurl({"-s", "--max-redirs", "0", url("/redirect/302")});
}

TEST_F(CurlComparisonTest, AuthorizationIsKeptOnTheSameHost) {
  expectSameAsCurl({"-s", "-L", "-u", "user:pw", url("/redirect/302")});
}

// A redirect to another host (localhost for 127.0.0.1) loses -u's Authorization and -H's Cookie,
// unless --location-trusted, as curl's.
TEST_F(CurlComparisonTest, LocationTrustedSendsCredentialsToAnotherHost) {
  std::string elsewhere =
      "/redirect/302http://localhost:" + std::to_string(server_.port()) + "/echo";
  for (const char* follow : {"-L", "--location-trusted"}) {
    SCOPED_TRACE(follow);
    ToolRun run =
        expectSameAsCurl({"-s", follow, "-u", "user:pw", "-H", "Cookie: a=b", url(elsewhere)});
    EXPECT_EQ(run.out.find("Authorization") != std::string::npos, std::string_view(follow) != "-L");
  }
  expectSameAsCurl({"-s", "--location-trusted", "-u", "user:pw", url("/redirect/302")});
}

// -e ";auto" sets each hop's Referer to the URL it came from; "URL;auto" also the first.
TEST_F(CurlComparisonTest, AutoRefererOnEachRedirect) {
  for (const char* referer : {";auto", "http://first.test/;auto", "http://only.test/"}) {
    SCOPED_TRACE(referer);
    ToolRun run = expectSameAsCurl(
        {"-s", "-L", "-e", referer, url("/redirect/302/redirect/307/redirect/301")});
    EXPECT_THAT(run.out, ::testing::HasSubstr("Referer: "));
  }
  expectSameAsCurl({"-s", "-L", "--referer", ";auto", url("/redirect/302#frag")});
}

// --resolve HOST:PORT:ADDR[,ADDR]: the name at that port goes to those addresses; another port
// is not affected (exit 6 for a name that does not exist), and a bad entry is exit 49.
TEST_F(CurlComparisonTest, ResolveSendsANameToGivenAddresses) {
  std::string port = std::to_string(server_.port());
  std::string target = "http://example.test:" + port + "/echo";
  expectSameAsCurl({"-s", "--resolve", "example.test:" + port + ":127.0.0.1", target});
  expectSameAsCurl({"-s", "--resolve", "other.test:1:127.0.0.2", "--resolve",
                    "example.test:" + port + ":[::1],127.0.0.1", target});
  expectSameAsCurl({"-s", "--resolve", "example.test:1:127.0.0.1", target});
  expectSameAsCurl({"-s", "--resolve", "bad", target});
  expectSameAsCurl({"-s", "--resolve", "example.test:" + port + ":not-an-address", target});
}

TEST_F(CurlComparisonTest, NoAcceptEncodingWithoutCompressed) {
  ToolRun run = expectSameAsCurl({"-s", url("/echo")});
  EXPECT_THAT(run.out, ::testing::Not(::testing::HasSubstr("Accept-Encoding")));
}

TEST_F(CurlComparisonTest, DataAndHeadersInCurlsOrder) {
  expectSameAsCurl({"-s", "-H", "X-One: 1", "-d", "a=1", "-H", "X-Two: 2", url("/echo")});
  expectSameAsCurl({"-s", "-H", "Content-Type: text/plain", "-d", "a=1", url("/echo")});
  expectSameAsCurl({"-s", "-H", "Host: example.com", url("/echo")});
  expectSameAsCurl({"-s", "-H", "Accept:", url("/echo")});
  expectSameAsCurl({"-s", "-u", "a:b", "-X", "POST", url("/echo")});
  expectSameAsCurl({"-s", "-d", "", url("/echo")});
}

TEST_F(CurlComparisonTest, ShortOptionsClusterAnywhere) {
  expectSameAsCurl({"-sSL", url("/redirect/302")});
  expectSameAsCurl({"-sS#", url("/echo")});
  expectSameAsCurl({url("/echo"), "-sLw%{http_code}", "-o", "/dev/null"});
  expectSameAsCurl({"-sdx=1", url("/echo")});
  expectSameAsCurl({"-s", "-d", "-x", url("/echo")});
  expectSameAsCurl({"-sSq", "-o/dev/null", url("/echo")});
}

TEST_F(CurlComparisonTest, IpFamilyOptionsAreOptions) {
  expectSameAsCurl({"-4", "-s", url("/echo")});
  expectSameAsCurl({"-sS6", url("/echo")});  // An IPv4 address with -6: curl's exit 7.
}

TEST_F(CurlComparisonTest, DoubleDashEndsOptions) {
  expectSameAsCurl({"-s", "--", url("/echo")});
  expectSameAsCurl({"-s", "-X", "POST", "--", url("/echo")});
}

TEST_F(CurlComparisonTest, UsageErrorsAreExitTwo) {
  for (std::vector<std::string> args : {std::vector<std::string>{"-s", "--data=x", url("/echo")},
                                        {"-s%", url("/echo")},
                                        {"--bogus", url("/echo")},
                                        {"-d"},
                                        {"-s"}}) {
    ToolRun run = expectSameAsCurl(args);
    ToolRun curl = runCurl(args);
    std::string curlsFirstLine = curl.err.substr(0, curl.err.find('\n'));
    EXPECT_EQ(run.err.substr(0, run.err.find('\n')),
              "tern" + curlsFirstLine.substr(std::string("curl").size()));
  }
}

TEST_F(CurlComparisonTest, ShortBodyIsEighteen) {
  ToolRun run = expectSameAsCurl({"-sS", url("/short")});
  EXPECT_EQ(run.err, "tern: (18) transfer closed with 5 bytes remaining to read\n");
}

TEST_F(CurlComparisonTest, EmptyReplyIsFiftyTwo) {
  ToolRun run = expectSameAsCurl({"-sS", url("/empty")});
  EXPECT_EQ(run.err, "tern: (52) Empty reply from server\n");
  expectSameAsCurl({"-sS", url("/empty"), url("/echo")});  // Serial: the last transfer's code.
  expectSameAsCurl({"-sS", url("/echo"), url("/empty")});
}

TEST_F(CurlComparisonTest, UnknownSchemeIsOne) {
  ToolRun run = expectSameAsCurl({"-sS", "foo://127.0.0.1/"});
  EXPECT_EQ(run.err, "tern: (1) Protocol \"foo\" not supported\n");
  expectSameAsCurl({"-sS", "htps://127.0.0.1/"});
}

TEST_F(CurlComparisonTest, ParallelExitsWithAFailuresCode) {
  expectSameAsCurl({"-sZ", url("/empty"), url("/echo")});
  expectSameAsCurl({"-sZ", url("/echo"), url("/short"), "-o", "/dev/null", "-o", "/dev/null"});
  expectSameAsCurl({"-sZ", "-o", "/dev/null", url("/echo"), "-o", "/dev/null", url("/echo")});
}

TEST_F(CurlComparisonTest, GetPutsTheDataInTheQuery) {
  expectSameAsCurl({"-s", "-G", "-d", "a=1", "-d", "b=2", url("/echo?x=1")});
  expectSameAsCurl({"-s", "-G", "--data-urlencode", "q=a b&c", url("/echo")});
  expectSameAsCurl({"-s", "-G", "-I", "-d", "a=1", url("/echo")});
}

TEST_F(CurlComparisonTest, DataUrlencodeForms) {
  TempDir dir;
  std::string file = dir.write("raw.txt", "a b&c=\n");
  expectSameAsCurl({"-s", "--data-urlencode", "a=b&c d", "-d", "x=1", "--data-urlencode",
                    "=\xc3\xbc~", "--data-urlencode", "plain text", url("/echo")});
  expectSameAsCurl(
      {"-s", "--data-urlencode", "@" + file, "--data-urlencode", "n@" + file, url("/echo")});
}

TEST_F(CurlComparisonTest, JsonSetsTypeAndAccept) {
  expectSameAsCurl({"-s", "--json", "{\"a\":1}", "--json", "[2]", url("/echo")});
  expectSameAsCurl({"-s", "--json", "{}", "-H", "Accept: text/plain", url("/echo")});
}

TEST_F(CurlComparisonTest, RefererRangeAndBearerHeaders) {
  expectSameAsCurl({"-s", "-e", "http://from.example/", url("/echo")});
  expectSameAsCurl({"-s", "-r", "0-3", url("/echo")});
  expectSameAsCurl({"-s", "--oauth2-bearer", "TOKEN", url("/echo")});
  // --compressed asks for curl's four codings with a range too.
  expectSameAsCurl({"-s", "--compressed", "-r", "5-", url("/echo")});
  expectSameAsCurl(
      {"-s", "-e", "http://r/", "-r", "5-", "-u", "a:b", "-H", "X-Custom: 1", url("/echo")});
}

TEST_F(CurlComparisonTest, DumpHeaderToStdout) {
  expectSameAsCurl({"-s", "-D", "-", "-o", "/dev/null", url("/redirect/302")});
  expectSameAsCurl({"-s", "-L", "-D", "-", url("/redirect/302")});
}

TEST_F(CurlComparisonTest, FailAndFailWithBody) {
  expectSameAsCurl({"-s", "-f", url("/fail")});
  expectSameAsCurl({"-s", "--fail-with-body", url("/fail")});
  expectSameAsCurl({"-s", "--fail-with-body", "-i", url("/fail")});
  expectSameAsCurl({"-s", "--fail-with-body", url("/echo")});
}

TEST_F(CurlComparisonTest, OutputDirAndCreateDirs) {
  TempDir curlsDir;
  TempDir ternsDir;
  for (const TempDir* dir : {&curlsDir, &ternsDir}) {
    std::vector<std::string> args = {"-s",
                                     "--create-dirs",
                                     "-o",
                                     "a/b/body.txt",
                                     url("/echo?1"),
                                     "--output-dir",
                                     (dir->path() / "out").string(),
                                     "-O",
                                     url("/binary")};
    ToolRun run = dir == &curlsDir ? runCurl(args) : runTern(args);
    EXPECT_EQ(run.exitCode, 0) << run.err;
  }
  EXPECT_EQ(ternsDir.read("out/binary"), curlsDir.read("out/binary"));
  EXPECT_EQ(ternsDir.read("out/a/b/body.txt"), curlsDir.read("out/a/b/body.txt"));
}

TEST_F(CurlComparisonTest, WriteOutVariables) {
  // The same User-Agent length, so the request sizes match.
  expectSameAsCurl({"-s", "-A", "same", "-o", "/dev/null", "-w",
                    "%{size_request} %{redirect_url} %{num_headers} %{local_ip} "
                    "%{ssl_verify_result}\n%{header_json}\n",
                    url("/redirect/302")});
  expectSameAsCurl({"-s", "-A", "same", "-L", "-d", "abc", "-o", "/dev/null", "-w",
                    "%{size_request} [%{redirect_url}] %{num_redirects}", url("/redirect/307")});
}

TEST_F(CurlComparisonTest, WriteOutJsonHasCurlsFields) {
  ToolRun run = runTern({"-s", "-o", "/dev/null", "-w", "%{json}", url("/redirect/302")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  ToolRun curl = runCurl({"-s", "-o", "/dev/null", "-w", "%{json}", url("/redirect/302")});
  for (std::string field : std::vector<std::string>{
           "\"content_type\":null", "\"errormsg\":null", "\"exitcode\":0", "\"http_code\":302",
           "\"http_version\":\"1.1\"", "\"method\":\"GET\"", "\"num_headers\":2",
           "\"redirect_url\":\"" + url("/echo") + "\"", "\"remote_ip\":\"127.0.0.1\"",
           "\"response_code\":302", "\"scheme\":\"HTTP\"", "\"size_download\":13",
           "\"ssl_verify_result\":0", "\"url_effective\":\"" + url("/redirect/302") + "\""}) {
    EXPECT_THAT(run.out, ::testing::HasSubstr(field));
    EXPECT_THAT(curl.out, ::testing::HasSubstr(field));
  }
}

TEST_F(CurlComparisonTest, UploadFilePutsItUnderItsName) {
  TempDir dir;
  std::string file = dir.write("up.txt", "uploaded\n");
  ToolRun run = runTern({"-s", "-T", file, url("/dir/")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  // curl also sends "Expect: 100-continue" (tern does not; docs/tool.md).
  EXPECT_THAT(run.out, ::testing::StartsWith("PUT /dir/up.txt HTTP/1.1\n"));
  EXPECT_THAT(run.out, ::testing::HasSubstr("\nContent-Length: 9\n\nuploaded\n"));
  ToolRun curl = runCurl({"-s", "-T", file, url("/dir/")});
  EXPECT_THAT(curl.out, ::testing::StartsWith("PUT /dir/up.txt HTTP/1.1\n"));
}

TEST_F(CurlComparisonTest, ConfigFileReadsAsCurlReadsIt) {
  TempDir dir;
  std::string config =
      dir.write("config", "# a comment\n\nsilent\n-A \"a b\"\nurl = \"" + url("/echo") +
                              "\"\nheader: \"X-Q: \\\"q\\\"\"\n"
                              "data abc\n--location\n");
  expectSameAsCurl({"-K", config});
  expectSameAsCurl({"-sK", config, "-d", "more"});
  expectSameAsCurl({"-s", "-K", (dir.path() / "missing").string(), url("/echo")});
  ToolRun run = expectSameAsCurl({"-K", (dir.path() / "missing").string(), url("/echo")});
  EXPECT_THAT(run.err, ::testing::HasSubstr("option -K: error encountered when reading a file"));
}

TEST_F(CurlComparisonTest, NetrcGivesTheHostsLogin) {
  TempDir dir;
  std::string netrc = dir.write("netrc",
                                "machine other.example login o password p\n"
                                "machine 127.0.0.1\n  login me\n  password secret\n");
  expectSameAsCurl({"-s", "--netrc-file", netrc, url("/echo")});
  expectSameAsCurl({"-s", "--netrc-file", netrc, "-u", "a:b", url("/echo")});  // -u wins.
  std::string withDefault = dir.write("default", "default login d password dd\n");
  expectSameAsCurl({"-s", "--netrc-file", withDefault, url("/echo")});
}

TEST_F(CurlComparisonTest, LimitRateStillWritesEveryByte) {
  expectSameAsCurl({"-s", "--limit-rate", "1M", url("/echo")});
}

TEST_F(CurlComparisonTest, RemoteTimeSetsTheFilesTime) {
  TempDir curlsDir;
  TempDir ternsDir;
  EXPECT_EQ(runCurl({"-s", "-R", "-o", (curlsDir.path() / "f").string(), url("/dated")}).exitCode,
            0);
  EXPECT_EQ(runTern({"-s", "-R", "-o", (ternsDir.path() / "f").string(), url("/dated")}).exitCode,
            0);
  EXPECT_EQ(std::filesystem::last_write_time(ternsDir.path() / "f"),
            std::filesystem::last_write_time(curlsDir.path() / "f"));
}

// curl's -v lines that tern prints too, in the same order (curl has more lines of its own).
TEST_F(CurlComparisonTest, VerboseHasCurlsConnectionLines) {
  std::vector<std::string> args = {"-sv", "-o",        "/dev/null", url("/echo"),
                                   "-o",  "/dev/null", url("/echo")};
  auto lines = [](const std::string& err) {
    std::vector<std::string> result;
    for (size_t i = 0; i < err.size();) {
      size_t end = err.find('\n', i);
      std::string line = err.substr(i, end - i);
      if (line.starts_with("*   Trying") || line.starts_with("* Connected to") ||
          line.starts_with("* Connection #") || line.starts_with("* Re-using") ||
          line.starts_with("* Issue another") || line.starts_with("* Switch from")) {
        result.push_back(line);
      }
      if (end == std::string::npos) break;
      i = end + 1;
    }
    return result;
  };
  ToolRun curl = runCurl(args);
  ToolRun tern = runTern(args);
  EXPECT_EQ(lines(tern.err), lines(curl.err)) << curl.err << tern.err;
  std::vector<std::string> redirect = {"-svL", "-o", "/dev/null", url("/redirect/302")};
  EXPECT_EQ(lines(runTern(redirect).err), lines(runCurl(redirect).err));
  // To another host: the first connection is left intact once, before the next request.
  std::vector<std::string> elsewhere = {"-svL", "-o", "/dev/null", url("/elsewhere")};
  EXPECT_EQ(lines(runTern(elsewhere).err), lines(runCurl(elsewhere).err));
  EXPECT_THAT(lines(tern.err),
              ::testing::Contains("* Connection #0 to host 127.0.0.1 left intact"));
}

TEST_F(CurlComparisonTest, ContinueAtResumesAsCurl) {
  for (const char* start : {"abc", "0123456789", ""}) {
    SCOPED_TRACE(start);
    TempDir curlsDir;
    TempDir ternsDir;
    if (*start != '\0') {
      curlsDir.write("f", start);
      ternsDir.write("f", start);
    }
    ToolRun curl =
        runCurl({"-sS", "-C", "-", "-o", (curlsDir.path() / "f").string(), url("/range")});
    ToolRun tern =
        runTern({"-sS", "-C", "-", "-o", (ternsDir.path() / "f").string(), url("/range")});
    EXPECT_EQ(tern.exitCode, curl.exitCode) << curl.err << tern.err;
    EXPECT_EQ(ternsDir.read("f"), curlsDir.read("f"));
  }
  expectSameAsCurl({"-sS", "-C", "4", url("/range")});
  TempDir curlsDir;
  TempDir ternsDir;
  curlsDir.write("f", "abc");
  ternsDir.write("f", "abc");
  ToolRun curl = runCurl({"-sS", "-C", "-", "-o", (curlsDir.path() / "f").string(), url("/echo")});
  ToolRun tern = runTern({"-sS", "-C", "-", "-o", (ternsDir.path() / "f").string(), url("/echo")});
  EXPECT_EQ(tern.exitCode, 33);
  EXPECT_EQ(curl.exitCode, 33);
  EXPECT_EQ(ternsDir.read("f"), "abc");
}

// The lines of `text` for which `keep(line)` is true, each with its '\n'.
template <typename Keep>
std::string keepLines(const std::string& text, Keep keep) {
  std::string result;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    end = end == std::string::npos ? text.size() : end + 1;
    std::string line = text.substr(start, end - start);
    if (keep(line)) result += line;
    start = end;
  }
  return result;
}

// curl's informational lines that tern prints too; the others are curl's own (see docs/tool.md).
bool sharedInfo(std::string_view line) {
  for (std::string_view prefix : {"  Trying", "Connected to", "Connection #", "Closing connection",
                                  "Re-using", "Issue another", "Switch from"}) {
    if (line.starts_with(prefix)) return true;
  }
  return false;
}

// --trace and --trace-ascii write what curl writes for the same plain-HTTP transfers: every
// header and data section byte for byte (both send the same User-Agent here), and the
// informational lines tern has, in the same places.
TEST_F(CurlComparisonTest, TraceFilesAreCurls) {
  for (const char* style : {"--trace", "--trace-ascii"}) {
    for (std::vector<std::string> args :
         {std::vector<std::string>{url("/echo")},
          std::vector<std::string>{"-d", "a=b&c=d", url("/echo")},
          std::vector<std::string>{"-H", "X-Long: " + std::string(100, 'x'), url("/echo"),
                                   url("/echo")}}) {
      SCOPED_TRACE(std::string(style) + " " + args.front());
      TempDir curlsDir;
      TempDir ternsDir;
      auto run = [&](auto runner, const TempDir& dir) {
        std::vector<std::string> all = {
            "-s", "-A", "same/1", "-o", "/dev/null", style, (dir.path() / "trace").string()};
        all.insert(all.end(), args.begin(), args.end());
        if (args.size() == 4) all.insert(all.end() - 1, {"-o", "/dev/null"});
        runner(all);
        return keepLines(dir.read("trace"), [](const std::string& line) {
          return !line.starts_with("== Info: ") || sharedInfo(line.substr(9));
        });
      };
      std::string curl =
          run([](const std::vector<std::string>& a) { return runCurl(a); }, curlsDir);
      std::string tern =
          run([](const std::vector<std::string>& a) { return runTern(a); }, ternsDir);
      EXPECT_EQ(tern, curl);
      EXPECT_THAT(tern, ::testing::HasSubstr("<= Recv data, "));
    }
  }
  // "-" is stdout, with --trace-time's stamps ("HH:MM:SS.uuuuuu ") before each piece.
  ToolRun tern = runTern({"-s", "--trace-time", "--trace-ascii", "-", url("/echo")});
  EXPECT_THAT(tern.out,
              ::testing::ContainsRegex("^[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6} == Info: "));
}

// -v's "} [N bytes data]" and "{ [N bytes data]" lines, where and as often as curl writes them
// when the body goes to a file or a pipe.
TEST_F(CurlComparisonTest, VerboseDataLinesAreCurls) {
  auto shared = [](const std::string& err) {
    return keepLines(err, [](const std::string& line) {
      return line.starts_with("{ ") || line.starts_with("} ") || line.starts_with("> ") ||
             line.starts_with("< ") || (line.starts_with("* ") && sharedInfo(line.substr(2)));
    });
  };
  for (std::vector<std::string> args :
       {std::vector<std::string>{"-sv", "-A", "same/1", url("/echo")},
        std::vector<std::string>{"-sv", "-A", "same/1", "-o", "/dev/null", url("/echo")},
        std::vector<std::string>{"-sv", "-A", "same/1", "-d", "a=b", url("/echo")},
        std::vector<std::string>{"-svL", "-A", "same/1", url("/redirect/302")}}) {
    SCOPED_TRACE(args.back());
    ToolRun curl = runCurl(args);
    ToolRun tern = runTern(args);
    EXPECT_EQ(shared(tern.err), shared(curl.err)) << curl.err << tern.err;
    EXPECT_THAT(tern.err, ::testing::HasSubstr("{ ["));
  }
}

}  // namespace
}  // namespace tern::tool
