// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "ws/web_socket_writer.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "io/hex.h"
#include "support/io_fakes.h"
#include "tern/exceptions.h"
#include "ws/web_socket_protocol.h"
#include "ws/ws_test_util.h"

namespace tern::internal {
namespace {

using wstest::bufferOf;
using wstest::unhex;

// Mask keys 60b420bb (OkHttp's tests' first key from Random(0)), then 61b520bc, 62b620bd, ...
std::function<void(std::span<std::byte>)> countingRandom() {
  return [n = 0](std::span<std::byte> out) mutable {
    const uint8_t base[] = {0x60, 0xb4, 0x20, 0xbb};
    for (size_t i = 0; i < out.size(); ++i) out[i] = std::byte(base[i % 4] + n);
    ++n;
  };
}

class WebSocketWriterTest : public ::testing::Test {
 protected:
  WebSocketWriter writer(bool isClient, bool deflate = false, bool noContextTakeover = false,
                         int64_t minimumDeflateSize = 0) {
    WebSocketWriter::Options options;
    options.isClient = isClient;
    options.perMessageDeflate = deflate;
    options.noContextTakeover = noContextTakeover;
    options.minimumDeflateSize = minimumDeflateSize;
    options.random = countingRandom();
    return WebSocketWriter(options, data_);
  }

  // Consumes the next bytes written and checks them.
  void assertData(std::string_view hexBytes) {
    const std::string expected = unhex(hexBytes);
    ASSERT_GE(data_.size(), static_cast<int64_t>(expected.size())) << hex(data_);
    EXPECT_EQ(hex(bufferOf(data_.readUtf8(static_cast<int64_t>(expected.size())))),
              hex(bufferOf(expected)));
  }
  void assertBytes(std::string_view expected) {
    ASSERT_GE(data_.size(), static_cast<int64_t>(expected.size()));
    EXPECT_TRUE(data_.readUtf8(static_cast<int64_t>(expected.size())) == expected);
  }

  void TearDown() override { EXPECT_EQ(hex(data_), "") << "data left behind"; }

  Buffer data_;
};

std::string binaryData(size_t length) {
  std::string out;
  uint32_t x = 7;
  for (size_t i = 0; i < length; ++i) {
    x = x * 1664525 + 1013904223;
    out.push_back(static_cast<char>(x >> 24));
  }
  return out;
}

TEST_F(WebSocketWriterTest, ServerTextMessage) {
  auto w = writer(false);
  Buffer hello = bufferOf("Hello");
  w.writeMessageFrame(ws::kOpcodeText, hello);
  EXPECT_EQ(hello.size(), 0);
  assertData("810548656c6c6f");
}

TEST_F(WebSocketWriterTest, ServerCompressedTextMessage) {
  auto w = writer(false, true);
  Buffer hello = bufferOf("Hello");
  w.writeMessageFrame(ws::kOpcodeText, hello);
  assertData("c107f248cdc9c90700");
  // Context takeover: the second "Hello" refers back to the first (RFC 7692 §7.2.3.2).
  Buffer again = bufferOf("Hello");
  w.writeMessageFrame(ws::kOpcodeText, again);
  assertData("c105f200110000");
}

TEST_F(WebSocketWriterTest, NoContextTakeoverCompressesEachMessageAfresh) {
  auto w = writer(false, true, true);
  for (int i = 0; i < 2; ++i) {
    Buffer hello = bufferOf("Hello");
    w.writeMessageFrame(ws::kOpcodeText, hello);
    assertData("c107f248cdc9c90700");
  }
}

TEST_F(WebSocketWriterTest, MessagesUnderTheMinimumGoUncompressed) {
  auto w = writer(false, true, false, 6);
  Buffer hello = bufferOf("Hello");  // 5 bytes < 6.
  w.writeMessageFrame(ws::kOpcodeText, hello);
  assertData("810548656c6c6f");
  Buffer hello6 = bufferOf("Hello!");  // 6 bytes: compressed, RSV1 set.
  w.writeMessageFrame(ws::kOpcodeText, hello6);
  assertData("c108f248cdc9c9570400");
}

TEST_F(WebSocketWriterTest, ClientCompressedTextMessageIsMasked) {
  auto w = writer(true, true);
  Buffer hello = bufferOf("Hello");
  w.writeMessageFrame(ws::kOpcodeText, hello);
  // f248cdc9c90700 masked with 60b420bb.
  assertData("c18760b420bb92fced72a9b320");
}

TEST_F(WebSocketWriterTest, ClientTextMessage) {
  auto w = writer(true);
  Buffer hello = bufferOf("Hello");
  w.writeMessageFrame(ws::kOpcodeText, hello);
  assertData("818560b420bb28d14cd70f");
}

TEST_F(WebSocketWriterTest, ClientUsesAFreshKeyForEveryFrame) {
  WebSocketWriter::Options options;
  options.isClient = true;  // No random: OpenSSL's.
  WebSocketWriter w(options, data_);
  std::set<std::string> keys;
  for (int i = 0; i < 10; ++i) {
    Buffer hello = bufferOf("Hello");
    w.writeMessageFrame(ws::kOpcodeText, hello);
    w.writePing("");
  }
  for (int i = 0; i < 20; ++i) {
    const std::string header = data_.readUtf8(2);
    EXPECT_EQ(static_cast<uint8_t>(header[1]) & 0x80, 0x80);  // Masked.
    keys.insert(data_.readUtf8(4));
    data_.skip(static_cast<uint8_t>(header[1]) & 0x7f);
  }
  EXPECT_EQ(keys.size(), 20U);
}

TEST_F(WebSocketWriterTest, ServerBinaryMessage) {
  auto w = writer(false);
  const std::string payload = unhex(
      "60b420bb3851d9d47acb933dbe70399bf6c92da33af01d4fb770e98c0325f41d3ebaf8986da712c82bcd4d554bf0"
      "b54023c2");
  Buffer buffer = bufferOf(payload);
  w.writeMessageFrame(ws::kOpcodeBinary, buffer);
  assertData("8232");
  assertBytes(payload);
}

TEST_F(WebSocketWriterTest, ClientBinary) {
  auto w = writer(true);
  Buffer buffer = bufferOf(unhex(
      "60b420bb3851d9d47acb933dbe70399bf6c92da33af01d4fb770e98c0325f41d3ebaf8986da712c82bcd4d554bf0"
      "b54023c2"));
  w.writeMessageFrame(ws::kOpcodeBinary, buffer);
  assertData("82b2");
  assertData("60b420bb");
  assertData(
      "0000000058e5f96f1a7fb386dec41920967d0d185a443df4d7c4c9376391d4a65e0ed8230d1332734b796dee2b44"
      "95fb4376");
}

TEST_F(WebSocketWriterTest, EveryLengthClassUsesTheShortestEncoding) {
  // RFC 6455 §5.2: 0..125 in 7 bits, up to 65535 after 126, beyond after 127.
  struct Case {
    size_t length;
    std::string header;
  };
  for (const Case& c :
       {Case{0, "8200"}, Case{125, "827d"}, Case{126, "827e007e"}, Case{65535, "827effff"},
        Case{65536, "827f0000000000010000"}, Case{3 << 20, "827f0000000000300000"}}) {
    auto w = writer(false);
    const std::string payload = binaryData(c.length);
    Buffer buffer = bufferOf(payload);
    w.writeMessageFrame(ws::kOpcodeBinary, buffer);
    assertData(c.header);
    assertBytes(payload);
  }
}

TEST_F(WebSocketWriterTest, ClientLargeMessageIsMaskedAcrossSegments) {
  auto w = writer(true);
  const std::string payload = binaryData(100000);
  Buffer buffer = bufferOf(payload);
  w.writeMessageFrame(ws::kOpcodeBinary, buffer);
  assertData("82ff");  // Masked, 64-bit length.
  assertData("00000000000186a0");
  const std::string key = data_.readUtf8(4);
  EXPECT_EQ(hex(bufferOf(key)), "60b420bb");
  std::string masked = data_.readUtf8(100000);
  for (size_t i = 0; i < masked.size(); ++i) masked[i] ^= key[i % 4];
  EXPECT_TRUE(masked == payload);
}

TEST_F(WebSocketWriterTest, WritesReachTheSinkFlushed) {
  tern::testing::RecordingSink recording;
  auto sink = tern::buffer(static_cast<Sink&>(recording));
  WebSocketWriter::Options options;
  options.isClient = false;
  WebSocketWriter w(options, *sink);
  w.writePing("Hi");
  EXPECT_EQ(sink->buffer().size(), 0);
  EXPECT_EQ(hex(recording.data()), "89024869");
  ASSERT_FALSE(recording.log().empty());
  EXPECT_EQ(recording.log().back(), "flush()");
}

TEST_F(WebSocketWriterTest, ServerClose) {
  auto w = writer(false);
  w.writeClose(0, "");
  assertData("8800");
  auto w2 = writer(false);
  w2.writeClose(1001, "");
  assertData("880203e9");
  auto w3 = writer(false);
  w3.writeClose(1001, "Hello");
  assertData("880703e948656c6c6f");
}

TEST_F(WebSocketWriterTest, ClientClose) {
  auto w = writer(true);
  w.writeClose(0, "");
  assertData("888060b420bb");
  auto w2 = writer(true);
  w2.writeClose(1001, "");
  assertData("888260b420bb635d");
  auto w3 = writer(true);
  w3.writeClose(1001, "Hello");
  assertData("888760b420bb635d68de0cd84f");
}

TEST_F(WebSocketWriterTest, NothingIsWrittenAfterClose) {
  auto w = writer(false);
  w.writeClose(1000, "");
  assertData("880203e8");
  Buffer hello = bufferOf("Hello");
  EXPECT_THROW(w.writeMessageFrame(ws::kOpcodeText, hello), IOException);
  EXPECT_THROW(w.writePing(""), IOException);
  EXPECT_THROW(w.writePong(""), IOException);
  EXPECT_THROW(w.writeClose(1000, ""), IOException);
}

void expectInvalidArgument(const std::function<void()>& f, std::string_view message) {
  try {
    f();
    ADD_FAILURE() << "expected std::invalid_argument: " << message;
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(e.what(), message);
  }
}

TEST_F(WebSocketWriterTest, BadClosesThrowAndWriteNothing) {
  auto w = writer(true);
  expectInvalidArgument([&] { w.writeClose(98724976, "Hello"); },
                        "Code must be in range [1000,5000): 98724976");
  expectInvalidArgument([&] { w.writeClose(1005, "Hello"); },
                        "Code 1005 is reserved and may not be used.");
  expectInvalidArgument([&] { w.writeClose(1000, std::string(124, 'X')); },
                        "reason.size() > 123: 124");
  expectInvalidArgument([&] { w.writeClose(1000, "\xc0\x80"); }, "reason is not UTF-8");
  expectInvalidArgument([&] { w.writeClose(0, "Hello"); }, "a close reason needs a code");
  // Still open: a good close goes out.
  w.writeClose(1000, std::string(123, 'X'));
  assertData("88fd60b420bb");
  data_.skip(125);
}

TEST_F(WebSocketWriterTest, Pings) {
  auto server = writer(false);
  server.writePing("");
  assertData("8900");
  server.writePing("Hello");
  assertData("890548656c6c6f");
  auto client = writer(true);
  client.writePing("");
  assertData("898060b420bb");
  auto client2 = writer(true);
  client2.writePing("Hello");
  assertData("898560b420bb28d14cd70f");
}

TEST_F(WebSocketWriterTest, Pongs) {
  auto server = writer(false);
  server.writePong("");
  assertData("8a00");
  server.writePong("Hello");
  assertData("8a0548656c6c6f");
  auto client = writer(true);
  client.writePong("");
  assertData("8a8060b420bb");
  auto client2 = writer(true);
  client2.writePong("Hello");
  assertData("8a8560b420bb28d14cd70f");
}

TEST_F(WebSocketWriterTest, ControlPayloadsOver125BytesThrow) {
  auto w = writer(false);
  expectInvalidArgument([&] { w.writePing(binaryData(126)); },
                        "Payload size must be less than or equal to 125");
  expectInvalidArgument([&] { w.writePong(binaryData(1000)); },
                        "Payload size must be less than or equal to 125");
  w.writePing(std::string(125, 'p'));
  assertData("897d");
  data_.skip(125);
}

}  // namespace
}  // namespace tern::internal
