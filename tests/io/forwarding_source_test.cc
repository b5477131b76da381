// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/forwarding_source.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "support/io_fakes.h"
#include "tern/buffer.h"

namespace tern {
namespace {

// What users write ForwardingSource for: observing bytes as they flow (download progress).
class CountingSource final : public ForwardingSource {
 public:
  using ForwardingSource::ForwardingSource;
  int64_t read(Buffer& sink, int64_t byteCount) override {
    int64_t read = ForwardingSource::read(sink, byteCount);
    if (read > 0) {
      total += read;
    }
    return read;
  }
  int64_t total = 0;
};

TEST(ForwardingSourceTest, SubclassObservesEveryByteRead) {
  Buffer data;
  data.writeUtf8(std::string(20000, 'd'));
  CountingSource counting(static_cast<Source&>(data));
  std::unique_ptr<BufferedSource> source = tern::buffer(counting);
  EXPECT_EQ(source->readUtf8().size(), 20000u);
  EXPECT_EQ(counting.total, 20000);
}

TEST(ForwardingSourceTest, ForwardsTimeoutAndClose) {
  Buffer data;
  testing::TrickleSource upstream(data);
  ForwardingSource forwarding(upstream);
  EXPECT_EQ(&forwarding.timeout(), &upstream.timeout());
  EXPECT_EQ(&forwarding.delegate(), &upstream);
  forwarding.close();
  EXPECT_EQ(upstream.closeCount(), 1);
}

TEST(ForwardingSourceTest, OwnsAnOwnedDelegateAndRejectsNull) {
  Buffer data;
  data.writeUtf8("xy");
  ForwardingSource forwarding(std::make_unique<testing::TrickleSource>(data, 1));
  Buffer sink;
  EXPECT_EQ(forwarding.read(sink, 10), 1);
  EXPECT_THROW(ForwardingSource(std::unique_ptr<Source>()), std::invalid_argument);
}

}  // namespace
}  // namespace tern
