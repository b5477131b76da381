// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "io/gzip_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <random>
#include <string>

#include "io/gzip_sink.h"
#include "io/inflater_source.h"
#include "support/io_fakes.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern::internal {
namespace {

using ::testing::HasSubstr;

// `text` compressed by zlib itself (not our GzipSink), in gzip, zlib or raw deflate format.
std::string zlibCompress(std::string_view text, int windowBits) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(deflateBound(&z, text.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string gzip(std::string_view text) { return zlibCompress(text, 16 + MAX_WBITS); }

std::string gunzip(std::string_view compressed) {
  Buffer source;
  source.writeUtf8(compressed);
  GzipSource gzipSource(source);
  return tern::buffer(gzipSource)->readUtf8();
}

// The IOException message gunzip() throws for `compressed`.
std::string gunzipFailure(std::string_view compressed) {
  try {
    gunzip(compressed);
  } catch (const IOException& e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception";
  return "";
}

std::string randomText(size_t size, unsigned seed) {
  std::mt19937 random(seed);
  std::string result(size, '\0');
  for (char& c : result) {
    c = static_cast<char>('a' + random() % 8);  // Compressible.
  }
  return result;
}

TEST(GzipSourceTest, DecompressesWhatZlibCompressed) {
  std::string text = randomText(100000, 1);
  EXPECT_TRUE(gunzip(gzip(text)) == text);
  EXPECT_EQ(gunzip(gzip("It's a UNIX system! I know this!")), "It's a UNIX system! I know this!");
}

TEST(GzipSourceTest, DecompressesAnEmptyBody) { EXPECT_EQ(gunzip(gzip("")), ""); }

TEST(GzipSourceTest, RoundTripsThroughGzipSink) {
  for (size_t size : {size_t{0}, size_t{1}, size_t{8191}, size_t{8193}, size_t{250000}}) {
    std::string text = randomText(size, static_cast<unsigned>(size));
    Buffer compressed;
    GzipSink sink(compressed);
    Buffer plain;
    plain.writeUtf8(text);
    sink.write(plain, plain.size());
    sink.close();
    EXPECT_TRUE(gunzip(compressed.readUtf8()) == text) << size;
  }
}

TEST(GzipSourceTest, DecompressesWhenTheCompressedBytesArriveOneAtATime) {
  std::string text = randomText(5000, 2);
  Buffer compressed;
  compressed.writeUtf8(gzip(text));
  testing::TrickleSource trickle(compressed, 1);
  GzipSource source(trickle);
  EXPECT_TRUE(tern::buffer(source)->readUtf8() == text);
}

TEST(GzipSourceTest, ReadsOptionalHeaderFieldsAndChecksTheHeaderCrc) {
  // FLG = FHCRC | FEXTRA | FNAME | FCOMMENT, built by hand with zlib's raw deflate as the body.
  std::string header("\x1f\x8b\x08\x1e\0\0\0\0\0\x03", 10);
  header += std::string("\x04\0", 2) + "abcd";  // FEXTRA: XLEN = 4.
  header += std::string("file.txt\0", 9);       // FNAME
  header += std::string("a comment\0", 10);     // FCOMMENT
  uLong crc = crc32(0, reinterpret_cast<const Bytef*>(header.data()), header.size());
  header += static_cast<char>(crc & 0xff);
  header += static_cast<char>((crc >> 8) & 0xff);
  std::string text = "hello, header";
  uLong dataCrc = crc32(0, reinterpret_cast<const Bytef*>(text.data()), text.size());
  std::string trailer;
  for (uLong v : {dataCrc, static_cast<uLong>(text.size())}) {
    for (int i = 0; i < 4; ++i) {
      trailer += static_cast<char>((v >> (8 * i)) & 0xff);
    }
  }
  std::string member = header + zlibCompress(text, -MAX_WBITS) + trailer;
  EXPECT_EQ(gunzip(member), text);

  std::string corrupt = member;
  corrupt[10 + 2 + 4 + 9 + 10] ^= 1;  // Flip a bit of the header CRC.
  EXPECT_THAT(gunzipFailure(corrupt), HasSubstr("FHCRC: actual 0x"));
}

TEST(GzipSourceTest, RejectsDataThatIsNotGzip) {
  EXPECT_EQ(gunzipFailure("<html>not compressed at all</html>"),
            "ID1ID2: actual 0x3c68 != expected 0x1f8b");
}

TEST(GzipSourceTest, RejectsAnotherCompressionMethod) {
  std::string data = gzip("abc");
  data[2] = 7;
  EXPECT_EQ(gunzipFailure(data), "CM: actual 0x07 != expected 0x08");
}

TEST(GzipSourceTest, RejectsACorruptCrc) {
  std::string data = gzip("hello world");
  data[data.size() - 8] ^= 0x55;
  EXPECT_THAT(gunzipFailure(data), HasSubstr("CRC: actual 0x"));
}

TEST(GzipSourceTest, RejectsAWrongLength) {
  std::string data = gzip("hello world");
  data[data.size() - 4] ^= 0x01;
  EXPECT_EQ(gunzipFailure(data), "ISIZE: actual 0x0000000b != expected 0x0000000a");
}

TEST(GzipSourceTest, RejectsCorruptDeflateData) {
  std::string data = gzip(randomText(1000, 3));
  data[12] = static_cast<char>(0xff);  // Block type 3 is reserved.
  data[10] = static_cast<char>(0xff);
  EXPECT_THAT(gunzipFailure(data), HasSubstr("Inflater failed"));
}

TEST(GzipSourceTest, TruncatedStreamsAreEofExceptions) {
  std::string data = gzip(randomText(1000, 4));
  for (size_t length :
       {size_t{0}, size_t{5}, size_t{10}, data.size() / 2, data.size() - 8, data.size() - 1}) {
    EXPECT_THROW(gunzip(data.substr(0, length)), EOFException) << length;
  }
}

TEST(GzipSourceTest, RejectsTrailingGarbage) {
  EXPECT_EQ(gunzipFailure(gzip("abc") + "garbage"), "gzip finished without exhausting source");
}

TEST(GzipSourceTest, ReadsConcatenatedMembersAsOneStream) {
  EXPECT_EQ(gunzip(gzip("first ") + gzip("") + gzip("second")), "first second");
}

// A Source over a Buffer that notes how large the reader's buffer ever grew.
class BufferWatchingSource final : public Source {
 public:
  explicit BufferWatchingSource(Buffer& data) : data_(data) {}
  int64_t read(Buffer& sink, int64_t byteCount) override {
    maxSinkSize_ = std::max(maxSinkSize_, sink.size());
    return data_.read(sink, std::min<int64_t>(byteCount, 8192));
  }
  Timeout& timeout() override { return Timeout::none(); }
  void close() override {}
  int64_t maxSinkSize() const { return maxSinkSize_; }

 private:
  Buffer& data_;
  int64_t maxSinkSize_ = 0;
};

TEST(GzipSourceTest, HugeFileNameIsSkippedAsItStreamsIn) {
  // FNAME is zero-terminated with no length limit: 4 MiB of it must not be buffered whole.
  std::string text = "payload";
  std::string member = gzip(text);
  std::string header = member.substr(0, 10);
  header[3] = 0x08;  // FNAME
  Buffer data;
  data.writeUtf8(header);
  data.writeUtf8(std::string(size_t{4} * 1024 * 1024, 'n'));
  data.writeByte(std::byte{0});
  data.writeUtf8(std::string_view(member).substr(10));
  BufferWatchingSource watching(data);
  GzipSource source(watching);
  EXPECT_EQ(tern::buffer(source)->readUtf8(), text);
  EXPECT_LT(watching.maxSinkSize(), 64 * 1024);
}

TEST(GzipSourceTest, ReadingZeroBytesReturnsZero) {
  Buffer source;
  source.writeUtf8(gzip("abc"));
  GzipSource gzipSource(source);
  Buffer sink;
  EXPECT_EQ(gzipSource.read(sink, 0), 0);
  EXPECT_THROW(gzipSource.read(sink, -1), std::invalid_argument);
}

TEST(GzipSinkTest, FlushMakesEverythingWrittenSoFarDecompressible) {
  Buffer compressed;
  GzipSink sink(compressed);
  Buffer plain;
  plain.writeUtf8("partial data");
  sink.write(plain, plain.size());
  sink.flush();
  // zlib can inflate what was flushed even though the stream is not finished.
  std::string bytes = compressed.readUtf8();
  z_stream z{};
  ASSERT_EQ(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
  char out[64];
  z.next_in = reinterpret_cast<Bytef*>(bytes.data());
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out);
  z.avail_out = sizeof(out);
  EXPECT_EQ(inflate(&z, Z_SYNC_FLUSH), Z_OK);
  EXPECT_EQ(std::string(out, sizeof(out) - z.avail_out), "partial data");
  inflateEnd(&z);
  sink.close();
}

TEST(GzipSinkTest, CloseWritesTheTrailerAndClosesTheSink) {
  testing::RecordingSink recording;
  {
    GzipSink sink(recording);
    Buffer plain;
    plain.writeUtf8("abc");
    sink.write(plain, 3);
    sink.close();
    sink.close();  // Harmless.
    EXPECT_THROW(sink.write(plain, 0), std::logic_error);
  }
  EXPECT_EQ(recording.log().back(), "close()");
  EXPECT_EQ(gunzip(recording.data().readUtf8()), "abc");
}

TEST(GzipSinkTest, OutputIsWhatZlibReads) {
  std::string text = randomText(30000, 5);
  Buffer compressed;
  GzipSink sink(compressed, 9);
  Buffer plain;
  plain.writeUtf8(text);
  sink.write(plain, plain.size());
  sink.close();
  std::string bytes = compressed.readUtf8();
  EXPECT_LT(bytes.size(), text.size() / 2);
  std::string out(text.size() + 1, '\0');
  z_stream z{};
  ASSERT_EQ(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(bytes.data());
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  inflateEnd(&z);
  EXPECT_TRUE(out == text);
}

TEST(InflaterSourceTest, InflatesRawAndZlibDeflate) {
  std::string text = randomText(20000, 6);
  for (auto [format, windowBits] : {std::pair{InflaterSource::Format::kRaw, -MAX_WBITS},
                                    std::pair{InflaterSource::Format::kZlib, MAX_WBITS}}) {
    Buffer source;
    source.writeUtf8(zlibCompress(text, windowBits));
    source.writeUtf8("after");
    InflaterSource inflater(source, format);
    Buffer sink;
    while (inflater.read(sink, 1000) != -1) {
    }
    EXPECT_TRUE(sink.readUtf8() == text);
    EXPECT_TRUE(inflater.finished());
    EXPECT_EQ(source.readUtf8(), "after");  // Only the compressed bytes were consumed.
  }
}

TEST(InflaterSourceTest, TruncatedInputIsAnEofException) {
  Buffer source;
  std::string data = zlibCompress(randomText(1000, 7), -MAX_WBITS);
  source.writeUtf8(data.substr(0, data.size() / 2));
  InflaterSource inflater(source, InflaterSource::Format::kRaw);
  Buffer sink;
  EXPECT_THROW(while (inflater.read(sink, 8192) != -1){}, EOFException);
}

}  // namespace
}  // namespace tern::internal
