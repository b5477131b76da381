// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// In the spirit of OkHttp's RelayTest: what each reader reads, what the file holds (header,
// bytes, metadata) while copying and after, and when the upstream is closed.
#include "cache/relay.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <future>
#include <iterator>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tern/buffer.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

const std::string kMetadata = "great metadata!";

// What a fake upstream saw, shared with the test (the relay owns and destroys the source).
struct UpstreamLog {
  std::atomic<int> reads{0};
  std::atomic<int> closes{0};
};

// An upstream over fixed bytes: at most `maxChunk` bytes a read, an optional pause before each
// read (a slow peer), and optionally an IOException once `failAt` bytes were given.
class FakeUpstream final : public Source {
 public:
  FakeUpstream(std::string data, std::shared_ptr<UpstreamLog> log, int64_t maxChunk = INT64_MAX,
               std::chrono::microseconds pause = {})
      : data_(std::move(data)), log_(std::move(log)), maxChunk_(maxChunk), pause_(pause) {}

  void failAt(int64_t offset, std::string message) {
    failAt_ = offset;
    failure_ = std::move(message);
  }

  int64_t read(Buffer& sink, int64_t byteCount) override {
    // The relay promises one reader at a time; the lock makes a broken promise a tsan report.
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    EXPECT_TRUE(lock.owns_lock()) << "two readers pulled at once";
    EXPECT_EQ(log_->closes.load(), 0) << "read after close";
    ++log_->reads;
    if (pause_.count() > 0) std::this_thread::sleep_for(pause_);
    if (failure_ && pos_ >= failAt_) throw IOException(*failure_);
    const auto size = static_cast<int64_t>(data_.size());
    if (pos_ == size) return -1;
    int64_t n = std::min({byteCount, maxChunk_, size - pos_});
    if (failure_) n = std::min(n, failAt_ - pos_);
    sink.writeUtf8(std::string_view(data_).substr(static_cast<size_t>(pos_), n));
    pos_ += n;
    return n;
  }

  Timeout& timeout() override { return timeout_; }
  void close() override { ++log_->closes; }

 private:
  std::mutex mutex_;
  std::string data_;
  std::shared_ptr<UpstreamLog> log_;
  int64_t maxChunk_;
  std::chrono::microseconds pause_;
  int64_t pos_ = 0;
  int64_t failAt_ = 0;
  std::optional<std::string> failure_;
  Timeout timeout_;
};

// An upstream the test feeds by hand: each read blocks until the test pushes a chunk, ends the
// stream or fails it. awaitReads(n) waits until the n-th read is blocked inside upstream.
class Gate {
 public:
  void push(std::string chunk) {
    std::lock_guard lock(mutex_);
    chunks_.push_back(std::move(chunk));
    changed_.notify_all();
  }
  void finish() {
    std::lock_guard lock(mutex_);
    end_ = true;
    changed_.notify_all();
  }
  void fail(std::string message) {
    std::lock_guard lock(mutex_);
    failure_ = std::move(message);
    changed_.notify_all();
  }
  void awaitReads(int count) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return reads_ >= count; });
  }
  int closes() const { return closes_; }

  int64_t read(Buffer& sink, int64_t byteCount) {
    std::unique_lock lock(mutex_);
    ++reads_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return !chunks_.empty() || end_ || failure_; });
    if (failure_) throw IOException(*failure_);
    if (chunks_.empty()) return -1;
    std::string& chunk = chunks_.front();
    const auto n = std::min<int64_t>(byteCount, static_cast<int64_t>(chunk.size()));
    sink.writeUtf8(std::string_view(chunk).substr(0, n));
    chunk.erase(0, n);
    if (chunk.empty()) chunks_.pop_front();
    return n;
  }
  void close() { ++closes_; }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> chunks_;
  bool end_ = false;
  std::optional<std::string> failure_;
  int reads_ = 0;
  std::atomic<int> closes_{0};
};

class GatedUpstream final : public Source {
 public:
  explicit GatedUpstream(std::shared_ptr<Gate> gate) : gate_(std::move(gate)) {}
  int64_t read(Buffer& sink, int64_t byteCount) override { return gate_->read(sink, byteCount); }
  Timeout& timeout() override { return timeout_; }
  void close() override { gate_->close(); }

 private:
  std::shared_ptr<Gate> gate_;
  Timeout timeout_;
};

std::string readAll(Source& source, int64_t byteCount = 16384) {
  Buffer buffer;
  while (source.read(buffer, byteCount) != -1) {
  }
  return buffer.readUtf8();
}

// Exactly `byteCount` bytes (fewer if the source ends first), in as many reads as it takes, and
// not a byte more: a BufferedSource would read ahead.
std::string readN(Source& source, int64_t byteCount) {
  Buffer buffer;
  while (buffer.size() < byteCount && source.read(buffer, byteCount - buffer.size()) != -1) {
  }
  return buffer.readUtf8();
}

// Bytes that differ at every offset, so a byte read from the wrong place shows.
std::string randomBytes(size_t size) {
  std::mt19937 random(1234);
  std::string bytes(size, '\0');
  for (char& c : bytes) c = static_cast<char>(random() & 0xff);
  return bytes;
}

int64_t bigEndianLong(const std::string& bytes, size_t offset) {
  uint64_t value = 0;
  for (size_t i = 0; i < 8; ++i) value = (value << 8) | static_cast<uint8_t>(bytes[offset + i]);
  return static_cast<int64_t>(value);
}

class RelayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::temp_directory_path() /
           ("tern-relay-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    file_ = dir_ / "relay";
    log_ = std::make_shared<UpstreamLog>();
  }

  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::shared_ptr<Relay> edit(std::string data, int64_t bufferMaxSize) {
    return Relay::edit(file_, std::make_unique<FakeUpstream>(std::move(data), log_), kMetadata,
                       bufferMaxSize);
  }

  std::string fileBytes() const {
    std::ifstream in(file_, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  // The header says `prefix`, the sizes, then the bytes and the metadata follow (when given).
  void expectFile(const char* prefix, int64_t upstreamSize, int64_t metadataSize,
                  std::optional<std::string> upstream = std::nullopt,
                  std::optional<std::string> metadata = std::nullopt) const {
    const std::string bytes = fileBytes();
    ASSERT_GE(bytes.size(), 32u);
    EXPECT_EQ(bytes.substr(0, 16), prefix);
    EXPECT_EQ(bigEndianLong(bytes, 16), upstreamSize);
    EXPECT_EQ(bigEndianLong(bytes, 24), metadataSize);
    if (upstream) {
      EXPECT_EQ(bytes.substr(32, upstream->size()), *upstream);
    }
    if (metadata) {
      EXPECT_EQ(bytes.substr(32 + upstreamSize), *metadata);  // And nothing after it.
    }
  }

  std::filesystem::path dir_;
  std::filesystem::path file_;
  std::shared_ptr<UpstreamLog> log_;
};

TEST_F(RelayTest, SingleSource) {
  auto relay = edit("abcdefghijklm", 1024);
  auto source = relay->newSource();
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(relay->readerCount(), 1);

  Buffer sink;
  EXPECT_EQ(source->read(sink, 5), 5);
  EXPECT_EQ(sink.readUtf8(), "abcde");
  EXPECT_EQ(source->read(sink, 1024), 8);
  EXPECT_EQ(sink.readUtf8(), "fghijklm");
  EXPECT_FALSE(relay->isComplete());
  EXPECT_EQ(source->read(sink, 1024), -1);
  EXPECT_EQ(sink.size(), 0);
  EXPECT_TRUE(relay->isComplete());
  EXPECT_EQ(log_->closes, 1);  // Closed once exhausted, before any reader closes.

  source->close();
  EXPECT_EQ(relay->readerCount(), 0);
  EXPECT_EQ(log_->closes, 1);
  expectFile(Relay::kPrefixClean, 13, kMetadata.size(), "abcdefghijklm", kMetadata);
}

TEST_F(RelayTest, MultipleSources) {
  auto relay = edit("abcdefghijklm", 1024);
  auto source1 = buffer(relay->newSource());
  auto source2 = buffer(relay->newSource());
  EXPECT_EQ(source1->readUtf8(), "abcdefghijklm");
  EXPECT_EQ(source2->readUtf8(), "abcdefghijklm");
  source1->close();
  source2->close();
  EXPECT_EQ(relay->readerCount(), 0);
  EXPECT_EQ(log_->closes, 1);
  expectFile(Relay::kPrefixClean, 13, kMetadata.size(), "abcdefghijklm", kMetadata);
}

TEST_F(RelayTest, ReadFromBuffer) {
  auto relay = edit("abcdefghij", 5);
  auto source1 = relay->newSource();
  auto source2 = relay->newSource();
  EXPECT_EQ(readN(*source1, 5), "abcde");
  EXPECT_EQ(readN(*source2, 5), "abcde");
  EXPECT_EQ(readN(*source2, 5), "fghij");
  EXPECT_EQ(readN(*source1, 5), "fghij");
  Buffer sink;
  EXPECT_EQ(source1->read(sink, 1), -1);
  EXPECT_EQ(source2->read(sink, 1), -1);
  source1->close();
  source2->close();
  expectFile(Relay::kPrefixClean, 10, kMetadata.size(), "abcdefghij", kMetadata);
}

TEST_F(RelayTest, ReadFromFile) {
  auto relay = edit("abcdefghijklmnopqrst", 5);
  auto source1 = buffer(relay->newSource());
  auto source2 = buffer(relay->newSource());
  EXPECT_EQ(source1->readUtf8(10), "abcdefghij");
  EXPECT_EQ(source2->readUtf8(10), "abcdefghij");  // "abcde" is no longer in the window.
  EXPECT_EQ(source2->readUtf8(10), "klmnopqrst");
  EXPECT_EQ(source1->readUtf8(10), "klmnopqrst");  // "klmno" only in the file.
  EXPECT_TRUE(source1->exhausted());
  EXPECT_TRUE(source2->exhausted());
  source1->close();
  source2->close();
  expectFile(Relay::kPrefixClean, 20, kMetadata.size(), "abcdefghijklmnopqrst", kMetadata);
}

TEST_F(RelayTest, WithoutABufferOthersReadFromTheFile) {
  auto relay = edit("abcdefghij", 0);
  auto source1 = relay->newSource();
  auto source2 = relay->newSource();
  EXPECT_EQ(readN(*source1, 4), "abcd");
  EXPECT_EQ(readN(*source2, 6), "abcdef");
  EXPECT_EQ(readAll(*source1), "efghij");
  EXPECT_EQ(readAll(*source2), "ghij");
  EXPECT_TRUE(relay->isComplete());
  expectFile(Relay::kPrefixClean, 10, kMetadata.size(), "abcdefghij", kMetadata);
}

TEST_F(RelayTest, ReadFromBufferWhileAnotherSourceReads) {
  auto gate = std::make_shared<Gate>();
  auto relay = Relay::edit(file_, std::make_unique<GatedUpstream>(gate), kMetadata, 1024);
  auto puller = relay->newSource();
  auto other = relay->newSource();

  auto pulled = std::async(std::launch::async, [&] { return readAll(*puller); });
  gate->push("abcde");
  gate->awaitReads(2);  // The puller got "abcde" and now waits inside upstream for more.

  // The pull holds no lock: the bytes already relayed are there for the other reader.
  Buffer sink;
  EXPECT_EQ(other->read(sink, 100), 5);
  EXPECT_EQ(sink.readUtf8(), "abcde");

  gate->push("fghij");
  gate->finish();
  EXPECT_EQ(readAll(*other), "fghij");
  EXPECT_EQ(pulled.get(), "abcdefghij");
  puller->close();
  other->close();
  EXPECT_TRUE(relay->isComplete());
  EXPECT_EQ(gate->closes(), 1);
  expectFile(Relay::kPrefixClean, 10, kMetadata.size(), "abcdefghij", kMetadata);
}

TEST_F(RelayTest, LargeBufferAndFile) {
  const std::string data = randomBytes(1024 * 1024);
  auto relay =
      Relay::edit(file_, std::make_unique<FakeUpstream>(data, log_, 10000), kMetadata, 64 * 1024);
  auto first = relay->newSource();
  auto second = relay->newSource();
  EXPECT_EQ(readAll(*first, 7777), data);
  EXPECT_EQ(readAll(*second, 5000), data);  // All but the last 64 KiB from the file.
  first->close();
  second->close();
  expectFile(Relay::kPrefixClean, data.size(), kMetadata.size(), data, kMetadata);
}

TEST_F(RelayTest, LateReaderReadsFromTheFile) {
  auto relay = edit("abcdefghijklmnopqrst", 5);
  auto early = relay->newSource();
  EXPECT_EQ(readN(*early, 15), "abcdefghijklmno");

  // Starts at byte 0, from the file, then catches up through the window and upstream.
  auto late = buffer(relay->newSource());
  EXPECT_EQ(late->readUtf8(), "abcdefghijklmnopqrst");
  EXPECT_EQ(readAll(*early), "pqrst");
  early->close();
  late->close();

  // Complete: a reader that comes after everyone left reads it all from the file.
  auto afterAll = relay->newSource();
  ASSERT_NE(afterAll, nullptr);
  EXPECT_EQ(readAll(*afterAll), "abcdefghijklmnopqrst");
  afterAll->close();
  EXPECT_EQ(log_->closes, 1);
}

TEST_F(RelayTest, ReadAfterEdit) {
  {
    auto relay = edit("abcdefghij", 5);
    auto source = relay->newSource();
    EXPECT_EQ(readAll(*source), "abcdefghij");
    source->close();
  }

  auto relay = Relay::read(file_);
  EXPECT_EQ(relay->metadata(), kMetadata);
  EXPECT_TRUE(relay->isComplete());
  auto source1 = relay->newSource();
  auto source2 = relay->newSource();
  EXPECT_EQ(readN(*source1, 3), "abc");
  EXPECT_EQ(readAll(*source2, 4), "abcdefghij");
  EXPECT_EQ(readAll(*source1), "defghij");
  source1->close();
  source2->close();
  auto again = relay->newSource();  // The file stays readable after every reader left.
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(readAll(*again), "abcdefghij");
  expectFile(Relay::kPrefixClean, 10, kMetadata.size(), "abcdefghij", kMetadata);
}

TEST_F(RelayTest, ReadAfterEditWithEmptyBodyAndMetadata) {
  {
    auto relay = Relay::edit(file_, std::make_unique<FakeUpstream>("", log_), "", 5);
    auto source = relay->newSource();
    EXPECT_EQ(readAll(*source), "");
  }
  expectFile(Relay::kPrefixClean, 0, 0, "", "");
  auto relay = Relay::read(file_);
  EXPECT_EQ(relay->metadata(), "");
  EXPECT_EQ(readAll(*relay->newSource()), "");
}

TEST_F(RelayTest, CloseBeforeExhaustingLeavesDirtyFile) {
  auto relay = edit("abcdefghij", 5);
  auto source = relay->newSource();
  EXPECT_EQ(readN(*source, 10), "abcdefghij");
  source->close();  // Not exhausted: nobody has seen upstream's end.

  EXPECT_FALSE(relay->isComplete());
  EXPECT_EQ(log_->closes, 1);
  EXPECT_EQ(relay->newSource(), nullptr);
  expectFile(Relay::kPrefixDirty, -1, -1, "abcdefghij");
  try {
    Relay::read(file_);
    FAIL() << "a dirty relay was read";
  } catch (const IOException& e) {
    EXPECT_EQ(std::string(e.what()), "not a clean relay: " + file_.string());
  }
}

TEST_F(RelayTest, DestroyingTheLastReaderClosesUpstreamToo) {
  auto relay = edit("abcdefghij", 5);
  {
    auto source = relay->newSource();
    EXPECT_EQ(readN(*source, 3), "abc");
  }
  EXPECT_EQ(relay->readerCount(), 0);
  EXPECT_EQ(log_->closes, 1);
  EXPECT_EQ(relay->newSource(), nullptr);
}

TEST_F(RelayTest, RedundantCallsToCloseAreIgnored) {
  auto relay = edit("abcde", 1024);
  auto source1 = relay->newSource();
  auto source2 = relay->newSource();
  source1->close();
  source1->close();  // Must not count as source2 leaving.
  EXPECT_EQ(relay->readerCount(), 1);
  EXPECT_EQ(log_->closes, 0);
  Buffer sink;
  EXPECT_THROW(source1->read(sink, 1), std::logic_error);

  source2->close();
  EXPECT_EQ(relay->readerCount(), 0);
  EXPECT_EQ(log_->closes, 1);
  expectFile(Relay::kPrefixDirty, -1, -1);
}

TEST_F(RelayTest, ReaderClosingEarlyAffectsNoOther) {
  auto relay = edit("abcdefghijklmnopqrst", 5);
  auto leaving = relay->newSource();
  auto staying = relay->newSource();
  EXPECT_EQ(readN(*leaving, 7), "abcdefg");
  leaving->close();
  EXPECT_EQ(log_->closes, 0);
  EXPECT_EQ(readAll(*staying, 3), "abcdefghijklmnopqrst");
  staying->close();
  EXPECT_TRUE(relay->isComplete());
  EXPECT_EQ(log_->closes, 1);
  expectFile(Relay::kPrefixClean, 20, kMetadata.size(), "abcdefghijklmnopqrst", kMetadata);
}

TEST_F(RelayTest, HeaderIsDirtyWhileCopyingAndCleanAfter) {
  auto relay = edit("abcdefghij", 4);
  auto source = relay->newSource();
  expectFile(Relay::kPrefixDirty, -1, -1);
  EXPECT_EQ(fileBytes().size(), 32u);  // The header alone, written by edit().

  EXPECT_EQ(readN(*source, 4), "abcd");
  expectFile(Relay::kPrefixDirty, -1, -1, "abcd");
  EXPECT_EQ(fileBytes().size(), 36u);

  EXPECT_EQ(readAll(*source), "efghij");
  expectFile(Relay::kPrefixClean, 10, kMetadata.size(), "abcdefghij", kMetadata);
  const std::string bytes = fileBytes();
  EXPECT_EQ(bytes.substr(0, 16), "OkHttp cache v1\n");
  EXPECT_EQ(bytes.substr(16, 16),
            std::string("\0\0\0\0\0\0\0\x0a\0\0\0\0\0\0\0\x0f", 16));  // 10, 15.
}

TEST_F(RelayTest, UpstreamFailureReachesEveryReader) {
  auto upstream = std::make_unique<FakeUpstream>("abcdefghij", log_, 3);
  upstream->failAt(6, "unexpected end of stream on example.com:443");
  auto relay = Relay::edit(file_, std::move(upstream), kMetadata, 1024);
  auto puller = relay->newSource();
  auto other = relay->newSource();
  EXPECT_EQ(readN(*puller, 3), "abc");
  EXPECT_EQ(readN(*puller, 3), "def");

  Buffer sink;
  try {
    puller->read(sink, 10);
    FAIL();
  } catch (const IOException& e) {
    EXPECT_STREQ(e.what(), "unexpected end of stream on example.com:443");
  }
  EXPECT_EQ(log_->closes, 1);
  // Every reader fails, even one with relayed bytes still unread: the body is broken.
  for (Source* source : {other.get(), puller.get()}) {
    try {
      source->read(sink, 10);
      FAIL();
    } catch (const IOException& e) {
      EXPECT_STREQ(e.what(), "unexpected end of stream on example.com:443");
    }
  }
  EXPECT_EQ(sink.size(), 0);
  EXPECT_EQ(relay->newSource(), nullptr);
  EXPECT_FALSE(relay->isComplete());
  puller->close();
  other->close();
  EXPECT_EQ(log_->closes, 1);
  expectFile(Relay::kPrefixDirty, -1, -1, "abcdef");
}

TEST_F(RelayTest, UpstreamFailureWakesWaitingReaders) {
  auto gate = std::make_shared<Gate>();
  auto relay = Relay::edit(file_, std::make_unique<GatedUpstream>(gate), kMetadata, 1024);
  auto puller = relay->newSource();
  // isCanceled() is asked before the read, then on each wake while waiting: the second call
  // proves the reader waits for the pull.
  std::promise<void> waiting;
  std::atomic<int> checks{0};
  auto other = relay->newSource([&] {
    if (++checks == 2) waiting.set_value();
    return false;
  });

  auto pulled = std::async(std::launch::async, [&] { return readAll(*puller); });
  gate->awaitReads(1);
  auto waited = std::async(std::launch::async, [&] { return readAll(*other); });
  waiting.get_future().wait();
  gate->fail("connection reset");

  for (auto* result : {&pulled, &waited}) {
    try {
      result->get();
      FAIL();
    } catch (const IOException& e) {
      EXPECT_STREQ(e.what(), "connection reset");
    }
  }
  EXPECT_EQ(gate->closes(), 1);
}

TEST_F(RelayTest, CanceledBeforeReadReadsNothing) {
  auto relay = edit("abcde", 1024);
  auto source = relay->newSource([] { return true; });
  Buffer sink;
  try {
    source->read(sink, 5);
    FAIL();
  } catch (const InterruptedIOException& e) {
    EXPECT_STREQ(e.what(), "Canceled");
  }
  EXPECT_EQ(log_->reads, 0);
  // Only that reader: another still reads everything.
  EXPECT_EQ(readAll(*relay->newSource()), "abcde");
}

TEST_F(RelayTest, CanceledWhileWaitingForAnotherReadersPull) {
  auto gate = std::make_shared<Gate>();
  auto relay = Relay::edit(file_, std::make_unique<GatedUpstream>(gate), kMetadata, 1024);
  auto puller = relay->newSource();
  std::atomic<int> checks{0};
  auto canceled = relay->newSource([&] { return ++checks >= 2; });  // Canceled once waiting.

  auto pulled = std::async(std::launch::async, [&] { return readAll(*puller); });
  gate->awaitReads(1);
  Buffer sink;
  try {
    canceled->read(sink, 5);
    FAIL();
  } catch (const InterruptedIOException& e) {
    EXPECT_STREQ(e.what(), "Canceled");
  }
  canceled->close();

  // The pull goes on for the others.
  gate->push("abcde");
  gate->finish();
  EXPECT_EQ(pulled.get(), "abcde");
  puller->close();
  EXPECT_TRUE(relay->isComplete());
}

TEST_F(RelayTest, TimeoutWhileWaitingForAnotherReadersPull) {
  auto gate = std::make_shared<Gate>();
  auto relay = Relay::edit(file_, std::make_unique<GatedUpstream>(gate), kMetadata, 1024);
  auto puller = relay->newSource();
  auto impatient = relay->newSource();
  EXPECT_NE(&puller->timeout(), &impatient->timeout());
  impatient->timeout().timeout(std::chrono::milliseconds(100));

  auto pulled = std::async(std::launch::async, [&] { return readAll(*puller); });
  gate->awaitReads(1);
  Buffer sink;
  EXPECT_THROW(impatient->read(sink, 5), SocketTimeoutException);

  gate->push("abcde");
  gate->finish();
  EXPECT_EQ(pulled.get(), "abcde");
  EXPECT_EQ(readAll(*impatient), "abcde");  // A timeout fails that read, not the reader.
}

TEST_F(RelayTest, ReadRejectsDirtyTruncatedAndForeignFiles) {
  const std::string notClean = "not a clean relay: " + file_.string();
  auto expectNotClean = [&](const std::string& contents) {
    {
      std::ofstream out(file_, std::ios::binary | std::ios::trunc);
      out << contents;
    }
    try {
      Relay::read(file_);
      ADD_FAILURE() << "read a file that is not a clean relay";
    } catch (const IOException& e) {
      EXPECT_EQ(std::string(e.what()), notClean);
    }
  };
  const std::string header =
      std::string("OkHttp cache v1\n") + std::string("\0\0\0\0\0\0\0\x03\0\0\0\0\0\0\0\x02", 16);
  expectNotClean("");
  expectNotClean("OkHttp cache v1\n");                          // No sizes.
  expectNotClean(header + "abc" + "m");                         // Metadata cut short.
  expectNotClean(std::string("HTTP/1.1 200 OK\r\n") + header);  // Not a relay at all.
  std::string negative = header;
  negative[16] = '\xff';
  expectNotClean(negative + "abcmd");

  {
    std::ofstream out(file_, std::ios::binary | std::ios::trunc);
    out << header << "abc"
        << "md";
  }
  auto relay = Relay::read(file_);
  EXPECT_EQ(relay->metadata(), "md");
  EXPECT_EQ(readAll(*relay->newSource()), "abc");

  EXPECT_THROW(Relay::read(dir_ / "missing"), IOException);
}

TEST_F(RelayTest, EditThrowsWhenTheFileCannotBeCreated) {
  EXPECT_THROW(Relay::edit(dir_ / "missing" / "relay", std::make_unique<FakeUpstream>("abc", log_),
                           kMetadata, 5),
               IOException);
}

// A write to the file fails (the file size limit, EFBIG) after 10 bytes: the readers in the
// window see every byte, one that needs the lost bytes from the file fails, the file stays dirty.
TEST_F(RelayTest, FileWriteErrorFailsOnlyReadersThatNeedTheFile) {
  auto relay = Relay::edit(file_, std::make_unique<FakeUpstream>("abcdefghijklmnopqrst", log_, 5),
                           kMetadata, 5);
  auto puller = relay->newSource();
  auto late = relay->newSource();

  struct rlimit saved {};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto* savedHandler = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit limited = saved;
  limited.rlim_cur = 32 + 10;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  std::string pulled;
  try {
    pulled = readAll(*puller, 5);
  } catch (...) {
    ::setrlimit(RLIMIT_FSIZE, &saved);
    ::signal(SIGXFSZ, savedHandler);
    throw;
  }
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &saved), 0);
  ::signal(SIGXFSZ, savedHandler);

  EXPECT_EQ(pulled, "abcdefghijklmnopqrst");
  EXPECT_FALSE(relay->isComplete());
  EXPECT_EQ(log_->closes, 1);
  expectFile(Relay::kPrefixDirty, -1, -1, "abcdefghij");

  // The late reader gets what the file kept, then the write's error; then the window's bytes.
  EXPECT_EQ(readN(*late, 10), "abcdefghij");
  Buffer sink;
  try {
    late->read(sink, 5);
    FAIL();
  } catch (const IOException& e) {
    EXPECT_EQ(std::string(e.what()).rfind("Failed to write " + file_.string() + ": ", 0), 0u)
        << e.what();
  }
}

// Eight readers on eight threads, one slow upstream (small chunks, a pause before each): each
// reads every byte in order, whoever pulled them, from the window or the file.
TEST_F(RelayTest, ConcurrentReadersOnASlowUpstream) {
  const std::string data = randomBytes(1024 * 1024);
  auto relay = Relay::edit(
      file_, std::make_unique<FakeUpstream>(data, log_, 4096, std::chrono::microseconds(200)),
      kMetadata, 64 * 1024);
  std::vector<std::unique_ptr<Source>> sources;
  for (int i = 0; i < 8; ++i) sources.push_back(relay->newSource());

  std::vector<std::future<std::string>> results;
  for (int i = 0; i < 8; ++i) {
    results.push_back(std::async(std::launch::async, [&, i] {
      std::string read = readAll(*sources[i], 1000 + i * 3777);
      sources[i]->close();
      return read;
    }));
  }
  for (auto& result : results) {
    const std::string read = result.get();
    EXPECT_EQ(read.size(), data.size());
    EXPECT_TRUE(read == data) << "bytes differ";
  }
  EXPECT_EQ(relay->readerCount(), 0);
  EXPECT_TRUE(relay->isComplete());
  EXPECT_EQ(log_->closes, 1);
  expectFile(Relay::kPrefixClean, data.size(), kMetadata.size(), std::nullopt, kMetadata);
  EXPECT_TRUE(fileBytes().substr(32, data.size()) == data);
}

}  // namespace
}  // namespace tern::internal
