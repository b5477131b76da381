// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// A broken cache never fails a call: the cache over a FaultyFileSystem (a full disk, failing
// writes and renames) and over damaged files degrades to the network, and recovers.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "cache/cache_entry.h"
#include "cache/cache_impl.h"
#include "concurrent/task_runner.h"
#include "support/faulty_file_system.h"
#include "support/recording_event_listener.h"
#include "tern/client.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;

class CacheFaultsTest : public ::testing::Test {
 protected:
  CacheFaultsTest() {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::temp_directory_path() /
           ("tern-cache-faults-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    fs_ = std::make_shared<FaultyFileSystem>(internal::FileSystem::system());
    cache_ =
        internal::CacheAccess::create(fs_, dir_, 1024 * 1024, internal::TaskRunner::instance());
    client_ = Client::Builder().readTimeout(5s).eventListenerFactory(events_).cache(cache_).build();
  }

  ~CacheFaultsTest() override {
    events_->checkAllCallsEnded();
    cache_->close();
    EXPECT_EQ(fs_->openFileCount(), 0);
    std::filesystem::remove_all(dir_);
  }

  void enqueueCacheable(const std::string& body) {
    server_.enqueue(
        MockResponse::Builder().addHeader("Cache-Control", "max-age=60").body(body).build());
  }

  std::string fetch() {
    return client_.newCall(Request::Builder().url(server_.url("/")).build())
        ->execute()
        .body()
        ->string();
  }

  std::filesystem::path entryFile(int index) {
    return dir_ / (internal::cacheKey(server_.url("/")) + "." + std::to_string(index));
  }

  MockWebServer server_;
  std::filesystem::path dir_;
  std::shared_ptr<FaultyFileSystem> fs_;
  std::shared_ptr<Cache> cache_;
  std::shared_ptr<RecordingEventListener::Factory> events_ =
      std::make_shared<RecordingEventListener::Factory>();
  Client client_;
};

TEST_F(CacheFaultsTest, FullDiskGivesNetworkResponsesAndStoresNothing) {
  cache_->initialize();
  fs_->setFreeSpace(0);
  enqueueCacheable("A");
  enqueueCacheable("B");
  EXPECT_EQ(fetch(), "A");
  EXPECT_EQ(fetch(), "B");
  EXPECT_EQ(server_.requestCount(), 2);
  EXPECT_EQ(cache_->writeSuccessCount(), 0);
  // Space again: once its background cleanup has rewritten the journal, the cache stores and
  // serves again.
  fs_->setFreeSpace(-1);
  for (int i = 0; i < 100 && cache_->writeSuccessCount() == 0; ++i) {
    enqueueCacheable("C");
    EXPECT_EQ(fetch(), "C");
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_EQ(cache_->writeSuccessCount(), 1);
  int requests = server_.requestCount();
  EXPECT_EQ(fetch(), "C");
  EXPECT_EQ(server_.requestCount(), requests);
}

TEST_F(CacheFaultsTest, DiskFillingUpMidBodyStillDeliversTheWholeBody) {
  cache_->initialize();
  std::string body(200 * 1024, 'x');
  fs_->setFreeSpace(64 * 1024);
  enqueueCacheable(body);
  enqueueCacheable("B");
  EXPECT_EQ(fetch(), body);
  EXPECT_EQ(cache_->writeSuccessCount(), 0);
  EXPECT_EQ(fetch(), "B");
}

TEST_F(CacheFaultsTest, FailingJournalWritesGoToTheNetwork) {
  cache_->initialize();
  fs_->setFaultyWrite(dir_ / "journal", true);
  enqueueCacheable("A");
  enqueueCacheable("B");
  EXPECT_EQ(fetch(), "A");
  EXPECT_EQ(fetch(), "B");
  fs_->setFaultyWrite(dir_ / "journal", false);
}

TEST_F(CacheFaultsTest, FailingBodyRenameStoresNothing) {
  cache_->initialize();
  fs_->setFaultyRename(entryFile(1), true);
  enqueueCacheable("A");
  enqueueCacheable("B");
  EXPECT_EQ(fetch(), "A");
  EXPECT_EQ(cache_->writeAbortCount(), 1);
  EXPECT_EQ(fetch(), "B");
  fs_->setFaultyRename(entryFile(1), false);
}

TEST_F(CacheFaultsTest, CorruptMetadataIsAMissAndIsReplaced) {
  enqueueCacheable("A");
  EXPECT_EQ(fetch(), "A");
  {
    std::ofstream out(entryFile(0), std::ios::binary | std::ios::trunc);
    out << "http://garbage\nGET\nnot a number\n";
  }
  enqueueCacheable("B");
  EXPECT_EQ(fetch(), "B");
  EXPECT_EQ(fetch(), "B");
  EXPECT_EQ(server_.requestCount(), 2);
}

TEST_F(CacheFaultsTest, MissingBodyFileIsAMiss) {
  enqueueCacheable("A");
  EXPECT_EQ(fetch(), "A");
  std::filesystem::remove(entryFile(1));
  enqueueCacheable("B");
  EXPECT_EQ(fetch(), "B");
  EXPECT_EQ(fetch(), "B");
}

TEST_F(CacheFaultsTest, CorruptJournalResetsTheCacheOnReopen) {
  enqueueCacheable("A");
  EXPECT_EQ(fetch(), "A");
  cache_->close();
  {
    std::ofstream out(dir_ / "journal", std::ios::binary | std::ios::trunc);
    out << "not a journal\n";
  }
  cache_ = internal::CacheAccess::create(fs_, dir_, 1024 * 1024, internal::TaskRunner::instance());
  client_ = client_.newBuilder().cache(cache_).build();
  enqueueCacheable("B");
  EXPECT_EQ(fetch(), "B");
  EXPECT_EQ(fetch(), "B");
  EXPECT_EQ(server_.requestCount(), 2);
}

TEST_F(CacheFaultsTest, UnusableDirectoryGoesToTheNetwork) {
  // A file where the directory should be.
  std::filesystem::create_directories(dir_.parent_path());
  { std::ofstream(dir_) << "x"; }
  enqueueCacheable("A");
  enqueueCacheable("B");
  EXPECT_EQ(fetch(), "A");
  EXPECT_EQ(fetch(), "B");
  EXPECT_THROW(cache_->initialize(), IOException);
}

}  // namespace
}  // namespace tern::testing
