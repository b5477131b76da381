// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// `tern --demo`, the built binary: the offline showcase runs, fetches over TLS and HTTP/2 from
// its in-process MockWebServer, and explains what happened.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tool_process.h"

namespace tern::tool {
namespace {

using ::testing::HasSubstr;
using testing::runTern;
using testing::ToolRun;

TEST(DemoTest, FetchesOverTlsAndHttp2AndExplainsWhatHappened) {
  ToolRun run = runTern({"--demo"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.err, "");
  // The trace of the first call: a TLS handshake, then h2 chosen by ALPN.
  EXPECT_THAT(run.out, HasSubstr(" 0 secureConnectEnd TLSv1.3 "));
  EXPECT_THAT(run.out, HasSubstr(" 0 connectEnd 127.0.0.1:"));
  EXPECT_THAT(run.out, HasSubstr(" h2\n"));
  // The bodies and the -w lines, the redirect followed.
  EXPECT_THAT(run.out, HasSubstr("Hello from MockWebServer"));
  EXPECT_THAT(run.out, HasSubstr("-> 200 2 https://127.0.0.1:"));
  EXPECT_THAT(run.out, HasSubstr("/new-page (41 bytes)\n"));
  // The explanation: one connection made, then reused; the server's view.
  EXPECT_THAT(run.out, HasSubstr("What happened:\n"));
  EXPECT_THAT(run.out, HasSubstr("opened a connection: TCP connected at "));
  EXPECT_THAT(run.out, HasSubstr("reused the pooled connection"));
  EXPECT_THAT(run.out, HasSubstr("followed a redirect (301 -> https://127.0.0.1:"));
  EXPECT_THAT(run.out, HasSubstr("In all: 3 calls, 4 requests"));
  EXPECT_THAT(run.out, HasSubstr("1 connection(s)\n  opened by the client, 1 seen by the server"));
  EXPECT_THAT(run.out, HasSubstr("Protocol: HTTP/2, streams 1 3 5 7 on one connection."));
}

TEST(DemoTest, IgnoresTheRestOfTheCommandLine) {
  // The demo fetches its own URLs with its own options (a fetch of port 9 would fail: exit 7).
  ToolRun run = runTern({"--demo", "-s", "http://127.0.0.1:9/"});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("What happened:"));
  EXPECT_THAT(run.out, ::testing::Not(HasSubstr(":9/")));
}

}  // namespace
}  // namespace tern::tool
