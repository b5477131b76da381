// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <mutex>
#include <string>

#include "net/tls_transport.h"
#include "tern/buffer.h"
#include "tern/sink.h"
#include "tern/source.h"

namespace tern::internal {

// TLS inside TLS: a TlsTransport over another connection's streams rather than a descriptor,
// for the TLS to an origin server inside a CONNECT tunnel through an HTTPS proxy (whose own TLS
// gives `source` and `sink`). The inner TLS's records go through a memory BIO: what OpenSSL
// writes waits in a buffer until flush() sends it to `sink` (after each OpenSSL call, outside the
// inner TLS's lock, so a reader blocked on the outer stream never holds up a writer); a read
// that finds no bytes asks OpenSSL to retry, and awaitReady() then reads the next bytes from
// `source`, blocking outside the lock. One thread reads and another writes at most, as HTTP/2
// does; `outer` (the transport under the outer TLS) answers checkOpen() and is what cancel()
// breaks. Everything here must outlive the TlsSocket that uses it.
class StreamTlsTransport final : public TlsTransport {
 public:
  // `peerName` names the peer in messages ("example.com:443 through HTTPS @ proxy:443").
  StreamTlsTransport(Source& source, Sink& sink, const TlsTransport& outer, std::string peerName);
  StreamTlsTransport(const StreamTlsTransport&) = delete;
  StreamTlsTransport& operator=(const StreamTlsTransport&) = delete;

  int fd() const override { return -1; }
  BIO* newBio() override;
  // For a read: the next bytes from `source` (its timeout set from `timeout`); the end of the
  // stream becomes the BIO's end. For a write: flush().
  void awaitReady(bool forWrite, const Timeout& timeout) const override;
  void checkOpen() const override { outer_.checkOpen(); }
  std::string peerName() const override { return peerName_; }
  void flush() override;

 private:
  static int bioWrite(BIO* bio, const char* data, size_t length, size_t* written);
  static int bioRead(BIO* bio, char* data, size_t length, size_t* read);
  static long bioCtrl(BIO* bio, int command, long number, void* pointer);
  static const BIO_METHOD* bioMethod();
  void flushPending() const;

  Source& source_;
  Sink& sink_;
  const TlsTransport& outer_;
  const std::string peerName_;
  mutable std::mutex readMutex_;   // One outer read at a time.
  mutable std::mutex writeMutex_;  // One outer write at a time, in the order OpenSSL wrote.
  mutable std::mutex bufferMutex_;
  mutable Buffer inbound_;   // Guarded by bufferMutex_: read from source_, not yet by OpenSSL.
  mutable Buffer outbound_;  // Guarded by bufferMutex_: written by OpenSSL, not yet to sink_.
  mutable bool sourceEnded_ = false;  // Guarded by bufferMutex_.
};

}  // namespace tern::internal
