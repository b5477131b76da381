// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "exit_code.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/http2_peer.h"
#include "tern/client.h"
#include "tern/exceptions.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;
using namespace tern::testing;  // Http2Peer and its frames.

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

// The same, from real failures: MockWebServer's socket policies and a hand-written HTTP/2 peer
// for what MockWebServer cannot do. Each runs a GET over h2c and classifies what it threw.
class ExitCodeEndToEndTest : public ::testing::Test {
 protected:
  // `bytesRead` body bytes are read before the failure is classified, as the tool counts them.
  // `retry` false for Http2Peer, which takes one connection.
  int exitCodeOf(const std::string& url, bool retry = true) {
    Client client = Client::Builder()
                        .protocols({Protocol::H2_PRIOR_KNOWLEDGE})
                        .retryOnConnectionFailure(retry)
                        .readTimeout(std::chrono::seconds(5))
                        .build();
    FailureContext c = context();
    c.bytesReceived = 0;
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
    Http2Peer peer(std::move(script), end);
    return exitCodeOf(peer.url(), false);
  }

  static std::string response(std::string fields, bool endStream = false) {
    return http2Frame(kHeaders, kEndHeaders | (endStream ? kEndStream : 0), 1, fields);
  }

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

TEST_F(ExitCodeEndToEndTest, HostileHttp2Peer) {
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
  // Cut short: the connection ends mid-body.
  EXPECT_EQ(exitCodeOf(write(response(ok + length100) + http2Frame(kData, 0, 1, "0123456789"))), 18)
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
  std::string pings;
  for (int i = 0; i < 5000; ++i) pings += http2Frame(kPing, 0, 0, "12345678");
  EXPECT_EQ(exitCodeOf(write(pings), Http2Peer::End::kHold), 56) << messages_;
  std::string hints;
  for (int i = 0; i < 100; ++i) hints += response(hpackStatus(103));
  EXPECT_EQ(exitCodeOf(write(hints + response(ok, true))), 56) << messages_;
}

TEST(ExitCodeTest, AnythingElseIsTwoWithItsMessage) {
  TransferError error = classify(std::logic_error("broken"));
  EXPECT_EQ(error.exitCode, 2);
  EXPECT_EQ(error.message, "broken");
}

}  // namespace
}  // namespace tern::tool
