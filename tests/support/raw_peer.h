// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "support/tls_certificates.h"
#include "tls/openssl_util.h"

namespace tern::testing {

// A hand-written server for a loopback connection, in cleartext or TLS, for what MockWebServer
// cannot be made to do: it accepts one connection (or Options::connections), completes the TLS
// handshake (OpenSSL's server side, with a certificate made in code) or breaks it as `handshake`
// says, runs `serve`, and ends the connection as `end` says. Beyond setting up the certificate (as
// MockWebServer does, with tern's configureServer()), it uses none of the code under test. Each
// connection ends within 10 s (the socket's timeouts); the destructor stops waiting for more and
// joins the thread.
class RawPeer {
 public:
  // How the connection ends once `serve` returns.
  enum class End {
    kHold,  // Keep it open, reading (and dropping) what comes, until the client closes it.
    // Close it (FIN; over TLS without a close_notify), then read until the client hangs up:
    // closing with its bytes unread would make the kernel answer with a reset instead.
    kClose,
    kCloseNotify,  // kClose after a TLS close_notify (kClose in cleartext).
    kReset,        // Abort it (RST, SO_LINGER 0).
  };

  // What a TLS peer does after reading the client's ClientHello; cleartext peers ignore it.
  enum class Handshake {
    kComplete,               // Completes the handshake and runs `serve`.
    kResetAfterClientHello,  // Resets the connection.
    kCloseAfterClientHello,  // Closes it (a lingering FIN).
    kGarbage,                // Answers with an HTTP/1.1 400 response instead of a ServerHello.
    kPartialServerHello,     // Sends the first 15 bytes of a ServerHello record, then resets.
  };

  struct Options {
    bool tls = false;
    Handshake handshake = Handshake::kComplete;
    End end = End::kHold;
    // The ALPN protocols the peer selects from, in its order of preference (RFC 7301 §3.2).
    std::vector<std::string> alpn = {"h2", "http/1.1"};
    // SO_RCVBUF for the accepted connection (0: the system's): a small one makes a client's
    // large upload stall at once when the peer stops reading.
    int receiveBuffer = 0;
    // How many connections to serve, one after another, each the same way; past the last, a
    // client that connects again is refused at once.
    int connections = 1;
  };

  // The accepted connection, for `serve`. Reads and writes go through TLS when the peer is TLS.
  class Connection {
   public:
    // Writes all of `bytes`; false once the client is gone.
    bool write(std::string_view bytes);
    // Reads exactly `length` bytes; false if the connection ended first.
    bool readFully(char* out, size_t length);
    // Reads until `terminator` has been read (an HTTP/1.1 head: "\r\n\r\n") and returns all
    // that was read, which may go past it; what came before the end if the connection ended.
    std::string readUntil(std::string_view terminator);
    // Sends FIN (shutdown(SHUT_WR)): the peer writes no more. No TLS close_notify.
    void shutdownOutput();

   private:
    friend class RawPeer;
    Connection(int fd, SSL* ssl) : fd_(fd), ssl_(ssl) {}
    int fd_;
    SSL* ssl_;  // Null in cleartext.
  };

  RawPeer(std::function<void(Connection&)> serve, Options options);
  ~RawPeer();
  RawPeer(const RawPeer&) = delete;
  RawPeer& operator=(const RawPeer&) = delete;

  // "http://127.0.0.1:PORT/", or https for a TLS peer.
  std::string url() const;
  int port() const { return port_; }

  // What every TLS peer presents: a "localhost" (and 127.0.0.1) certificate signed by
  // certificates().root, which a client trusts with certificates().clientTrust(). Made once.
  static const TestCertificates& certificates();

 private:
  void serveAll(const std::function<void(Connection&)>& script);
  void serve(int fd, const std::function<void(Connection&)>& script);
  // Reads the ClientHello and breaks the handshake as options_.handshake says.
  void breakHandshake(int fd);
  static int selectAlpn(SSL* ssl, const unsigned char** out, unsigned char* outLength,
                        const unsigned char* in, unsigned int inLength, void* argument);

  const Options options_;
  internal::UniqueSslCtx context_;  // TLS only.
  int listener_ = -1;
  int port_ = 0;
  std::thread thread_;
};

}  // namespace tern::testing
