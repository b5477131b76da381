// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The fixture the call tests share: a MockWebServer and a client pointed at it, whose every call
// has its events recorded and checked (RecordingEventListener): an event out of order fails the
// test, and so does a call that started but never ended by the time the test is over.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "io/gzip_sink.h"
#include "support/call_fakes.h"
#include "support/recording_event_listener.h"
#include "tern/buffer.h"
#include "tern/client.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::testing {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;
using mockwebserver::SocketPolicy;

class CallFixture : public ::testing::Test {
 protected:
  ~CallFixture() override { events->checkAllCallsEnded(); }

  // A request for `path` on the server.
  Request get(std::string_view path = "/") {
    return Request::Builder().url(server.url(path)).build();
  }

  Response execute(const Request& request) { return client.newCall(request)->execute(); }
  Response execute(std::string_view path = "/") { return execute(get(path)); }

  // Executes and reads the body: the common "fetch this" step.
  std::string fetch(std::string_view path = "/") { return execute(path).body()->string(); }

  // The server's URL for `path`, as a string.
  std::string url(std::string_view path = "/") { return server.url(path).toString(); }

  static MockResponse body(std::string_view text) {
    return MockResponse::Builder().body(text).build();
  }

  // `text` compressed with gzip.
  static Buffer gzip(std::string_view text) {
    Buffer out;
    {
      internal::GzipSink sink(out);
      Buffer in;
      in.writeUtf8(text);
      sink.write(in, in.size());
      sink.close();
    }
    return out;
  }

  MockWebServer server;
  // Every call's events, checked as they come. Clients made with client.newBuilder() keep it.
  std::shared_ptr<RecordingEventListener::Factory> events =
      std::make_shared<RecordingEventListener::Factory>();
  // Short timeouts: a test that would hang fails in seconds instead.
  Client client = Client::Builder()
                      .connectTimeout(5s)
                      .readTimeout(5s)
                      .writeTimeout(5s)
                      .eventListenerFactory(events)
                      .build();
};

}  // namespace tern::testing
