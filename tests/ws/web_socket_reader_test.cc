// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "ws/web_socket_reader.h"

#include <gtest/gtest.h>

#include <deque>
#include <stdexcept>
#include <string>

#include "io/hex.h"
#include "support/io_fakes.h"
#include "tern/exceptions.h"
#include "ws/web_socket_protocol.h"
#include "ws/web_socket_writer.h"
#include "ws/ws_test_util.h"

namespace tern::internal {
namespace {

using wstest::bufferOf;
using wstest::unhex;

std::string hexOf(std::string_view bytes) { return hex(bufferOf(bytes)); }

// Records each callback as a line: "text Hello", "binary <hex>", "ping <hex>", "pong <hex>",
// "close 1000 reason".
class RecordingCallback final : public WebSocketReader::FrameCallback {
 public:
  void onReadMessage(std::string text) override { events.push_back("text " + text); }
  void onReadMessage(std::vector<std::byte> bytes) override {
    events.push_back("binary " + hexOf(std::string_view(reinterpret_cast<const char*>(bytes.data()),
                                                        bytes.size())));
  }
  void onReadPing(std::string payload) override { events.push_back("ping " + hexOf(payload)); }
  void onReadPong(std::string payload) override { events.push_back("pong " + hexOf(payload)); }
  void onReadClose(int code, std::string reason) override {
    events.push_back("close " + std::to_string(code) + " " + reason);
  }

  std::string next() {
    if (events.empty()) return "<none>";
    std::string event = std::move(events.front());
    events.pop_front();
    return event;
  }

  std::deque<std::string> events;
};

class WebSocketReaderTest : public ::testing::Test {
 protected:
  WebSocketReader& reader(bool isClient, bool deflate = false, int64_t maxMessageSize = 16 << 20) {
    WebSocketReader::Options options;
    options.isClient = isClient;
    options.perMessageDeflate = deflate;
    options.maxMessageSize = maxMessageSize;
    reader_ = std::make_unique<WebSocketReader>(options, data_, callback_);
    return *reader_;
  }
  WebSocketReader& clientReader() { return reader(true); }
  WebSocketReader& clientReaderWithCompression() { return reader(true, true); }
  WebSocketReader& serverReader() { return reader(false); }
  WebSocketReader& serverReaderWithCompression() { return reader(false, true); }

  void write(std::string_view hexBytes) { data_.writeUtf8(unhex(hexBytes)); }

  // processNextFrame() must throw WebSocketProtocolException with `code` and `message`.
  void expectProtocolError(WebSocketReader& r, int code, std::string_view message) {
    try {
      r.processNextFrame();
      ADD_FAILURE() << "expected " << message;
    } catch (const WebSocketProtocolException& e) {
      EXPECT_EQ(e.closeCode(), code);
      EXPECT_EQ(std::string(e.what()), message);
    }
  }

  void TearDown() override { EXPECT_TRUE(callback_.events.empty()) << callback_.next(); }

  Buffer data_;
  RecordingCallback callback_;
  std::unique_ptr<WebSocketReader> reader_;
};

std::string binaryData(size_t length) {
  std::string out;
  uint32_t x = 1;
  for (size_t i = 0; i < length; ++i) {
    x = x * 1664525 + 1013904223;
    out.push_back(static_cast<char>(x >> 24));
  }
  return out;
}

TEST_F(WebSocketReaderTest, ControlFramesMustBeFinal) {
  write("0a00");  // Empty pong without FIN.
  expectProtocolError(clientReader(), 1002, "Control frames must be final.");
}

TEST_F(WebSocketReaderTest, ReservedFlag1IsUnsupportedWithNoCompression) {
  write("ca00");
  expectProtocolError(clientReader(), 1002, "Unexpected rsv1 flag");
  write("c10548656c6c6f");
  expectProtocolError(clientReader(), 1002, "Unexpected rsv1 flag");
}

TEST_F(WebSocketReaderTest, ReservedFlag1IsUnsupportedForControlFrames) {
  write("ca00");
  expectProtocolError(clientReaderWithCompression(), 1002, "Unexpected rsv1 flag");
}

TEST_F(WebSocketReaderTest, ReservedFlag1IsUnsupportedForContinuationFrames) {
  write("4104f248cdc9");  // A compressed message's first fragment...
  write("c003c90700");    // ...then RSV1 on its continuation.
  expectProtocolError(clientReaderWithCompression(), 1002, "Unexpected rsv1 flag");
}

TEST_F(WebSocketReaderTest, ReservedFlags2And3AreUnsupported) {
  write("aa00");
  expectProtocolError(clientReader(), 1002, "Unexpected rsv2 flag");
  data_.clear();
  write("9a00");
  expectProtocolError(clientReader(), 1002, "Unexpected rsv3 flag");
}

TEST_F(WebSocketReaderTest, ReservedOpcodesAreProtocolErrors) {
  for (int opcode : {3, 4, 5, 6, 7, 0xb, 0xc, 0xd, 0xe, 0xf}) {
    data_.clear();
    data_.writeByte(std::byte(0x80 | opcode)).writeByte(std::byte{0});
    expectProtocolError(clientReader(), 1002, "Unknown opcode: " + std::to_string(opcode));
  }
}

TEST_F(WebSocketReaderTest, ContinuationWithoutAMessage) {
  write("800548656c6c6f");
  expectProtocolError(clientReader(), 1002, "Unexpected continuation frame.");
}

TEST_F(WebSocketReaderTest, ClientSentFramesMustBeMasked) {
  write("8100");
  expectProtocolError(serverReader(), 1002, "Client-sent frames must be masked.");
}

TEST_F(WebSocketReaderTest, ServerSentFramesMustNotBeMasked) {
  write("8180");
  expectProtocolError(clientReader(), 1002, "Server-sent frames must not be masked.");
}

TEST_F(WebSocketReaderTest, ControlFramePayloadMax) {
  write("8a7e007e");
  expectProtocolError(clientReader(), 1002, "Control frame must be less than 125B.");
  data_.clear();
  write("897d");
  data_.writeUtf8(std::string(125, 'p'));
  clientReader().processNextFrame();
  EXPECT_EQ(callback_.next(), "ping " + hexOf(std::string(125, 'p')));
}

TEST_F(WebSocketReaderTest, ClientSimpleHello) {
  write("810548656c6c6f");
  clientReader().processNextFrame();
  EXPECT_EQ(callback_.next(), "text Hello");
}

TEST_F(WebSocketReaderTest, ClientWithCompressionSimpleUncompressedHello) {
  write("810548656c6c6f");
  clientReaderWithCompression().processNextFrame();
  EXPECT_EQ(callback_.next(), "text Hello");
}

TEST_F(WebSocketReaderTest, ClientWithCompressionSimpleCompressedHello) {
  write("c107f248cdc9c90700");
  write("c105f200110000");  // RFC 7692 §7.2.3.2: the window is kept across messages.
  auto& r = clientReaderWithCompression();
  r.processNextFrame();
  r.processNextFrame();
  EXPECT_EQ(callback_.next(), "text Hello");
  EXPECT_EQ(callback_.next(), "text Hello");
}

TEST_F(WebSocketReaderTest, NoContextTakeoverResetsTheWindow) {
  WebSocketReader::Options options;
  options.perMessageDeflate = true;
  options.noContextTakeover = true;
  WebSocketReader r(options, data_, callback_);
  write("c107f248cdc9c90700");
  write("c105f200110000");  // Refers to the window the peer promised not to keep.
  r.processNextFrame();
  EXPECT_EQ(callback_.next(), "text Hello");
  try {
    r.processNextFrame();
    FAIL();
  } catch (const WebSocketProtocolException& e) {
    EXPECT_EQ(e.closeCode(), 1002);
  }
}

TEST_F(WebSocketReaderTest, ServerSimpleHello) {
  write("818537fa213d7f9f4d5158");
  serverReader().processNextFrame();
  EXPECT_EQ(callback_.next(), "text Hello");
}

TEST_F(WebSocketReaderTest, ServerWithCompressionSimpleHello) {
  write("818537fa213d7f9f4d5158");
  write("c18760b420bb92fced72a9b320");
  auto& r = serverReaderWithCompression();
  r.processNextFrame();
  r.processNextFrame();
  EXPECT_EQ(callback_.next(), "text Hello");
  EXPECT_EQ(callback_.next(), "text Hello");
}

TEST_F(WebSocketReaderTest, ServerWithCompressionCompressedHelloTwoFrames) {
  write("418460b420bb92fced72");  // The first 4 bytes of compressed "Hello".
  write("80833851d9d4f156d9");    // The last 3.
  serverReaderWithCompression().processNextFrame();
  EXPECT_EQ(callback_.next(), "text Hello");
}

TEST_F(WebSocketReaderTest, ClientFramePayloadShortAndLong) {
  write("817e000548656c6c6f");
  write("817f000000000000000548656c6c6f");
  auto& r = clientReader();
  r.processNextFrame();
  r.processNextFrame();
  EXPECT_EQ(callback_.next(), "text Hello");
  EXPECT_EQ(callback_.next(), "text Hello");
}

TEST_F(WebSocketReaderTest, ClientFramePayloadTooLongThrows) {
  write("817f8000000000000000");
  expectProtocolError(clientReader(), 1002, "Frame length 0x8000000000000000 > 0x7FFFFFFFFFFFFFFF");
}

TEST_F(WebSocketReaderTest, ByteAtATimeSourceAndNoReadsPastTheFrame) {
  // A peer that trickles a byte per read: every field split across reads. The reader asks for
  // exactly the frame's bytes, so what follows stays unread in the underlying source.
  Buffer wire;
  wire.writeUtf8(unhex("818537fa213d7f9f4d5158"));  // Masked "Hello".
  wire.writeUtf8(unhex("898137fa213d7f"));          // Masked ping "H".
  wire.writeUtf8("next");
  testing::TrickleSource trickle(wire, 1);
  auto source = tern::buffer(static_cast<Source&>(trickle));
  WebSocketReader::Options options;
  options.isClient = false;
  WebSocketReader r(options, *source, callback_);
  r.processNextFrame();
  EXPECT_EQ(callback_.next(), "text Hello");
  EXPECT_EQ(wire.size() + source->buffer().size(), 11);
  r.processNextFrame();
  EXPECT_EQ(callback_.next(), "ping 48");
  EXPECT_EQ(source->buffer().size(), 0);
  EXPECT_EQ(wire.readUtf8(), "next");
}

TEST_F(WebSocketReaderTest, ClientTwoFrameHello) {
  write("010348656c");
  write("80026c6f");
  clientReader().processNextFrame();
  EXPECT_EQ(callback_.next(), "text Hello");
}

TEST_F(WebSocketReaderTest, ClientWithCompressionTwoFrameCompressedHello) {
  write("4104f248cdc9");
  write("8003c90700");
  clientReaderWithCompression().processNextFrame();
  EXPECT_EQ(callback_.next(), "text Hello");
}

TEST_F(WebSocketReaderTest, ControlFramesBetweenFragmentsAreDeliveredAsTheyCome) {
  write("010348656c");  // Hel
  write("8a00");        // Pong
  write("890161");      // Ping "a"
  write("8a00");        // Pong
  write("80026c6f");    // lo
  clientReader().processNextFrame();
  EXPECT_EQ(callback_.next(), "pong ");
  EXPECT_EQ(callback_.next(), "ping 61");
  EXPECT_EQ(callback_.next(), "pong ");
  EXPECT_EQ(callback_.next(), "text Hello");
}

TEST_F(WebSocketReaderTest, ControlFramesBetweenCompressedFragments) {
  write("4104f248cdc9");
  write("8a00");
  write("8a00");
  write("8003c90700");
  clientReaderWithCompression().processNextFrame();
  EXPECT_EQ(callback_.next(), "pong ");
  EXPECT_EQ(callback_.next(), "pong ");
  EXPECT_EQ(callback_.next(), "text Hello");
}

TEST_F(WebSocketReaderTest, CloseBetweenFragmentsDropsTheMessage) {
  write("010348656c");
  write("880203e8");
  write("80026c6f");
  auto& r = clientReader();
  r.processNextFrame();
  EXPECT_EQ(callback_.next(), "close 1000 ");
  EXPECT_EQ(data_.size(), 4);  // The rest is not read.
  EXPECT_THROW(r.processNextFrame(), std::logic_error);
}

TEST_F(WebSocketReaderTest, IncompleteFramesThrowEof) {
  write("810548656c");  // Length 5, "Hel".
  EXPECT_THROW(clientReader().processNextFrame(), EOFException);
  data_.clear();
  write("8a0548656c");
  EXPECT_THROW(clientReader().processNextFrame(), EOFException);
  data_.clear();
  write("818537fa213d7f9f4d");
  EXPECT_THROW(serverReader().processNextFrame(), EOFException);
  data_.clear();
  write("8a8537fa213d7f9f4d");
  EXPECT_THROW(serverReader().processNextFrame(), EOFException);
  data_.clear();
  write("010348656c");  // A fragment, then the stream ends.
  EXPECT_THROW(clientReader().processNextFrame(), EOFException);
  data_.clear();
  write("81");
  EXPECT_THROW(clientReader().processNextFrame(), EOFException);
}

TEST_F(WebSocketReaderTest, UncompressedMessageWithCompressedFlagFails) {
  write("c10548656c6c6f");
  try {
    clientReaderWithCompression().processNextFrame();
    FAIL();
  } catch (const WebSocketProtocolException& e) {
    EXPECT_EQ(e.closeCode(), 1002);
  }
}

TEST_F(WebSocketReaderTest, ClientSimpleBinary) {
  const std::string bytes = binaryData(256);
  write("827e0100");
  data_.writeUtf8(bytes);
  clientReader().processNextFrame();
  EXPECT_EQ(callback_.next(), "binary " + hexOf(bytes));
}

TEST_F(WebSocketReaderTest, ClientTwoFrameBinary) {
  const std::string bytes = binaryData(200);
  write("0264");
  data_.writeUtf8(bytes.substr(0, 100));
  write("8064");
  data_.writeUtf8(bytes.substr(100));
  clientReader().processNextFrame();
  EXPECT_EQ(callback_.next(), "binary " + hexOf(bytes));
}

TEST_F(WebSocketReaderTest, TwoFrameNotContinuation) {
  const std::string bytes = binaryData(200);
  write("0264");
  data_.writeUtf8(bytes.substr(0, 100));
  write("8264");
  data_.writeUtf8(bytes.substr(100));
  expectProtocolError(clientReader(), 1002, "Expected continuation opcode. Got: 2");
}

TEST_F(WebSocketReaderTest, Pings) {
  write("8900");
  write("890548656c6c6f");
  auto& r = clientReader();
  r.processNextFrame();
  r.processNextFrame();
  EXPECT_EQ(callback_.next(), "ping ");
  EXPECT_EQ(callback_.next(), "ping 48656c6c6f");
}

TEST_F(WebSocketReaderTest, EmptyCloseIs1005) {
  write("8800");
  clientReader().processNextFrame();
  EXPECT_EQ(callback_.next(), "close 1005 ");
}

TEST_F(WebSocketReaderTest, CloseLengthOfOneThrows) {
  write("880100");
  expectProtocolError(clientReader(), 1002, "Malformed close payload length of 1.");
}

TEST_F(WebSocketReaderTest, CloseCallsCallbackAndReadsNothingMore) {
  write("880703e848656c6c6f");
  auto& r = clientReader();
  r.processNextFrame();  // The stream ends right after: no further read is attempted.
  EXPECT_EQ(callback_.next(), "close 1000 Hello");
  EXPECT_THROW(r.processNextFrame(), std::logic_error);
}

TEST_F(WebSocketReaderTest, CloseOutOfRangeThrows) {
  write("88020001");
  expectProtocolError(clientReader(), 1002, "Code must be in range [1000,5000): 1");
  write("88021388");
  expectProtocolError(clientReader(), 1002, "Code must be in range [1000,5000): 5000");
}

TEST_F(WebSocketReaderTest, CloseReservedCodesThrow) {
  int count = 0;
  for (int code = 1000; code < 5000; ++code) {
    if (!ws::closeCodeExceptionMessage(code)) continue;
    data_.clear();
    data_.writeByte(std::byte{0x88}).writeByte(std::byte{2}).writeShort(code);
    expectProtocolError(clientReader(), 1002,
                        "Code " + std::to_string(code) + " is reserved and may not be used.");
    ++count;
  }
  EXPECT_EQ(count, 1988);
}

TEST_F(WebSocketReaderTest, CloseReasonMustBeUtf8) {
  write("880403e8c328");
  expectProtocolError(clientReader(), 1007, "Close reason is not UTF-8");
}

TEST_F(WebSocketReaderTest, AfterAnErrorTheReaderIsDone) {
  write("8180");
  write("810548656c6c6f");
  auto& r = clientReader();
  EXPECT_THROW(r.processNextFrame(), WebSocketProtocolException);
  EXPECT_THROW(r.processNextFrame(), std::logic_error);
}

TEST_F(WebSocketReaderTest, TextMustBeUtf8) {
  write("8102c328");
  expectProtocolError(clientReader(), 1007, "Text message is not UTF-8");
  data_.clear();
  write("8103eda080");  // A surrogate.
  expectProtocolError(clientReader(), 1007, "Text message is not UTF-8");
  data_.clear();
  write("8102f09f");  // Truncated at the end of the message.
  expectProtocolError(clientReader(), 1007, "Text message is not UTF-8");
}

TEST_F(WebSocketReaderTest, BinaryNeedNotBeUtf8) {
  write("8202c328");
  clientReader().processNextFrame();
  EXPECT_EQ(callback_.next(), "binary c328");
}

TEST_F(WebSocketReaderTest, CodePointMaySpanFragments) {
  write("0102f09f");  // U+1F600 split 2 + 2, with a ping between.
  write("8900");
  write("80029880");
  clientReader().processNextFrame();
  EXPECT_EQ(callback_.next(), "ping ");
  EXPECT_EQ(callback_.next(), "text \xf0\x9f\x98\x80");
}

TEST_F(WebSocketReaderTest, BadUtf8FailsAtItsFragmentBeforeTheRestArrives) {
  write("0102eda0");  // The start of a surrogate; the rest of the message never comes.
  write("0002");      // A continuation header whose payload would complete it.
  expectProtocolError(clientReader(), 1007, "Text message is not UTF-8");
}

TEST_F(WebSocketReaderTest, CompressedTextMustBeUtf8) {
  Buffer payload = bufferOf("\xc3\x28");
  WebSocketWriter::Options options;
  options.isClient = false;
  options.perMessageDeflate = true;
  options.minimumDeflateSize = 0;
  WebSocketWriter writer(options, data_);
  writer.writeMessageFrame(ws::kOpcodeText, payload);  // The writer leaves UTF-8 to its caller.
  expectProtocolError(clientReaderWithCompression(), 1007, "Text message is not UTF-8");
}

TEST_F(WebSocketReaderTest, MessageSizeIsCheckedFromTheHeaderBeforeThePayload) {
  write("827f0000000100000000");  // A 4 GiB binary frame, and no payload at all.
  expectProtocolError(reader(true, false, 1000), 1009,
                      "message too big: 0 + 4294967296 bytes > 1000");
}

TEST_F(WebSocketReaderTest, MessageSizeIsTheSumOfFragments) {
  write("027e0258");  // 600 bytes, not final.
  data_.writeUtf8(std::string(600, 'a'));
  write("807e0258");  // 600 more: 1200 > 1000. Its payload is not there, and is not needed.
  expectProtocolError(reader(true, false, 1000), 1009, "message too big: 600 + 600 bytes > 1000");
}

TEST_F(WebSocketReaderTest, MessageOfExactlyTheMaximumIsAccepted) {
  write("027e01f4");
  data_.writeUtf8(std::string(500, 'a'));
  write("807e01f4");
  data_.writeUtf8(std::string(500, 'a'));
  reader(true, false, 1000).processNextFrame();
  EXPECT_EQ(callback_.next(), "binary " + hexOf(std::string(1000, 'a')));
}

TEST_F(WebSocketReaderTest, InflatedSizeIsLimited) {
  // 2000 'a's compress to a few bytes: small on the wire, over the limit inflated.
  Buffer payload = bufferOf(std::string(2000, 'a'));
  WebSocketWriter::Options options;
  options.isClient = false;
  options.perMessageDeflate = true;
  options.minimumDeflateSize = 0;
  WebSocketWriter writer(options, data_);
  writer.writeMessageFrame(ws::kOpcodeBinary, payload);
  EXPECT_LT(data_.size(), 100);
  expectProtocolError(reader(true, true, 1999), 1009, "message inflated past 1999 bytes");
}

TEST_F(WebSocketReaderTest, DecompressionBombFailsWith1009) {
  // 1 GiB of zeros in about a megabyte: within the 16 MiB limit on the wire, far over it inflated.
  const std::string bomb = wstest::deflatedZeros(int64_t{1} << 30);
  data_.writeByte(std::byte{0xc2})
      .writeByte(std::byte{127})
      .writeLong(static_cast<int64_t>(bomb.size()));
  data_.writeUtf8(bomb);
  expectProtocolError(clientReaderWithCompression(), 1009, "message inflated past 16777216 bytes");
}

// Round trips: what a writer writes, the peer's reader reads back, for every length class,
// text and binary, compressed or not, in both directions.
struct RoundTripCase {
  bool clientWrites;
  bool deflate;
  bool noContextTakeover;
};

class WebSocketRoundTripTest : public ::testing::TestWithParam<RoundTripCase> {};

TEST_P(WebSocketRoundTripTest, EveryLengthClass) {
  const RoundTripCase c = GetParam();
  Buffer wire;
  WebSocketWriter::Options writerOptions;
  writerOptions.isClient = c.clientWrites;
  writerOptions.perMessageDeflate = c.deflate;
  writerOptions.noContextTakeover = c.noContextTakeover;
  writerOptions.minimumDeflateSize = 126;  // Some lengths below it go uncompressed.
  WebSocketWriter writer(writerOptions, wire);
  WebSocketReader::Options readerOptions;
  readerOptions.isClient = !c.clientWrites;
  readerOptions.perMessageDeflate = c.deflate;
  readerOptions.noContextTakeover = c.noContextTakeover;
  RecordingCallback callback;
  WebSocketReader reader(readerOptions, wire, callback);

  std::vector<std::string> expected;
  for (size_t length : {0, 1, 125, 126, 127, 65535, 65536, 65537, 3 << 20}) {
    for (int opcode : {ws::kOpcodeText, ws::kOpcodeBinary}) {
      std::string message;
      if (opcode == ws::kOpcodeText) {
        for (size_t i = 0; i < length; ++i) message.push_back(static_cast<char>('a' + i % 26));
      } else {
        message = binaryData(length);
      }
      Buffer buffer = bufferOf(message);
      writer.writeMessageFrame(opcode, buffer);
      // Compressed or not, as the size says.
      const auto b0 = std::to_integer<uint8_t>(wire.getByte(0));
      EXPECT_EQ((b0 & 0x40) != 0, c.deflate && length >= 126) << length;
      reader.processNextFrame();
      expected.push_back(opcode == ws::kOpcodeText ? "text " + message
                                                   : "binary " + hexOf(message));
      ASSERT_EQ(callback.events.size(), 1U);
      EXPECT_TRUE(callback.next() == expected.back()) << length << " " << opcode;
      EXPECT_EQ(wire.size(), 0);
    }
  }
  writer.writePing("ping");
  writer.writePong("pong");
  writer.writeClose(1001, "going");
  reader.processNextFrame();
  reader.processNextFrame();
  reader.processNextFrame();
  EXPECT_EQ(callback.next(), "ping 70696e67");
  EXPECT_EQ(callback.next(), "pong 706f6e67");
  EXPECT_EQ(callback.next(), "close 1001 going");
}

INSTANTIATE_TEST_SUITE_P(
    All, WebSocketRoundTripTest,
    ::testing::Values(RoundTripCase{true, false, false}, RoundTripCase{false, false, false},
                      RoundTripCase{true, true, false}, RoundTripCase{false, true, false},
                      RoundTripCase{true, true, true}, RoundTripCase{false, true, true}),
    [](const auto& info) {
      return std::string(info.param.clientWrites ? "Client" : "Server") +
             (info.param.deflate ? "Deflate" : "Plain") +
             (info.param.noContextTakeover ? "NoContextTakeover" : "");
    });

}  // namespace
}  // namespace tern::internal
