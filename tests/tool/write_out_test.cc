// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "write_out.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace tern::tool {
namespace {

using namespace std::chrono_literals;

TransferInfo finishedTransfer() {
  TransferInfo info;
  info.url = "http://example.com/start";
  info.urlNumber = 2;
  info.urlEffective = "http://example.com/end";
  info.method = "GET";
  info.httpCode = 200;
  info.protocol = Protocol::HTTP_1_1;
  info.responseHeaders =
      Headers::of("Content-Type", "text/plain", "X-Twice", "first", "X-Twice", "second");
  info.sizeHeader = 95;
  info.sizeDownload = 1234;
  info.sizeUpload = 5;
  info.numConnects = 1;
  info.remoteIp = "93.184.216.34";
  info.remotePort = 443;
  info.numRedirects = 2;
  info.timeNamelookup = 100us;
  info.timeConnect = 250us;
  info.timePretransfer = 300us;
  info.timeStartTransfer = 1500us;
  info.timeTotal = 2s + 345678us + 900ns;
  info.filenameEffective = "out.txt";
  return info;
}

// What -w writes to stdout, and what it writes to stderr.
struct Written {
  std::string out;
  std::string err;
};

Written expand(std::string_view format, const TransferInfo& info = finishedTransfer()) {
  std::ostringstream out;
  std::ostringstream err;
  writeOut(format, info, out, err);
  return {out.str(), err.str()};
}

TEST(WriteOutTest, ExpandsTransferVariables) {
  EXPECT_EQ(expand("%{http_code} %{response_code}").out, "200 200");
  EXPECT_EQ(expand("%{http_version}").out, "1.1");
  EXPECT_EQ(expand("%{size_download} %{size_header} %{size_upload}").out, "1234 95 5");
  EXPECT_EQ(expand("%{num_connects} %{num_redirects}").out, "1 2");
  EXPECT_EQ(expand("%{remote_ip}:%{remote_port}").out, "93.184.216.34:443");
  EXPECT_EQ(expand("%{url} %{urlnum} %{url_effective}").out,
            "http://example.com/start 2 http://example.com/end");
  EXPECT_EQ(expand("%{method} %{scheme} %{content_type} %{filename_effective}").out,
            "GET HTTP text/plain out.txt");
  EXPECT_EQ(expand("%{exitcode}[%{errormsg}]").out, "0[]");
}

TEST(WriteOutTest, TimesAreSecondsWithSixDecimals) {
  EXPECT_EQ(expand("%{time_total}").out, "2.345678");
  EXPECT_EQ(expand("%{time_starttransfer}").out, "0.001500");
}

TEST(WriteOutTest, ConnectionPhaseTimes) {
  EXPECT_EQ(expand("%{time_namelookup} %{time_connect} %{time_appconnect} %{time_pretransfer}").out,
            "0.000100 0.000250 0.000000 0.000300");
}

TEST(WriteOutTest, VariableNamesIgnoreCase) { EXPECT_EQ(expand("%{HTTP_Code}").out, "200"); }

TEST(WriteOutTest, HttpVersionAsCurlPrintsIt) {
  TransferInfo info = finishedTransfer();
  info.protocol = Protocol::HTTP_1_0;
  EXPECT_EQ(expand("%{http_version}", info).out, "1");
  info.protocol = Protocol::HTTP_2;
  EXPECT_EQ(expand("%{http_version}", info).out, "2");
  info.protocol = Protocol::H2_PRIOR_KNOWLEDGE;
  EXPECT_EQ(expand("%{http_version}", info).out, "2");
  info.protocol = Protocol::HTTP_3;
  EXPECT_EQ(expand("%{http_version}", info).out, "3");
}

TEST(WriteOutTest, FailedTransferHasZeroCodeAndItsError) {
  TransferInfo info;
  info.url = info.urlEffective = "http://127.0.0.1:9/";
  info.method = "GET";
  info.exitCode = 7;
  info.errorMessage = "Failed to connect to 127.0.0.1 port 9 after 0 ms: Connection refused";
  EXPECT_EQ(
      expand("%{http_code}|%{http_version}|%{scheme}|%{content_type}|%{exitcode}|%{errormsg}", info)
          .out,
      "000|0|||7|Failed to connect to 127.0.0.1 port 9 after 0 ms: Connection refused");
}

TEST(WriteOutTest, BackslashEscapes) {
  EXPECT_EQ(expand("a\\nb\\tc\\rd").out, "a\nb\tc\rd");
  // Other escapes, and a trailing backslash, are written as they are.
  EXPECT_EQ(expand("\\q\\\\ \\").out, "\\q\\\\ \\");
}

TEST(WriteOutTest, PercentSequences) {
  EXPECT_EQ(expand("100%%").out, "100%");
  EXPECT_EQ(expand("%z%").out, "%z%");
  EXPECT_EQ(expand("%{http_code").out, "%{http_code");
  // As curl, a name runs to the next '}', wherever it is.
  Written nested = expand("%{ %{http_code}!");
  EXPECT_EQ(nested.out, "!");
  EXPECT_EQ(nested.err, "tern: unknown --write-out variable: ' %{http_code'\n");
}

TEST(WriteOutTest, UnknownVariableWarnsAndPrintsNothing) {
  Written written = expand("a%{foo}b");
  EXPECT_EQ(written.out, "ab");
  EXPECT_EQ(written.err, "tern: unknown --write-out variable: 'foo'\n");
}

TEST(WriteOutTest, ResponseHeaderByName) {
  EXPECT_EQ(expand("%header{content-type}").out, "text/plain");
  EXPECT_EQ(expand("%header{x-twice}").out, "first");
  EXPECT_EQ(expand("[%header{x-missing}]").out, "[]");
  EXPECT_EQ(expand("%header{x").out, "%header{x");
}

TEST(WriteOutTest, StderrAndStdoutSwitchStreams) {
  Written written = expand("a%{stderr}b%{stdout}c");
  EXPECT_EQ(written.out, "ac");
  EXPECT_EQ(written.err, "b");
}

TEST(WriteOutTest, OnErrorStopsOutputOfASuccessfulTransfer) {
  EXPECT_EQ(expand("ok%{onerror}failed").out, "ok");
  TransferInfo failed = finishedTransfer();
  failed.exitCode = 22;
  EXPECT_EQ(expand("ok%{onerror}failed", failed).out, "okfailed");
}

TEST(WriteOutTest, UnknownVariableLookupIsNullopt) {
  EXPECT_EQ(writeOutVariable("time_redirect", finishedTransfer()), std::nullopt);
  EXPECT_EQ(writeOutVariable("exitcode", finishedTransfer()), "0");
}

}  // namespace
}  // namespace tern::tool
