// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
//
// tern's WebSocket client, measured for bench/run against an echo server (tests/data/peers/
// websockets_server.py), beside Python's websockets client (bench/ws_client.py) doing the same:
//   tern_ws_bench echo URL --count N --size S         one message at a time, each waiting for its
//                                                      echo: prints round_trips_per_s=
//   tern_ws_bench throughput URL --count N --size S   N messages sent at once, then all echoes
//                                                      awaited: prints mib_per_s= (both ways)
// Messages are compressible text (permessage-deflate is offered, as by default); add
// --no-compress to turn it off. Every echo is checked byte for byte.
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>

#include "tern/client.h"
#include "tern/web_socket.h"

namespace {

class Counter : public tern::WebSocketListener {
 public:
  void onOpen(tern::WebSocket&, const tern::Response&) override { bump(false); }
  void onMessage(tern::WebSocket&, const std::string& text) override {
    if (text != expected_) fail("an echo differs from what was sent");
    bump(false);
  }
  void onClosed(tern::WebSocket&, int, const std::string&) override { bump(true); }
  void onFailure(tern::WebSocket&, const tern::IOException& e, const tern::Response*) override {
    fail(e.what());
  }

  void expect(std::string text) { expected_ = std::move(text); }

  // Waits until `count` events have been counted; exits the process on failure or after 60 s.
  void await(long count) {
    std::unique_lock lock(mutex_);
    if (!condition_.wait_for(lock, std::chrono::seconds(60), [&] { return count_ >= count; })) {
      fail("timed out");
    }
  }
  void awaitClosed() {
    std::unique_lock lock(mutex_);
    condition_.wait_for(lock, std::chrono::seconds(10), [&] { return closed_; });
  }
  long count() {
    std::lock_guard lock(mutex_);
    return count_;
  }

 private:
  void bump(bool closed) {
    std::lock_guard lock(mutex_);
    if (closed) {
      closed_ = true;
    } else {
      ++count_;
    }
    condition_.notify_all();
  }
  [[noreturn]] static void fail(const std::string& why) {
    std::cerr << "tern_ws_bench: " << why << "\n";
    std::_Exit(1);
  }

  std::mutex mutex_;
  std::condition_variable condition_;
  long count_ = 0;
  bool closed_ = false;
  std::string expected_;
};

std::string message(long size) {
  std::string text(static_cast<size_t>(size), 'a');
  for (long i = 0; i < size; ++i)
    text[static_cast<size_t>(i)] = static_cast<char>('a' + (i * 7 + i / 13) % 26);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr
        << "usage: tern_ws_bench echo|throughput URL [--count N] [--size S] [--no-compress]\n";
    return 2;
  }
  std::string mode = argv[1];
  std::string url = argv[2];
  long count = 1000;
  long size = 1024;
  bool compress = true;
  for (int i = 3; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--count" && i + 1 < argc) {
      count = std::atol(argv[++i]);
    } else if (flag == "--size" && i + 1 < argc) {
      size = std::atol(argv[++i]);
    } else if (flag == "--no-compress") {
      compress = false;
    } else {
      std::cerr << "tern_ws_bench: unknown argument " << flag << "\n";
      return 2;
    }
  }
  tern::Client client = tern::Client::Builder().webSocketCompression(compress).build();
  auto counter = std::make_shared<Counter>();
  std::string text = message(size);
  counter->expect(text);
  auto socket = client.newWebSocket(tern::Request::Builder().url(url).build(), counter);
  counter->await(1);  // Open.
  auto start = std::chrono::steady_clock::now();
  if (mode == "echo") {
    for (long i = 1; i <= count; ++i) {
      socket->send(text);
      counter->await(1 + i);
    }
  } else {
    for (long i = 0; i < count; ++i) socket->send(text);
    counter->await(1 + count);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  socket->close(1000, "");
  counter->awaitClosed();
  if (mode == "echo") {
    std::cout << "round_trips_per_s=" << count / seconds << "\n";
  } else {
    std::cout << "mib_per_s=" << 2.0 * count * size / (1024.0 * 1024.0) / seconds << "\n";
  }
  return 0;
}
