// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
//
// tern under benchmark, used as an OkHttp user would: one Client, execute() for sequential work,
// enqueue() with the dispatcher's limits for concurrent work.
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <coroutine>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench_client.h"
#include "tern/coro.h"
#include "tern/tern.h"

namespace tern::bench {
namespace {

void checkOk(const Response& response, const std::string& url) {
  if (response.code() != 200) {
    throw std::runtime_error("tern: HTTP " + std::to_string(response.code()) + " from " + url);
  }
}

// A Cache in a new directory under $TMPDIR (or /tmp), opened now so that no run times it; null
// unless `enabled`.
std::shared_ptr<Cache> newTemporaryCache(bool enabled) {
  if (!enabled) return nullptr;
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/tern-bench-cache.XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("tern: cannot make a cache directory from " + pattern);
  }
  auto cache = std::make_shared<Cache>(pattern, int64_t{1} << 30);
  cache->initialize();
  return cache;
}

// Reads the body to its end: into a new string (an app's usual use), or discarding each chunk.
int64_t consume(Response& response, bool keepBodies) {
  ResponseBody& body = *response.body();
  if (keepBodies) return static_cast<int64_t>(body.string().size());
  int64_t total = 0;
  Buffer sink;
  BufferedSource& source = body.source();
  for (int64_t n; (n = source.read(sink, 64 * 1024)) != -1;) {
    total += n;
    sink.clear();
  }
  return total;
}

// A coroutine that starts at once and frees itself at its end: what the coroutine scenario runs
// its workers as (a program with Asio would co_spawn them instead).
struct Detached {
  struct promise_type {
    Detached get_return_object() const noexcept { return {}; }
    std::suspend_never initial_suspend() const noexcept { return {}; }
    std::suspend_never final_suspend() const noexcept { return {}; }
    void return_void() const noexcept {}
    void unhandled_exception() const noexcept { std::terminate(); }
  };
};

// What the coroutine workers share: the next call's number, and how they ended.
struct CoroRun {
  explicit CoroRun(int workers) : running(workers) {}
  std::atomic<int> next{0};
  std::mutex mutex;
  std::condition_variable allDone;
  int running;          // Guarded by mutex.
  int64_t total = 0;    // Guarded by mutex.
  std::string failure;  // Guarded by mutex.
};

class TernClient final : public BenchClient {
 public:
  explicit TernClient(const ClientSettings& settings)
      // Up to 1000 idle connections, so openIdleConnections() keeps every one it opens.
      : settings_(settings),
        cache_(newTemporaryCache(settings.cache)),
        client_(newClient(std::make_shared<ConnectionPool>(settings.freshConnections ? 0 : 1000))) {
    client_.connectionPool()->setMaxConnectionsPerHost(settings.maxConnectionsPerHost);
  }

  ~TernClient() override {
    if (cache_ == nullptr) return;
    std::filesystem::path directory = cache_->directory();
    cache_->deleteCache();
    std::error_code ignored;  // A leftover temporary directory is harmless.
    std::filesystem::remove_all(directory, ignored);
  }

  std::chrono::nanoseconds getTogether(const std::string& url, int calls) override {
    using Clock = std::chrono::steady_clock;
    Request request = Request::Builder().url(url).build();
    auto spans = runTogether<std::pair<Clock::time_point, Clock::time_point>>(calls, [&](int) {
      auto start = Clock::now();
      Response response = client_.newCall(request)->execute();
      checkOk(response, url);
      consume(response, settings_.keepBodies);
      return std::pair(start, Clock::now());
    });
    auto first = std::min_element(spans.begin(), spans.end(),
                                  [](auto& a, auto& b) { return a.first < b.first; });
    auto last = std::max_element(spans.begin(), spans.end(),
                                 [](auto& a, auto& b) { return a.second < b.second; });
    return last->second - first->first;
  }

  std::optional<CacheCounts> cacheCounts() override {
    if (cache_ == nullptr) return std::nullopt;
    return CacheCounts{.requests = cache_->requestCount(),
                       .hits = cache_->hitCount(),
                       .network = cache_->networkCount()};
  }

  int64_t getSequential(const std::string& url, int count) override {
    Request request = Request::Builder().url(url).build();
    int64_t total = 0;
    for (int i = 0; i < count; ++i) {
      Response response = client_.newCall(request)->execute();
      checkOk(response, url);
      total += consume(response, settings_.keepBodies);
    }
    return total;
  }

  void postSequential(const std::string& url, int count, const std::string& body) override {
    Request request =
        Request::Builder()
            .url(url)
            .post(RequestBody::create(body, MediaType::get("application/octet-stream")))
            .build();
    for (int i = 0; i < count; ++i) {
      Response response = client_.newCall(request)->execute();
      checkOk(response, url);
      consume(response, settings_.keepBodies);
    }
  }

  int64_t getConcurrent(const std::string& url, int count, int concurrency) override {
    client_.dispatcher()->setMaxRequests(concurrency);
    client_.dispatcher()->setMaxRequestsPerHost(concurrency);
    Request request = Request::Builder().url(url).build();
    std::mutex mutex;
    std::condition_variable allDone;
    int done = 0;
    int64_t total = 0;
    std::string failure;
    auto callback = Callback::of(
        [&](Call&, Response response) {
          int64_t n = 0;
          std::string error;
          try {
            checkOk(response, url);
            checkProtocol(response);
            n = consume(response, settings_.keepBodies);
          } catch (const std::exception& e) {
            error = e.what();
          }
          std::lock_guard lock(mutex);
          total += n;
          if (!error.empty()) failure = error;
          if (++done == count) allDone.notify_all();
        },
        [&](Call&, const IOException& e) {
          std::lock_guard lock(mutex);
          failure = e.what();
          if (++done == count) allDone.notify_all();
        });
    // The dispatcher keeps `concurrency` calls running and queues the rest (over HTTP/1.1 with a
    // per-host limit, the pool makes those beyond it wait for a connection).
    for (int i = 0; i < count; ++i) client_.newCall(request)->enqueue(callback);
    std::unique_lock lock(mutex);
    allDone.wait(lock, [&] { return done == count; });
    if (!failure.empty()) throw std::runtime_error("tern: " + failure);
    return total;
  }

  int64_t getConcurrentCoro(const std::string& url, int count, int concurrency) override {
    client_.dispatcher()->setMaxRequests(concurrency);
    client_.dispatcher()->setMaxRequestsPerHost(concurrency);
    Request request = Request::Builder().url(url).build();
    const int workers = std::min(concurrency, count);
    CoroRun run(workers);
    for (int i = 0; i < workers; ++i) coroWorker(request, count, run);
    std::unique_lock lock(run.mutex);
    run.allDone.wait(lock, [&] { return run.running == 0; });
    if (!run.failure.empty()) throw std::runtime_error("tern: " + run.failure);
    return run.total;
  }

  void openIdleConnections(const std::string& url, int count) override {
    Request request = Request::Builder().url(url).build();
    std::vector<Response> inFlight;
    inFlight.reserve(static_cast<size_t>(count));
    // Each response holds its connection until its body is closed, so every call connects anew.
    for (int i = 0; i < count; ++i) {
      inFlight.push_back(client_.newCall(request)->execute());
      checkOk(inFlight.back(), url);
    }
    for (Response& response : inFlight) consume(response, false);
  }

  std::vector<std::chrono::nanoseconds> firstCalls(const std::string& url, int calls,
                                                   bool warm) override {
    // A new pool and client; the client's new TLS context has no session to resume.
    auto pool = std::make_shared<ConnectionPool>();
    Client client = newClient(pool);
    if (warm) {
      pool->setPolicy(client.address(HttpUrl::get(url)), {.minimumConcurrentCalls = calls});
      // An HTTP/2 connection carries every call; over HTTP/1.1 each call needs its own.
      bool h2 = url.starts_with("https:") && !settings_.http11Only;
      awaitIdleConnections(*pool, h2 ? 1 : calls, url);
    }
    Request request = Request::Builder().url(url).build();
    return runTogether<std::chrono::nanoseconds>(calls, [&](int) {
      auto start = std::chrono::steady_clock::now();
      Response response = client.newCall(request)->execute();  // Returns once headers are in.
      auto ttfb = std::chrono::steady_clock::now() - start;
      checkOk(response, url);
      consume(response, settings_.keepBodies);
      return ttfb;
    });
  }

 private:
  // A client as every scenario uses it, over `pool`.
  Client newClient(std::shared_ptr<ConnectionPool> pool) const {
    Client::Builder builder;
    builder.connectionPool(std::move(pool));
    if (cache_ != nullptr) builder.cache(cache_);
    if (settings_.http11Only) builder.protocols({Protocol::HTTP_1_1});
    if (settings_.http3Only) builder.protocols({Protocol::HTTP_3});
    if (!settings_.caFile.empty()) {
      std::ifstream file(settings_.caFile);
      std::string pem((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
      builder.handshakeCertificates(tls::HandshakeCertificates::Builder()
                                        .addTrustedCertificate(Certificate::decodePem(pem))
                                        .build());
    }
    return builder.build();
  }

  // Throws unless `response` came over the protocol getConcurrent() asked for: HTTP/2 (HTTP/3
  // with settings_.http3Only), or HTTP/1.1 with settings_.http11Only.
  void checkProtocol(const Response& response) const {
    Protocol expected = settings_.http3Only    ? Protocol::HTTP_3
                        : settings_.http11Only ? Protocol::HTTP_1_1
                                               : Protocol::HTTP_2;
    if (response.protocol() != expected) {
      throw std::runtime_error("expected " + std::string(toString(expected)) + ", got " +
                               std::string(toString(response.protocol())));
    }
  }

  // One of getConcurrentCoro()'s coroutines: takes call numbers until `count` are taken. Each
  // body is read whole (stringAsync: a body already in memory costs no suspension).
  Detached coroWorker(const Request& request, int count, CoroRun& run) {
    int64_t bytes = 0;
    std::string failure;
    try {
      while (run.next.fetch_add(1, std::memory_order_relaxed) < count) {
        Response response = co_await client_.newCall(request)->executeAsync();
        checkOk(response, request.url().toString());
        checkProtocol(response);
        bytes += static_cast<int64_t>((co_await stringAsync(*response.body())).size());
      }
    } catch (const std::exception& e) {
      failure = e.what();
    }
    std::lock_guard lock(run.mutex);
    run.total += bytes;
    if (!failure.empty()) run.failure = failure;
    if (--run.running == 0) run.allDone.notify_all();
  }

  // Waits until `pool` holds `count` idle connections: the policy's warming has connected them
  // (a connection being warmed is in use until its handshakes are done).
  static void awaitIdleConnections(const ConnectionPool& pool, int count, const std::string& url) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (pool.idleConnectionCount() < count) {
      if (std::chrono::steady_clock::now() > deadline) {
        throw std::runtime_error("tern: the pool warmed " +
                                 std::to_string(pool.idleConnectionCount()) + " of " +
                                 std::to_string(count) + " connections to " + url + " in 10 s");
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }

  ClientSettings settings_;
  std::shared_ptr<Cache> cache_;  // Null unless settings_.cache; shared by firstCalls' clients.
  Client client_;
};

}  // namespace

std::unique_ptr<BenchClient> newTernClient(const ClientSettings& settings) {
  return std::make_unique<TernClient>(settings);
}

}  // namespace tern::bench
