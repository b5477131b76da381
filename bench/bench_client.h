// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <latch>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace tern::bench {

// How a client under test is set up; the same for tern and libcurl.
struct ClientSettings {
  std::string caFile;             // PEM certificate to trust for https (the bench's own), or empty.
  bool http11Only = false;        // Offer only HTTP/1.1 (ALPN), even where h2 is available.
  bool http3Only = false;         // tern only: HTTP/3 over QUIC to the URL's own host and port,
                                  // never TCP (protocols({HTTP_3}), curl's --http3-only).
  bool freshConnections = false;  // Never reuse a connection: each call connects (and handshakes).
  bool keepBodies = false;        // Collect each body into a new std::string, as an app would.
  int maxConnectionsPerHost = 0;  // Connections to one host getConcurrent() may open; 0: any.
  bool cache = false;             // tern only: a Cache (tern::Cache) in a new temporary directory.
};

// A cache's statistics (tern::Cache's counters), to check where responses came from.
struct CacheCounts {
  int requests = 0;
  int hits = 0;     // Served without the network (or by another call's shared fetch).
  int network = 0;  // Needed the network.
};

// One HTTP client driven by the benchmark: tern (tern_client.cc) or libcurl (curl_client.cc),
// each used the way its users get its best. Every method throws std::runtime_error on a failed
// transfer or a status other than 200, so a broken run never reports a rate.
class BenchClient {
 public:
  virtual ~BenchClient() = default;

  // `count` GETs of `url`, one after another on this thread; each body is read to its end.
  // Returns the number of body bytes read.
  virtual int64_t getSequential(const std::string& url, int count) = 0;

  // `count` POSTs of `body` to `url`, one after another; each response body is read to its end.
  virtual void postSequential(const std::string& url, int count, const std::string& body) = 0;

  // `count` GETs of `url` with `concurrency` of them in flight at once: multiplexed on one HTTP/2
  // connection (HTTP/3 with settings.http3Only), or with settings.http11Only on HTTP/1.1
  // connections, one per call in flight (at most settings.maxConnectionsPerHost, if set; the
  // other calls wait for one). Throws if a response came over another protocol. Returns the
  // number of body bytes read.
  virtual int64_t getConcurrent(const std::string& url, int count, int concurrency) = 0;

  // What getConcurrent() does, written as a coroutine user would (tern only, tern/coro.h):
  // `concurrency` coroutines, each awaiting one GET after another (co_await executeAsync(), then
  // the body's co_await stringAsync()) until `count` are done. Returns the body bytes read.
  virtual int64_t getConcurrentCoro(const std::string& url, int count, int concurrency) {
    (void)url;
    (void)count;
    (void)concurrency;
    throw std::runtime_error("getConcurrentCoro: not supported by this client");
  }

  // The first `calls` GETs of a new client to `url`'s server, started at once (each on a thread
  // of its own), with nothing from earlier clients (no connection, TLS session or DNS answer).
  // Returns each call's time to first byte: from its start until its response headers are in.
  // With `warm` (tern only), the new client's pool first keeps connections open for `calls`
  // calls (ConnectionPool::setPolicy()), and the calls start once they are idle in the pool.
  virtual std::vector<std::chrono::nanoseconds> firstCalls(const std::string& url, int calls,
                                                           bool warm) = 0;

  // Leaves `count` connections to `url`'s server idle in the client's pool (the first GET may
  // reuse one already there; every other one gets a connection of its own).
  virtual void openIdleConnections(const std::string& url, int count) = 0;

  // `calls` GETs of `url` on threads of their own, released together; each body is read to its
  // end. Returns the wall time from the first call's start to the last body's end. With
  // settings.cache, identical GETs of a URL not yet cached collapse into one network fetch.
  virtual std::chrono::nanoseconds getTogether(const std::string& url, int calls) {
    (void)url;
    (void)calls;
    throw std::runtime_error("getTogether: not supported by this client");
  }

  // The cache's counters so far, or none without settings.cache.
  virtual std::optional<CacheCounts> cacheCounts() { return std::nullopt; }
};

// Runs `task(i)` for each i < n, each on a thread of its own, all released together once every
// thread is up (so thread start-up is not in what the tasks time). Returns what each returned, in
// order; rethrows the first exception a task threw.
template <typename T>
std::vector<T> runTogether(int n, const std::function<T(int)>& task) {
  std::vector<T> results(static_cast<size_t>(n));
  std::exception_ptr failure;
  std::mutex mutex;
  std::latch ready(n);
  {
    std::vector<std::jthread> threads;
    for (int i = 0; i < n; ++i) {
      threads.emplace_back([&, i] {
        ready.arrive_and_wait();
        try {
          results[static_cast<size_t>(i)] = task(i);
        } catch (...) {
          std::lock_guard lock(mutex);
          if (!failure) failure = std::current_exception();
        }
      });
    }
  }  // Joins them.
  if (failure) std::rethrow_exception(failure);
  return results;
}

std::unique_ptr<BenchClient> newTernClient(const ClientSettings& settings);
std::unique_ptr<BenchClient> newCurlClient(const ClientSettings& settings);

}  // namespace tern::bench
