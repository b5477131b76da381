// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// TLS handshakes that fail, each with the message that names its cause; mutual TLS; session
// resumption. Client and server are tern's TlsSocket over loopback, with certificates made in code.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <chrono>
#include <exception>
#include <memory>
#include <string>

#include "net/connection_spec_ssl.h"
#include "net/tls_failure.h"
#include "net/tls_peer.h"
#include "net/tls_socket.h"
#include "tern/buffer.h"
#include "tern/connection_spec.h"
#include "tern/exceptions.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using internal::Socket;
using internal::TlsSocket;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

struct TlsClient {
  TlsClient(internal::TlsContext& context, const InetSocketAddress& address,
            const ConnectionSpec* spec = nullptr)
      : socket(Socket::connectTo(address, 5s)), transport(*socket) {
    internal::UniqueSsl ssl =
        context.newSsl(address.address().hostName(), address.port(), {"http/1.1"});
    if (spec) internal::applyConnectionSpec(*spec, ssl.get(), false);
    tls = std::make_unique<TlsSocket>(transport, std::move(ssl));
  }

  std::unique_ptr<Socket> socket;
  internal::SocketTlsTransport transport;
  std::unique_ptr<TlsSocket> tls;
};

// What a failed client handshake threw.
struct Failure {
  std::string type;  // "SSLHandshakeException", ...
  std::string message;
  bool certificateCause = false;
};

Failure handshakeFailure(TlsClient& client) {
  try {
    client.tls->handshake(5s);
    // TLS 1.3 servers refuse a client certificate after the client's handshake is done: the
    // refusal arrives with the first read.
    Buffer buffer;
    client.tls->source().read(buffer, 1);
  } catch (const SSLHandshakeException& e) {
    return {"SSLHandshakeException", e.what(), internal::isCertificateFailure(e)};
  } catch (const SSLException& e) {
    return {"SSLException", e.what(), false};
  } catch (const IOException& e) {
    return {"IOException", e.what(), false};
  }
  return {"none", "", false};
}

void writeUtf8(Sink& sink, std::string_view text) {
  Buffer buffer;
  buffer.writeUtf8(text);
  sink.write(buffer, buffer.size());
}

// A server that answers one byte after the handshake, then says goodbye properly.
TlsServer::Serve answerOnce() {
  return [](TlsSocket* tls, Socket&) {
    writeUtf8(tls->sink(), "!");
    tls->sendCloseNotify();
  };
}

class TlsHandshakeTest : public ::testing::Test {
 protected:
  TestCertificates certificates;
  std::shared_ptr<internal::TlsContext> context = clientContext(certificates.clientTrust());
};

TEST_F(TlsHandshakeTest, UntrustedChainNamesTheCertificateAndItsIssuer) {
  TestCertificates strangers;  // A chain from a root the client does not trust.
  TlsServer server(
      serverContext(
          tls::HandshakeCertificates::Builder().heldCertificate(strangers.localhost).build()),
      answerOnce());
  TlsClient client(*context, server.address());
  Failure failure = handshakeFailure(client);
  EXPECT_EQ(failure.type, "SSLHandshakeException");
  EXPECT_THAT(failure.message,
              MatchesRegex("TLS handshake with localhost \\(127.0.0.1:[0-9]+\\) failed: untrusted "
                           "certificate chain: no trusted root for CN=localhost, issued by "
                           "CN=tern test root \\(unable to get local issuer certificate\\)"));
  EXPECT_TRUE(failure.certificateCause);
}

TEST_F(TlsHandshakeTest, SelfSignedServerIsUntrusted) {
  tls::HeldCertificate selfSigned = tls::HeldCertificate::Builder()
                                        .commonName("self")
                                        .addSubjectAlternativeName("localhost")
                                        .build();
  TlsServer server(
      serverContext(tls::HandshakeCertificates::Builder().heldCertificate(selfSigned).build()),
      answerOnce());
  TlsClient client(*context, server.address());
  Failure failure = handshakeFailure(client);
  EXPECT_THAT(failure.message,
              HasSubstr("untrusted certificate chain: no trusted root for CN=self, issued by "
                        "CN=self (self-signed certificate)"));
  EXPECT_TRUE(failure.certificateCause);
}

TEST_F(TlsHandshakeTest, ExpiredCertificateGivesItsDates) {
  const auto now = std::chrono::system_clock::now();
  tls::HeldCertificate expired = tls::HeldCertificate::Builder()
                                     .commonName("localhost")
                                     .addSubjectAlternativeName("localhost")
                                     .validityInterval(now - 48h, now - 24h)
                                     .signedBy(certificates.root)
                                     .build();
  TlsServer server(
      serverContext(tls::HandshakeCertificates::Builder().heldCertificate(expired).build()),
      answerOnce());
  TlsClient client(*context, server.address());
  Failure failure = handshakeFailure(client);
  EXPECT_EQ(failure.type, "SSLHandshakeException");
  EXPECT_THAT(
      failure.message,
      MatchesRegex(".* failed: certificate CN=localhost expired at "
                   "[0-9-]+T[0-9:]+Z \\(valid from [0-9-]+T[0-9:]+Z; now [0-9-]+T[0-9:]+Z\\)"));
  EXPECT_TRUE(failure.certificateCause);
}

TEST_F(TlsHandshakeTest, NotYetValidCertificateGivesItsDates) {
  const auto now = std::chrono::system_clock::now();
  tls::HeldCertificate future = tls::HeldCertificate::Builder()
                                    .commonName("localhost")
                                    .addSubjectAlternativeName("localhost")
                                    .validityInterval(now + 24h, now + 48h)
                                    .signedBy(certificates.root)
                                    .build();
  TlsServer server(
      serverContext(tls::HandshakeCertificates::Builder().heldCertificate(future).build()),
      answerOnce());
  TlsClient client(*context, server.address());
  Failure failure = handshakeFailure(client);
  EXPECT_THAT(failure.message,
              MatchesRegex(".* failed: certificate CN=localhost is not yet valid: valid from "
                           "[0-9-]+T[0-9:]+Z to [0-9-]+T[0-9:]+Z \\(now [0-9-]+T[0-9:]+Z\\)"));
  EXPECT_TRUE(failure.certificateCause);
}

TEST_F(TlsHandshakeTest, NoCommonTlsVersion) {
  // The server speaks TLS 1.2 at most; the client offers 1.3 only (RESTRICTED_TLS narrowed).
  TlsServer server(
      serverContext(certificates.server(),
                    [](SSL_CTX* c) { SSL_CTX_set_max_proto_version(c, TLS1_2_VERSION); }),
      answerOnce());
  ConnectionSpec tls13 = ConnectionSpec::Builder(ConnectionSpec::RESTRICTED_TLS)
                             .tlsVersions({TlsVersion::TLS_1_3})
                             .build();
  TlsClient client(*context, server.address(), &tls13);
  Failure failure = handshakeFailure(client);
  EXPECT_EQ(failure.type, "SSLHandshakeException");
  EXPECT_THAT(failure.message,
              HasSubstr("failed: no TLS version in common: the client offers TLSv1.3 and the "
                        "server refused (protocol version alert)"));
  EXPECT_FALSE(failure.certificateCause);
}

TEST_F(TlsHandshakeTest, NoCommonCipherSuite) {
  TlsServer server(serverContext(certificates.server(),
                                 [](SSL_CTX* c) {
                                   SSL_CTX_set_max_proto_version(c, TLS1_2_VERSION);
                                   SSL_CTX_set_cipher_list(c, "ECDHE-ECDSA-AES256-GCM-SHA384");
                                 }),
                   answerOnce());
  ConnectionSpec spec = ConnectionSpec::Builder(true)
                            .tlsVersions({TlsVersion::TLS_1_2})
                            .cipherSuites({CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256})
                            .build();
  TlsClient client(*context, server.address(), &spec);
  Failure failure = handshakeFailure(client);
  EXPECT_EQ(failure.type, "SSLHandshakeException");
  EXPECT_THAT(failure.message,
              HasSubstr("failed: the server refused the handshake (handshake failure alert): no "
                        "cipher suite in common, or it requires a client certificate"));
}

TEST_F(TlsHandshakeTest, PlainHttpServerDoesNotSpeakTls) {
  TlsServer server(nullptr, [](TlsSocket*, Socket& socket) {
    Buffer request;
    socket.source().read(request, 1);
    writeUtf8(socket.sink(), "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
  });
  TlsClient client(*context, server.address());
  Failure failure = handshakeFailure(client);
  EXPECT_EQ(failure.type, "SSLHandshakeException");
  EXPECT_THAT(failure.message,
              HasSubstr("failed: the server does not speak TLS (wrong version number): is it a "
                        "plain HTTP port?"));
}

TEST_F(TlsHandshakeTest, ServerThatHangsUpDuringTheHandshake) {
  TlsServer server(nullptr, [](TlsSocket*, Socket& socket) {
    Buffer clientHello;
    socket.source().read(clientHello, 1);
    socket.close();
  });
  TlsClient client(*context, server.address());
  Failure failure = handshakeFailure(client);
  // A FIN, or a reset if the rest of the ClientHello was still unread when it closed.
  EXPECT_THAT(failure.message,
              MatchesRegex(".* failed: (the server closed the connection during the "
                           "handshake|Connection reset by peer)"));
}

TEST_F(TlsHandshakeTest, ServerThatResetsMidHandshake) {
  TlsServer server(nullptr, [](TlsSocket*, Socket& socket) {
    Buffer clientHello;
    socket.source().read(clientHello, 16 * 1024);
    // The start of a ServerHello record (handshake, TLS 1.2, 512 bytes promised), cut short by a
    // reset (SO_LINGER 0): the client has part of a record when the connection dies.
    const unsigned char partial[] = {22, 3, 3, 2, 0, 2, 0, 1, 252, 3, 3, 0x5a, 0x5a, 0x5a, 0x5a};
    Buffer out;
    out.write(reinterpret_cast<const std::byte*>(partial), sizeof(partial));
    socket.sink().write(out, out.size());
    socket.sink().flush();
    linger option{1, 0};
    setsockopt(socket.fd(), SOL_SOCKET, SO_LINGER, &option, sizeof(option));
    socket.close();
  });
  TlsClient client(*context, server.address());
  const auto start = std::chrono::steady_clock::now();
  Failure failure = handshakeFailure(client);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  // A reset is the socket's failure (IOException, as Java's SocketException); a FIN that wins the
  // race is the handshake's. Either way the message says what happened.
  EXPECT_THAT(failure.type, ::testing::AnyOf("IOException", "SSLHandshakeException"));
  EXPECT_THAT(
      failure.message,
      MatchesRegex("TLS handshake with localhost \\(127.0.0.1:[0-9]+\\) failed: (Connection reset "
                   "by peer|the server closed the connection during the handshake)"));
}

TEST_F(TlsHandshakeTest, MutualTlsPresentsTheClientCertificate) {
  tls::HeldCertificate clientCertificate =
      tls::HeldCertificate::Builder().commonName("client").signedBy(certificates.root).build();
  auto mtls = clientContext(tls::HandshakeCertificates::Builder()
                                .addTrustedCertificate(certificates.root.certificate())
                                .heldCertificate(clientCertificate)
                                .build());
  tls::HandshakeCertificates serverCertificates =
      tls::HandshakeCertificates::Builder()
          .heldCertificate(certificates.localhost)
          .addTrustedCertificate(certificates.root.certificate())
          .build();
  TlsServer server(serverContext(serverCertificates,
                                 [](SSL_CTX* c) {
                                   SSL_CTX_set_verify(
                                       c, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
                                       nullptr);
                                 }),
                   answerOnce());
  TlsClient client(*mtls, server.address());
  Failure failure = handshakeFailure(client);
  EXPECT_EQ(failure.type, "none") << failure.message;
  EXPECT_EQ(server.serverFailure(), nullptr);
  EXPECT_EQ(server.clientSubject(), "CN=client");
}

TEST_F(TlsHandshakeTest, MutualTlsRequiredButNoClientCertificate) {
  for (int version : {TLS1_3_VERSION, TLS1_2_VERSION}) {
    TlsServer server(serverContext(certificates.server(),
                                   [version](SSL_CTX* c) {
                                     SSL_CTX_set_max_proto_version(c, version);
                                     SSL_CTX_set_verify(
                                         c, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
                                         nullptr);
                                   }),
                     answerOnce());
    TlsClient client(*context, server.address());
    Failure failure = handshakeFailure(client);
    EXPECT_EQ(failure.type, "SSLHandshakeException") << version;
    if (version == TLS1_3_VERSION) {
      EXPECT_THAT(failure.message,
                  HasSubstr("failed: the server requires a client certificate (certificate "
                            "required alert)"));
    } else {
      EXPECT_THAT(failure.message, HasSubstr("failed: the server refused the handshake"));
    }
  }
}

TEST_F(TlsHandshakeTest, SecondConnectionResumesTheSession) {
  for (int version : {TLS1_3_VERSION, TLS1_2_VERSION}) {
    auto context = clientContext(certificates.clientTrust());
    TlsServer server(
        serverContext(certificates.server(),
                      [version](SSL_CTX* c) { SSL_CTX_set_max_proto_version(c, version); }),
        answerOnce(), 2);
    bool resumed[2];
    for (bool& r : resumed) {
      TlsClient client(*context, server.address());
      EXPECT_EQ(handshakeFailure(client).type, "none");  // It reads, so TLS 1.3 tickets arrive.
      r = client.tls->sessionReused();
    }
    ASSERT_EQ(server.serverFailure(), nullptr);
    EXPECT_FALSE(resumed[0]) << version;
    EXPECT_TRUE(resumed[1]) << version;
    EXPECT_EQ(server.resumed(), (std::vector<bool>{false, true})) << version;
  }
}

TEST_F(TlsHandshakeTest, SessionsAreKeptPerHostAndPortAndPerContext) {
  TlsServer server(serverContext(certificates.server()), answerOnce(), 3);
  {
    TlsClient first(*context, server.address("localhost"));
    EXPECT_EQ(handshakeFailure(first).type, "none");
  }
  {
    // Same port, another name for the host: another key, a full handshake.
    TlsClient byIp(*context, server.address("127.0.0.1"));
    EXPECT_EQ(handshakeFailure(byIp).type, "none");
    EXPECT_FALSE(byIp.tls->sessionReused());
  }
  {
    // Another client (another context) has its own cache.
    auto otherContext = clientContext(certificates.clientTrust());
    TlsClient other(*otherContext, server.address("localhost"));
    EXPECT_EQ(handshakeFailure(other).type, "none");
    EXPECT_FALSE(other.tls->sessionReused());
  }
  EXPECT_EQ(context->sessionCache().size(), 2u);
  EXPECT_EQ(server.serverFailure(), nullptr);
}

}  // namespace
}  // namespace tern::testing
