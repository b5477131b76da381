// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "output.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "exit_code.h"
#include "temp_dir.h"

namespace tern::tool {
namespace {

using testing::TempDir;

int exitCodeOf(std::string_view url) {
  try {
    remoteFileName(url);
  } catch (const ToolException& e) {
    return e.exitCode();
  }
  return 0;
}

TEST(OutputTest, RemoteFileNameIsTheLastPathSegment) {
  EXPECT_EQ(remoteFileName("http://example.com/dir/file.txt"), "file.txt");
  EXPECT_EQ(remoteFileName("http://example.com/file.txt?a=1/2#x/y"), "file.txt");
  EXPECT_EQ(remoteFileName("example.com/a%20b"), "a%20b");
}

TEST(OutputTest, RemoteFileNameMustNotBeEmpty) {
  EXPECT_EQ(exitCodeOf("http://example.com/"), 23);
  EXPECT_EQ(exitCodeOf("http://example.com"), 23);
  EXPECT_EQ(exitCodeOf("http://example.com/dir/?file=x"), 23);
}

TEST(OutputTest, OutputFileNameSubstitutesGlobValues) {
  GlobExpansion expansion{"http://x/a/7", {"a", "7"}};
  EXPECT_EQ(outputFileName({OutputSpec::Kind::kFile, "out_#1_#2.txt"}, expansion), "out_a_7.txt");
  EXPECT_EQ(outputFileName({OutputSpec::Kind::kFile, "-"}, expansion), "");
  EXPECT_EQ(outputFileName({OutputSpec::Kind::kStdout, ""}, expansion), "");
  EXPECT_EQ(outputFileName({OutputSpec::Kind::kRemoteName, ""}, expansion), "7");
}

TEST(OutputTest, WritesAFile) {
  TempDir dir;
  std::string path = (dir.path() / "body").string();
  Output output(path);
  output.write("hello ");
  output.write(std::string("\0world", 6));
  output.finish();
  EXPECT_EQ(dir.read("body"), std::string("hello \0world", 12));
}

TEST(OutputTest, EmptyBodyStillCreatesTheFile) {
  TempDir dir;
  Output output((dir.path() / "empty").string());
  output.finish();
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "empty"));
}

TEST(OutputTest, FileThatCannotBeCreatedIsExit23) {
  TempDir dir;
  std::string path = (dir.path() / "missing" / "body").string();
  try {
    Output output(path);
    FAIL() << "expected a ToolException";
  } catch (const ToolException& e) {
    EXPECT_EQ(e.exitCode(), 23);
    EXPECT_EQ(std::string(e.what()),
              "Failure writing output to destination, " + path + ": No such file or directory");
  }
}

TEST(OutputTest, WriteFailureIsExit23) {
  Output output("/dev/full");
  try {
    output.write(std::string(1 << 16, 'x'));
    output.finish();
    FAIL() << "expected a ToolException";
  } catch (const ToolException& e) {
    EXPECT_EQ(e.exitCode(), 23);
  }
}

TEST(OutputTest, WritesAStream) {
  std::ostringstream stream;
  Output output(stream);
  output.write("a");
  output.write(std::string("\0b", 2));
  output.finish();
  EXPECT_EQ(stream.str(), std::string("a\0b", 3));
}

TEST(OutputTest, FailedStreamIsExit23) {
  std::ostringstream stream;
  stream.setstate(std::ios::badbit);
  Output output(stream);
  try {
    output.write("a");
    FAIL() << "expected a ToolException";
  } catch (const ToolException& e) {
    EXPECT_EQ(e.exitCode(), 23);
    EXPECT_STREQ(e.what(), "Failure writing output to destination");
  }
}

TEST(OutputFilesTest, EachTransferTruncatesARegularFile) {
  TempDir dir;
  std::string path = (dir.path() / "body").string();
  OutputFiles files;
  {
    Output first(path, &files);
    first.write("a longer first body");
    first.finish();
  }
  Output second(path, &files);
  second.write("second");
  second.finish();
  EXPECT_EQ(dir.read("body"), "second");
}

TEST(OutputFilesTest, ADeviceStaysOpenForTheRun) {
  OutputFiles files;
  auto [first, closeFirst] = files.open("/dev/null");
  auto [second, closeSecond] = files.open("/dev/null");
  EXPECT_EQ(first, second);
  EXPECT_FALSE(closeFirst);
  EXPECT_FALSE(closeSecond);
  // An output on the kept device writes and finishes without closing it.
  {
    Output output("/dev/null", &files);
    output.write("discarded");
    output.finish();
  }
  EXPECT_EQ(files.open("/dev/null").first, first);
}

TEST(OutputFilesTest, WriteFailureOnAKeptDeviceIsExit23) {
  OutputFiles files;
  Output output("/dev/full", &files);
  try {
    output.write("x");
    FAIL() << "writing to /dev/full succeeded";
  } catch (const ToolException& e) {
    EXPECT_EQ(e.exitCode(), kExitWriteError);
  }
}

}  // namespace
}  // namespace tern::tool
