// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/response_body.h"

#include <gtest/gtest.h>

#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern {
namespace {

using namespace std::string_literals;

// A source over fixed bytes that counts close() calls, standing in for a connection.
class RecordingSource final : public Source {
 public:
  RecordingSource(std::string data, int* closes) : closes_(closes) { data_.writeUtf8(data); }
  int64_t read(Buffer& sink, int64_t byteCount) override {
    if (closed_) throw std::logic_error("closed");
    return data_.read(sink, byteCount);
  }
  Timeout& timeout() override { return Timeout::none(); }
  void close() override {
    closed_ = true;
    ++*closes_;
  }

 private:
  Buffer data_;
  int* closes_;
  bool closed_ = false;
};

// A source that breaks off after its data, as a dropped connection does.
class BrokenSource final : public Source {
 public:
  int64_t read(Buffer& sink, int64_t byteCount) override {
    if (!sent_) {
      sent_ = true;
      sink.writeUtf8("partial");
      return 7;
    }
    (void)byteCount;
    throw IOException("unexpected end of stream on http://example.com/...");
  }
  Timeout& timeout() override { return Timeout::none(); }
  void close() override {}

 private:
  bool sent_ = false;
};

ResponseBody recordingBody(const std::string& data, int* closes, int64_t length,
                           std::optional<MediaType> type = std::nullopt) {
  return ResponseBody(buffer(std::make_unique<RecordingSource>(data, closes)), std::move(type),
                      length);
}

TEST(ResponseBodyTest, StringReadsAllAndCloses) {
  int closes = 0;
  ResponseBody body = recordingBody("hello", &closes, 5);
  EXPECT_EQ(body.string(), "hello");
  EXPECT_EQ(closes, 1);
}

TEST(ResponseBodyTest, DestroyingAnUnreadBodyClosesIt) {
  int closes = 0;
  { ResponseBody body = recordingBody("unread", &closes, 6); }
  EXPECT_EQ(closes, 1);
}

TEST(ResponseBodyTest, CloseIsIdempotentAndMovesDoNotDoubleClose) {
  int closes = 0;
  {
    ResponseBody a = recordingBody("x", &closes, 1);
    ResponseBody b = std::move(a);
    b.close();
    b.close();
  }
  EXPECT_EQ(closes, 1);
}

TEST(ResponseBodyTest, MoveAssignmentClosesTheOverwrittenBody) {
  int closesA = 0;
  int closesB = 0;
  ResponseBody a = recordingBody("a", &closesA, 1);
  a = recordingBody("b", &closesB, 1);
  EXPECT_EQ(closesA, 1);
  EXPECT_EQ(closesB, 0);
  EXPECT_EQ(a.string(), "b");
  EXPECT_EQ(closesB, 1);
}

TEST(ResponseBodyTest, BytesAreExact) {
  ResponseBody body = ResponseBody::create(std::vector<std::byte>{std::byte{0}, std::byte{0xff}});
  std::vector<std::byte> bytes = body.bytes();
  ASSERT_EQ(bytes.size(), 2u);
  EXPECT_EQ(bytes[0], std::byte{0});
  EXPECT_EQ(bytes[1], std::byte{0xff});
}

TEST(ResponseBodyTest, ContentLengthMismatchThrows) {
  int closes = 0;
  ResponseBody body = recordingBody("short", &closes, 10);
  try {
    body.string();
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_STREQ(e.what(), "Content-Length (10) and stream length (5) disagree");
  }
  EXPECT_EQ(closes, 1);
}

TEST(ResponseBodyTest, UnknownLengthReadsToTheEnd) {
  int closes = 0;
  ResponseBody body = recordingBody(std::string(100'000, 'z'), &closes, -1);
  EXPECT_EQ(body.contentLength(), -1);
  EXPECT_EQ(body.string().size(), 100'000u);
}

TEST(ResponseBodyTest, ABrokenStreamThrowsAndStillCloses) {
  ResponseBody body(buffer(std::make_unique<BrokenSource>()), std::nullopt, -1);
  EXPECT_THROW(body.string(), IOException);
}

TEST(ResponseBodyTest, SourceStreamsIncrementally) {
  int closes = 0;
  ResponseBody body = recordingBody("line one\nline two\n", &closes, -1);
  EXPECT_EQ(body.source().readUtf8Line(), "line one");
  EXPECT_EQ(body.source().readUtf8Line(), "line two");
  EXPECT_TRUE(body.source().exhausted());
  body.close();
  EXPECT_EQ(closes, 1);
}

TEST(ResponseBodyTest, StringDecodesTheDeclaredCharset) {
  int closes = 0;
  ResponseBody body =
      recordingBody("caf\xE9", &closes, 4, MediaType::get("text/plain; charset=ISO-8859-1"));
  EXPECT_EQ(body.string(), "caf\xC3\xA9");
}

TEST(ResponseBodyTest, StringHonoursAByteOrderMarkOverTheDeclaredCharset) {
  int closes = 0;
  ResponseBody body = recordingBody("\xFE\xFF\x00h\x00i"s, &closes, 6,
                                    MediaType::get("text/plain; charset=ISO-8859-1"));
  EXPECT_EQ(body.string(), "hi");
}

TEST(ResponseBodyTest, CreateFromStringAddsCharset) {
  ResponseBody body = ResponseBody::create("h\xC3\xA9", MediaType::get("text/plain"));
  EXPECT_EQ(body.contentType()->toString(), "text/plain; charset=utf-8");
  EXPECT_EQ(body.contentLength(), 3);
  EXPECT_EQ(body.string(), "h\xC3\xA9");
}

TEST(ResponseBodyTest, CreateEncodesInDeclaredCharsetAndStringDecodesBack) {
  ResponseBody body =
      ResponseBody::create("h\xC3\xA9", MediaType::get("text/plain; charset=latin1"));
  EXPECT_EQ(body.contentLength(), 2);
  EXPECT_EQ(body.string(), "h\xC3\xA9");
}

TEST(ResponseBodyTest, NullSourceIsRejected) {
  EXPECT_THROW(ResponseBody(nullptr, std::nullopt, 0), std::invalid_argument);
}

TEST(ResponseBodyTest, ReadingAfterCloseThrows) {
  int closes = 0;
  ResponseBody body = recordingBody("data", &closes, 4);
  body.close();
  EXPECT_THROW(body.source().readUtf8(), std::logic_error);
}

}  // namespace
}  // namespace tern
