// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/forwarding_sink.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "support/io_fakes.h"
#include "tern/buffer.h"

namespace tern {
namespace {

// What users write ForwardingSink for: observing bytes as they flow (upload progress).
class CountingSink final : public ForwardingSink {
 public:
  using ForwardingSink::ForwardingSink;
  void write(Buffer& source, int64_t byteCount) override {
    ForwardingSink::write(source, byteCount);
    total += byteCount;
  }
  int64_t total = 0;
};

TEST(ForwardingSinkTest, SubclassObservesEveryByteWritten) {
  testing::RecordingSink out;
  CountingSink counting(out);
  std::unique_ptr<BufferedSink> sink = tern::buffer(counting);
  sink->writeUtf8(std::string(20000, 'u'));
  sink->close();
  EXPECT_EQ(counting.total, 20000);
  EXPECT_EQ(out.data().size(), 20000);
  EXPECT_EQ(out.log().back(), "close()");
}

TEST(ForwardingSinkTest, ForwardsFlushTimeoutAndClose) {
  testing::RecordingSink out;
  ForwardingSink forwarding(out);
  forwarding.flush();
  forwarding.close();
  EXPECT_EQ(&forwarding.timeout(), &out.timeout());
  EXPECT_EQ(&forwarding.delegate(), &out);
  EXPECT_EQ(out.log(), (std::vector<std::string>{"flush()", "close()"}));
}

TEST(ForwardingSinkTest, OwnsAnOwnedDelegateAndRejectsNull) {
  auto recording = std::make_unique<testing::RecordingSink>();
  testing::RecordingSink& out = *recording;
  ForwardingSink forwarding(std::move(recording));
  Buffer source;
  source.writeUtf8("abc");
  forwarding.write(source, 3);
  EXPECT_EQ(out.data().readUtf8(), "abc");
  EXPECT_THROW(ForwardingSink(std::unique_ptr<Sink>()), std::invalid_argument);
}

}  // namespace
}  // namespace tern
