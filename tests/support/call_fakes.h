// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Fakes for the call and connection tests (OkHttp's RecordingCallback, FakeDns, ...).
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tern/call.h"
#include "tern/callback.h"
#include "tern/cookie_jar.h"
#include "tern/dispatcher.h"
#include "tern/dns.h"
#include "tern/inet_address.h"

namespace tern::testing {

// What an enqueued call reported: the response's code, headers and body (read on the
// dispatcher thread), or the failure's type and message.
struct RecordedResponse {
  std::string url;  // The URL of the call's original request.
  std::optional<int> code;
  std::string body;
  Headers headers;
  std::optional<std::string> failure;      // The exception's message.
  bool interrupted = false;                // The failure was an InterruptedIOException.
  std::optional<std::string> bodyFailure;  // Reading the body threw this.
};

// A Callback that records what each call reported and lets the test wait for it, as OkHttp's
// RecordingCallback. Reads response bodies on the dispatcher thread.
class RecordingCallback final : public Callback {
 public:
  void onFailure(Call& call, const IOException& e) override;
  void onResponse(Call& call, Response response) override;

  // Waits for the outcome of the call to `url` (as a string), at most 10 s; throws
  // std::runtime_error if none arrives.
  RecordedResponse await(const std::string& url);

  // Waits until `count` outcomes arrived, at most `timeout`.
  std::vector<RecordedResponse> awaitCount(
      size_t count, std::chrono::milliseconds timeout = std::chrono::seconds(10));

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<RecordedResponse> responses_;
};

// A Dns that returns scripted addresses per host (all of them for "*"), and records lookups.
class FakeDns final : public Dns {
 public:
  std::vector<InetAddress> lookup(const std::string& hostname) override;
  void set(const std::string& hostname, std::vector<InetAddress> addresses);
  // Hosts looked up, in order.
  std::vector<std::string> lookups() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::pair<std::string, std::vector<InetAddress>>> addresses_;
  std::vector<std::string> lookups_;
};

// A cookie jar that keeps every cookie it is given, per URL host, and records the calls.
class RecordingCookieJar final : public CookieJar {
 public:
  void saveFromResponse(const HttpUrl& url, const std::vector<Cookie>& cookies) override;
  std::vector<Cookie> loadForRequest(const HttpUrl& url) override;
  // Cookies to return from loadForRequest().
  void enqueueRequestCookies(std::vector<Cookie> cookies);
  std::vector<std::vector<Cookie>> takeResponseCookies();

 private:
  std::mutex mutex_;
  std::deque<std::vector<Cookie>> requestCookies_;
  std::vector<std::vector<Cookie>> responseCookies_;
};

// An executor for Dispatcher tests that records jobs instead of running them (OkHttp's
// DispatcherTest RecordingExecutor); the test runs them when it wants.
class RecordingExecutor {
 public:
  Dispatcher::Executor executor();
  size_t size() const;
  // Runs the job at `index` and removes it.
  void run(size_t index);
  // Refuses jobs from now on (executor() throws).
  void shutdown();

 private:
  mutable std::mutex mutex_;
  std::vector<std::function<void()>> jobs_;
  bool shutdown_ = false;
};

// A loopback port where nothing listens: connects are refused. Bound (not listening) so no one
// else takes it meanwhile.
class ClosedPort {
 public:
  ClosedPort();
  ~ClosedPort();
  ClosedPort(const ClosedPort&) = delete;
  ClosedPort& operator=(const ClosedPort&) = delete;
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

// A loopback listener whose accept queue is full: a new connect to it stays in progress until
// it times out (Linux drops the SYNs). Bounded and local, unlike a non-routable address.
class FullBacklog {
 public:
  // On 127.0.0.1 at a free port, or on `ipv4` (any of 127.0.0.0/8, all loopback on Linux) at
  // `port`: 127.0.0.2 at a MockWebServer's port is an address of the same host and port that
  // never answers.
  FullBacklog();
  FullBacklog(const std::string& ipv4, int port);
  ~FullBacklog();
  FullBacklog(const FullBacklog&) = delete;
  FullBacklog& operator=(const FullBacklog&) = delete;
  int port() const { return port_; }

 private:
  int listenerFd_ = -1;
  int port_ = 0;
  std::vector<int> fillers_;
};

// Waits until `condition` holds, polling every millisecond, at most `timeout`. Returns whether it
// held.
bool eventually(const std::function<bool()>& condition,
                std::chrono::milliseconds timeout = std::chrono::seconds(5));

}  // namespace tern::testing
