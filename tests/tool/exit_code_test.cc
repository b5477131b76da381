// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "exit_code.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <exception>
#include <stdexcept>

#include "tern/exceptions.h"

namespace tern::tool {
namespace {

using namespace std::chrono_literals;

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

TEST(ExitCodeTest, AnythingElseIsTwoWithItsMessage) {
  TransferError error = classify(std::logic_error("broken"));
  EXPECT_EQ(error.exitCode, 2);
  EXPECT_EQ(error.message, "broken");
}

}  // namespace
}  // namespace tern::tool
