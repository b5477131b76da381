// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/multipart_body.h"

#include <gtest/gtest.h>

#include <regex>

#include "support/body_text.h"
#include "tern/buffer.h"

namespace tern {
namespace {

using testing::writtenBody;

TEST(MultipartBodyTest, OnePart) {
  auto body = MultipartBody::Builder("123").addPart(RequestBody::create("Hello, World!")).build();
  std::string expected =
      "--123\r\n"
      "\r\n"
      "Hello, World!\r\n"
      "--123--\r\n";
  EXPECT_EQ(body->boundary(), "123");
  EXPECT_EQ(body->type(), MultipartBody::mixed());
  EXPECT_EQ(body->contentType()->toString(), "multipart/mixed; boundary=123");
  EXPECT_EQ(body->size(), 1u);
  EXPECT_EQ(body->contentLength(), static_cast<int64_t>(expected.size()));
  EXPECT_EQ(writtenBody(*body), expected);
}

TEST(MultipartBodyTest, ThreeParts) {
  auto body = MultipartBody::Builder("123")
                  .addPart(RequestBody::create("Quick"))
                  .addPart(RequestBody::create("Brown"))
                  .addPart(RequestBody::create("Fox"))
                  .build();
  std::string expected =
      "--123\r\n\r\nQuick\r\n"
      "--123\r\n\r\nBrown\r\n"
      "--123\r\n\r\nFox\r\n"
      "--123--\r\n";
  EXPECT_EQ(body->contentLength(), static_cast<int64_t>(expected.size()));
  EXPECT_EQ(writtenBody(*body), expected);
}

TEST(MultipartBodyTest, FormDataWithFileAndContentTypes) {
  auto body = MultipartBody::Builder("AaB03x")
                  .setType(MultipartBody::form())
                  .addFormDataPart("submit-name", "Larry")
                  .addFormDataPart("files", "file1.txt",
                                   RequestBody::create("... contents of file1.txt ...",
                                                       MediaType::get("text/plain")))
                  .build();
  std::string expected =
      "--AaB03x\r\n"
      "Content-Disposition: form-data; name=\"submit-name\"\r\n"
      "\r\n"
      "Larry\r\n"
      "--AaB03x\r\n"
      "Content-Disposition: form-data; name=\"files\"; filename=\"file1.txt\"\r\n"
      "Content-Type: text/plain; charset=utf-8\r\n"
      "\r\n"
      "... contents of file1.txt ...\r\n"
      "--AaB03x--\r\n";
  EXPECT_EQ(body->contentType()->toString(), "multipart/form-data; boundary=AaB03x");
  EXPECT_EQ(body->contentLength(), static_cast<int64_t>(expected.size()));
  EXPECT_EQ(writtenBody(*body), expected);
}

TEST(MultipartBodyTest, FieldNamesAndFilenamesAreEscaped) {
  auto body = MultipartBody::Builder("b")
                  .addFormDataPart("field with spaces and \"quotes\"\r\n", "value",
                                   RequestBody::create("v"))
                  .addFormDataPart("a", "\xE2\x98\x83.txt", RequestBody::create("w"))
                  .build();
  const auto& disposition0 = body->part(0).headers().get("Content-Disposition");
  EXPECT_EQ(disposition0,
            "form-data; name=\"field with spaces and %22quotes%22%0D%0A\"; filename=\"value\"");
  // Non-ASCII file names are sent as UTF-8, as browsers do.
  EXPECT_EQ(body->part(1).headers().get("Content-Disposition"),
            "form-data; name=\"a\"; filename=\"\xE2\x98\x83.txt\"");
}

TEST(MultipartBodyTest, PartHeadersAreWritten) {
  auto body = MultipartBody::Builder("b")
                  .addPart(Headers::of({{"Content-ID", "<1>"}}), RequestBody::create("x"))
                  .build();
  EXPECT_EQ(writtenBody(*body), "--b\r\nContent-ID: <1>\r\n\r\nx\r\n--b--\r\n");
}

TEST(MultipartBodyTest, PartsMayNotCarryContentTypeOrLength) {
  EXPECT_THROW(MultipartBody::Part::create(Headers::of({{"Content-Type", "text/plain"}}),
                                           RequestBody::create("x")),
               std::invalid_argument);
  EXPECT_THROW(
      MultipartBody::Part::create(Headers::of({{"content-length", "1"}}), RequestBody::create("x")),
      std::invalid_argument);
  EXPECT_THROW(MultipartBody::Part::create(nullptr), std::invalid_argument);
}

TEST(MultipartBodyTest, NoPartsIsAnError) {
  EXPECT_THROW(MultipartBody::Builder().build(), std::logic_error);
}

TEST(MultipartBodyTest, TypeMustBeMultipart) {
  EXPECT_THROW(MultipartBody::Builder().setType(MediaType::get("text/plain")),
               std::invalid_argument);
  auto body = MultipartBody::Builder("b")
                  .setType(MultipartBody::alternative())
                  .addPart(RequestBody::create("x"))
                  .build();
  EXPECT_EQ(body->contentType()->toString(), "multipart/alternative; boundary=b");
}

TEST(MultipartBodyTest, DefaultBoundaryIsARandomUuid) {
  auto a = MultipartBody::Builder().addPart(RequestBody::create("x")).build();
  auto b = MultipartBody::Builder().addPart(RequestBody::create("x")).build();
  std::regex uuid("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  EXPECT_TRUE(std::regex_match(a->boundary(), uuid)) << a->boundary();
  EXPECT_NE(a->boundary(), b->boundary());
}

TEST(MultipartBodyTest, InvalidBoundariesAreRejected) {
  EXPECT_THROW(MultipartBody::Builder(""), std::invalid_argument);
  EXPECT_THROW(MultipartBody::Builder(std::string(71, 'a')), std::invalid_argument);
  EXPECT_THROW(MultipartBody::Builder("bad\r\nboundary"), std::invalid_argument);
  EXPECT_THROW(MultipartBody::Builder("trailing "), std::invalid_argument);
  EXPECT_NO_THROW(MultipartBody::Builder(std::string(70, 'a')));
}

TEST(MultipartBodyTest, BoundaryWithSpecialsIsQuotedInContentType) {
  auto body = MultipartBody::Builder("a:b=c").addPart(RequestBody::create("x")).build();
  EXPECT_EQ(body->contentType()->toString(), "multipart/mixed; boundary=\"a:b=c\"");
  EXPECT_EQ(body->contentType()->parameter("boundary"), "a:b=c");
}

// A part whose length is unknown makes the whole body's length unknown.
class UnknownLengthBody final : public RequestBody {
 public:
  std::optional<MediaType> contentType() const override { return std::nullopt; }
  void writeTo(BufferedSink& sink) override { sink.writeUtf8("stream"); }
};

TEST(MultipartBodyTest, UnknownPartLengthMakesLengthUnknown) {
  auto body = MultipartBody::Builder("b")
                  .addPart(RequestBody::create("x"))
                  .addPart(std::make_shared<UnknownLengthBody>())
                  .build();
  EXPECT_EQ(body->contentLength(), -1);
  EXPECT_EQ(writtenBody(*body), "--b\r\n\r\nx\r\n--b\r\n\r\nstream\r\n--b--\r\n");
}

TEST(MultipartBodyTest, OneShotIfAnyPartIsOneShot) {
  auto source = std::make_unique<Buffer>();
  source->writeUtf8("s");
  auto body = MultipartBody::Builder("b")
                  .addPart(RequestBody::create("x"))
                  .addPart(RequestBody::fromSource(std::move(source), std::nullopt, 1))
                  .build();
  EXPECT_TRUE(body->isOneShot());
  EXPECT_FALSE(MultipartBody::Builder("b").addPart(RequestBody::create("x")).build()->isOneShot());
}

}  // namespace
}  // namespace tern
