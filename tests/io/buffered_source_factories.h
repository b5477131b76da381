// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The fixture shared by the BufferedSource suites: every test runs against each way of getting a
// BufferedSource (Okio's BufferedSourceTest factories).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "support/io_fakes.h"
#include "tern/buffer.h"
#include "tern/buffered_source.h"

namespace tern::testing {

constexpr int64_t kSeg = static_cast<int64_t>(Buffer::kSegmentSize);

inline std::string repeat(char c, int64_t n) { return std::string(static_cast<size_t>(n), c); }

inline std::vector<std::byte> bytes(std::initializer_list<int> values) {
  std::vector<std::byte> result;
  for (int v : values) result.push_back(static_cast<std::byte>(v));
  return result;
}

// Each way of getting a BufferedSource, as Okio's BufferedSourceTest factories. Tests write to
// `sink` (then emit()) and read from `source`.
enum class Factory {
  kBuffer,                // The Buffer itself.
  kBufferedSource,        // tern::buffer() over a Buffer.
  kOneByteAtATimeSource,  // tern::buffer() over a source that returns one byte per read.
  kOneBytePerSegment,     // A Buffer whose every byte sits in its own segment.
  kPeek,                  // Buffer::peek().
};

class BufferedSourceTest : public ::testing::TestWithParam<Factory> {
 protected:
  void SetUp() override {
    switch (GetParam()) {
      case Factory::kBuffer:
        sink_ = &data_;
        source_ = &data_;
        break;
      case Factory::kBufferedSource:
        sink_ = &data_;
        ownedSource_ = tern::buffer(static_cast<Source&>(data_));
        break;
      case Factory::kOneByteAtATimeSource:
        sink_ = &data_;
        ownedSource_ = tern::buffer(std::make_unique<TrickleSource>(data_, 1));
        break;
      case Factory::kOneBytePerSegment:
        ownedSink_ = tern::buffer(std::make_unique<OneBytePerSegmentSink>(data_));
        source_ = &data_;
        break;
      case Factory::kPeek:
        sink_ = &data_;
        ownedSource_ = data_.peek();
        break;
    }
    if (ownedSink_) sink_ = ownedSink_.get();
    if (ownedSource_) source_ = ownedSource_.get();
  }

  bool oneByteAtATime() const { return GetParam() == Factory::kOneByteAtATimeSource; }

  // Writes `text` and makes it readable.
  void write(std::string_view text) { sink_->writeUtf8(text).emit(); }

  Buffer data_;
  std::unique_ptr<BufferedSink> ownedSink_;
  std::unique_ptr<BufferedSource> ownedSource_;
  BufferedSink* sink_ = nullptr;
  BufferedSource* source_ = nullptr;
};

inline std::string factoryName(const ::testing::TestParamInfo<Factory>& info) {
  switch (info.param) {
    case Factory::kBuffer:
      return "Buffer";
    case Factory::kBufferedSource:
      return "BufferedSource";
    case Factory::kOneByteAtATimeSource:
      return "OneByteAtATimeSource";
    case Factory::kOneBytePerSegment:
      return "OneBytePerSegment";
    case Factory::kPeek:
      return "Peek";
  }
  return "Unknown";
}

// Instantiates the parameterized suite `Suite` (a subclass of BufferedSourceTest) for every
// factory.
#define TERN_INSTANTIATE_BUFFERED_SOURCE_SUITE(Suite)                                         \
  INSTANTIATE_TEST_SUITE_P(Factories, Suite,                                                  \
                           ::testing::Values(::tern::testing::Factory::kBuffer,               \
                                             ::tern::testing::Factory::kBufferedSource,       \
                                             ::tern::testing::Factory::kOneByteAtATimeSource, \
                                             ::tern::testing::Factory::kOneBytePerSegment,    \
                                             ::tern::testing::Factory::kPeek),                \
                           ::tern::testing::factoryName)

}  // namespace tern::testing
