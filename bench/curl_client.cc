// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
//
// libcurl under benchmark, used the way its users get its best: one easy handle reused for
// sequential work (its connection cache keeps the connection alive between transfers), and the
// multi interface with CURLPIPE_MULTIPLEX for concurrent work.
#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_client.h"

namespace tern::bench {
namespace {

struct EasyDeleter {
  void operator()(CURL* easy) const { curl_easy_cleanup(easy); }
};
struct MultiDeleter {
  void operator()(CURLM* multi) const { curl_multi_cleanup(multi); }
};
struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using Easy = std::unique_ptr<CURL, EasyDeleter>;
using Multi = std::unique_ptr<CURLM, MultiDeleter>;
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

// Where one transfer's body goes: a new string per transfer, or counted and dropped.
struct Transfer {
  explicit Transfer(bool keepBody = false) : keepBody(keepBody) {}
  bool keepBody;
  std::string body;
  int64_t bytes = 0;
};

size_t onBody(char* data, size_t size, size_t count, void* userdata) {
  auto* transfer = static_cast<Transfer*>(userdata);
  size_t n = size * count;
  if (transfer->keepBody) transfer->body.append(data, n);
  transfer->bytes += static_cast<int64_t>(n);
  return n;
}

void check(CURLcode code, const char* what) {
  if (code != CURLE_OK) {
    throw std::runtime_error(std::string("libcurl: ") + what + ": " + curl_easy_strerror(code));
  }
}

void checkOk(CURL* easy, const std::string& url) {
  long status = 0;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
  if (status != 200) {
    throw std::runtime_error("libcurl: HTTP " + std::to_string(status) + " from " + url);
  }
}

class CurlClient final : public BenchClient {
 public:
  explicit CurlClient(const ClientSettings& settings) : settings_(settings) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    easy_.reset(curl_easy_init());
    configure(easy_.get());
  }

  ~CurlClient() override {
    easy_.reset();
    multi_.reset();
    curl_global_cleanup();
  }

  int64_t getSequential(const std::string& url, int count) override {
    CURL* easy = easy_.get();
    curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
    curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
    int64_t total = 0;
    for (int i = 0; i < count; ++i) {
      Transfer transfer(settings_.keepBodies);
      curl_easy_setopt(easy, CURLOPT_WRITEDATA, &transfer);
      check(curl_easy_perform(easy), url.c_str());
      checkOk(easy, url);
      total += transfer.bytes;
    }
    return total;
  }

  void postSequential(const std::string& url, int count, const std::string& body) override {
    CURL* easy = easy_.get();
    // No "Expect: 100-continue": the body goes at once, as tern sends it.
    Slist headers(curl_slist_append(nullptr, "Expect:"));
    headers.reset(curl_slist_append(headers.release(), "Content-Type: application/octet-stream"));
    curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    for (int i = 0; i < count; ++i) {
      Transfer transfer(settings_.keepBodies);
      curl_easy_setopt(easy, CURLOPT_WRITEDATA, &transfer);
      check(curl_easy_perform(easy), url.c_str());
      checkOk(easy, url);
    }
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, nullptr);
  }

  int64_t getConcurrent(const std::string& url, int count, int concurrency) override {
    CURLM* multi = this->multi();
    bool h2 = !settings_.http11Only;
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, h2 ? CURLPIPE_MULTIPLEX : CURLPIPE_NOTHING);
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS,
                      h2 ? 1L : static_cast<long>(settings_.maxConnectionsPerHost));
    // Streams at once on the connection: libcurl's default is 100.
    curl_multi_setopt(multi, CURLMOPT_MAX_CONCURRENT_STREAMS,
                      static_cast<long>(std::max(concurrency, 100)));
    int slots = std::min(concurrency, count);
    std::vector<Easy> handles;
    std::vector<Transfer> transfers(static_cast<size_t>(slots), Transfer(settings_.keepBodies));
    int started = 0;
    for (int i = 0; i < slots; ++i) {
      handles.emplace_back(curl_easy_init());
      CURL* easy = handles.back().get();
      configure(easy);
      curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
      // Wait to multiplex rather than connect.
      curl_easy_setopt(easy, CURLOPT_PIPEWAIT, h2 ? 1L : 0L);
      curl_easy_setopt(easy, CURLOPT_WRITEDATA, &transfers[static_cast<size_t>(i)]);
      curl_easy_setopt(easy, CURLOPT_PRIVATE, &transfers[static_cast<size_t>(i)]);
      curl_multi_add_handle(multi, easy);
      ++started;
    }
    int64_t total = 0;
    int finished = 0;
    while (finished < count) {
      int running = 0;
      if (curl_multi_perform(multi, &running) != CURLM_OK) {
        throw std::runtime_error("libcurl: curl_multi_perform failed");
      }
      int queued = 0;
      while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
        if (message->msg != CURLMSG_DONE) continue;
        CURL* easy = message->easy_handle;
        check(message->data.result, url.c_str());
        checkOk(easy, url);
        long version = 0;
        curl_easy_getinfo(easy, CURLINFO_HTTP_VERSION, &version);
        if (version != (h2 ? CURL_HTTP_VERSION_2_0 : CURL_HTTP_VERSION_1_1)) {
          throw std::runtime_error(std::string("libcurl: expected ") + (h2 ? "h2" : "HTTP/1.1") +
                                   " from " + url);
        }
        Transfer* transfer = nullptr;
        curl_easy_getinfo(easy, CURLINFO_PRIVATE, &transfer);
        total += transfer->bytes;
        *transfer = Transfer(settings_.keepBodies);
        ++finished;
        curl_multi_remove_handle(multi, easy);
        if (started < count) {  // Reuse the handle for the next transfer.
          curl_multi_add_handle(multi, easy);
          ++started;
        }
      }
      if (finished < count && curl_multi_poll(multi, nullptr, 0, 1000, nullptr) != CURLM_OK) {
        throw std::runtime_error("libcurl: curl_multi_poll failed");
      }
    }
    return total;
  }

  void openIdleConnections(const std::string& url, int count) override {
    CURLM* multi = this->multi();
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, CURLPIPE_NOTHING);
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, static_cast<long>(count) + 16);
    std::vector<Easy> handles;
    std::vector<Transfer> transfers(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
      handles.emplace_back(curl_easy_init());
      CURL* easy = handles.back().get();
      configure(easy);
      curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
      curl_easy_setopt(easy, CURLOPT_WRITEDATA, &transfers[static_cast<size_t>(i)]);
      // Each on a new connection (libcurl would otherwise run these short transfers one after
      // another on one); finished, the connection stays in the multi handle's cache.
      if (i > 0) curl_easy_setopt(easy, CURLOPT_FRESH_CONNECT, 1L);
      curl_multi_add_handle(multi, easy);
    }
    int running = 1;
    while (running > 0) {
      if (curl_multi_perform(multi, &running) != CURLM_OK) {
        throw std::runtime_error("libcurl: curl_multi_perform failed");
      }
      if (running > 0) curl_multi_poll(multi, nullptr, 0, 1000, nullptr);
    }
    int queued = 0;
    while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
      if (message->msg != CURLMSG_DONE) continue;
      check(message->data.result, url.c_str());
      checkOk(message->easy_handle, url);
    }
    // The connections stay in the multi handle's cache, idle, after their handles are gone.
    for (Easy& easy : handles) curl_multi_remove_handle(multi, easy.get());
  }

  std::vector<std::chrono::nanoseconds> firstCalls(const std::string& url, int calls,
                                                   bool warm) override {
    if (warm) throw std::runtime_error("libcurl: no way to warm connections ahead of a call");
    // A new easy handle per call, sharing nothing: no connection or TLS session to reuse.
    return runTogether<std::chrono::nanoseconds>(calls, [&](int) {
      Easy easy(curl_easy_init());
      configure(easy.get());
      Transfer transfer(settings_.keepBodies);
      HeadersEnd headersEnd;
      curl_easy_setopt(easy.get(), CURLOPT_URL, url.c_str());
      curl_easy_setopt(easy.get(), CURLOPT_WRITEDATA, &transfer);
      curl_easy_setopt(easy.get(), CURLOPT_HEADERFUNCTION, onHeader);
      curl_easy_setopt(easy.get(), CURLOPT_HEADERDATA, &headersEnd);
      headersEnd.start = std::chrono::steady_clock::now();
      check(curl_easy_perform(easy.get()), url.c_str());
      checkOk(easy.get(), url);
      return headersEnd.at - headersEnd.start;
    });
  }

 private:
  // When a transfer's response headers were all in: the blank line that ends them (the final
  // response's; an interim 1xx response's would be overwritten by it).
  struct HeadersEnd {
    std::chrono::steady_clock::time_point start;
    std::chrono::steady_clock::time_point at;
  };
  static size_t onHeader(char* data, size_t size, size_t count, void* userdata) {
    size_t n = size * count;
    if (n == 2 && data[0] == '\r' && data[1] == '\n') {
      static_cast<HeadersEnd*>(userdata)->at = std::chrono::steady_clock::now();
    }
    return n;
  }

  void configure(CURL* easy) const {
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    if (std::getenv("TERN_BENCH_VERBOSE")) curl_easy_setopt(easy, CURLOPT_VERBOSE, 1L);
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION,
                     settings_.http11Only ? CURL_HTTP_VERSION_1_1 : CURL_HTTP_VERSION_2TLS);
    if (!settings_.caFile.empty()) curl_easy_setopt(easy, CURLOPT_CAINFO, settings_.caFile.c_str());
    if (settings_.freshConnections) curl_easy_setopt(easy, CURLOPT_FORBID_REUSE, 1L);
  }

  CURLM* multi() {
    if (!multi_) multi_.reset(curl_multi_init());
    return multi_.get();
  }

  ClientSettings settings_;
  Easy easy_;
  Multi multi_;
};

}  // namespace

std::unique_ptr<BenchClient> newCurlClient(const ClientSettings& settings) {
  return std::make_unique<CurlClient>(settings);
}

}  // namespace tern::bench
