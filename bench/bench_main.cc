// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
//
// One benchmark measurement, for bench/run: runs a scenario with one client and prints one line
// of key=value results. bench/run starts a fresh process per run and alternates the clients.
//
//   tern_bench CLIENT MODE URL [--count N] [--concurrency N] [--size BYTES] [--cacert FILE]
//              [--http1.1] [--http3-only] [--fresh] [--keep-bodies] [--max-per-host N] [--warm]
//              [--cache]
//
// CLIENT: tern | curl.  MODE:
//   get      N sequential GETs           -> seconds, calls_per_s, bytes_per_s
//   post     N sequential POSTs of SIZE  -> seconds, calls_per_s, bytes_per_s (request bytes)
//   mux      N GETs, CONCURRENCY at once (HTTP/2 streams on one connection; with --http1.1 a
//            connection per call in flight, at most --max-per-host) -> seconds, calls_per_s,
//            bytes_per_s
//   mux-coro what mux does, through tern's coroutine API (tern only): CONCURRENCY coroutines, each
//            awaiting one GET after another -> seconds, calls_per_s, bytes_per_s
//   scale    N GETs all at once (HTTP/2 streams on one connection; with --http1.1 a connection
//            each), to a server that answers each late (bench/slow_server.js) -> seconds (first
//            call started to last body read), threads (the process's most at once),
//            rss_kib_per_call (resident memory's peak over what it was before, per call),
//            heap_kib_per_call (the same of the live heap: the rest is mostly stacks); a first GET
//            of the server's root, answered at once, connects before the count starts
//   ttfb     N times: a new client's first CONCURRENCY calls, started at once (after a first
//            round not counted) -> ttfb_ms (median over every call), ttfb_min_ms; with --warm
//            (tern) the new client's pool is warmed for them first (ConnectionPool::setPolicy)
//   allocs   N keep-alive GETs after a warm-up -> allocs_per_call
//   idle     N idle pooled connections (one from a warm-up) -> rss_kib_per_conn, heap_kib_per_conn
//   repeat   one GET not timed, then N sequential GETs of the same URL -> us_per_call; with
//            --cache (tern) every timed call must be a cache hit: fails if one used the network
//   together N times, CONCURRENCY GETs at once (threads released together, execute()) of URL
//            with a query unique to the round, after one GET of URL not timed -> ms (median
//            wall time of a round, first start to last body's end), ms_min; with --cache each
//            round must use the network once (the GETs collapse into one fetch)
// With --cache, tern's client has a Cache in a new temporary directory (removed at exit), and
// the line also has network_calls= (the cache's networkCount(), every call of the process:
// what the server should have seen) and cache_hits=. With --http3-only (tern: Debian's libcurl
// has no HTTP/3), every call goes over HTTP/3 (QUIC) to the URL's own host and port; mux checks
// that each response came over it.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bench_client.h"
#include "heap_counter.h"

namespace tern::bench {
namespace {

struct Arguments {
  std::string client;
  std::string mode;
  std::string url;
  int count = 1;
  int concurrency = 1;
  int64_t size = 0;
  bool warm = false;
  ClientSettings settings;
};

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "tern_bench: " << problem
            << "\nusage: tern_bench tern|curl get|post|mux|ttfb|allocs|idle|repeat|together URL "
               "[--count N] "
               "[--concurrency N] [--size BYTES] [--cacert FILE] [--http1.1] [--http3-only] "
               "[--fresh] [--keep-bodies] [--max-per-host N] [--warm] [--cache]\n";
  std::exit(2);
}

Arguments parse(int argc, char** argv) {
  if (argc < 4) usage("missing arguments");
  Arguments args;
  args.client = argv[1];
  args.mode = argv[2];
  args.url = argv[3];
  for (int i = 4; i < argc; ++i) {
    std::string_view flag = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(std::string(flag) + " needs a value");
      return argv[++i];
    };
    if (flag == "--count") {
      args.count = std::stoi(value());
    } else if (flag == "--concurrency") {
      args.concurrency = std::stoi(value());
    } else if (flag == "--size") {
      args.size = std::stoll(value());
    } else if (flag == "--cacert") {
      args.settings.caFile = value();
    } else if (flag == "--http1.1") {
      args.settings.http11Only = true;
    } else if (flag == "--http3-only") {
      args.settings.http3Only = true;
    } else if (flag == "--fresh") {
      args.settings.freshConnections = true;
    } else if (flag == "--keep-bodies") {
      args.settings.keepBodies = true;
    } else if (flag == "--max-per-host") {
      args.settings.maxConnectionsPerHost = std::stoi(value());
    } else if (flag == "--warm") {
      args.warm = true;
    } else if (flag == "--cache") {
      args.settings.cache = true;
    } else {
      usage("unknown option " + std::string(flag));
    }
  }
  if (args.count < 1 || args.concurrency < 1) usage("--count and --concurrency must be >= 1");
  if (args.settings.maxConnectionsPerHost < 0) usage("--max-per-host must be >= 0");
  if (args.settings.cache && args.client != "tern") usage("--cache is for tern only");
  if (args.settings.http3Only && args.client != "tern") usage("--http3-only is for tern only");
  if (args.settings.http3Only && args.settings.http11Only) {
    usage("--http1.1 and --http3-only exclude each other");
  }
  return args;
}

// Sockets this process holds open (/proc/self/fd), to check that idle connections stayed.
int openSockets() {
  int sockets = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code error;
    std::filesystem::path target = std::filesystem::read_symlink(entry.path(), error);
    if (!error && target.string().starts_with("socket:")) ++sockets;
  }
  return sockets;
}

// Resident set size of this process, in bytes (/proc/self/statm).
int64_t residentBytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t sizePages = 0, residentPages = 0;
  statm >> sizePages >> residentPages;
  return residentPages * ::sysconf(_SC_PAGESIZE);
}

// This process's threads now (/proc/self/status).
int threadCount() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("Threads:")) return std::stoi(line.substr(8));
  }
  return 0;
}

// The most threads and resident memory the process had while it lived, looked at every 2 ms by a
// thread of its own (not counted).
class PeakSampler {
 public:
  PeakSampler()
      : thread_([this](std::stop_token stop) {
          while (!stop.stop_requested()) {
            sample();
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
          }
        }) {}
  // Stops sampling, after one last look.
  void stop() {
    thread_.request_stop();
    thread_.join();
    sample();
  }
  int threads() const { return threads_ - 1; }  // Without the sampler.
  int64_t residentBytes() const { return resident_; }
  int64_t heapBytes() const { return heap_; }  // Live heap blocks (heap_counter.h).

 private:
  void sample() {
    threads_ = std::max(threads_.load(), threadCount());
    resident_ = std::max(resident_.load(), bench::residentBytes());
    heap_ = std::max(heap_.load(), heapCounts().liveBytes);
  }
  std::atomic<int> threads_{0};
  std::atomic<int64_t> resident_{0};
  std::atomic<int64_t> heap_{0};
  std::jthread thread_;
};

// Lets this process open as many descriptors as it may (a connection each, in scale over HTTP/1.1).
void raiseDescriptorLimit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
}

// "scheme://host:port/" of `url`.
std::string rootOf(const std::string& url) {
  size_t authority = url.find("://");
  size_t path = url.find('/', authority == std::string::npos ? 0 : authority + 3);
  return (path == std::string::npos ? url : url.substr(0, path)) + "/";
}

int run(const Arguments& args) {
  std::unique_ptr<BenchClient> client;
  if (args.client == "tern") {
    client = newTernClient(args.settings);
  } else if (args.client == "curl") {
    client = newCurlClient(args.settings);
  } else {
    usage("unknown client " + args.client);
  }

  using Clock = std::chrono::steady_clock;
  auto report = [&](Clock::duration elapsed, int64_t bytes) {
    double seconds = std::chrono::duration<double>(elapsed).count();
    std::printf("seconds=%.6f calls_per_s=%.1f bytes_per_s=%.0f\n", seconds, args.count / seconds,
                static_cast<double>(bytes) / seconds);
  };

  if (args.mode == "get") {
    auto start = Clock::now();
    int64_t bytes = client->getSequential(args.url, args.count);
    report(Clock::now() - start, bytes);
  } else if (args.mode == "post") {
    std::string body(static_cast<size_t>(args.size), 'x');
    auto start = Clock::now();
    client->postSequential(args.url, args.count, body);
    report(Clock::now() - start, args.size * args.count);
  } else if (args.mode == "mux") {
    auto start = Clock::now();
    int64_t bytes = client->getConcurrent(args.url, args.count, args.concurrency);
    report(Clock::now() - start, bytes);
  } else if (args.mode == "mux-coro") {
    auto start = Clock::now();
    int64_t bytes = client->getConcurrentCoro(args.url, args.count, args.concurrency);
    report(Clock::now() - start, bytes);
  } else if (args.mode == "scale") {
    raiseDescriptorLimit();
    client->getSequential(rootOf(args.url), 1);  // Connects (and for tern starts its threads).
    int64_t before = residentBytes();
    int64_t heapBefore = heapCounts().liveBytes;
    PeakSampler peaks;
    auto start = Clock::now();
    client->getConcurrent(args.url, args.count, args.count);
    auto elapsed = Clock::now() - start;
    peaks.stop();
    std::printf("seconds=%.6f threads=%d rss_kib_per_call=%.2f heap_kib_per_call=%.2f\n",
                std::chrono::duration<double>(elapsed).count(), peaks.threads(),
                static_cast<double>(peaks.residentBytes() - before) / 1024.0 / args.count,
                static_cast<double>(peaks.heapBytes() - heapBefore) / 1024.0 / args.count);
  } else if (args.mode == "ttfb") {
    client->firstCalls(args.url, args.concurrency, args.warm);  // Process-wide lazy set-up.
    std::vector<double> millis;
    for (int i = 0; i < args.count; ++i) {
      for (auto ttfb : client->firstCalls(args.url, args.concurrency, args.warm)) {
        millis.push_back(std::chrono::duration<double, std::milli>(ttfb).count());
      }
    }
    std::sort(millis.begin(), millis.end());
    size_t n = millis.size();
    double median = n % 2 ? millis[n / 2] : (millis[n / 2 - 1] + millis[n / 2]) / 2;
    std::printf("ttfb_ms=%.4f ttfb_min_ms=%.4f calls=%zu\n", median, millis.front(), n);
  } else if (args.mode == "allocs") {
    client->getSequential(args.url, 100);  // Connect, and let caches and pools settle.
    HeapCounts before = heapCounts();
    client->getSequential(args.url, args.count);
    HeapCounts after = heapCounts();
    std::printf("allocs_per_call=%.2f\n",
                static_cast<double>(after.allocations - before.allocations) / args.count);
  } else if (args.mode == "idle") {
    client->openIdleConnections(args.url,
                                1);  // Library and TLS context set-up, not per connection.
    int64_t rssBefore = residentBytes();
    HeapCounts before = heapCounts();
    client->openIdleConnections(args.url, args.count);
    int64_t rssAfter = residentBytes();
    HeapCounts after = heapCounts();
    // The first of the `count` reuses the warm-up connection: count - 1 are new.
    int sockets = openSockets();
    if (sockets < args.count) {
      throw std::runtime_error("only " + std::to_string(sockets) + " of " +
                               std::to_string(args.count) + " connections stayed open");
    }
    double added = std::max(1, args.count - 1);
    std::printf("rss_kib_per_conn=%.1f heap_kib_per_conn=%.1f sockets=%d\n",
                static_cast<double>(rssAfter - rssBefore) / 1024.0 / added,
                static_cast<double>(after.liveBytes - before.liveBytes) / 1024.0 / added, sockets);
  } else if (args.mode == "repeat") {
    client->getSequential(args.url, 1);  // Connects; with a cache, stores the response.
    std::optional<CacheCounts> before = client->cacheCounts();
    auto start = Clock::now();
    client->getSequential(args.url, args.count);
    double micros = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    std::optional<CacheCounts> after = client->cacheCounts();
    if (after && (after->network != before->network || after->hits - before->hits != args.count)) {
      throw std::runtime_error(
          "of " + std::to_string(args.count) + " calls to " + args.url + ", " +
          std::to_string(after->hits - before->hits) + " were cache hits and " +
          std::to_string(after->network - before->network) + " used the network");
    }
    std::printf("us_per_call=%.3f seconds=%.6f", micros / args.count, micros / 1e6);
  } else if (args.mode == "together") {
    client->getSequential(args.url, 1);  // Connects, so that every round finds the connection.
    std::vector<double> millis;
    char separator = args.url.find('?') == std::string::npos ? '?' : '&';
    for (int i = 0; i < args.count; ++i) {
      // A URL no earlier round (or process: the cache is new) has stored.
      std::string url = args.url + separator + "round=" + std::to_string(i);
      std::optional<CacheCounts> before = client->cacheCounts();
      millis.push_back(
          std::chrono::duration<double, std::milli>(client->getTogether(url, args.concurrency))
              .count());
      std::optional<CacheCounts> after = client->cacheCounts();
      if (after && after->network - before->network != 1) {
        throw std::runtime_error(std::to_string(args.concurrency) + " GETs of " + url + " made " +
                                 std::to_string(after->network - before->network) +
                                 " network requests, not 1");
      }
    }
    std::sort(millis.begin(), millis.end());
    size_t n = millis.size();
    double median = n % 2 ? millis[n / 2] : (millis[n / 2 - 1] + millis[n / 2]) / 2;
    std::printf("ms=%.3f ms_min=%.3f rounds=%zu", median, millis.front(), n);
  } else {
    usage("unknown mode " + args.mode);
  }
  if (args.mode == "repeat" || args.mode == "together") {
    if (std::optional<CacheCounts> counts = client->cacheCounts()) {
      std::printf(" network_calls=%d cache_hits=%d", counts->network, counts->hits);
    }
    std::printf("\n");
  }
  std::fflush(stdout);
  return 0;
}

}  // namespace
}  // namespace tern::bench

int main(int argc, char** argv) {
  try {
    return tern::bench::run(tern::bench::parse(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << "tern_bench: " << argv[1] << " " << argv[2] << ": " << e.what() << "\n";
    return 1;
  }
}
