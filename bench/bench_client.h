// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace tern::bench {

// How a client under test is set up; the same for tern and libcurl.
struct ClientSettings {
  std::string caFile;             // PEM certificate to trust for https (the bench's own), or empty.
  bool http11Only = false;        // Offer only HTTP/1.1 (ALPN), even where h2 is available.
  bool freshConnections = false;  // Never reuse a connection: each call connects (and handshakes).
  bool keepBodies = false;        // Collect each body into a new std::string, as an app would.
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

  // `count` GETs of `url` with `concurrency` of them in flight at once, multiplexed on one HTTP/2
  // connection. Returns the number of body bytes read.
  virtual int64_t getConcurrent(const std::string& url, int count, int concurrency) = 0;

  // Leaves `count` connections to `url`'s server idle in the client's pool (the first GET may
  // reuse one already there; every other one gets a connection of its own).
  virtual void openIdleConnections(const std::string& url, int count) = 0;
};

std::unique_ptr<BenchClient> newTernClient(const ClientSettings& settings);
std::unique_ptr<BenchClient> newCurlClient(const ClientSettings& settings);

}  // namespace tern::bench
