// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/request_body.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "support/body_text.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"

namespace tern {
namespace {

using testing::writtenBody;

// A temporary file that removes itself.
class TempFile {
 public:
  explicit TempFile(const std::string& content) {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            ("tern-request-body-" + std::to_string(random()) + ".bin");
    std::ofstream(path_, std::ios::binary) << content;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(RequestBodyTest, StringWithoutContentType) {
  auto body = RequestBody::create("hello");
  EXPECT_EQ(body->contentType(), std::nullopt);
  EXPECT_EQ(body->contentLength(), 5);
  EXPECT_EQ(writtenBody(*body), "hello");
  EXPECT_FALSE(body->isOneShot());
  EXPECT_FALSE(body->isDuplex());
}

TEST(RequestBodyTest, StringAddsUtf8CharsetWhenMissing) {
  auto body = RequestBody::create("h\xC3\xA9", MediaType::get("text/plain"));
  ASSERT_TRUE(body->contentType().has_value());
  EXPECT_EQ(body->contentType()->toString(), "text/plain; charset=utf-8");
  EXPECT_EQ(body->contentLength(), 3);
  EXPECT_EQ(writtenBody(*body), "h\xC3\xA9");
}

TEST(RequestBodyTest, StringIsEncodedInTheDeclaredCharset) {
  auto body = RequestBody::create("h\xC3\xA9", MediaType::get("text/plain; charset=iso-8859-1"));
  EXPECT_EQ(body->contentType()->toString(), "text/plain; charset=iso-8859-1");
  EXPECT_EQ(body->contentLength(), 2);
  EXPECT_EQ(writtenBody(*body), "h\xE9");
}

TEST(RequestBodyTest, BytesAreSentAsTheyAre) {
  std::vector<std::byte> bytes{std::byte{0}, std::byte{0xff}, std::byte{'a'}};
  auto body = RequestBody::create(bytes, MediaType::get("application/octet-stream"));
  EXPECT_EQ(body->contentType()->toString(), "application/octet-stream");
  EXPECT_EQ(body->contentLength(), 3);
  EXPECT_EQ(writtenBody(*body), std::string("\0\xff"
                                            "a",
                                            3));
}

TEST(RequestBodyTest, EmptyBody) {
  auto body = RequestBody::create(std::string());
  EXPECT_EQ(body->contentLength(), 0);
  EXPECT_EQ(writtenBody(*body), "");
}

TEST(RequestBodyTest, InMemoryBodyCanBeWrittenTwice) {
  auto body = RequestBody::create("again");
  EXPECT_EQ(writtenBody(*body), "again");
  EXPECT_EQ(writtenBody(*body), "again");
}

TEST(RequestBodyTest, FileBodyStreamsTheFile) {
  std::string content(100'000, 'x');
  content[50'000] = 'y';
  TempFile file(content);
  auto body = RequestBody::fromFile(file.path(), MediaType::get("text/plain"));
  EXPECT_EQ(body->contentLength(), 100'000);
  EXPECT_EQ(body->contentType()->toString(), "text/plain");
  EXPECT_EQ(writtenBody(*body), content);
  EXPECT_EQ(writtenBody(*body), content);  // Reopened on each write.
}

TEST(RequestBodyTest, MissingFileHasUnknownLengthAndThrowsNamingThePath) {
  auto path = std::filesystem::temp_directory_path() / "tern-no-such-file-here.bin";
  auto body = RequestBody::fromFile(path);
  EXPECT_EQ(body->contentLength(), -1);
  try {
    writtenBody(*body);
    FAIL() << "expected IOException";
  } catch (const IOException& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
  }
}

TEST(RequestBodyTest, SourceBodyIsOneShot) {
  auto source = std::make_unique<Buffer>();
  source->writeUtf8("streamed");
  auto body = RequestBody::fromSource(std::move(source), MediaType::get("text/plain"), 8);
  EXPECT_TRUE(body->isOneShot());
  EXPECT_EQ(body->contentLength(), 8);
  EXPECT_EQ(writtenBody(*body), "streamed");
  EXPECT_THROW(writtenBody(*body), std::logic_error);
}

TEST(RequestBodyTest, SourceBodyRejectsNull) {
  EXPECT_THROW(RequestBody::fromSource(nullptr, std::nullopt), std::invalid_argument);
}

// A user's streaming body that marks itself duplex, as OkHttp allows by overriding isDuplex().
class DuplexBody final : public RequestBody {
 public:
  std::optional<MediaType> contentType() const override { return std::nullopt; }
  void writeTo(BufferedSink& sink) override { sink.writeUtf8("duplex"); }
  bool isDuplex() const override { return true; }
};

TEST(RequestBodyTest, SubclassesChooseDuplexAndUnknownLength) {
  DuplexBody body;
  EXPECT_TRUE(body.isDuplex());
  EXPECT_FALSE(body.isOneShot());
  EXPECT_EQ(body.contentLength(), -1);
  EXPECT_EQ(writtenBody(body), "duplex");
}

}  // namespace
}  // namespace tern
