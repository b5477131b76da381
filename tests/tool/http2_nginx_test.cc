// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The built tool against a real nginx over cleartext HTTP/2 (prior knowledge): -Z multiplexes
// thousands of transfers over one connection, as nginx's own access log confirms. Skipped,
// saying why, where nginx is not installed.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "support/nginx.h"
#include "tool_process.h"

namespace tern::tool {
namespace {

using tern::testing::Nginx;
using testing::runTern;
using testing::ToolRun;

TEST(Http2NginxToolTest, ParallelTransfersShareOneConnection) {
  if (!Nginx::findBinary()) GTEST_SKIP() << "nginx is not installed (apt-get install nginx)";
  Nginx nginx;
  nginx.writeFile("www/one.txt", "1\n");
  ASSERT_TRUE(nginx.start({"http2", "", ""})) << nginx.errorLog();
  const int count = 5000;
  ToolRun run = runTern({"-s", "-S", "-Z", "--http2-prior-knowledge", "-w",
                         "%{http_version} %{num_connects}\n",
                         nginx.url("/one.txt?[1-" + std::to_string(count) + "]")});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  std::istringstream lines(run.out);
  int transfers = 0;
  int connects = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line == "1") continue;  // A body.
    ASSERT_EQ(line.substr(0, 2), "2 ") << line;
    connects += std::stoi(line.substr(2));
    ++transfers;
  }
  EXPECT_EQ(transfers, count);
  EXPECT_EQ(connects, 1);
  std::vector<std::string> log = nginx.accessLogLines(count);
  ASSERT_EQ(log.size(), static_cast<size_t>(count));
  std::set<std::string> connections;
  for (const std::string& line : log) connections.insert(line.substr(0, line.find(' ')));
  EXPECT_EQ(connections.size(), 1u);
}

}  // namespace
}  // namespace tern::tool
