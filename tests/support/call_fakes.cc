// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "support/call_fakes.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>
#include <thread>
#include <utility>

#include "tern/exceptions.h"

namespace tern::testing {
namespace {

constexpr std::chrono::seconds kAwaitTimeout{10};

int boundLoopbackSocket(int& port, int flags = 0, const char* ipv4 = "127.0.0.1") {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | flags, 0);
  if (fd < 0) throw std::runtime_error("socket() failed");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  if (::inet_pton(AF_INET, ipv4, &address.sin_addr) != 1) {
    ::close(fd);
    throw std::runtime_error(std::string("not an IPv4 address: ") + ipv4);
  }
  socklen_t length = sizeof(address);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    ::close(fd);
    throw std::runtime_error("bind() failed");
  }
  port = ntohs(address.sin_port);
  return fd;
}

}  // namespace

void RecordingCallback::onFailure(Call& call, const IOException& e) {
  RecordedResponse recorded;
  recorded.url = call.request().url().toString();
  recorded.failure = e.what();
  recorded.interrupted = dynamic_cast<const InterruptedIOException*>(&e) != nullptr;
  std::lock_guard lock(mutex_);
  responses_.push_back(std::move(recorded));
  changed_.notify_all();
}

void RecordingCallback::onResponse(Call& call, Response response) {
  RecordedResponse recorded;
  recorded.url = call.request().url().toString();
  recorded.code = response.code();
  try {
    recorded.body = response.body()->string();
  } catch (const std::exception& e) {
    recorded.bodyFailure = e.what();
  }
  recorded.headers = response.headers();
  std::lock_guard lock(mutex_);
  responses_.push_back(std::move(recorded));
  changed_.notify_all();
}

RecordedResponse RecordingCallback::await(const std::string& url) {
  std::unique_lock lock(mutex_);
  auto deadline = std::chrono::steady_clock::now() + kAwaitTimeout;
  while (true) {
    for (auto it = responses_.begin(); it != responses_.end(); ++it) {
      if (it->url == url) {
        RecordedResponse result = std::move(*it);
        responses_.erase(it);
        return result;
      }
    }
    if (changed_.wait_until(lock, deadline) == std::cv_status::timeout) {
      throw std::runtime_error("Timed out waiting for a response to " + url);
    }
  }
}

std::vector<RecordedResponse> RecordingCallback::awaitCount(size_t count,
                                                            std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  if (!changed_.wait_for(lock, timeout, [&] { return responses_.size() >= count; })) {
    throw std::runtime_error("Timed out waiting for " + std::to_string(count) + " responses");
  }
  return responses_;
}

std::vector<InetAddress> FakeDns::lookup(const std::string& hostname) {
  std::lock_guard lock(mutex_);
  lookups_.push_back(hostname);
  for (const auto& [host, addresses] : addresses_) {
    if (host == hostname || host == "*") return addresses;
  }
  throw UnknownHostException("FakeDns: unknown host " + hostname);
}

void FakeDns::set(const std::string& hostname, std::vector<InetAddress> addresses) {
  std::lock_guard lock(mutex_);
  addresses_.emplace(addresses_.begin(), hostname, std::move(addresses));
}

std::vector<std::string> FakeDns::lookups() const {
  std::lock_guard lock(mutex_);
  return lookups_;
}

void RecordingCookieJar::saveFromResponse(const HttpUrl&, const std::vector<Cookie>& cookies) {
  std::lock_guard lock(mutex_);
  responseCookies_.push_back(cookies);
}

std::vector<Cookie> RecordingCookieJar::loadForRequest(const HttpUrl&) {
  std::lock_guard lock(mutex_);
  if (requestCookies_.empty()) return {};
  std::vector<Cookie> result = std::move(requestCookies_.front());
  requestCookies_.pop_front();
  return result;
}

void RecordingCookieJar::enqueueRequestCookies(std::vector<Cookie> cookies) {
  std::lock_guard lock(mutex_);
  requestCookies_.push_back(std::move(cookies));
}

std::vector<std::vector<Cookie>> RecordingCookieJar::takeResponseCookies() {
  std::lock_guard lock(mutex_);
  return std::exchange(responseCookies_, {});
}

Dispatcher::Executor RecordingExecutor::executor() {
  return [this](std::function<void()> job) {
    std::lock_guard lock(mutex_);
    if (shutdown_) throw std::runtime_error("RecordingExecutor: shut down");
    jobs_.push_back(std::move(job));
  };
}

size_t RecordingExecutor::size() const {
  std::lock_guard lock(mutex_);
  return jobs_.size();
}

void RecordingExecutor::run(size_t index) {
  std::function<void()> job;
  {
    std::lock_guard lock(mutex_);
    job = std::move(jobs_.at(index));
    jobs_.erase(jobs_.begin() + static_cast<std::ptrdiff_t>(index));
  }
  job();
}

void RecordingExecutor::shutdown() {
  std::lock_guard lock(mutex_);
  shutdown_ = true;
}

ClosedPort::ClosedPort() { fd_ = boundLoopbackSocket(port_); }

ClosedPort::~ClosedPort() { ::close(fd_); }

FullBacklog::FullBacklog() : FullBacklog("127.0.0.1", 0) {}

FullBacklog::FullBacklog(const std::string& ipv4, int port) : port_(port) {
  listenerFd_ = boundLoopbackSocket(port_, 0, ipv4.c_str());
  if (::listen(listenerFd_, 0) != 0) throw std::runtime_error("listen() failed");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  ::inet_pton(AF_INET, ipv4.c_str(), &address.sin_addr);
  address.sin_port = htons(static_cast<uint16_t>(port_));
  for (int i = 0; i < 16; ++i) {
    int filler = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    ::connect(filler, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    fillers_.push_back(filler);
    pollfd p{filler, POLLOUT, 0};
    if (::poll(&p, 1, 200) != 1) return;  // This one is stuck: the queue is full.
  }
  throw std::runtime_error("could not fill the accept queue");
}

FullBacklog::~FullBacklog() {
  for (int fd : fillers_) ::close(fd);
  ::close(listenerFd_);
}

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace tern::testing
