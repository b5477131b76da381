// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// An EventSourceListener that records each call as a line of text, as OkHttp's
// EventSourceRecorder, and checks the listener's contract as the calls come: one call at a time,
// onOpen first on each connection, nothing after the terminal onClosed / onFailure.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>

#include "tern/event_source.h"
#include "tern/exceptions.h"

namespace tern::testing {

class EventSourceRecorder final : public EventSourceListener {
 public:
  // Runs inside each listener call, after it is recorded (to cancel or throw from a callback).
  std::function<void(EventSource&, const std::string& line)> hook;

  void onOpen(EventSource& source, const Response& response) override {
    record(source,
           "open " + std::to_string(response.code()) + (response.body() ? " with body" : ""));
  }
  void onEvent(EventSource& source, const std::optional<std::string>& id,
               const std::optional<std::string>& type, const std::string& data) override {
    record(source,
           "event id=" + id.value_or("-") + " type=" + type.value_or("-") + " data=" + data);
  }
  void onRetryChange(EventSource& source, std::chrono::milliseconds retry) override {
    record(source, "retry " + std::to_string(retry.count()));
  }
  void onClosed(EventSource& source) override { record(source, "closed", true); }
  void onFailure(EventSource& source, const std::exception_ptr& error,
                 const Response* response) override {
    std::string line = "failure ";
    if (!error) {
      line += "null";
    } else {
      try {
        std::rethrow_exception(error);
      } catch (const InterruptedIOException& e) {
        line += std::string("InterruptedIOException: ") + e.what();
      } catch (const ProtocolException& e) {
        line += std::string("ProtocolException: ") + e.what();
      } catch (const IOException& e) {
        line += std::string("IOException: ") + e.what();
      } catch (const std::exception& e) {
        line += std::string("exception: ") + e.what();
      }
    }
    line += response ? " response=" + std::to_string(response->code()) : " response=null";
    record(source, line, true);
  }

  // The next line, waiting up to 10 s for it; "timeout" if none came (the test then fails on
  // the comparison, naming what it expected).
  std::string next() {
    std::unique_lock lock(mutex_);
    if (!changed_.wait_for(lock, std::chrono::seconds(10), [&] { return !lines_.empty(); })) {
      return "timeout";
    }
    std::string line = std::move(lines_.front());
    lines_.pop_front();
    return line;
  }

  // Waits (up to 10 s) for the terminal call, and returns every line not taken yet.
  std::deque<std::string> awaitTerminal() {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, std::chrono::seconds(10), [&] { return terminated_; });
    return std::exchange(lines_, {});
  }

  // Every line not taken yet, without waiting.
  std::deque<std::string> remaining() {
    std::lock_guard lock(mutex_);
    return std::exchange(lines_, {});
  }

  bool terminated() {
    std::lock_guard lock(mutex_);
    return terminated_;
  }

 private:
  void record(EventSource& source, std::string line, bool terminal = false) {
    {
      std::lock_guard lock(mutex_);
      EXPECT_FALSE(inCall_) << "listener called concurrently: " << line;
      EXPECT_FALSE(terminated_) << "listener called after its terminal call: " << line;
      inCall_ = true;
      terminated_ = terminated_ || terminal;
      lines_.push_back(line);
      changed_.notify_all();
    }
    try {
      if (hook) hook(source, line);
    } catch (...) {
      std::lock_guard lock(mutex_);
      inCall_ = false;
      throw;
    }
    std::lock_guard lock(mutex_);
    inCall_ = false;
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> lines_;
  bool inCall_ = false;
  bool terminated_ = false;
};

}  // namespace tern::testing
