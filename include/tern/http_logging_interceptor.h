// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "tern/export.h"
#include "tern/interceptor.h"

namespace tern {

// Logs requests and responses, as OkHttp's HttpLoggingInterceptor (logging-interceptor module).
// Install it as an application interceptor (the call as the application sees it) or as a network
// interceptor (every request on the wire, with the headers the client adds, redirects and
// retries, and gzip as it travels):
//
//   auto logging = std::make_shared<tern::HttpLoggingInterceptor>();
//   logging->setLevel(tern::HttpLoggingInterceptor::Level::HEADERS);
//   logging->redactHeader("Authorization");
//   client = client.newBuilder().addNetworkInterceptor(logging).build();
//
// Output, one logger() call per line (HEADERS):
//   --> GET http://example.com/ http/1.1
//   Host: example.com
//   --> END GET
//   <-- 200 OK http://example.com/ (12ms)
//   Content-Type: text/plain
//   <-- END HTTP
//
// BODY also logs the bodies: text as it is (decoded from its charset; a gzip body is decoded
// for display), anything that does not look like text as "(binary N-byte body omitted)". To log
// a response body it reads the whole body into memory first (the application still reads all of
// it); do not use BODY for large or streaming bodies. One-shot and duplex request bodies are
// not logged. The format is for people, not parsers: it may change.
//
// Thread-safe: one interceptor may serve every call of a client.
class TERN_API HttpLoggingInterceptor final : public Interceptor {
 public:
  // Receives one line of log output (without a line break). Must be thread-safe.
  using Logger = std::function<void(std::string_view message)>;

  enum class Level {
    NONE,     // Logs nothing.
    BASIC,    // Request and response lines: "--> POST /greeting http/1.1 (3-byte body)".
    HEADERS,  // Request and response lines and headers.
    BODY,     // Request and response lines, headers and bodies.
  };

  // Writes each line to stderr. Thread-safe.
  static Logger defaultLogger();

  // Logs to `logger` (defaultLogger() if empty), at Level::NONE until setLevel().
  explicit HttpLoggingInterceptor(Logger logger = defaultLogger());

  // Sets the level; returns *this for chaining.
  HttpLoggingInterceptor& setLevel(Level level);
  Level level() const;

  // Logs header `name`'s values as "██" (any case), e.g. "Authorization", "Cookie".
  HttpLoggingInterceptor& redactHeader(std::string name);

  Response intercept(Chain& chain) override;

 private:
  void logHeader(const std::string& name, const std::string& value) const;
  bool isRedacted(const std::string& name) const;

  const Logger logger_;
  mutable std::mutex mutex_;  // Guards level_ and headersToRedact_.
  Level level_ = Level::NONE;
  std::set<std::string> headersToRedact_;  // Lower case.
};

}  // namespace tern
