// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "temp_dir.h"

namespace tern::tool {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using testing::TempDir;

struct Parsed {
  CommandLine commandLine;
  std::string out;
  std::string err;
  const Options& options() const { return commandLine.options; }
};

Parsed parse(const std::vector<std::string>& args, const std::string& stdinText = "") {
  std::istringstream in(stdinText);
  std::ostringstream out;
  std::ostringstream err;
  CommandLine commandLine = parseCommandLine(args, in, out, err);
  return {std::move(commandLine), out.str(), err.str()};
}

TEST(OptionsTest, UrlsInOrderFromArgumentsAndUrlOption) {
  Parsed parsed = parse({"http://a/", "--url", "http://b/", "http://c/"});
  EXPECT_EQ(parsed.commandLine.exitCode, std::nullopt) << parsed.err;
  EXPECT_THAT(parsed.options().urls, ElementsAre("http://a/", "http://b/", "http://c/"));
}

TEST(OptionsTest, OptionsMayFollowUrls) {
  Parsed parsed = parse({"http://a/", "-X", "PUT", "http://b/", "-sS"});
  EXPECT_THAT(parsed.options().urls, ElementsAre("http://a/", "http://b/"));
  EXPECT_EQ(parsed.options().method, "PUT");
  EXPECT_TRUE(parsed.options().silent);
  EXPECT_TRUE(parsed.options().showError);
}

TEST(OptionsTest, OutputsPairWithUrlsInTheOrderGiven) {
  Parsed parsed = parse({"http://a/", "-O", "http://b/", "-o", "file_#1", "http://c/", "-o-"});
  ASSERT_EQ(parsed.options().outputs.size(), 3u);
  EXPECT_EQ(parsed.options().outputs[0].kind, OutputSpec::Kind::kRemoteName);
  EXPECT_EQ(parsed.options().outputs[1].kind, OutputSpec::Kind::kFile);
  EXPECT_EQ(parsed.options().outputs[1].fileName, "file_#1");
  EXPECT_EQ(parsed.options().outputs[2].fileName, "-");
}

TEST(OptionsTest, CombinedShortFlagsAndAttachedValues) {
  Parsed parsed = parse({"-sSfiLgv", "-ofile", "-XDELETE", "http://a/"});
  const Options& options = parsed.options();
  EXPECT_TRUE(options.silent && options.showError && options.fail && options.include &&
              options.location && options.globOff);
  EXPECT_GT(options.verbose, 0);
  EXPECT_EQ(options.method, "DELETE");
  ASSERT_EQ(options.outputs.size(), 1u);
  EXPECT_EQ(options.outputs[0].fileName, "file");
}

TEST(OptionsTest, RepeatedSingleOptionTakesTheLast) {
  Parsed parsed = parse({"-X", "PUT", "-X", "PATCH", "-A", "one", "-A", "two", "http://a/"});
  EXPECT_EQ(parsed.options().method, "PATCH");
  EXPECT_EQ(parsed.options().userAgent, "two");
}

TEST(OptionsTest, HeadersRepeatInOrder) {
  Parsed parsed = parse({"-H", "A: 1", "--header", "B: 2", "-H", "A: 3", "http://a/"});
  EXPECT_THAT(parsed.options().headers, ElementsAre("A: 1", "B: 2", "A: 3"));
}

TEST(OptionsTest, HeadersFromFile) {
  TempDir files;
  std::string path = files.write("headers", "X-One: 1\r\n\nX-Two: 2\n").string();
  Parsed parsed = parse({"-H", "X-Zero: 0", "-H", "@" + path, "http://a/"});
  EXPECT_THAT(parsed.options().headers, ElementsAre("X-Zero: 0", "X-One: 1", "X-Two: 2"));
}

TEST(OptionsTest, DataPiecesJoinWithAmpersandInOrder) {
  Parsed parsed =
      parse({"-d", "a=1", "--data-binary", "b=2", "--data-raw", "@c", "--data", "d", "http://a/"});
  EXPECT_EQ(parsed.options().data, "a=1&b=2&@c&d");
}

TEST(OptionsTest, NoDataIsNulloptButEmptyDataIsEmpty) {
  EXPECT_EQ(parse({"http://a/"}).options().data, std::nullopt);
  EXPECT_EQ(parse({"-d", "", "http://a/"}).options().data, "");
}

TEST(OptionsTest, DataFromFileDropsCarriageReturnsAndNewlines) {
  TempDir files;
  std::string path = files.write("data", "a=1\r\nb=2\nc=3\n").string();
  EXPECT_EQ(parse({"-d", "@" + path, "http://a/"}).options().data, "a=1b=2c=3");
}

TEST(OptionsTest, BinaryDataFromFileKeepsEveryByte) {
  TempDir files;
  std::string content("a=1\r\nb\0=2\n", 11);
  std::string path = files.write("data", content).string();
  EXPECT_EQ(parse({"--data-binary", "@" + path, "http://a/"}).options().data, content);
}

TEST(OptionsTest, DataFromStdin) {
  EXPECT_EQ(parse({"-d", "@-", "http://a/"}, "x=1\ny=2\n").options().data, "x=1y=2");
  EXPECT_EQ(parse({"--data-binary", "@-", "http://a/"}, "x=1\ny=2\n").options().data, "x=1\ny=2\n");
}

TEST(OptionsTest, UnreadableDataFileWarnsAndSendsNothing) {
  Parsed parsed = parse({"-d", "@/nonexistent/tern/data", "-d", "b=2", "http://a/"});
  EXPECT_EQ(parsed.commandLine.exitCode, std::nullopt);
  EXPECT_EQ(parsed.options().data, "&b=2");
  EXPECT_EQ(parsed.err,
            "Warning: Couldn't read data from file \"/nonexistent/tern/data\", this makes an "
            "empty POST.\n");
  EXPECT_EQ(parse({"-s", "-d", "@/nonexistent/tern/data", "http://a/"}).err, "");
}

TEST(OptionsTest, TimeoutsAreFractionalSeconds) {
  Parsed parsed = parse({"--connect-timeout", "0.25", "-m", "3", "http://a/"});
  EXPECT_EQ(parsed.options().connectTimeout, 0.25);
  EXPECT_EQ(parsed.options().maxTime, 3.0);
}

TEST(OptionsTest, MaxRedirs) {
  EXPECT_EQ(parse({"--max-redirs", "3", "http://a/"}).options().maxRedirs, 3);
  EXPECT_EQ(parse({"--max-redirs", "-1", "http://a/"}).options().maxRedirs, -1);
  Parsed bad = parse({"--max-redirs", "-2", "http://a/"});
  EXPECT_EQ(bad.commandLine.exitCode, 2);
  EXPECT_THAT(bad.err, HasSubstr("expected a proper numerical parameter"));
}

TEST(OptionsTest, CacheDirectoryAndSize) {
  Parsed none = parse({"http://a/"});
  EXPECT_EQ(none.options().cacheDir, std::nullopt);
  EXPECT_EQ(none.options().cacheSize, 50 * 1024 * 1024);
  Parsed parsed = parse({"--cache", "/tmp/c", "--cache-size", "10M", "http://a/"});
  EXPECT_EQ(parsed.commandLine.exitCode, std::nullopt) << parsed.err;
  EXPECT_EQ(parsed.options().cacheDir, "/tmp/c");
  EXPECT_EQ(parsed.options().cacheSize, 10 * 1024 * 1024);
  EXPECT_EQ(parse({"--cache-size", "4096", "http://a/"}).options().cacheSize, 4096);
  EXPECT_EQ(parse({"--cache-size", "2k", "http://a/"}).options().cacheSize, 2048);
  EXPECT_EQ(parse({"--cache-size", "1G", "http://a/"}).options().cacheSize, int64_t{1} << 30);
  for (const char* bad : {"0", "-1", "10X", "M", "", "99999999999999999999"}) {
    Parsed refused = parse({"--cache-size", bad, "http://a/"});
    EXPECT_EQ(refused.commandLine.exitCode, 2) << bad;
    EXPECT_THAT(refused.err,
                HasSubstr("option --cache-size: expected a proper numerical parameter"))
        << bad;
  }
  EXPECT_THAT(parse({"--help"}).out, HasSubstr("\n     --cache <dir>        Keep responses"));
}

TEST(OptionsTest, NonNumericTimeoutIsAUsageError) {
  Parsed parsed = parse({"-m", "soon", "http://a/"});
  EXPECT_EQ(parsed.commandLine.exitCode, 2);
  EXPECT_THAT(parsed.err, HasSubstr("expected a proper numerical parameter"));
  EXPECT_THAT(parsed.err,
              HasSubstr("tern: try 'tern --help' or 'tern --manual' for more information\n"));
  EXPECT_EQ(parse({"--connect-timeout", "-1", "http://a/"}).commandLine.exitCode, 2);
}

TEST(OptionsTest, UnknownOptionInCurlsWords) {
  Parsed parsed = parse({"--frobnicate", "http://a/"});
  EXPECT_EQ(parsed.commandLine.exitCode, 2);
  EXPECT_EQ(parsed.err,
            "tern: option --frobnicate: is unknown\n"
            "tern: try 'tern --help' or 'tern --manual' for more information\n");
}

TEST(OptionsTest, MissingParameter) {
  Parsed parsed = parse({"http://a/", "-H"});
  EXPECT_EQ(parsed.commandLine.exitCode, 2);
  EXPECT_THAT(parsed.err, HasSubstr("requires parameter"));
}

TEST(OptionsTest, NoUrl) {
  Parsed parsed = parse({"-s"});
  EXPECT_EQ(parsed.commandLine.exitCode, 2);
  EXPECT_THAT(parsed.err, HasSubstr("tern: no URL specified!\n"));
}

TEST(OptionsTest, VersionNeedsNoUrl) {
  Parsed parsed = parse({"-V"});
  EXPECT_EQ(parsed.commandLine.exitCode, std::nullopt);
  EXPECT_TRUE(parsed.options().showVersion);
}

TEST(OptionsTest, HelpListsOptionsAndExitsZero) {
  Parsed parsed = parse({"--help"});
  EXPECT_EQ(parsed.commandLine.exitCode, 0);
  EXPECT_THAT(parsed.out, HasSubstr("--write-out"));
  EXPECT_THAT(parsed.out, HasSubstr("--max-redirs"));
}

TEST(OptionsTest, HelpShowsEachValuesPlaceholderAsCurl) {
  Parsed parsed = parse({"-h"});
  EXPECT_EQ(parsed.commandLine.exitCode, 0);
  EXPECT_THAT(parsed.out, ::testing::StartsWith("Usage: tern [options...] <url>\n"));
  EXPECT_THAT(parsed.out, HasSubstr("\n -d, --data <data>        HTTP POST data"));
  EXPECT_THAT(parsed.out, HasSubstr("\n     --max-redirs <num>   Maximum number of redirects"));
  EXPECT_THAT(parsed.out, HasSubstr("\n -L, --location           Follow redirects\n"));
  EXPECT_THAT(parsed.out, HasSubstr("\n -4, --ipv4               Resolve names to IPv4"));
  EXPECT_THAT(parsed.out, HasSubstr("\n -#, --progress-bar       Display transfer progress"));
}

TEST(OptionsTest, IpFamilyAndHttp10AreOptionsNotUrls) {
  Parsed parsed = parse({"-4", "-0", "http://a/"});
  EXPECT_EQ(parsed.commandLine.exitCode, std::nullopt) << parsed.err;
  EXPECT_THAT(parsed.options().urls, ::testing::ElementsAre("http://a/"));
  EXPECT_EQ(parsed.options().ipResolve, Options::IpResolve::kIpv4);
  EXPECT_EQ(parse({"-4", "-6", "http://a/"}).options().ipResolve, Options::IpResolve::kIpv6);
}

TEST(OptionsTest, ManualExitsZero) {
  Parsed parsed = parse({"--manual"});
  EXPECT_EQ(parsed.commandLine.exitCode, 0);
  EXPECT_THAT(parsed.out, HasSubstr("--location"));
}

TEST(OptionsTest, DataAndFormTogetherAreRefused) {
  Parsed parsed = parse({"-d", "a", "-F", "b=c", "http://a/"});
  EXPECT_EQ(parsed.commandLine.exitCode, 2);
  EXPECT_THAT(parsed.err, HasSubstr("You can only select one HTTP request method!"));
}

TEST(OptionsTest, HeadWithDataIsRefused) {
  EXPECT_EQ(parse({"-I", "-d", "a", "http://a/"}).commandLine.exitCode, 2);
  EXPECT_EQ(parse({"-I", "-F", "a=b", "http://a/"}).commandLine.exitCode, 2);
}

TEST(OptionsTest, BadFormFieldIsAUsageError) {
  Parsed parsed = parse({"-F", "novalue", "http://a/"});
  EXPECT_EQ(parsed.commandLine.exitCode, 2);
  EXPECT_THAT(parsed.err, HasSubstr("option -F: is badly used here"));
}

TEST(OptionsTest, WriteOutFromFile) {
  TempDir files;
  std::string path = files.write("format", "%{http_code}\\n").string();
  EXPECT_EQ(parse({"-w", "@" + path, "http://a/"}).options().writeOut, "%{http_code}\\n");
  EXPECT_EQ(parse({"-w", "@-", "http://a/"}, "%{url}").options().writeOut, "%{url}");
  EXPECT_EQ(parse({"http://a/"}).options().writeOut, std::nullopt);
}

TEST(OptionsTest, UnreadableHeaderOrWriteOutFileWarns) {
  Parsed parsed =
      parse({"-H", "@/nonexistent/tern/headers", "-w", "@/nonexistent/tern/format", "http://a/"});
  EXPECT_EQ(parsed.commandLine.exitCode, std::nullopt);
  EXPECT_TRUE(parsed.options().headers.empty());
  EXPECT_EQ(parsed.options().writeOut, "");
  EXPECT_EQ(parsed.err,
            "Warning: Failed to read /nonexistent/tern/headers\n"
            "Warning: Failed to read /nonexistent/tern/format\n");
}

TEST(OptionsTest, ShowErrors) {
  EXPECT_TRUE(parse({"http://a/"}).options().showErrors());
  EXPECT_FALSE(parse({"-s", "http://a/"}).options().showErrors());
  EXPECT_TRUE(parse({"-s", "-S", "http://a/"}).options().showErrors());
}

TEST(FormFieldTest, TextField) {
  std::optional<FormField> field = FormField::parse("name=some value");
  ASSERT_TRUE(field);
  EXPECT_EQ(field->kind, FormField::Kind::kText);
  EXPECT_EQ(field->name, "name");
  EXPECT_EQ(field->value, "some value");
  EXPECT_EQ(field->type, std::nullopt);
  EXPECT_EQ(field->fileName, std::nullopt);
}

TEST(FormFieldTest, FileUploadWithTypeAndFileName) {
  std::optional<FormField> field = FormField::parse("photo=@cat.png;type=image/png;filename=a.png");
  ASSERT_TRUE(field);
  EXPECT_EQ(field->kind, FormField::Kind::kFile);
  EXPECT_EQ(field->value, "cat.png");
  EXPECT_EQ(field->type, "image/png");
  EXPECT_EQ(field->fileName, "a.png");
}

TEST(FormFieldTest, FileContentAsValue) {
  std::optional<FormField> field = FormField::parse("notes=<notes.txt");
  ASSERT_TRUE(field);
  EXPECT_EQ(field->kind, FormField::Kind::kFileContent);
  EXPECT_EQ(field->value, "notes.txt");
}

TEST(FormFieldTest, SemicolonEndsTheValueUnlessQuoted) {
  EXPECT_EQ(FormField::parse("a=b;unknown")->value, "b");
  EXPECT_EQ(FormField::parse("a=b;type=text/x")->type, "text/x");
  EXPECT_EQ(FormField::parse("a=\"b;c\\\"d\";type=text/x")->value, "b;c\"d");
  EXPECT_EQ(FormField::parse("a=\"b;c\";type=text/x")->type, "text/x");
}

TEST(FormFieldTest, EmptyValueAndMissingEquals) {
  EXPECT_EQ(FormField::parse("a=")->value, "");
  EXPECT_EQ(FormField::parse("a"), std::nullopt);
}

}  // namespace
}  // namespace tern::tool

namespace tern::tool {
namespace {

TEST(OptionsTlsTest, ReadsCurlsTlsOptions) {
  Parsed parsed = parse({"https://a/", "--cacert", "ca.pem", "-k", "--cert", "client.pem", "--key",
                         "client.key", "--tlsv1.2"});
  EXPECT_EQ(parsed.commandLine.exitCode, std::nullopt) << parsed.err;
  EXPECT_EQ(parsed.options().caCert, "ca.pem");
  EXPECT_TRUE(parsed.options().insecure);
  EXPECT_EQ(parsed.options().clientCert, "client.pem");
  EXPECT_EQ(parsed.options().clientKey, "client.key");
  EXPECT_EQ(parsed.options().tlsMinimum, "1.2");
  EXPECT_EQ(parse({"https://a/", "--tlsv1.2", "--tlsv1.3"}).options().tlsMinimum, "1.3");
  EXPECT_EQ(parse({"https://a/", "--insecure"}).options().insecure, true);
  EXPECT_EQ(parse({"https://a/"}).options().tlsMinimum, std::nullopt);
}

TEST(OptionsTlsTest, PinnedPublicKeysBecomeTernPins) {
  Parsed parsed = parse({"https://a/", "--pinnedpubkey", "sha256//AAAA=;sha256//BBBB="});
  EXPECT_EQ(parsed.commandLine.exitCode, std::nullopt) << parsed.err;
  EXPECT_THAT(parsed.options().pinnedPublicKeys, ElementsAre("sha256/AAAA=", "sha256/BBBB="));
}

TEST(OptionsTlsTest, PinnedPublicKeyFileIsAUsageError) {
  Parsed parsed = parse({"https://a/", "--pinnedpubkey", "key.pem"});
  EXPECT_EQ(parsed.commandLine.exitCode, 2);
  EXPECT_THAT(parsed.err, HasSubstr("option --pinnedpubkey: expected sha256//BASE64"));
}

TEST(OptionsTlsTest, KeyWithoutCertIsAUsageError) {
  Parsed parsed = parse({"https://a/", "--key", "client.key"});
  EXPECT_EQ(parsed.commandLine.exitCode, 2);
  EXPECT_THAT(parsed.err, HasSubstr("option --key: needs --cert"));
}

TEST(OptionsProgressTest, HashSelectsTheProgressBar) {
  Parsed parsed = parse({"-#", "http://a/"});
  EXPECT_EQ(parsed.commandLine.exitCode, std::nullopt) << parsed.err;
  EXPECT_TRUE(parsed.options().progressBar);
  EXPECT_TRUE(parse({"--progress-bar", "http://a/"}).options().progressBar);
  EXPECT_FALSE(parse({"http://a/"}).options().progressBar);
}

TEST(OptionsProgressTest, HashAfterAnOptionThatTakesAValueIsThatValue) {
  Parsed parsed = parse({"-d", "-#", "http://a/"});
  EXPECT_EQ(parsed.commandLine.exitCode, std::nullopt) << parsed.err;
  EXPECT_FALSE(parsed.options().progressBar);
  EXPECT_EQ(parsed.options().data, "-#");
}

TEST(OptionsProgressTest, NoProgressMeter) {
  EXPECT_TRUE(parse({"--no-progress-meter", "http://a/"}).options().noProgressMeter);
}

TEST(OptionsProgressTest, DemoNeedsNoUrl) {
  Parsed parsed = parse({"--demo"});
  EXPECT_EQ(parsed.commandLine.exitCode, std::nullopt) << parsed.err;
  EXPECT_TRUE(parsed.options().demo);
}

}  // namespace
}  // namespace tern::tool
