// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "request_factory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "exit_code.h"
#include "support/body_text.h"
#include "temp_dir.h"
#include "tern/multipart_body.h"
#include "tern/version.h"

namespace tern::tool {
namespace {

using tern::testing::writtenBody;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::TempDir;

// The options a command line gives (the URL argument is added here).
Options optionsFor(std::vector<std::string> args) {
  args.push_back("http://example.com/path");
  std::istringstream in;
  std::ostringstream out;
  std::ostringstream err;
  CommandLine commandLine = parseCommandLine(args, in, out, err);
  EXPECT_EQ(commandLine.exitCode, std::nullopt) << err.str();
  return commandLine.options;
}

Request requestFor(std::vector<std::string> args) {
  return buildRequest(optionsFor(std::move(args)), "http://example.com/path");
}

// The exit code of the ToolException that building the request throws, or -1 if none.
int exitCodeOf(const Options& options, std::string_view url = "http://example.com/") {
  try {
    buildRequest(options, url);
  } catch (const ToolException& e) {
    return e.exitCode();
  }
  return -1;
}

TEST(RequestFactoryTest, DefaultIsGetWithUserAgentAndAccept) {
  Request request = requestFor({});
  EXPECT_EQ(request.method(), "GET");
  EXPECT_EQ(request.url().toString(), "http://example.com/path");
  EXPECT_EQ(request.header("User-Agent"), "tern/" + std::string(tern::version()));
  EXPECT_EQ(request.header("Accept"), "*/*");
  EXPECT_EQ(request.body(), nullptr);
  // A placeholder that keeps the client from asking for codings; never sent (curlRequestHeaders).
  EXPECT_EQ(request.header("Accept-Encoding"), "identity");
  EXPECT_EQ(request.headers().size(), 3u);
}

TEST(RequestFactoryTest, CompressedAsksForCurlsCodings) {
  EXPECT_EQ(requestFor({"--compressed"}).header("Accept-Encoding"), "deflate, gzip, br, zstd");
  EXPECT_EQ(requestFor({"--compressed", "-r", "0-9"}).header("Accept-Encoding"),
            "deflate, gzip, br, zstd");
  EXPECT_EQ(requestFor({"--compressed", "-H", "Accept-Encoding: br"}).header("Accept-Encoding"),
            "br");
}

TEST(RequestFactoryTest, UrlWithoutSchemeIsHttp) {
  EXPECT_EQ(parseCommandLineUrl("example.com:8080/a?b").toString(), "http://example.com:8080/a?b");
  EXPECT_EQ(parseCommandLineUrl("HTTPS://example.com").toString(), "https://example.com/");
}

TEST(RequestFactoryTest, UnsupportedSchemeIsExitOne) {
  try {
    parseCommandLineUrl("ftp://example.com/file");
    FAIL() << "expected a ToolException";
  } catch (const ToolException& e) {
    EXPECT_EQ(e.exitCode(), 1);
    EXPECT_STREQ(e.what(), "Protocol \"ftp\" not supported");
  }
}

TEST(RequestFactoryTest, MalformedUrlIsExitThree) {
  Options options;
  EXPECT_EQ(exitCodeOf(options, "http://a b/"), 3);
  EXPECT_EQ(exitCodeOf(options, "http://"), 3);
  EXPECT_EQ(exitCodeOf(options, "http://example.com:99999/"), 3);
}

TEST(RequestFactoryTest, RequestOptionSetsTheMethod) {
  EXPECT_EQ(requestFor({"-X", "DELETE"}).method(), "DELETE");
  EXPECT_EQ(requestFor({"-X", "OPTIONS"}).method(), "OPTIONS");
}

TEST(RequestFactoryTest, HeadOption) {
  Request request = requestFor({"-I"});
  EXPECT_EQ(request.method(), "HEAD");
  EXPECT_EQ(request.body(), nullptr);
}

TEST(RequestFactoryTest, DataIsAFormUrlEncodedPost) {
  Request request = requestFor({"-d", "a=1", "-d", "b=2"});
  EXPECT_EQ(request.method(), "POST");
  ASSERT_NE(request.body(), nullptr);
  EXPECT_EQ(request.body()->contentType()->toString(), "application/x-www-form-urlencoded");
  EXPECT_EQ(request.body()->contentLength(), 7);
  EXPECT_EQ(writtenBody(*request.body()), "a=1&b=2");
}

TEST(RequestFactoryTest, DataWithAnotherMethod) {
  Request request = requestFor({"-X", "PUT", "--data-binary", "x"});
  EXPECT_EQ(request.method(), "PUT");
  EXPECT_EQ(writtenBody(*request.body()), "x");
}

TEST(RequestFactoryTest, PostWithoutDataSendsAnEmptyBody) {
  Request request = requestFor({"-X", "POST"});
  EXPECT_EQ(request.method(), "POST");
  ASSERT_NE(request.body(), nullptr);
  EXPECT_EQ(request.body()->contentLength(), 0);
  EXPECT_EQ(request.body()->contentType(), std::nullopt);
}

TEST(RequestFactoryTest, BodyWithGetIsRefused) {
  EXPECT_EQ(exitCodeOf(optionsFor({"-X", "GET", "-d", "a"})), 43);
}

TEST(RequestFactoryTest, InvalidMethodIsRefused) {
  EXPECT_EQ(exitCodeOf(optionsFor({"-X", "BAD METHOD"})), 43);
}

TEST(RequestFactoryTest, CustomHeaderIsAdded) {
  Request request = requestFor({"-H", "X-Trace: abc", "-H", "X-Trace: def"});
  EXPECT_THAT(request.headers("X-Trace"), ElementsAre("abc", "def"));
}

TEST(RequestFactoryTest, CustomHeaderReplacesTernsOwn) {
  Request request = requestFor({"-H", "User-Agent: mine/1", "-H", "accept: text/html"});
  EXPECT_THAT(request.headers("User-Agent"), ElementsAre("mine/1"));
  EXPECT_THAT(request.headers("Accept"), ElementsAre("text/html"));
}

TEST(RequestFactoryTest, HeaderWithColonAndNothingDropsIt) {
  Request request = requestFor({"-H", "Accept:", "-H", "User-Agent:  "});
  EXPECT_EQ(request.header("Accept"), std::nullopt);
  EXPECT_EQ(request.header("User-Agent"), std::nullopt);
}

TEST(RequestFactoryTest, HeaderWithSemicolonIsSentEmpty) {
  Request request = requestFor({"-H", "X-Empty;", "-H", "Accept;"});
  EXPECT_THAT(request.headers("X-Empty"), ElementsAre(""));
  EXPECT_THAT(request.headers("Accept"), ElementsAre(""));
}

TEST(RequestFactoryTest, HeaderLinesWithoutColonOrSemicolonAreIgnored) {
  Request request = requestFor({"-H", "garbage", "-H", "X-A;not-empty"});
  EXPECT_EQ(request.headers().size(), 3u);  // User-Agent, Accept, Accept-Encoding.
}

TEST(RequestFactoryTest, HeaderValueWithControlCharacterIsRefused) {
  EXPECT_EQ(exitCodeOf(optionsFor({"-H", std::string("X-Bad: a\x01") + "b"})), 43);
}

TEST(RequestFactoryTest, CustomContentTypeWinsOverTheDataType) {
  Request request = requestFor({"-d", "{}", "-H", "Content-Type: application/json"});
  EXPECT_EQ(request.body()->contentType(), std::nullopt);
  EXPECT_EQ(request.header("Content-Type"), "application/json");
}

TEST(RequestFactoryTest, UserAgentOption) {
  EXPECT_EQ(requestFor({"-A", "agent/2"}).header("User-Agent"), "agent/2");
  EXPECT_EQ(requestFor({"-A", ""}).header("User-Agent"), std::nullopt);
}

TEST(RequestFactoryTest, UserOptionSendsBasicAuthorization) {
  EXPECT_EQ(requestFor({"-u", "Aladdin:open sesame"}).header("Authorization"),
            "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
}

TEST(RequestFactoryTest, BasicAuthorizationEncodesAsRfc7617) {
  EXPECT_EQ(basicAuthorization("Aladdin:open sesame"), "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
  EXPECT_EQ(basicAuthorization("user"), "Basic dXNlcjo=");
  EXPECT_EQ(basicAuthorization("a:b"), "Basic YTpi");
  EXPECT_EQ(basicAuthorization("ab:cd"), "Basic YWI6Y2Q=");
  EXPECT_EQ(basicAuthorization("test:123\xc2\xa3"), "Basic dGVzdDoxMjPCow==");
}

TEST(RequestFactoryTest, FormIsMultipartPost) {
  TempDir dir;
  std::filesystem::path file = dir.write("upload.txt", "file content");
  Request request = requestFor({"-F", "name=value", "-F", "upload=@" + file.string(), "-F",
                                "typed=x;type=text/x-custom;filename=t.dat"});
  EXPECT_EQ(request.method(), "POST");
  auto* body = dynamic_cast<MultipartBody*>(request.body().get());
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->type().toString(), "multipart/form-data");
  ASSERT_EQ(body->size(), 3u);
  std::string written = writtenBody(*body);
  EXPECT_THAT(written, HasSubstr("Content-Disposition: form-data; name=\"name\"\r\n\r\nvalue\r\n"));
  EXPECT_THAT(written, HasSubstr("Content-Disposition: form-data; name=\"upload\"; "
                                 "filename=\"upload.txt\"\r\nContent-Type: text/plain\r\n"));
  EXPECT_THAT(written, HasSubstr("\r\n\r\nfile content\r\n"));
  EXPECT_THAT(written, HasSubstr("name=\"typed\"; filename=\"t.dat\"\r\n"
                                 "Content-Type: text/x-custom\r\n"));
}

TEST(RequestFactoryTest, FormFileTypeFromExtensionElseOctetStream) {
  TempDir dir;
  std::filesystem::path png = dir.write("pic.PNG", "png");
  std::filesystem::path other = dir.write("data.bin", "bin");
  Request request = requestFor({"-F", "a=@" + png.string(), "-F", "b=@" + other.string()});
  auto* body = dynamic_cast<MultipartBody*>(request.body().get());
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->part(0).body()->contentType()->toString(), "image/png");
  EXPECT_EQ(body->part(1).body()->contentType()->toString(), "application/octet-stream");
}

TEST(RequestFactoryTest, FormFileContentIsAPlainValue) {
  TempDir dir;
  std::filesystem::path file = dir.write("notes", "line1\nline2");
  Request request = requestFor({"-F", "notes=<" + file.string()});
  auto* body = dynamic_cast<MultipartBody*>(request.body().get());
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->part(0).body()->contentType(), std::nullopt);
  EXPECT_EQ(writtenBody(*body->part(0).body()), "line1\nline2");
  EXPECT_EQ(body->part(0).headers().get("Content-Disposition"), "form-data; name=\"notes\"");
}

TEST(RequestFactoryTest, MissingFormFileIsExit26) {
  EXPECT_EQ(exitCodeOf(optionsFor({"-F", "a=@/nonexistent/tern/file"})), 26);
  EXPECT_EQ(exitCodeOf(optionsFor({"-F", "a=</nonexistent/tern/file"})), 26);
}

TEST(RequestFactoryTest, DroppedClientHeaders) {
  EXPECT_THAT(droppedClientHeaders(optionsFor({})), IsEmpty());
  EXPECT_THAT(droppedClientHeaders(optionsFor({"-H", "host:", "-H", "Accept-Encoding:", "-H",
                                               "Content-Length:", "-H", "X-Other:"})),
              ElementsAre("Host", "Accept-Encoding"));
  EXPECT_THAT(droppedClientHeaders(optionsFor({"-A", ""})), ElementsAre("User-Agent"));
}

}  // namespace
}  // namespace tern::tool
