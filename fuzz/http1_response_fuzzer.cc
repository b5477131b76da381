// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// Feeds arbitrary bytes as a server's response to Http1ExchangeCodec: status line, headers,
// interim responses, the body in whichever framing the headers choose, trailers, and, when the
// codec says the connection may be reused, the next response on the same stream. The first byte
// picks the request method, 100-continue, gunzipping, and how many bytes each socket read
// returns. Beyond "no crash, no hang, no out-of-bounds read" it checks that IOException is the
// only failure and that a fixed-length body yields exactly its length.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "http/exchange_codec.h"
#include "http1/http1_exchange_codec.h"
#include "io/gzip_source.h"
#include "tern/buffer.h"
#include "tern/exceptions.h"
#include "tern/request.h"
#include "tern/response.h"

namespace {

using namespace tern;

void check(bool condition) {
  if (!condition) std::abort();
}

class NullCarrier final : public internal::ExchangeCodec::Carrier {
 public:
  void noNewExchanges() override { noNewExchanges_ = true; }
  void cancel() override {}
  bool noNewExchanges_ = false;
};

// A socket that returns at most `maxRead` bytes per read, so parsers meet split input.
class ChunkedSocket final : public Source {
 public:
  ChunkedSocket(Buffer& data, int64_t maxRead) : data_(data), maxRead_(maxRead) {}
  int64_t read(Buffer& sink, int64_t byteCount) override {
    return data_.read(sink, std::min(byteCount, maxRead_));
  }
  Timeout& timeout() override { return timeout_; }
  void close() override {}

 private:
  Buffer& data_;
  int64_t maxRead_;
  Timeout timeout_;
};

// Runs one exchange; returns true if the connection may carry another.
bool exchange(NullCarrier& carrier, BufferedSource& socket, const Request& request,
              bool expectContinue, bool gunzip, int64_t readSize) {
  Buffer written;
  internal::Http1ExchangeCodec codec(carrier, socket, written);
  try {
    codec.writeRequestHeaders(request);
    codec.flushRequest();
    std::optional<Response::Builder> builder = codec.readResponseHeaders(expectContinue);
    if (!builder) builder = codec.readResponseHeaders(false);  // After 100 Continue.
    Response response = builder->request(request).build();
    for (int i = 0; i < 1000 && internal::isInformational(response.code()); ++i) {
      response = codec.readResponseHeaders(false)->request(request).build();
    }
    if (internal::isInformational(response.code())) return false;

    int64_t length = codec.reportedContentLength(response);
    std::unique_ptr<Source> body = codec.openResponseBodySource(response);
    std::unique_ptr<Source> decoded;
    Source* reader = body.get();
    if (gunzip) {
      decoded = std::make_unique<internal::GzipSource>(*body);
      reader = decoded.get();
    }
    Buffer sink;
    int64_t total = 0;
    for (int64_t n; (n = reader->read(sink, readSize)) != -1;) {
      check(n >= 0 && n <= readSize);
      total += n;
      sink.clear();
    }
    check(codec.isResponseComplete());
    if (!gunzip && length != -1) check(total == length);
    codec.trailers();  // Must not throw once the body is done.
    reader->close();
  } catch (const IOException&) {
    return false;  // Expected for malformed input.
  }
  return !carrier.noNewExchanges_ && codec.isResponseComplete();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  uint8_t options = data[0];
  bool head = (options & 1) != 0;
  bool expectContinue = (options & 2) != 0;
  bool gunzip = (options & 4) != 0;
  int64_t readSize = int64_t{1} << ((options >> 3) & 0x0f);  // 1 .. 32768 bytes.

  Buffer input;
  input.write(data + 1, size - 1);
  ChunkedSocket socket(input, readSize);
  std::unique_ptr<BufferedSource> buffered = tern::buffer(socket);

  Request::Builder builder;
  builder.url("http://example.com/");
  if (head) builder.head();
  if (expectContinue) builder.header("Expect", "100-continue");
  Request request = builder.build();

  NullCarrier carrier;
  for (int i = 0; i < 8; ++i) {
    if (!exchange(carrier, *buffered, request, expectContinue, gunzip, readSize)) break;
  }
  return 0;
}
