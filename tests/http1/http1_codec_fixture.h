// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <utility>

#include "http/exchange_codec.h"
#include "http1/http1_exchange_codec.h"
#include "tern/buffer.h"
#include "tern/request.h"
#include "tern/response.h"

namespace tern::testing {

// A Carrier that counts what the codec told it, standing in for the connection.
class RecordingCarrier final : public internal::ExchangeCodec::Carrier {
 public:
  void noNewExchanges() override { ++noNewExchangesCount; }
  void cancel() override { ++cancelCount; }

  std::atomic<int> noNewExchangesCount = 0;
  std::atomic<int> cancelCount = 0;
};

// An Http1ExchangeCodec over in-memory socket streams: `server` holds what the peer sends (write
// response bytes into it) and `client` collects what the codec writes.
class Http1CodecTest : public ::testing::Test {
 protected:
  static Request get(std::string_view url = "http://example.com/") {
    return Request::Builder().url(url).build();
  }

  // True if nothing told the connection to stop taking exchanges.
  bool reusable() const { return carrier.noNewExchangesCount == 0; }

  // Writes `request`'s headers and finishes it, then reads response headers until a final one.
  Response exchange(const Request& request, std::string_view response) {
    server.writeUtf8(response);
    codec->writeRequestHeaders(request);
    codec->finishRequest();
    return readFinalResponse(request);
  }

  Response readFinalResponse(const Request& request) {
    while (true) {
      std::optional<Response::Builder> builder = codec->readResponseHeaders(false);
      Response response = builder->request(request).build();
      if (!internal::isInformational(response.code())) return response;
    }
  }

  // Opens the body of `response` and reads it whole.
  std::string readBody(const Response& response) {
    std::unique_ptr<Source> body = codec->openResponseBodySource(response);
    std::string result = tern::buffer(*body)->readUtf8();
    body->close();
    return result;
  }

  // A new codec for the next exchange on the same streams, as the pool would make.
  void nextExchange() {
    codec = std::make_unique<internal::Http1ExchangeCodec>(carrier, server, client);
  }

  Buffer server;
  Buffer client;
  RecordingCarrier carrier;
  std::unique_ptr<internal::Http1ExchangeCodec> codec =
      std::make_unique<internal::Http1ExchangeCodec>(carrier, server, client);
};

}  // namespace tern::testing
