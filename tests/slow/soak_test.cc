// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The soak test (label `slow`): many calls from 64 concurrent async callers, with random
// cancellations, spread over three MockWebServers: HTTP/1.1 cleartext, HTTP/1.1 over TLS, and
// HTTP/2 over TLS (by ALPN). Every completed call's body must be byte-exact (a checksum of
// content derived from its path), and afterwards the process's file descriptors, threads and
// resident memory must be back near where they started. Figures are printed.
//
// TERN_SOAK_CALLS sets the number of calls (CI runs a modest default; the full soak in
// docs/reliability.md is 100,000).
#include <gtest/gtest.h>
#include <malloc.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/fd_count.h"
#include "support/sanitizers.h"
#include "support/tls_certificates.h"
#include "tern/client.h"
#include "tern/dispatcher.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;

int soakCalls() {
  const char* value = std::getenv("TERN_SOAK_CALLS");
  return value ? std::max(1, std::atoi(value)) : 3000;
}

// The process's threads, without the process-wide TaskRunner's (named "tern TaskRunner"), whose
// idle threads live on for 60 s after their last task, as OkHttp's do: those are counted by
// taskRunnerThreadCount().
int threadCount(bool taskRunner = false) {
  int count = 0;
  std::error_code error;
  for (auto it = std::filesystem::directory_iterator("/proc/self/task", error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    std::ifstream comm(it->path() / "comm");
    std::string name;
    std::getline(comm, name);
    if ((name == "tern TaskRunner") == taskRunner) ++count;
  }
  return count;
}

int taskRunnerThreadCount() { return threadCount(true); }

// Resident memory, after handing freed heap back to the system (so what remains is in use).
int64_t residentKib() {
  ::malloc_trim(0);
  std::ifstream statm("/proc/self/statm");
  int64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * ::sysconf(_SC_PAGESIZE) / 1024;
}

// The body for call `n`: a size from 0 to 64 KiB, bytes that depend on n and the position.
std::string bodyFor(int n) {
  const size_t size = static_cast<size_t>((n * 7919) % (64 * 1024 + 1));
  std::string body(size, '\0');
  for (size_t i = 0; i < size; ++i) body[i] = static_cast<char>((n * 31 + i * 17) & 0xff);
  return body;
}

uint64_t checksum(const std::string& bytes) {  // FNV-1a
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

// Heap bytes in use (malloc's own count: unlike RSS, not blurred by fragmentation).
int64_t heapInUseKib() {
  struct mallinfo2 info = ::mallinfo2();
  return static_cast<int64_t>(info.uordblks + info.hblkhd) / 1024;
}

TEST(SoakTest, ManyConcurrentCallsWithCancellationsLeaveNothingBehind) {
  const int calls = soakCalls();
  {
    // Warm-up: the process-wide TaskRunner's thread (it idles 60 s before exiting, as OkHttp's)
    // and other once-per-process state count in the baseline, not as a leak.
    // Over TLS too: OpenSSL's once-per-process state (error strings, the default trust store's
    // first load) is not a leak either.
    TestCertificates certificates;
    MockWebServer server;
    server.useHttps(certificates.server());
    server.enqueue(MockResponse::Builder().body("warm").build());
    Client client = Client::Builder().handshakeCertificates(certificates.clientTrust()).build();
    ASSERT_EQ(
        client.newCall(Request::Builder().url(server.url("/")).build())->execute().body()->string(),
        "warm");
    client.connectionPool()->evictAll();
  }
  const int fdsBefore = openFileDescriptorCount();
  const int threadsBefore = threadCount();
  const int64_t rssBefore = residentKib();
  const int64_t heapBefore = heapInUseKib();

  std::atomic<int> completed{0}, failed{0}, canceled{0}, corrupt{0};
  const auto start = std::chrono::steady_clock::now();
  {
    auto respond = [](const RecordedRequest& request) {
      const int n = std::atoi(request.path().substr(1).c_str());
      MockResponse::Builder response;
      if (n % 2 == 0) {
        response.chunkedBody(bodyFor(n), 4096);
      } else {
        response.body(bodyFor(n));
      }
      return response.build();
    };
    // Call n goes to servers[n % 3]: HTTP/1.1, HTTP/1.1 over TLS, HTTP/2 over TLS.
    TestCertificates certificates;
    MockWebServer servers[3];
    servers[1].useHttps(certificates.server());
    servers[1].setProtocols({Protocol::HTTP_1_1});
    servers[2].useHttps(certificates.server());
    for (MockWebServer& server : servers) server.setDispatcher(respond);
    auto dispatcher = std::make_shared<Dispatcher>();
    dispatcher->setMaxRequests(64);
    dispatcher->setMaxRequestsPerHost(64);
    Client client = Client::Builder()
                        .dispatcher(dispatcher)
                        .handshakeCertificates(certificates.clientTrust())
                        .connectTimeout(5s)
                        .readTimeout(10s)
                        .writeTimeout(10s)
                        .build();

    std::mutex mutex;
    std::condition_variable done;
    int outstanding = 0;
    std::mt19937 random(12345);
    std::vector<std::shared_ptr<Call>> toCancel;
    for (int n = 0; n < calls; ++n) {
      {
        // 64 concurrent callers: wait for a free slot before enqueuing more.
        std::unique_lock lock(mutex);
        ASSERT_TRUE(done.wait_for(lock, 60s, [&] { return outstanding < 64; }))
            << "calls stopped completing";
        ++outstanding;
      }
      std::string path = "/" + std::to_string(n);
      std::shared_ptr<Call> call =
          client.newCall(Request::Builder().url(servers[n % 3].url(path)).build());
      const uint64_t expected = checksum(bodyFor(n));
      call->enqueue(
          [&, expected](Call& c, Response response) {
            try {
              std::string body = response.body()->string();
              if (checksum(body) != expected) ++corrupt;
              ++completed;
            } catch (const IOException&) {
              (c.isCanceled() ? canceled : failed)++;
            }
            std::lock_guard lock(mutex);
            --outstanding;
            done.notify_all();
          },
          [&](Call& c, const IOException&) {
            (c.isCanceled() ? canceled : failed)++;
            std::lock_guard lock(mutex);
            --outstanding;
            done.notify_all();
          });
      // About one call in twenty is canceled a moment later, at whatever stage it has reached.
      if (random() % 20 == 0) toCancel.push_back(call);
      if (toCancel.size() >= 8) {
        std::this_thread::sleep_for(std::chrono::microseconds(random() % 500));
        for (auto& c : toCancel) c->cancel();
        toCancel.clear();
      }
    }
    for (auto& c : toCancel) c->cancel();
    std::unique_lock lock(mutex);
    ASSERT_TRUE(done.wait_for(lock, 120s, [&] { return outstanding == 0; }))
        << outstanding << " calls never finished";
    lock.unlock();
    client.connectionPool()->evictAll();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const bool fdsBack = fileDescriptorsReturnTo(fdsBefore, 10s);
  const int fdsAfter = openFileDescriptorCount();
  // Dispatcher and pool threads end shortly after their last task.
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (threadCount() > threadsBefore && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(20ms);
  }
  const int threadsAfter = threadCount();
  const int64_t rssAfter = residentKib();
  const int64_t heapAfter = heapInUseKib();

  std::printf(
      "soak: %d calls in %.1f s (%.0f/s): %d completed, %d canceled, %d failed, %d corrupt\n"
      "soak: fds %d -> %d, threads %d -> %d, RSS %lld KiB -> %lld KiB, heap in use %lld KiB -> "
      "%lld KiB\n",
      calls, seconds, calls / seconds, completed.load(), canceled.load(), failed.load(),
      corrupt.load(), fdsBefore, fdsAfter, threadsBefore, threadsAfter,
      static_cast<long long>(rssBefore), static_cast<long long>(rssAfter),
      static_cast<long long>(heapBefore), static_cast<long long>(heapAfter));

  EXPECT_EQ(corrupt.load(), 0);
  EXPECT_EQ(failed.load(), 0) << "calls failed without being canceled";
  EXPECT_EQ(completed.load() + canceled.load(), calls);
  EXPECT_GT(completed.load(), calls / 2);
  EXPECT_TRUE(fdsBack) << fdsAfter << " descriptors open, " << fdsBefore << " before";
  EXPECT_LE(threadsAfter, threadsBefore);
  // Idle TaskRunner threads wait out their keep-alive; a handful at most (pings, HTTP/2 writer
  // queues and pool cleanups ran at once), never one per connection or call.
  EXPECT_LE(taskRunnerThreadCount(), 8);
  if (kSanitizedAllocator) return;
  // What the calls allocated is freed: a leak of even a few bytes per call would show here.
  EXPECT_LT(heapAfter - heapBefore, 1024) << "heap in use grew";
  // RSS keeps what the allocator's per-thread arenas hold (about 0.3 KiB a call at 100,000
  // calls, while the heap in use stays flat); this bound only catches gross growth.
  EXPECT_LT(rssAfter - rssBefore, 256 * 1024) << "resident memory grew";
}

}  // namespace
}  // namespace tern::testing
