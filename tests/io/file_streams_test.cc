// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/file_streams.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern {
namespace {

namespace fs = std::filesystem;

// Each test gets a fresh directory under the system's temporary directory, removed afterwards.
class FileStreamsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    std::random_device entropy;
    dir_ =
        fs::temp_directory_path() / ("tern_io_test_" + std::to_string(::getpid()) + "_" +
                                     std::to_string(counter++) + "_" + std::to_string(entropy()));
    fs::create_directories(dir_);
  }

  void TearDown() override {
    std::error_code ignored;  // A leftover temp directory must not fail the test.
    fs::remove_all(dir_, ignored);
  }

  std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  void writeFile(const fs::path& path, const std::string& content) {
    std::ofstream(path, std::ios::binary) << content;
  }

  fs::path dir_;
};

TEST_F(FileStreamsTest, SinkThenSourceRoundTrip) {
  fs::path path = dir_ / "hello.txt";
  std::unique_ptr<BufferedSink> sink = tern::buffer(fileSink(path));
  sink->writeUtf8("Hello, file!\n").writeDecimalLong(42);
  sink->close();
  EXPECT_EQ(readFile(path), "Hello, file!\n42");

  std::unique_ptr<BufferedSource> source = tern::buffer(fileSource(path));
  EXPECT_EQ(source->readUtf8LineStrict(), "Hello, file!");
  EXPECT_EQ(source->readDecimalLong(), 42);
  EXPECT_TRUE(source->exhausted());
  source->close();
}

TEST_F(FileStreamsTest, SeveralMebibytesRoundTrip) {
  fs::path path = dir_ / "large.bin";
  std::mt19937 random(23);
  std::vector<std::byte> data(size_t{6} * 1024 * 1024 + 17);
  for (auto& b : data) {
    b = static_cast<std::byte>(random() & 0xff);
  }

  std::unique_ptr<BufferedSink> sink = tern::buffer(fileSink(path));
  sink->write(std::span<const std::byte>(data));
  sink->close();
  EXPECT_EQ(fs::file_size(path), data.size());

  std::unique_ptr<BufferedSource> source = tern::buffer(fileSource(path));
  EXPECT_EQ(source->readByteArray(), data);
}

TEST_F(FileStreamsTest, SourceReadsAtMostByteCountStraightIntoTheSink) {
  fs::path path = dir_ / "abc.txt";
  writeFile(path, "abcdef");
  std::unique_ptr<Source> source = fileSource(path);
  Buffer sink;
  EXPECT_EQ(source->read(sink, 4), 4);
  EXPECT_EQ(source->read(sink, 0), 0);
  EXPECT_EQ(source->read(sink, 100), 2);
  EXPECT_EQ(source->read(sink, 100), -1);
  EXPECT_EQ(sink.readUtf8(), "abcdef");
  EXPECT_EQ(sink.segmentCount(), 0u);
  EXPECT_THROW(source->read(sink, -1), std::invalid_argument);
}

TEST_F(FileStreamsTest, EmptyFileIsExhaustedAtOnce) {
  fs::path path = dir_ / "empty";
  writeFile(path, "");
  std::unique_ptr<Source> source = fileSource(path);
  Buffer sink;
  EXPECT_EQ(source->read(sink, 10), -1);
  EXPECT_EQ(sink.segmentCount(), 0u) << "no empty segment left behind";
}

TEST_F(FileStreamsTest, SinkTruncatesByDefault) {
  fs::path path = dir_ / "file.txt";
  writeFile(path, "old content that is long");
  std::unique_ptr<BufferedSink> sink = tern::buffer(fileSink(path));
  sink->writeUtf8("new");
  sink->close();
  EXPECT_EQ(readFile(path), "new");
}

TEST_F(FileStreamsTest, AppendingSinkKeepsExistingContent) {
  fs::path path = dir_ / "log.txt";
  writeFile(path, "first\n");
  std::unique_ptr<BufferedSink> sink = tern::buffer(fileSink(path, /*append=*/true));
  sink->writeUtf8("second\n");
  sink->close();
  EXPECT_EQ(readFile(path), "first\nsecond\n");
}

TEST_F(FileStreamsTest, SinkWritesExactlyByteCountFromManySegments) {
  fs::path path = dir_ / "partial.bin";
  Buffer source;
  source.writeUtf8(std::string(Buffer::kSegmentSize * 3, 'p') + "tail");
  std::unique_ptr<Sink> sink = fileSink(path);
  sink->write(source, static_cast<int64_t>(Buffer::kSegmentSize * 2 + 1));
  sink->close();
  EXPECT_EQ(fs::file_size(path), Buffer::kSegmentSize * 2 + 1);
  EXPECT_EQ(source.size(), static_cast<int64_t>(Buffer::kSegmentSize) - 1 + 4);
  EXPECT_THROW(sink->write(source, source.size() + 1), std::invalid_argument);
}

TEST_F(FileStreamsTest, MissingFileThrowsNamingThePathAndTheReason) {
  fs::path path = dir_ / "does-not-exist.txt";
  try {
    fileSource(path);
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_EQ(std::string(e.what()),
              "Failed to open " + path.string() + ": No such file or directory");
  }
}

TEST_F(FileStreamsTest, SinkInAMissingDirectoryThrowsNamingThePath) {
  fs::path path = dir_ / "missing" / "out.txt";
  try {
    fileSink(path);
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos);
  }
}

TEST_F(FileStreamsTest, ReadingADirectoryThrowsIOException) {
  std::unique_ptr<Source> source = fileSource(dir_);  // open() succeeds; read() fails.
  Buffer sink;
  try {
    source->read(sink, 10);
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_EQ(std::string(e.what()), "Failed to read " + dir_.string() + ": Is a directory");
  }
  EXPECT_EQ(sink.size(), 0);
  EXPECT_EQ(sink.segmentCount(), 0u);
}

TEST_F(FileStreamsTest, UsingAClosedFileIsMisuseAndCloseTwiceIsHarmless) {
  fs::path path = dir_ / "closed.txt";
  writeFile(path, "data");
  std::unique_ptr<Source> source = fileSource(path);
  source->close();
  source->close();
  Buffer buffer;
  EXPECT_THROW(source->read(buffer, 1), std::logic_error);

  std::unique_ptr<Sink> sink = fileSink(dir_ / "out.txt");
  sink->close();
  sink->close();
  buffer.writeUtf8("x");
  EXPECT_THROW(sink->write(buffer, 1), std::logic_error);
  EXPECT_THROW(sink->flush(), std::logic_error);
}

TEST_F(FileStreamsTest, PassedDeadlineStopsReadsAndWrites) {
  fs::path path = dir_ / "deadline.txt";
  writeFile(path, "data");
  std::unique_ptr<Source> source = fileSource(path);
  source->timeout().deadline(Timeout::Clock::now() - std::chrono::milliseconds(1));
  Buffer buffer;
  EXPECT_THROW(source->read(buffer, 4), InterruptedIOException);

  std::unique_ptr<Sink> sink = fileSink(dir_ / "out.txt");
  sink->timeout().deadline(Timeout::Clock::now() - std::chrono::milliseconds(1));
  buffer.writeUtf8("x");
  EXPECT_THROW(sink->write(buffer, 1), InterruptedIOException);
  EXPECT_EQ(buffer.size(), 1);
}

}  // namespace
}  // namespace tern
