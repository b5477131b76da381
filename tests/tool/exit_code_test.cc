// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "exit_code.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "support/http2_peer.h"
#include "support/raw_peer.h"
#include "temp_dir.h"
#include "tern/client.h"
#include "tern/exceptions.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tool_process.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;
using namespace tern::testing;  // Http2Peer, RawPeer and HTTP/2 frames.

FailureContext context() {
  FailureContext context;
  context.host = "example.com";
  context.port = 8080;
  context.elapsed = 1234ms;
  context.bytesReceived = 42;
  return context;
}

template <typename E>
TransferError classify(const E& exception) {
  return classifyFailure(std::make_exception_ptr(exception), context());
}

TEST(ExitCodeTest, UnknownHostIsSix) {
  TransferError error = classify(UnknownHostException("example.com: Name or service not known"));
  EXPECT_EQ(error.exitCode, 6);
  EXPECT_EQ(error.message, "Could not resolve host: example.com");
}

TEST(ExitCodeTest, ConnectFailureIsSeven) {
  TransferError error = classify(ConnectException("Failed to connect to example.com/1.2.3.4:8080"));
  EXPECT_EQ(error.exitCode, 7);
  EXPECT_EQ(error.message,
            "Failed to connect to example.com port 8080 after 1234 ms: Couldn't connect to server");
}

TEST(ExitCodeTest, ConnectTimeoutIsTwentyEight) {
  TransferError error =
      classify(SocketTimeoutException("Connect timed out after 500 ms: /10.0.0.1:80"));
  EXPECT_EQ(error.exitCode, 28);
  EXPECT_EQ(error.message,
            "Failed to connect to example.com port 8080 after 1234 ms: Timeout was reached");
}

TEST(ExitCodeTest, ReadTimeoutAndCallTimeoutAreTwentyEight) {
  TransferError read =
      classify(SocketTimeoutException("Read timed out after 500 ms: connect.example/1.2.3.4:80"));
  EXPECT_EQ(read.exitCode, 28);
  EXPECT_EQ(read.message, "Operation timed out after 1234 milliseconds with 42 bytes received");
  TransferError call = classify(InterruptedIOException("timeout"));
  EXPECT_EQ(call.exitCode, 28);
  EXPECT_EQ(call.message, "Operation timed out after 1234 milliseconds with 42 bytes received");
}

TEST(ExitCodeTest, TooManyRedirectsIsFortySeven) {
  TransferError ours = classify(TooManyRedirectsException(3));
  EXPECT_EQ(ours.exitCode, 47);
  EXPECT_EQ(ours.message, "Maximum (3) redirects followed");
  // The client's own limit, in OkHttp's words.
  TransferError clients = classify(ProtocolException("Too many follow-up requests: 21"));
  EXPECT_EQ(clients.exitCode, 47);
  EXPECT_EQ(clients.message, "Maximum (20) redirects followed");
}

TEST(ExitCodeTest, ToolExceptionKeepsItsCodeAndMessage) {
  TransferError error = classify(ToolException(23, "Failure writing output to destination"));
  EXPECT_EQ(error.exitCode, 23);
  EXPECT_EQ(error.message, "Failure writing output to destination");
}

TEST(ExitCodeTest, TlsFailures) {
  EXPECT_EQ(classify(SSLHandshakeException("handshake failed")).exitCode, 35);
  EXPECT_EQ(classify(SSLPeerUnverifiedException("hostname mismatch")).exitCode, 60);
  // A reset during the handshake is the socket's IOException; curl counts it as the handshake's.
  TransferError reset =
      classify(IOException("TLS handshake with a (1.2.3.4:443) failed: Connection reset by peer"));
  EXPECT_EQ(reset.exitCode, 35);
  EXPECT_EQ(reset.message,
            "SSL connect error: TLS handshake with a (1.2.3.4:443) failed: Connection reset by "
            "peer");
}

// A write that failed, as curl 7.88 reports the same failure: 55 ("Send failure") or 56. Over
// HTTP/1.1 curl's concurrent read sees a reset first, and only a broken pipe (the server had
// closed its side) fails its send (exit_code.cc's sendFailure() says why).
TEST(ExitCodeTest, SendFailuresAsCurl) {
  struct Row {
    int errorNumber;
    std::optional<Protocol> protocol;
    int exitCode;
  };
  const Row rows[] = {
      {EPIPE, Protocol::HTTP_1_1, 55},
      {ECONNRESET, Protocol::HTTP_1_1, 56},
      {EPIPE, std::nullopt, 55},
      {ECONNRESET, std::nullopt, 56},
      {EPIPE, Protocol::HTTP_2, 55},
      {ECONNRESET, Protocol::HTTP_2, 55},
      {ECONNRESET, Protocol::H2_PRIOR_KNOWLEDGE, 55},
      {ECONNRESET, Protocol::HTTP_3, 55},
  };
  for (const Row& row : rows) {
    FailureContext c = context();
    c.protocol = row.protocol;
    TransferError error = classifyFailure(
        std::make_exception_ptr(SocketWriteException("Broken pipe: a:1", row.errorNumber)), c);
    EXPECT_EQ(error.exitCode, row.exitCode)
        << row.errorNumber << " " << (row.protocol ? toString(*row.protocol) : "none");
    EXPECT_EQ(error.message,
              row.exitCode == 55 ? "Send failure: Broken pipe: a:1" : "Broken pipe: a:1");
  }
}

TEST(ExitCodeTest, CertificateProblemsAre60AndPinMismatches90) {
  // tern's handshake nests the certificate's problem inside, as Java gives it as the cause.
  std::exception_ptr untrusted;
  try {
    try {
      throw CertificateException("untrusted certificate chain");
    } catch (const CertificateException&) {
      std::throw_with_nested(
          SSLHandshakeException("handshake failed: untrusted certificate chain"));
    }
  } catch (...) {
    untrusted = std::current_exception();
  }
  TransferError certificate = classifyFailure(untrusted, FailureContext());
  EXPECT_EQ(certificate.exitCode, 60);
  EXPECT_EQ(certificate.message,
            "SSL certificate problem: handshake failed: untrusted certificate chain");

  TransferError pinned = classify(SSLPeerUnverifiedException(
      "Certificate pinning failure!\n  Peer certificate chain:\n    sha256/x: CN=a"));
  EXPECT_EQ(pinned.exitCode, 90);
  EXPECT_THAT(pinned.message,
              ::testing::StartsWith("SSL: public key does not match pinned public key: Certificate "
                                    "pinning failure!"));
  EXPECT_EQ(
      classify(SSLPeerUnverifiedException("Hostname a not verified:"))
          .message.find("SSL: no alternative certificate subject name matches target host name"),
      0u);
}

TEST(ExitCodeTest, BrokenResponses) {
  TransferError truncated = classify(EOFException("expected 100 bytes but got 10"));
  EXPECT_EQ(truncated.exitCode, 18);
  EXPECT_EQ(truncated.message, "expected 100 bytes but got 10");
  TransferError garbage = classify(ProtocolException("Unexpected status line: garbage"));
  EXPECT_EQ(garbage.exitCode, 8);
  EXPECT_EQ(garbage.message, "Unexpected status line: garbage");
  EXPECT_EQ(classify(IOException("Connection reset by peer")).exitCode, 56);
}

// What tern's HTTP/2 and TLS layers throw, and curl 7.88's exit code for the same failure (as
// run against the same hostile server: docs/tool.md, Exit codes).
TEST(ExitCodeTest, Http2AndTlsFailuresAsCurl) {
  struct Row {
    std::exception_ptr failure;
    int64_t bytesReceived;
    int exitCode;
  };
  auto e = [](auto exception) { return std::make_exception_ptr(exception); };
  const Row rows[] = {
      {e(StreamResetException(1, "stream was reset: PROTOCOL_ERROR")), 0, 92},
      {e(StreamResetException(8, "stream was reset: CANCEL")), 0, 92},
      {e(StreamResetException(2, "stream was reset: INTERNAL_ERROR")), 10, 92},
      {e(StreamResetException(0, "stream was reset: NO_ERROR")), 10, 52},
      {e(StreamResetException(7, "stream was reset: REFUSED_STREAM")), 0, 56},
      {e(StreamResetException(7,
                              "stream was reset: REFUSED_STREAM (GOAWAY PROTOCOL_ERROR received "
                              "from a:1)")),
       0, 16},
      {e(IOException("unexpected end of stream on HTTP/2 connection to a:1")), 0, 18},
      {e(IOException("Connection to /127.0.0.1:1 closed without a TLS close_notify: the stream "
                     "was truncated")),
       10, 18},
      {e(ProtocolException("HTTP/2 protocol error from a:1 (GOAWAY PROTOCOL_ERROR sent)")), 0, 52},
      {e(ProtocolException("HTTP/2 protocol error from a:1 (GOAWAY PROTOCOL_ERROR sent)")), 10, 18},
      {e(ProtocolException("HTTP/2 protocol error from a:1: Flooding was detected in this HTTP/2 "
                           "session, and it must be closed")),
       0, 56},
      {e(ProtocolException("more than 32 interim (1xx) responses from a:1 on HTTP/2 stream 1")), 0,
       56},
      {e(ProtocolException("HTTP/2 header list from a:1 on stream 1 exceeds 262144 bytes")), 0, 56},
      {e(IOException("Connection reset by peer: /127.0.0.1:1")), 0, 56},
      {e(ProtocolException("more than 32 interim (1xx) responses from http://a/...")), 0, 8},
  };
  for (const Row& row : rows) {
    FailureContext c = context();
    c.bytesReceived = row.bytesReceived;
    TransferError error = classifyFailure(row.failure, c);
    try {
      std::rethrow_exception(row.failure);
    } catch (const std::exception& x) {
      EXPECT_EQ(error.exitCode, row.exitCode) << x.what() << " -> " << error.message;
    }
  }
}

// A peer flooding SETTINGS, each asking for an ACK: 1,800 of them (16 KiB) in each write, so that
// one read, even of one TLS record, brings more than the 1,000 unsent ACKs nghttp2 allows. (A
// record holds fewer PINGs than that: over TLS a PING flood is answered as it comes.)
std::function<void(Http2Peer::Connection&)> settingsFlood() {
  std::string settings;
  for (int i = 0; i < 1800; ++i) settings += http2Frame(kSettings, 0, 0, "");
  return [settings](Http2Peer::Connection& connection) {
    for (int i = 0; i < 100 && connection.write(settings); ++i) {
    }
  };
}

// The same, from real failures: MockWebServer's socket policies and a hand-written HTTP/2 peer
// for what MockWebServer cannot do. Each runs a GET over h2c (or TLS with ALPN h2, with tls_)
// and classifies what it threw.
class ExitCodeEndToEndTest : public ::testing::Test {
 protected:
  // `bytesRead` body bytes are read before the failure is classified, as the tool counts them.
  // `retry` false for Http2Peer, which takes one connection.
  int exitCodeOf(const std::string& url, bool retry = true) {
    Client client =
        Client::Builder()
            .protocols(tls_ ? std::vector<Protocol>{Protocol::HTTP_2, Protocol::HTTP_1_1}
                            : std::vector<Protocol>{Protocol::H2_PRIOR_KNOWLEDGE})
            .handshakeCertificates(RawPeer::certificates().clientTrust())
            .retryOnConnectionFailure(retry)
            .readTimeout(std::chrono::seconds(5))
            .build();
    FailureContext c = context();
    c.bytesReceived = 0;
    c.protocol = tls_ ? Protocol::HTTP_2 : Protocol::H2_PRIOR_KNOWLEDGE;
    try {
      Response response = client.newCall(Request::Builder().url(url).build())->execute();
      Buffer sink;
      for (int64_t n; (n = response.body()->source().read(sink, 8192)) != -1;) {
        c.bytesReceived += n;
      }
    } catch (...) {
      TransferError error = classifyFailure(std::current_exception(), c);
      messages_ += error.message + "\n";
      return error.exitCode;
    }
    return 0;
  }

  int exitCodeOf(mockwebserver::SocketPolicy policy) {
    mockwebserver::MockWebServer server;
    server.setProtocols({Protocol::H2_PRIOR_KNOWLEDGE});
    for (int i = 0; i < 3; ++i) {  // Enough for the client's retries.
      server.enqueue(mockwebserver::MockResponse::Builder()
                         .body(std::string(64 * 1024, 'x'))
                         .socketPolicy(policy)
                         .build());
    }
    return exitCodeOf(server.url("/").toString());
  }

  int exitCodeOf(std::function<void(Http2Peer::Connection&)> script,
                 Http2Peer::End end = Http2Peer::End::kClose) {
    Http2Peer peer(std::move(script), {.tls = tls_, .end = end});
    return exitCodeOf(peer.url(), false);
  }

  // curl 7.88.1's code for each hostile behaviour (docs/tool.md, Exit codes), over h2c or TLS.
  void expectCurlsCodesFromHostileHttp2Peer();

  static std::string response(std::string fields, bool endStream = false) {
    return http2Frame(kHeaders, kEndHeaders | (endStream ? kEndStream : 0), 1, fields);
  }

  bool tls_ = false;
  std::string messages_;
};

TEST_F(ExitCodeEndToEndTest, MockWebServerPolicies) {
  using mockwebserver::SocketPolicy;
  EXPECT_EQ(exitCodeOf(SocketPolicy::ResetStreamAtStart{1}), 92) << messages_;
  EXPECT_EQ(exitCodeOf(SocketPolicy::ResetStreamAtStart{0}), 52) << messages_;
  EXPECT_EQ(exitCodeOf(SocketPolicy::ResetStreamAtStart{7}), 56) << messages_;
  EXPECT_EQ(exitCodeOf(SocketPolicy::DisconnectDuringResponseBody{}), 18) << messages_;
  EXPECT_EQ(exitCodeOf(SocketPolicy::DisconnectAfterRequest{}), 18) << messages_;
}

void ExitCodeEndToEndTest::expectCurlsCodesFromHostileHttp2Peer() {
  auto write = [](std::string bytes) {
    return [bytes](Http2Peer::Connection& connection) { connection.write(bytes); };
  };
  const std::string ok = hpackStatus(200);
  const std::string length100 = hpackLiteral("content-length", "100");
  // Invalid responses: nghttp2 resets the stream (RFC 9113 §8.1.1).
  // The peer holds the connection, as the stream's reset must not race its end.
  const auto hold = Http2Peer::End::kHold;
  EXPECT_EQ(exitCodeOf(write(response(hpackLiteral("content-type", "text/plain"), true)), hold), 92)
      << messages_;
  EXPECT_EQ(exitCodeOf(write(response(ok + hpackLiteral("X-Upper", "a"), true)), hold), 92)
      << messages_;
  EXPECT_EQ(exitCodeOf(write(response(ok + hpackLiteral("content-length", "10")) +
                             http2Frame(kData, kEndStream, 1, "short")),
                       hold),
            92)
      << messages_;
  // Cut short: the connection ends mid-body (over TLS without close_notify, then with it).
  EXPECT_EQ(exitCodeOf(write(response(ok + length100) + http2Frame(kData, 0, 1, "0123456789"))), 18)
      << messages_;
  EXPECT_EQ(exitCodeOf(write(response(ok + length100) + http2Frame(kData, 0, 1, "0123456789")),
                       Http2Peer::End::kCloseNotify),
            18)
      << messages_;
  // The server's GOAWAY refuses the stream.
  EXPECT_EQ(exitCodeOf(write(http2Frame(kGoaway, 0, 0, std::string("\0\0\0\0\0\0\0\1", 8)))), 16)
      << messages_;
  // A connection error of the server's (DATA on stream 0), before and after the body began.
  EXPECT_EQ(exitCodeOf(write(http2Frame(kData, 0, 0, "abc")), Http2Peer::End::kHold), 52)
      << messages_;
  EXPECT_EQ(exitCodeOf(write(response(ok + length100) + http2Frame(kData, 0, 1, "0123456789") +
                             http2Frame(kData, 0, 0, "abc")),
                       Http2Peer::End::kHold),
            18)
      << messages_;
  // Floods nghttp2 or tern refuses.
  EXPECT_EQ(exitCodeOf(settingsFlood(), Http2Peer::End::kHold), 56) << messages_;
  std::string hints;
  for (int i = 0; i < 100; ++i) hints += response(hpackStatus(103));
  EXPECT_EQ(exitCodeOf(write(hints + response(ok, true))), 56) << messages_;
}

TEST_F(ExitCodeEndToEndTest, HostileHttp2Peer) { expectCurlsCodesFromHostileHttp2Peer(); }

TEST_F(ExitCodeEndToEndTest, HostileHttp2PeerOverTls) {
  tls_ = true;
  expectCurlsCodesFromHostileHttp2Peer();
}

TEST_F(ExitCodeEndToEndTest, BrokenTlsHandshakesAreThirtyFive) {
  tls_ = true;
  for (auto handshake :
       {RawPeer::Handshake::kResetAfterClientHello, RawPeer::Handshake::kCloseAfterClientHello,
        RawPeer::Handshake::kGarbage, RawPeer::Handshake::kPartialServerHello}) {
    RawPeer peer([](RawPeer::Connection&) {}, {.tls = true, .handshake = handshake});
    EXPECT_EQ(exitCodeOf(peer.url(), false), 35) << messages_;
  }
}

// The built tern binary and curl itself, each against a fresh hostile peer of the same kind (a
// peer takes one connection): tern's exit code must be curl's. Where curl is not installed, the
// code curl 7.88.1 gave stands in for it.
class ExitCodeAsCurlTest : public ::testing::Test {
 protected:
  bool tls() const { return tls_; }

  // How each client speaks HTTP/2 to the peer: ALPN h2 over TLS (its certificate unverified:
  // -k), or h2c with prior knowledge.
  std::vector<std::string> http2() const {
    return tls() ? std::vector<std::string>{"--http2", "-k"}
                 : std::vector<std::string>{"--http2-prior-knowledge"};
  }

  // Runs tern, and curl where installed, with `args` and the URL of a peer `makePeer()` makes for
  // each, and expects tern's exit code to be curl's (or `measured`, curl 7.88.1's, without curl).
  template <typename MakePeer>
  void expectAsCurl(const MakePeer& makePeer, std::vector<std::string> args, int measured) {
    args.insert(args.begin(), {"-sS", "-o", "/dev/null", "--max-time", "10"});
    auto run = [&](bool curl) {
      auto peer = makePeer();
      std::vector<std::string> withUrl = args;
      withUrl.push_back(peer->url());
      auto start = std::chrono::steady_clock::now();
      testing::ToolRun result = curl ? testing::runCurl(withUrl, "", {}, std::chrono::seconds(20))
                                     : testing::runTern(withUrl, "", {}, std::chrono::seconds(20));
      EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << result.err;
      return result;
    };
    testing::ToolRun tern = run(false);
    if (testing::findCurl().empty()) {
      EXPECT_EQ(tern.exitCode, measured) << tern.err;
      return;
    }
    testing::ToolRun curl = run(true);
    EXPECT_EQ(tern.exitCode, curl.exitCode) << "curl: " << curl.err << "tern: " << tern.err;
  }

  // A peer running `script` over HTTP/2 (TLS or h2c, as the parameter says), for `connections`
  // connections.
  auto http2Peer(std::function<void(Http2Peer::Connection&)> script,
                 Http2Peer::End end = Http2Peer::End::kClose, int connections = 1) {
    return [this, script, end, connections] {
      return std::make_unique<Http2Peer>(
          script, Http2Peer::Options{.tls = tls(), .end = end, .connections = connections});
    };
  }

  static std::function<void(Http2Peer::Connection&)> write(std::string bytes) {
    return [bytes](Http2Peer::Connection& connection) { connection.write(bytes); };
  }

  static std::string response(std::string fields, bool endStream = false) {
    return http2Frame(kHeaders, kEndHeaders | (endStream ? kEndStream : 0), 1, fields);
  }

  // -T of a 1 MiB file over HTTP/2: more than the stream's window of 64 KiB.
  std::vector<std::string> http2Upload() const {
    std::vector<std::string> args = http2();
    args.insert(args.end(), {"-T", uploadFile(1 << 20)});
    return args;
  }

  // A file of `size` bytes to upload.
  std::string uploadFile(size_t size) const {
    return dir_.write("upload", std::string(size, 'u')).string();
  }

  // A peer that reads the head of an HTTP/1.1 upload (cleartext or TLS), runs `stop`, and then
  // resets the connection. Its receive buffer is small: the upload stalls once it stops reading.
  auto http1UploadPeer(std::function<void(RawPeer::Connection&)> stop) {
    return [this, stop] {
      return std::make_unique<RawPeer>(
          [stop](RawPeer::Connection& connection) {
            connection.readUntil("\r\n\r\n");
            stop(connection);
          },
          RawPeer::Options{.tls = tls(),
                           .end = RawPeer::End::kReset,
                           .alpn = {"http/1.1"},
                           .receiveBuffer = 64 * 1024});
    };
  }

  // -T of an 8 MiB file over HTTP/1.1, without curl's "Expect: 100-continue" (tern sends none):
  // more than the client's socket buffer (4 MiB at most) and the peer's hold, so the client is
  // still sending when the peer stops taking it.
  std::vector<std::string> http1Upload() const {
    std::vector<std::string> args = {"--http1.1", "-T", uploadFile(8 << 20), "-H", "Expect:"};
    if (tls()) args.push_back("-k");
    return args;
  }

  bool tls_ = true;
  testing::TempDir dir_;
};

// Each case in cleartext (h2c with prior knowledge for HTTP/2) and over TLS (the parameter).
class ExitCodeAsCurlBothWaysTest : public ExitCodeAsCurlTest,
                                   public ::testing::WithParamInterface<bool> {
 protected:
  void SetUp() override { tls_ = GetParam(); }
};

INSTANTIATE_TEST_SUITE_P(CleartextAndTls, ExitCodeAsCurlBothWaysTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Tls" : "Cleartext";
                         });

TEST_P(ExitCodeAsCurlBothWaysTest, StreamResetOrMadeInvalid) {
  const std::string ok = hpackStatus(200);
  const auto hold = Http2Peer::End::kHold;
  std::string reset = http2Frame(kRstStream, 0, 1, std::string("\0\0\0\1", 4));
  expectAsCurl(http2Peer(write(reset), hold), http2(), 92);
  expectAsCurl(http2Peer(write(response(hpackLiteral("content-type", "text/plain"), true)), hold),
               http2(), 92);
  expectAsCurl(http2Peer(write(response(ok + hpackLiteral("content-length", "10")) +
                               http2Frame(kData, kEndStream, 1, "short")),
                         hold),
               http2(), 92);
}

TEST_P(ExitCodeAsCurlBothWaysTest, BodyCutShortWithAndWithoutCloseNotify) {
  std::string cut = response(hpackStatus(200) + hpackLiteral("content-length", "100")) +
                    http2Frame(kData, 0, 1, "0123456789");
  expectAsCurl(http2Peer(write(cut), Http2Peer::End::kClose), http2(), 18);
  expectAsCurl(http2Peer(write(cut), Http2Peer::End::kCloseNotify), http2(), 18);
}

TEST_P(ExitCodeAsCurlBothWaysTest, GoawayRefusingTheStreamIsSixteen) {
  // tern tries a refused stream again on a new connection, as OkHttp does (curl does not), and
  // reports the last refusal: the peer refuses every connection, as a server would.
  expectAsCurl(http2Peer(write(http2Frame(kGoaway, 0, 0, std::string("\0\0\0\0\0\0\0\1", 8))),
                         Http2Peer::End::kClose, 8),
               http2(), 16);
}

TEST_P(ExitCodeAsCurlBothWaysTest, ConnectionErrorBeforeAndAfterTheBody) {
  // DATA on stream 0 (RFC 9113 §6.1): the client answers with GOAWAY. The peer then closes, as
  // servers do after a GOAWAY (curl 7.88 waits for that close mid-body, until -m).
  expectAsCurl(http2Peer(write(http2Frame(kData, 0, 0, "abc")), Http2Peer::End::kHold), http2(),
               52);
  expectAsCurl(
      http2Peer(write(response(hpackStatus(200) + hpackLiteral("content-length", "100")) +
                      http2Frame(kData, 0, 1, "0123456789") + http2Frame(kData, 0, 0, "abc"))),
      http2(), 18);
}

TEST_P(ExitCodeAsCurlBothWaysTest, Floods) {
  expectAsCurl(http2Peer(settingsFlood(), Http2Peer::End::kHold), http2(), 56);
  // 12,000 interim heads (curl 7.88 reads 100 of them, where tern stops at 32).
  std::string hints;
  for (int i = 0; i < 12000; ++i) hints += response(hpackStatus(103));
  expectAsCurl(http2Peer(write(hints + response(hpackStatus(200), true))), http2(), 56);
}

TEST_P(ExitCodeAsCurlBothWaysTest, ResetWhileTheClientWaitsForWindowIsFiftySix) {
  // The upload stops at the stream's 64 KiB window; both clients' reads see the reset first.
  expectAsCurl(http2Peer([](Http2Peer::Connection&) { std::this_thread::sleep_for(200ms); },
                         Http2Peer::End::kReset),
               http2Upload(), 56);
}

TEST_F(ExitCodeAsCurlTest, BrokenHandshakesAreThirtyFive) {
  for (auto handshake :
       {RawPeer::Handshake::kResetAfterClientHello, RawPeer::Handshake::kCloseAfterClientHello,
        RawPeer::Handshake::kGarbage, RawPeer::Handshake::kPartialServerHello}) {
    expectAsCurl(
        [&] {
          return std::make_unique<RawPeer>([](RawPeer::Connection&) {},
                                           RawPeer::Options{.tls = true, .handshake = handshake});
        },
        http2(), 35);
  }
}

TEST_P(ExitCodeAsCurlBothWaysTest, Http1UploadTheServerClosesThenResetsIsFiftyFive) {
  // Its FIN first: curl's read sees the end and stops, and its send then fails (Broken pipe).
  expectAsCurl(http1UploadPeer([](RawPeer::Connection& connection) {
                 connection.shutdownOutput();
                 std::this_thread::sleep_for(200ms);
               }),
               http1Upload(), 55);
}

TEST_P(ExitCodeAsCurlBothWaysTest, Http1UploadTheServerResetsIsFiftySix) {
  // A reset while the client is blocked sending: curl's read sees it first.
  expectAsCurl(http1UploadPeer([](RawPeer::Connection&) { std::this_thread::sleep_for(200ms); }),
               http1Upload(), 56);
}

// Through a proxy, as curl 7.88 says it (tests/tool/proxy_tool_test.cc measures curl itself).
TEST(ExitCodeTest, ProxyFailuresAsCurl) {
  FailureContext http = context();
  http.proxy = Proxy::http("proxy.example", 3128);
  FailureContext socks = context();
  socks.proxy = Proxy::socks5("socks.example", 1080);
  auto classifyVia = [](const FailureContext& via, const auto& exception) {
    return classifyFailure(std::make_exception_ptr(exception), via);
  };
  // The proxy's name does not resolve: 5 for an HTTP proxy, 6 for a SOCKS one.
  TransferError proxyName = classifyVia(
      http, UnknownHostException("proxy.example: Name or service not known (the proxy HTTP @ "
                                 "proxy.example:3128)"));
  EXPECT_EQ(proxyName.exitCode, 5);
  EXPECT_EQ(proxyName.message, "Could not resolve proxy: proxy.example");
  TransferError socksName = classifyVia(
      socks, UnknownHostException("socks.example: nope (the proxy SOCKS @ socks.example:1080)"));
  EXPECT_EQ(socksName.exitCode, 6);
  EXPECT_EQ(socksName.message, "Could not resolve host: socks.example");
  // socks5://: the origin's name, resolved by the client for the proxy.
  TransferError origin = classifyVia(socks, UnknownHostException("example.com: nope"));
  EXPECT_EQ(origin.exitCode, 97);
  EXPECT_EQ(origin.message, "Could not resolve host: example.com");
  // The proxy refuses the connection: 7, naming the proxy.
  TransferError refused = classifyVia(http, ConnectException("Connection refused"));
  EXPECT_EQ(refused.exitCode, 7);
  EXPECT_EQ(refused.message,
            "Failed to connect to proxy.example port 3128 after 1234 ms: Couldn't connect to "
            "server");
  // A CONNECT answered with anything but 2xx: 56.
  TransferError tunnel = classifyVia(
      http, ProxyException("Failed to authenticate with proxy (HTTP @ proxy.example:3128 to "
                           "example.com:443)",
                           407));
  EXPECT_EQ(tunnel.exitCode, 56);
  EXPECT_EQ(tunnel.message, "CONNECT tunnel failed, response 407");
  // SOCKS5 refusals: 97, in curl's words.
  TransferError noMethod = classifyVia(
      socks, ProxyException("SOCKS5 proxy accepts none of the offered authentication methods "
                            "(none) (SOCKS @ socks.example:1080 to 1.2.3.4:80)"));
  EXPECT_EQ(noMethod.exitCode, 97);
  EXPECT_EQ(noMethod.message, "No authentication method was acceptable.");
  TransferError connect = classifyVia(
      socks, ProxyException("SOCKS5 proxy could not connect: connection refused (5) (SOCKS @ "
                            "socks.example:1080 to 1.2.3.4:80)"));
  EXPECT_EQ(connect.exitCode, 97);
  EXPECT_EQ(connect.message, "Can't complete SOCKS5 connection to 1.2.3.4. (5)");
  TransferError ipv6 = classifyVia(
      socks, ProxyException("SOCKS5 proxy could not connect: host unreachable (4) (SOCKS @ "
                            "socks.example:1080 to [::1]:80)"));
  EXPECT_EQ(ipv6.message, "Can't complete SOCKS5 connection to ::1. (4)");
  TransferError user =
      classifyVia(socks, ProxyException("SOCKS5 proxy refused the username and password (SOCKS @ "
                                        "socks.example:1080 to 1.2.3.4:80)"));
  EXPECT_EQ(user.exitCode, 97);
  EXPECT_THAT(user.message, ::testing::StartsWith("User was rejected by the SOCKS5 server"));
  TransferError broken = classifyVia(
      socks, ProtocolException("not a SOCKS5 proxy: version 72 (SOCKS @ socks.example:1080 to "
                               "1.2.3.4:80)"));
  EXPECT_EQ(broken.exitCode, 97);
}

TEST(ExitCodeTest, AnythingElseIsTwoWithItsMessage) {
  TransferError error = classify(std::logic_error("broken"));
  EXPECT_EQ(error.exitCode, 2);
  EXPECT_EQ(error.message, "broken");
}

}  // namespace
}  // namespace tern::tool
