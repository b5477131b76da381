// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// A binary body is not written to a terminal, as curl refuses it: TransferRunner told that stdout
// is a terminal (what curl 7.88 did on a pty is in each test's comment).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "options.h"
#include "terminal.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "transfer.h"

namespace tern::tool {
namespace {

using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;

constexpr Terminal kStdoutTerminal{true, false, 80};
const std::string kBinary("\x01\x00\x02\x03", 4);

class BinaryOutputTest : public ::testing::Test {
 protected:
  int run(std::vector<std::string> args, Terminal terminal = kStdoutTerminal) {
    args.push_back(server_.url("/").toString());
    std::istringstream in;
    std::ostringstream help;
    CommandLine commandLine = parseCommandLine(args, in, help, err_);
    EXPECT_EQ(commandLine.exitCode, std::nullopt) << err_.str();
    options_ = commandLine.options;
    TransferRunner runner(options_, out_, err_, terminal);
    return runner.run();
  }

  MockWebServer server_;
  Options options_;
  std::ostringstream out_;
  std::ostringstream err_;
};

// curl: no output, exit 23, and its warning on stderr.
TEST_F(BinaryOutputTest, BinaryBodyIsRefusedOnATerminal) {
  server_.enqueue(MockResponse::Builder().body(kBinary).build());
  EXPECT_EQ(run({}), 23);
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(err_.str(),
            "Warning: Binary output can mess up your terminal. Use \"--output -\" to tell \n"
            "Warning: tern to output it to your terminal anyway, or consider \"--output \n"
            "Warning: <FILE>\" to save to a file.\n");
}

// curl -s and -sS: exit 23, nothing on stderr.
TEST_F(BinaryOutputTest, SilentRefusalSaysNothing) {
  server_.enqueue(MockResponse::Builder().body(kBinary).build());
  EXPECT_EQ(run({"-sS"}), 23);
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(err_.str(), "");
}

// curl -o -: the bytes, exit 0.
TEST_F(BinaryOutputTest, OutputDashWritesItAnyway) {
  server_.enqueue(MockResponse::Builder().body(kBinary).build());
  EXPECT_EQ(run({"-o", "-"}), 0) << err_.str();
  EXPECT_EQ(out_.str(), kBinary);
}

TEST_F(BinaryOutputTest, TextOnATerminalAndBinaryToAPipeAreWritten) {
  server_.enqueue(MockResponse::Builder().body("text").build());
  EXPECT_EQ(run({}), 0) << err_.str();
  EXPECT_EQ(out_.str(), "text");
  server_.enqueue(MockResponse::Builder().body(kBinary).build());
  EXPECT_EQ(run({}, Terminal{}), 0) << err_.str();
  EXPECT_EQ(out_.str(), "text" + kBinary);
}

}  // namespace
}  // namespace tern::tool
