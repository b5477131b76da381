// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/content_decoding.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "support/compression.h"
#include "support/io_fakes.h"
#include "tern/buffer.h"
#include "tern/buffered_source.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

using testing::compressibleText;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using testing::randomBytes;
using ::testing::StartsWith;

// A Source over a string that hands out at most `maxPerRead` bytes a read and counts what it
// gave, so a test can see how far ahead of its reader a decoder read. Optionally fails once it
// has given `failAfter` bytes, as a connection that drops.
class CountingSource final : public Source {
 public:
  explicit CountingSource(std::string data, int64_t maxPerRead = 8192, int64_t failAfter = -1)
      : data_(std::move(data)), maxPerRead_(maxPerRead), failAfter_(failAfter) {}
  int64_t read(Buffer& sink, int64_t byteCount) override {
    if (failAfter_ >= 0 && given_ >= failAfter_) throw IOException("connection reset");
    if (given_ == static_cast<int64_t>(data_.size())) return -1;
    int64_t n = std::min({byteCount, maxPerRead_, static_cast<int64_t>(data_.size()) - given_});
    sink.writeUtf8(std::string_view(data_).substr(given_, n));
    given_ += n;
    return n;
  }
  Timeout& timeout() override { return timeout_; }
  void close() override { ++closes; }

  int64_t given() const { return given_; }
  int closes = 0;

 private:
  std::string data_;
  int64_t maxPerRead_;
  int64_t failAfter_;
  int64_t given_ = 0;
  Timeout timeout_;
};

struct Coding {
  std::string name;  // The Content-Encoding token.
  std::string label;
  std::function<std::string(std::string_view)> encode;
};

void PrintTo(const Coding& coding, std::ostream* out) { *out << coding.label; }

std::vector<Coding> codings() {
  return {
      {"br", "br", [](std::string_view d) { return testing::brotliCompress(d); }},
      {"zstd", "zstd", [](std::string_view d) { return testing::zstdCompress(d); }},
      {"gzip", "gzip", [](std::string_view d) { return testing::gzipCompress(d); }},
      {"deflate", "deflate_zlib", [](std::string_view d) { return testing::zlibCompress(d); }},
      {"deflate", "deflate_raw", [](std::string_view d) { return testing::rawDeflate(d); }},
  };
}

class ContentDecodingTest : public ::testing::TestWithParam<Coding> {
 protected:
  std::unique_ptr<Source> decoder(std::string encoded, double maxRatio = 1000,
                                  int64_t maxPerRead = 8192) {
    auto source = std::make_unique<CountingSource>(std::move(encoded), maxPerRead);
    raw_ = source.get();
    return decodingSource(std::move(source), {GetParam().name}, maxRatio);
  }

  std::string decode(std::string encoded, double maxRatio = 1000) {
    return tern::buffer(decoder(std::move(encoded), maxRatio))->readUtf8();
  }

  // The message decode() fails with, checking that it is a ContentDecodingException.
  std::string failure(std::string encoded, double maxRatio = 1000) {
    try {
      decode(std::move(encoded), maxRatio);
    } catch (const ContentDecodingException& e) {
      return e.what();
    }
    ADD_FAILURE() << "no ContentDecodingException";
    return "";
  }

  CountingSource* raw_ = nullptr;
};

TEST_P(ContentDecodingTest, SmallRoundTrip) {
  EXPECT_EQ(decode(GetParam().encode("hello, world")), "hello, world");
}

TEST_P(ContentDecodingTest, EncodedEmptyContentDecodesToNothing) {
  EXPECT_EQ(decode(GetParam().encode("")), "");
}

TEST_P(ContentDecodingTest, EmptyBodyDecodesToNothing) {
  // A 200 with "Content-Encoding: gzip" and no bytes: curl and browsers show an empty body.
  EXPECT_EQ(decode(""), "");
}

TEST_P(ContentDecodingTest, LargeBodyStreamsInBoundedReads) {
  const std::string text = compressibleText(6 * 1024 * 1024, 7);
  const std::string encoded = GetParam().encode(text);
  std::unique_ptr<Source> source = decoder(encoded, 1000, 4096);
  Buffer sink;
  std::string decoded;
  int64_t read;
  bool checkedStreaming = false;
  while ((read = source->read(sink, 8192)) != -1) {
    ASSERT_GT(read, 0);
    ASSERT_LE(read, 8192);
    ASSERT_EQ(sink.size(), read);  // One read never buffers more than asked.
    decoded += sink.readUtf8();
    if (!checkedStreaming && decoded.size() >= 64 * 1024) {
      // Streaming: 64 KiB out has needed only a small part of the input.
      EXPECT_LT(raw_->given(), static_cast<int64_t>(encoded.size()) / 4);
      checkedStreaming = true;
    }
  }
  EXPECT_TRUE(checkedStreaming);
  EXPECT_EQ(decoded.size(), text.size());
  EXPECT_TRUE(decoded == text);
  EXPECT_EQ(raw_->given(), static_cast<int64_t>(encoded.size()));
}

TEST_P(ContentDecodingTest, IncompressibleRoundTrip) {
  const std::string bytes = randomBytes(300 * 1024, 3);
  EXPECT_TRUE(decode(GetParam().encode(bytes)) == bytes);
}

TEST_P(ContentDecodingTest, CorruptFails) {
  std::string message = failure("this is certainly not compressed data at all, not a bit");
  EXPECT_FALSE(message.empty());
}

TEST_P(ContentDecodingTest, CorruptInTheMiddleFails) {
  if (GetParam().label == "deflate_raw") {
    GTEST_SKIP() << "raw DEFLATE has no checksum: flipped bits may decode to other bytes";
  }
  std::string encoded = GetParam().encode(compressibleText(200 * 1024, 5));
  for (size_t i = encoded.size() / 2; i < encoded.size() / 2 + 16; ++i) encoded[i] ^= 0x5a;
  failure(encoded);
}

TEST_P(ContentDecodingTest, TruncatedFails) {
  std::string encoded = GetParam().encode(compressibleText(100 * 1024, 9));
  for (size_t keep : {encoded.size() / 2, encoded.size() - 1}) {
    std::string message = failure(encoded.substr(0, keep));
    EXPECT_FALSE(message.empty()) << keep;
  }
}

TEST_P(ContentDecodingTest, TruncationIsAnEofException) {
  std::string encoded = GetParam().encode(compressibleText(100 * 1024, 9));
  std::unique_ptr<Source> source = decoder(encoded.substr(0, encoded.size() / 2));
  try {
    tern::buffer(std::move(source))->readUtf8();
    FAIL() << "no exception";
  } catch (const ContentDecodingException& e) {
    // The decoder's own message: which end was missing.
    EXPECT_THAT(std::string(e.what()),
                ::testing::AnyOf(HasSubstr("truncated"), HasSubstr("exhausted prematurely")));
  }
}

TEST_P(ContentDecodingTest, TrailingGarbageFails) {
  std::string message = failure(GetParam().encode("hello") + "garbage!");
  EXPECT_THAT(message, ::testing::AnyOf(HasSubstr("finished without exhausting source"),
                                        HasSubstr("gzip finished")));
}

TEST_P(ContentDecodingTest, UpstreamFailureKeepsItsType) {
  std::string encoded = GetParam().encode(compressibleText(200 * 1024, 2));
  auto source = std::make_unique<CountingSource>(encoded, 4096, 10000);
  std::unique_ptr<Source> decoded = decodingSource(std::move(source), {GetParam().name}, 1000);
  try {
    tern::buffer(std::move(decoded))->readUtf8();
    FAIL() << "no exception";
  } catch (const ContentDecodingException& e) {
    FAIL() << "a connection failure reported as a decoding failure: " << e.what();
  } catch (const IOException& e) {
    EXPECT_STREQ(e.what(), "connection reset");
  }
}

TEST_P(ContentDecodingTest, CloseClosesTheRawSource) {
  std::unique_ptr<Source> source = decoder(GetParam().encode("x"));
  source->close();
  EXPECT_EQ(raw_->closes, 1);
}

TEST_P(ContentDecodingTest, RatioGuardTripsOnABomb) {
  // 64 MiB of zeros: gzip and deflate reach about 1000:1, Brotli and zstd far more.
  const std::string zeros(64 * 1024 * 1024, '\0');
  const std::string encoded = GetParam().encode(zeros);
  const double ratio = 100;
  std::string message = failure(encoded, ratio);
  EXPECT_THAT(message, MatchesRegex("decompressed body over 100\xC3\x97 its compressed size "
                                    "\\([0-9.]+ [KM]iB from [0-9.]+ (B|KiB)\\): refusing a "
                                    "possible decompression bomb"));
}

TEST_P(ContentDecodingTest, RatioGuardStopsEarly) {
  // The guard stops soon after the floor: never near the whole 64 MiB.
  const std::string encoded = GetParam().encode(std::string(64 * 1024 * 1024, '\0'));
  std::unique_ptr<Source> source = decoder(encoded, 100);
  Buffer sink;
  int64_t total = 0;
  try {
    while (true) {
      int64_t read = source->read(sink, 8192);
      ASSERT_NE(read, -1);
      total += read;
      sink.clear();
    }
  } catch (const ContentDecodingException&) {
  }
  EXPECT_GE(total, kDecompressionRatioFloor - 8192);
  EXPECT_LT(total, 4 * kDecompressionRatioFloor);
}

TEST_P(ContentDecodingTest, RatioGuardAllowsOrdinaryBodies) {
  // About 10:1, well over the 1 MiB floor.
  const std::string text = compressibleText(4 * 1024 * 1024, 11);
  EXPECT_TRUE(decode(GetParam().encode(text), 20) == text);
}

TEST_P(ContentDecodingTest, RatioZeroMeansNoLimit) {
  const std::string zeros(16 * 1024 * 1024, '\0');
  EXPECT_TRUE(decode(GetParam().encode(zeros), 0) == zeros);
}

TEST_P(ContentDecodingTest, RatioGuardNeverTripsBelowTheFloor) {
  // 512 KiB of zeros compress far past 1.5:1, but are under 1 MiB decoded.
  const std::string zeros(512 * 1024, '\0');
  EXPECT_TRUE(decode(GetParam().encode(zeros), 1.5) == zeros);
}

INSTANTIATE_TEST_SUITE_P(Codings, ContentDecodingTest, ::testing::ValuesIn(codings()),
                         [](const auto& info) { return info.param.label; });

TEST(ContentDecodingStackTest, StackedCodingsDecodeLastFirst) {
  // "Content-Encoding: gzip, br": gzip applied first, then br.
  const std::string text = compressibleText(200 * 1024, 4);
  std::string encoded = testing::brotliCompress(testing::gzipCompress(text));
  auto source = std::make_unique<CountingSource>(encoded);
  EXPECT_TRUE(tern::buffer(decodingSource(std::move(source), {"gzip", "br"}, 1000))->readUtf8() ==
              text);
}

TEST(ContentDecodingStackTest, CodingNamesAreCaseInsensitive) {
  EXPECT_TRUE(isDecodableContentCoding("GZIP"));
  EXPECT_TRUE(isDecodableContentCoding("Br"));
  EXPECT_TRUE(isDecodableContentCoding("ZSTD"));
  EXPECT_TRUE(isDecodableContentCoding("deflate"));
  EXPECT_FALSE(isDecodableContentCoding("compress"));
  EXPECT_FALSE(isDecodableContentCoding("identity"));
  EXPECT_FALSE(isDecodableContentCoding("x-gzip"));
  auto source = std::make_unique<CountingSource>(testing::zstdCompress("abc"));
  EXPECT_EQ(tern::buffer(decodingSource(std::move(source), {"ZStd"}, 1000))->readUtf8(), "abc");
}

TEST(ContentDecodingStackTest, RejectsWhatItCannotDecode) {
  EXPECT_THROW(decodingSource(std::make_unique<CountingSource>("x"), {"compress"}, 1000),
               std::invalid_argument);
  EXPECT_THROW(decodingSource(std::make_unique<CountingSource>("x"), {}, 1000),
               std::invalid_argument);
  EXPECT_THROW(decodingSource(nullptr, {"gzip"}, 1000), std::invalid_argument);
}

TEST(FormatByteCountTest, UsesBinaryUnits) {
  EXPECT_EQ(formatByteCount(0), "0 B");
  EXPECT_EQ(formatByteCount(512), "512 B");
  EXPECT_EQ(formatByteCount(1024), "1 KiB");
  EXPECT_EQ(formatByteCount(1536), "1.5 KiB");
  EXPECT_EQ(formatByteCount(16 * 1024), "16 KiB");
  EXPECT_EQ(formatByteCount(16 * 1024 * 1024), "16 MiB");
  EXPECT_EQ(formatByteCount(int64_t{3} << 30), "3 GiB");
}

}  // namespace
}  // namespace tern::internal
