// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http3/http3_connection.h"

#include <arpa/inet.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <nghttp3/nghttp3.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>
#include <ngtcp2/ngtcp2_crypto_gnutls.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <climits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "http/connection_shutdown_exception.h"
#include "http/exception_copy.h"
#include "net/error_message.h"
#include "net/socket_address.h"

namespace tern::internal {
namespace {

// GnuTLS's priorities for QUIC: TLS 1.3 only (RFC 9001 §4.2), the AEADs QUIC defines, and no
// middlebox compatibility mode (RFC 9001 §8.4). As ngtcp2's own GnuTLS client.
constexpr char kPriority[] =
    "NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305:"
    "+AES-128-CCM:-GROUP-ALL:+GROUP-X25519:+GROUP-SECP256R1:+GROUP-SECP384R1:+GROUP-SECP521R1:"
    "%DISABLE_TLS13_COMPAT_MODE";

constexpr char kAlpn[] = "h3";  // RFC 9114 §3.1.

// Datagrams read per wake-up before ngtcp2's timers and writes get their turn.
constexpr int kMaxDatagramsPerRead = 64;

ngtcp2_tstamp timestamp() {
  return static_cast<ngtcp2_tstamp>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

bool isIpLiteral(const std::string& host) {
  uint8_t bytes[sizeof(in6_addr)];
  std::string bare =
      host.size() > 2 && host.front() == '[' ? host.substr(1, host.size() - 2) : host;
  return inet_pton(AF_INET, bare.c_str(), bytes) == 1 ||
         inet_pton(AF_INET6, bare.c_str(), bytes) == 1;
}

std::string describeHost(const std::string& host, int port) {
  bool ipv6 = host.find(':') != std::string::npos && host.front() != '[';
  return (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

}  // namespace

// ngtcp2's and nghttp3's callbacks, and GnuTLS's verify function. They run only inside ngtcp2's
// and nghttp3's functions, which run only under the connection's lock. The analysis cannot follow
// a lock through a C library's callback, so each is TERN_NO_THREAD_SAFETY_ANALYSIS (as in
// http2's Http2Callbacks).
struct Http3Callbacks {
  static Http3Connection& self(void* userData) { return *static_cast<Http3Connection*>(userData); }

  // GnuTLS ---------------------------------------------------------------------------------------

  // ngtcp2's crypto helper finds the QUIC connection of a GnuTLS session through this.
  static ngtcp2_conn* connFromRef(ngtcp2_crypto_conn_ref* ref) TERN_NO_THREAD_SAFETY_ANALYSIS {
    return self(ref->user_data).conn_;
  }

  // The peer's Certificate arrived: tern decides whether to trust it (GnuTLS has no trust store).
  static int verifyPeer(gnutls_session_t session) TERN_NO_THREAD_SAFETY_ANALYSIS {
    auto* ref = static_cast<ngtcp2_crypto_conn_ref*>(gnutls_session_get_ptr(session));
    Http3Connection& connection = self(ref->user_data);
    try {
      unsigned int count = 0;
      const gnutls_datum_t* der = gnutls_certificate_get_peers(session, &count);
      if (der == nullptr || count == 0) {
        throw SSLPeerUnverifiedException("HTTP/3 peer " + connection.peerName_ +
                                         " sent no certificate");
      }
      std::vector<Certificate> chain;
      chain.reserve(count);
      for (unsigned int i = 0; i < count; ++i) {
        chain.push_back(Certificate::fromDer(std::span<const uint8_t>(der[i].data, der[i].size)));
      }
      connection.verifyPeer_(chain);
      connection.peerCertificates_ = std::move(chain);
      return 0;
    } catch (...) {
      // Kept as thrown: connect() rethrows it. The handshake fails with bad_certificate.
      connection.verifyFailure_ = std::current_exception();
      return -1;
    }
  }

  // ngtcp2 ---------------------------------------------------------------------------------------

  static void random(uint8_t* dest, size_t length, const ngtcp2_rand_ctx*) {
    (void)gnutls_rnd(GNUTLS_RND_RANDOM, dest, length);
  }

  static int newConnectionId(ngtcp2_conn*, ngtcp2_cid* cid, uint8_t* token, size_t length, void*) {
    if (gnutls_rnd(GNUTLS_RND_RANDOM, cid->data, length) != 0 ||
        gnutls_rnd(GNUTLS_RND_RANDOM, token, NGTCP2_STATELESS_RESET_TOKENLEN) != 0) {
      return NGTCP2_ERR_CALLBACK_FAILURE;
    }
    cid->datalen = length;
    return 0;
  }

  static int receiveKey(ngtcp2_conn*, ngtcp2_crypto_level level,
                        void* userData) TERN_NO_THREAD_SAFETY_ANALYSIS {
    // 1-RTT keys: the peer's transport parameters are known, so HTTP/3's own streams can open.
    if (level != NGTCP2_CRYPTO_LEVEL_APPLICATION) return 0;
    return self(userData).setupHttp3Locked() ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
  }

  static int handshakeCompleted(ngtcp2_conn*, void* userData) TERN_NO_THREAD_SAFETY_ANALYSIS {
    return self(userData).handshakeCompletedLocked() ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
  }

  static int receiveStreamData(ngtcp2_conn* conn, uint32_t flags, int64_t streamId, uint64_t,
                               const uint8_t* data, size_t length, void* userData,
                               void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http3Connection& connection = self(userData);
    if (!connection.http3_) return 0;
    nghttp3_ssize consumed = nghttp3_conn_read_stream(connection.http3_, streamId, data, length,
                                                      (flags & NGTCP2_STREAM_DATA_FLAG_FIN) != 0);
    if (consumed < 0) {
      connection.lastError_ = nghttp3_strerror(static_cast<int>(consumed));
      connection.http3ErrorCode_ =
          nghttp3_err_infer_quic_app_error_code(static_cast<int>(consumed));
      return NGTCP2_ERR_CALLBACK_FAILURE;
    }
    // Framing and QPACK bytes nghttp3 used up; body bytes are credited in onData().
    ngtcp2_conn_extend_max_stream_offset(conn, streamId, static_cast<uint64_t>(consumed));
    ngtcp2_conn_extend_max_offset(conn, static_cast<uint64_t>(consumed));
    return 0;
  }

  static int ackedStreamData(ngtcp2_conn*, int64_t streamId, uint64_t, uint64_t length,
                             void* userData, void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http3Connection& connection = self(userData);
    if (!connection.http3_) return 0;
    return nghttp3_conn_add_ack_offset(connection.http3_, streamId, length) == 0
               ? 0
               : NGTCP2_ERR_CALLBACK_FAILURE;
  }

  static int streamClose(ngtcp2_conn* conn, uint32_t flags, int64_t streamId, uint64_t code,
                         void* userData, void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http3Connection& connection = self(userData);
    if (!(flags & NGTCP2_STREAM_CLOSE_FLAG_APP_ERROR_CODE_SET)) code = NGHTTP3_H3_NO_ERROR;
    if (connection.http3_) {
      int result = nghttp3_conn_close_stream(connection.http3_, streamId, code);
      if (result == 0 && ngtcp2_is_bidi_stream(streamId)) {
        // A request stream ends in nghttp3's stream_close (http3StreamClose): at once, or, when
        // its response waits for QPACK encoder instructions still on their way (a blocked stream,
        // RFC 9204 §2.1.2: a lost datagram is enough), once they came and nghttp3 delivered the
        // response. QUIC has all of the stream's bytes by now: closing it here would fail a
        // response that is complete.
        return 0;
      }
      if (result == NGHTTP3_ERR_STREAM_NOT_FOUND) {
        // Opened by the peer but nothing came on it: nghttp3 never saw it.
        if (!ngtcp2_is_bidi_stream(streamId)) ngtcp2_conn_extend_max_streams_uni(conn, 1);
      } else if (result != 0) {
        connection.lastError_ = nghttp3_strerror(result);
        connection.http3ErrorCode_ = nghttp3_err_infer_quic_app_error_code(result);
        return NGTCP2_ERR_CALLBACK_FAILURE;
      }
    }
    closeRequestStream(connection, streamId, code);
    return 0;
  }

  // The request stream `streamId` is closed in ngtcp2 and nghttp3: its Http3Stream hears how.
  static void closeRequestStream(Http3Connection& connection, int64_t streamId,
                                 uint64_t code) TERN_NO_THREAD_SAFETY_ANALYSIS {
    auto it = connection.streams_.find(streamId);
    if (it == connection.streams_.end()) return;
    it->second->assertLockIs(connection.mutex_);
    it->second->closedLocked(code);
    connection.streams_.erase(it);
  }

  static int streamReset(ngtcp2_conn*, int64_t streamId, uint64_t, uint64_t code, void* userData,
                         void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http3Connection& connection = self(userData);
    if (connection.http3_ && nghttp3_conn_shutdown_stream_read(connection.http3_, streamId) != 0) {
      return NGTCP2_ERR_CALLBACK_FAILURE;
    }
    if (Http3Stream* stream = connection.streamLocked(streamId)) stream->resetByPeerLocked(code);
    return 0;
  }

  // ngtcp2 0.12 calls this when the local side stops reading the stream (its own
  // shutdown_stream_read or shutdown_stream: a cancel, a timeout), not for a peer's STOP_SENDING,
  // which it answers with RESET_STREAM on its own; the stream then closes (see
  // Http3Stream::StreamSink::write).
  static int streamStopSending(ngtcp2_conn*, int64_t streamId, uint64_t code, void* userData,
                               void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http3Connection& connection = self(userData);
    if (connection.http3_ && nghttp3_conn_shutdown_stream_read(connection.http3_, streamId) != 0) {
      return NGTCP2_ERR_CALLBACK_FAILURE;
    }
    if (Http3Stream* stream = connection.streamLocked(streamId)) {
      stream->stopSendingByPeerLocked(code);
    }
    return 0;
  }

  static int extendMaxStreamData(ngtcp2_conn*, int64_t streamId, uint64_t, void* userData,
                                 void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http3Connection& connection = self(userData);
    if (!connection.http3_) return 0;
    return nghttp3_conn_unblock_stream(connection.http3_, streamId) == 0
               ? 0
               : NGTCP2_ERR_CALLBACK_FAILURE;
  }

  // nghttp3 --------------------------------------------------------------------------------------

  static int ackedBody(nghttp3_conn*, int64_t streamId, uint64_t length, void* userData,
                       void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    if (Http3Stream* stream = self(userData).streamLocked(streamId)) {
      stream->ackRequestBodyLocked(length);
    }
    return 0;
  }

  static int http3StreamClose(nghttp3_conn*, int64_t streamId, uint64_t code, void* userData,
                              void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    // A unidirectional stream of the peer's ended: it may open another (RFC 9114 §6.2).
    if (!ngtcp2_is_bidi_stream(streamId)) {
      ngtcp2_conn_extend_max_streams_uni(self(userData).conn_, 1);
      return 0;
    }
    // A request stream, after its response was delivered (see streamClose): `code` is the one
    // ngtcp2 closed it with.
    closeRequestStream(self(userData), streamId, code);
    return 0;
  }

  static int onData(nghttp3_conn*, int64_t streamId, const uint8_t* data, size_t length,
                    void* userData, void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http3Connection& connection = self(userData);
    // The connection's window is freed at once: buffering is per stream (see Http3Stream).
    ngtcp2_conn_extend_max_offset(connection.conn_, length);
    Http3Stream* stream = connection.streamLocked(streamId);
    if (!stream || !stream->receiveDataLocked(data, length)) {
      // Nobody will read it: free the stream's window too.
      ngtcp2_conn_extend_max_stream_offset(connection.conn_, streamId, length);
    }
    return 0;
  }

  static int deferredConsume(nghttp3_conn*, int64_t streamId, size_t consumed, void* userData,
                             void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http3Connection& connection = self(userData);
    ngtcp2_conn_extend_max_stream_offset(connection.conn_, streamId, consumed);
    ngtcp2_conn_extend_max_offset(connection.conn_, consumed);
    return 0;
  }

  static int beginHeaders(nghttp3_conn*, int64_t streamId, void* userData,
                          void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    if (Http3Stream* stream = self(userData).streamLocked(streamId)) stream->beginHeadersLocked();
    return 0;
  }

  static int onHeader(nghttp3_conn*, int64_t streamId, int32_t, nghttp3_rcbuf* name,
                      nghttp3_rcbuf* value, uint8_t, void* userData,
                      void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http3Connection& connection = self(userData);
    Http3Stream* stream = connection.streamLocked(streamId);
    if (!stream) return 0;
    nghttp3_vec n = nghttp3_rcbuf_get_buf(name);
    nghttp3_vec v = nghttp3_rcbuf_get_buf(value);
    if (!stream->addHeaderLocked(std::string(reinterpret_cast<const char*>(n.base), n.len),
                                 std::string(reinterpret_cast<const char*>(v.base), v.len))) {
      // Over a limit: the stream failed; stop the peer (RFC 9114 §4.2.2).
      connection.resetStreamLocked(*stream,
                                   static_cast<uint64_t>(Http3ErrorCode::H3_EXCESSIVE_LOAD));
    }
    return 0;
  }

  static int endHeaders(nghttp3_conn*, int64_t streamId, int fin, void* userData,
                        void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    if (Http3Stream* stream = self(userData).streamLocked(streamId)) {
      stream->endHeadersLocked(false, fin != 0);
    }
    return 0;
  }

  static int endTrailers(nghttp3_conn*, int64_t streamId, int fin, void* userData,
                         void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    if (Http3Stream* stream = self(userData).streamLocked(streamId)) {
      stream->endHeadersLocked(true, fin != 0);
    }
    return 0;
  }

  static int endStream(nghttp3_conn*, int64_t streamId, void* userData,
                       void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    if (Http3Stream* stream = self(userData).streamLocked(streamId)) {
      stream->receiveEndStreamLocked();
    }
    return 0;
  }

  static int stopSending(nghttp3_conn*, int64_t streamId, uint64_t code, void* userData,
                         void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    int result = ngtcp2_conn_shutdown_stream_read(self(userData).conn_, streamId, code);
    return result == 0 || result == NGTCP2_ERR_STREAM_NOT_FOUND ? 0 : NGHTTP3_ERR_CALLBACK_FAILURE;
  }

  static int resetStream(nghttp3_conn*, int64_t streamId, uint64_t code, void* userData,
                         void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    int result = ngtcp2_conn_shutdown_stream_write(self(userData).conn_, streamId, code);
    return result == 0 || result == NGTCP2_ERR_STREAM_NOT_FOUND ? 0 : NGHTTP3_ERR_CALLBACK_FAILURE;
  }

  static int goaway(nghttp3_conn*, int64_t id, void* userData) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http3Connection& connection = self(userData);
    if (!connection.shutdown_) {
      connection.shutdown_ = true;
      connection.shutdownToReport_ = true;
    }
    connection.goawayStreamId_ = id;
    // RFC 9114 §5.2: requests on streams at or above the GOAWAY's id were not processed; the
    // call may retry them elsewhere. Those below it finish normally.
    for (auto& [streamId, stream] : connection.streams_) {
      if (streamId < id) continue;
      stream->assertLockIs(connection.mutex_);
      stream->failLocked(std::make_exception_ptr(
          StreamResetException(static_cast<uint32_t>(Http3ErrorCode::H3_REQUEST_REJECTED),
                               "stream was reset: H3_REQUEST_REJECTED (GOAWAY received from " +
                                   connection.peerName_ + ")")));
    }
    return 0;
  }

  static nghttp3_ssize readRequestBody(nghttp3_conn*, int64_t streamId, nghttp3_vec* vec,
                                       size_t count, uint32_t* flags, void* userData,
                                       void*) TERN_NO_THREAD_SAFETY_ANALYSIS {
    Http3Stream* stream = self(userData).streamLocked(streamId);
    if (!stream) return NGHTTP3_ERR_CALLBACK_FAILURE;
    bool eof = false;
    int64_t filled = stream->readRequestBodyLocked(vec, count, eof);
    if (filled < 0) return NGHTTP3_ERR_WOULDBLOCK;
    if (eof) *flags |= NGHTTP3_DATA_FLAG_EOF;
    return static_cast<nghttp3_ssize>(filled);
  }
};

Http3Connection::Http3Connection(std::string host, InetSocketAddress address,
                                 PeerVerifier verifyPeer, Listener& listener)
    : host_(std::move(host)),
      address_(std::move(address)),
      verifyPeer_(std::move(verifyPeer)),
      listener_(listener),
      peerName_(describeHost(host_, address_.port())),
      connRef_(std::make_unique<ngtcp2_crypto_conn_ref>()) {
  connRef_->get_conn = &Http3Callbacks::connFromRef;
  connRef_->user_data = this;
}

Http3Connection::~Http3Connection() {
  close();
  MutexLock lock(mutex_);
  releaseLocked();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void Http3Connection::releaseLocked() noexcept {
  if (http3_) nghttp3_conn_del(http3_);
  http3_ = nullptr;
  if (conn_) ngtcp2_conn_del(conn_);
  conn_ = nullptr;
  if (session_) gnutls_deinit(session_);
  session_ = nullptr;
  if (credentials_) gnutls_certificate_free_credentials(credentials_);
  credentials_ = nullptr;
}

void Http3Connection::connect(std::chrono::milliseconds timeout) {
  const auto start = std::chrono::steady_clock::now();
  SockaddrStorage remote = toSockaddr(address_);
  {
    MutexLock lock(mutex_);
    if (conn_ || closed_) throw std::logic_error("Http3Connection: connect() called twice");
    fd_ = ::socket(remote.storage.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd_ < 0 ||
        ::connect(fd_, reinterpret_cast<const sockaddr*>(&remote.storage), remote.length) != 0) {
      const int error = errno;
      throw ConnectException("Failed to connect to " + peerName_ + " over HTTP/3 (" +
                             address_.toString() + "): " + errorMessage(error));
    }
    remoteAddress_ = remote.storage;
    remoteAddressLength_ = remote.length;
    localAddressLength_ = sizeof(localAddress_);
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&localAddress_), &localAddressLength_) !=
        0) {
      const int error = errno;
      throw ConnectException("Failed to connect to " + peerName_ +
                             " over HTTP/3: getsockname: " + errorMessage(error));
    }

    // TLS: GnuTLS carries the handshake; verifyPeer decides trust (see the class comment).
    if (gnutls_certificate_allocate_credentials(&credentials_) != 0 ||
        gnutls_init(&session_, GNUTLS_CLIENT) != 0 ||
        gnutls_priority_set_direct(session_, kPriority, nullptr) != 0 ||
        ngtcp2_crypto_gnutls_configure_client_session(session_) != 0 ||
        gnutls_credentials_set(session_, GNUTLS_CRD_CERTIFICATE, credentials_) != 0) {
      throw SSLHandshakeException("HTTP/3 TLS setup for " + peerName_ + " failed");
    }
    gnutls_session_set_ptr(session_, connRef_.get());
    gnutls_session_set_verify_function(session_, &Http3Callbacks::verifyPeer);
    gnutls_datum_t alpn{reinterpret_cast<unsigned char*>(const_cast<char*>(kAlpn)),
                        sizeof(kAlpn) - 1};
    gnutls_alpn_set_protocols(session_, &alpn, 1, GNUTLS_ALPN_MANDATORY);
    if (!isIpLiteral(host_)) {  // RFC 6066 §3: no IP literals in SNI.
      gnutls_server_name_set(session_, GNUTLS_NAME_DNS, host_.data(), host_.size());
    }

    // QUIC.
    ngtcp2_callbacks callbacks{};
    callbacks.client_initial = ngtcp2_crypto_client_initial_cb;
    callbacks.recv_crypto_data = ngtcp2_crypto_recv_crypto_data_cb;
    callbacks.handshake_completed = &Http3Callbacks::handshakeCompleted;
    callbacks.encrypt = ngtcp2_crypto_encrypt_cb;
    callbacks.decrypt = ngtcp2_crypto_decrypt_cb;
    callbacks.hp_mask = ngtcp2_crypto_hp_mask_cb;
    callbacks.recv_stream_data = &Http3Callbacks::receiveStreamData;
    callbacks.acked_stream_data_offset = &Http3Callbacks::ackedStreamData;
    callbacks.stream_close = &Http3Callbacks::streamClose;
    callbacks.recv_retry = ngtcp2_crypto_recv_retry_cb;
    callbacks.rand = &Http3Callbacks::random;
    callbacks.get_new_connection_id = &Http3Callbacks::newConnectionId;
    callbacks.update_key = ngtcp2_crypto_update_key_cb;
    callbacks.stream_reset = &Http3Callbacks::streamReset;
    callbacks.extend_max_stream_data = &Http3Callbacks::extendMaxStreamData;
    callbacks.delete_crypto_aead_ctx = ngtcp2_crypto_delete_crypto_aead_ctx_cb;
    callbacks.delete_crypto_cipher_ctx = ngtcp2_crypto_delete_crypto_cipher_ctx_cb;
    callbacks.get_path_challenge_data = ngtcp2_crypto_get_path_challenge_data_cb;
    callbacks.stream_stop_sending = &Http3Callbacks::streamStopSending;
    callbacks.version_negotiation = ngtcp2_crypto_version_negotiation_cb;
    callbacks.recv_rx_key = &Http3Callbacks::receiveKey;

    ngtcp2_settings settings;
    ngtcp2_settings_default(&settings);
    settings.initial_ts = timestamp();
    if (timeout.count() > 0) {
      settings.handshake_timeout =
          static_cast<ngtcp2_duration>(timeout.count()) * NGTCP2_MILLISECONDS;
      connectTimeout_ = timeout;
    }
    ngtcp2_transport_params params;
    ngtcp2_transport_params_default(&params);
    params.initial_max_data = kClientWindowSize;
    params.initial_max_stream_data_bidi_local = kClientWindowSize;  // Our request streams.
    params.initial_max_stream_data_uni = 256 * 1024;                // The peer's control, QPACK.
    params.initial_max_streams_bidi = 0;  // No server-initiated bidirectional streams in HTTP/3.
    params.initial_max_streams_uni = 3;   // Control, QPACK encoder and decoder (no push).
    params.max_idle_timeout = static_cast<ngtcp2_duration>(kIdleTimeout.count()) * NGTCP2_SECONDS;

    ngtcp2_cid dcid;
    ngtcp2_cid scid;
    dcid.datalen = 18;
    scid.datalen = 17;
    if (gnutls_rnd(GNUTLS_RND_RANDOM, dcid.data, dcid.datalen) != 0 ||
        gnutls_rnd(GNUTLS_RND_RANDOM, scid.data, scid.datalen) != 0) {
      throw IOException("HTTP/3 connection to " + peerName_ + ": no random connection ID");
    }
    ngtcp2_path path{{reinterpret_cast<sockaddr*>(&localAddress_), localAddressLength_},
                     {reinterpret_cast<sockaddr*>(&remoteAddress_), remoteAddressLength_},
                     nullptr};
    if (ngtcp2_conn_client_new(&conn_, &dcid, &scid, &path, NGTCP2_PROTO_VER_V1, &callbacks,
                               &settings, &params, nullptr, this) != 0) {
      throw std::bad_alloc();
    }
    ngtcp2_conn_set_tls_native_handle(conn_, session_);
  }
  reader_ = std::thread(&Http3Connection::readerLoop, this);

  std::exception_ptr failure;
  {
    MutexLock lock(mutex_);
    auto done = [this]() TERN_REQUIRES(mutex_) { return handshakeCompleted_ || failure_; };
    if (timeout.count() == 0) {
      handshakeChanged_.wait(lock.native(), done);
    } else if (!handshakeChanged_.wait_until(lock.native(), start + timeout, done)) {
      // UDP says nothing when nobody listens behind a firewall: silence is all there is.
      failConnectionLocked(std::make_exception_ptr(SocketTimeoutException(
          "HTTP/3 connect to " + peerName_ + " (" + address_.toString() + ") timed out after " +
          std::to_string(timeout.count()) + " ms: no QUIC handshake answer")));
    }
    if (failure_) failure = verifyFailure_ ? verifyFailure_ : failure_;
  }
  if (failure) {
    close();
    std::rethrow_exception(failure);
  }
  deliverEvents();
}

bool Http3Connection::setupHttp3Locked() {
  if (http3_) return true;
  // RFC 9114 §6.2: the client opens a control stream and QPACK's two (RFC 9204 §4.2).
  if (ngtcp2_conn_get_max_local_streams_uni(conn_) < 3) {
    lastError_ = "the peer allows fewer than 3 unidirectional streams (RFC 9114 §6.2)";
    return false;
  }
  nghttp3_callbacks callbacks{};
  callbacks.acked_stream_data = &Http3Callbacks::ackedBody;
  callbacks.stream_close = &Http3Callbacks::http3StreamClose;
  callbacks.recv_data = &Http3Callbacks::onData;
  callbacks.deferred_consume = &Http3Callbacks::deferredConsume;
  callbacks.begin_headers = &Http3Callbacks::beginHeaders;
  callbacks.recv_header = &Http3Callbacks::onHeader;
  callbacks.end_headers = &Http3Callbacks::endHeaders;
  callbacks.begin_trailers = &Http3Callbacks::beginHeaders;
  callbacks.recv_trailer = &Http3Callbacks::onHeader;
  callbacks.end_trailers = &Http3Callbacks::endTrailers;
  callbacks.stop_sending = &Http3Callbacks::stopSending;
  callbacks.end_stream = &Http3Callbacks::endStream;
  callbacks.reset_stream = &Http3Callbacks::resetStream;
  callbacks.shutdown = &Http3Callbacks::goaway;
  nghttp3_settings settings;
  nghttp3_settings_default(&settings);
  settings.max_field_section_size = static_cast<uint64_t>(kMaxHeaderListSize);
  settings.qpack_max_dtable_capacity = 4096;
  settings.qpack_blocked_streams = 100;
  if (nghttp3_conn_client_new(&http3_, &callbacks, &settings, nghttp3_mem_default(), this) != 0) {
    lastError_ = "nghttp3_conn_client_new failed";
    return false;
  }
  int64_t control = -1;
  int64_t encoder = -1;
  int64_t decoder = -1;
  if (ngtcp2_conn_open_uni_stream(conn_, &control, nullptr) != 0 ||
      nghttp3_conn_bind_control_stream(http3_, control) != 0 ||
      ngtcp2_conn_open_uni_stream(conn_, &encoder, nullptr) != 0 ||
      ngtcp2_conn_open_uni_stream(conn_, &decoder, nullptr) != 0 ||
      nghttp3_conn_bind_qpack_streams(http3_, encoder, decoder) != 0) {
    lastError_ = "cannot open HTTP/3's control and QPACK streams";
    return false;
  }
  return true;
}

bool Http3Connection::handshakeCompletedLocked() {
  gnutls_datum_t selected{};
  if (gnutls_alpn_get_selected_protocol(session_, &selected) != 0 ||
      std::string(reinterpret_cast<const char*>(selected.data), selected.size) != kAlpn) {
    lastError_ = "the server did not select ALPN \"h3\"";
    return false;
  }
  alpn_ = kAlpn;
  tlsVersion_ = gnutls_protocol_get_version(session_) == GNUTLS_TLS1_3
                    ? "TLSv1.3"
                    : gnutls_protocol_get_name(gnutls_protocol_get_version(session_));
  const char* suite = gnutls_ciphersuite_get(session_);
  cipherSuite_ = suite ? suite : "";
  const ngtcp2_transport_params* params = ngtcp2_conn_get_remote_transport_params(conn_);
  maxConcurrentStreams_ =
      params ? static_cast<int>(std::min<uint64_t>(params->initial_max_streams_bidi, INT32_MAX))
             : 0;
  settingsChanged_ = true;
  handshakeCompleted_ = true;
  handshakeChanged_.notify_all();
  return true;
}

std::shared_ptr<Http3Stream> Http3Connection::newStream(const HeaderBlock& headers,
                                                        bool hasRequestBody) {
  std::shared_ptr<Http3Stream> stream;
  {
    MutexLock lock(mutex_);
    if (failure_) std::rethrow_exception(copyOf(failure_));
    if (shutdown_ || !http3_ || !handshakeCompleted_) {
      throw ConnectionShutdownException("HTTP/3 connection to " + peerName_ + " is shut down");
    }
    int64_t id = -1;
    int result = ngtcp2_conn_open_bidi_stream(conn_, &id, nullptr);
    if (result == NGTCP2_ERR_STREAM_ID_BLOCKED) {
      // QUIC's MAX_STREAMS (RFC 9000 §4.6): the peer raises it as streams close.
      throw ConnectionShutdownException("HTTP/3 connection to " + peerName_ +
                                            " is at its limit of " +
                                            std::to_string(maxConcurrentStreams_) + " streams",
                                        true);
    }
    if (result != 0) {
      throw ConnectionShutdownException("HTTP/3 connection to " + peerName_ +
                                        " cannot open a stream: " + ngtcp2_strerror(result));
    }
    std::vector<nghttp3_nv> nva;
    nva.reserve(headers.size());
    for (const auto& [name, value] : headers) {
      nva.push_back({reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
                     reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(),
                     value.size(), NGHTTP3_NV_FLAG_NONE});
    }
    stream = std::make_shared<Http3Stream>(*this, id, hasRequestBody);
    streams_[id] = stream;
    nghttp3_data_reader reader{&Http3Callbacks::readRequestBody};
    result = nghttp3_conn_submit_request(http3_, id, nva.data(), nva.size(),
                                         hasRequestBody ? &reader : nullptr, nullptr);
    if (result != 0) {
      streams_.erase(id);
      ngtcp2_conn_shutdown_stream(conn_, id,
                                  static_cast<uint64_t>(Http3ErrorCode::H3_REQUEST_CANCELLED));
      wakeReader();
      throw IOException("HTTP/3 request headers for stream " + std::to_string(id) + " to " +
                        peerName_ + " not sent: " + nghttp3_strerror(result));
    }
  }
  wakeReader();
  return stream;
}

bool Http3Connection::isHealthy() {
  MutexLock lock(mutex_);
  if (!handshakeCompleted_ || shutdown_ || failure_) return false;
  // A stream timed out and the peer has been silent since, past kDegradedTimeout: degraded.
  return !(degradedDeadline_ && std::chrono::steady_clock::now() >= *degradedDeadline_);
}

void Http3Connection::streamTimedOutLocked() {
  if (!degradedDeadline_) {
    degradedDeadline_ = std::chrono::steady_clock::now() + kDegradedTimeout;
  }
}

bool Http3Connection::isShutdown() {
  MutexLock lock(mutex_);
  return shutdown_ || failure_;
}

std::exception_ptr Http3Connection::failure() {
  MutexLock lock(mutex_);
  return failure_ ? copyOf(failure_) : nullptr;
}

int Http3Connection::maxConcurrentStreams() {
  MutexLock lock(mutex_);
  return maxConcurrentStreams_;
}

int Http3Connection::openStreamCount() {
  MutexLock lock(mutex_);
  return static_cast<int>(streams_.size());
}

Handshake Http3Connection::handshake() {
  MutexLock lock(mutex_);
  if (!handshakeCompleted_) throw std::logic_error("Http3Connection: handshake() before connect()");
  return Handshake(tlsVersionForJavaName(tlsVersion_), CipherSuite::forJavaName(cipherSuite_),
                   peerCertificates_, {});
}

InetSocketAddress Http3Connection::localAddress() {
  MutexLock lock(mutex_);
  if (localAddressLength_ == 0) throw std::logic_error("Http3Connection: not connected");
  return fromSockaddr(localAddress_, localAddressLength_);
}

std::string Http3Connection::applicationProtocol() {
  MutexLock lock(mutex_);
  return alpn_;
}

std::string Http3Connection::tlsVersionName() {
  MutexLock lock(mutex_);
  return tlsVersion_;
}

std::string Http3Connection::cipherSuiteName() {
  MutexLock lock(mutex_);
  return cipherSuite_;
}

void Http3Connection::assertLockIs(const Mutex& held) const {
  assert(&held == &mutex_);
  (void)held;
}

Http3Stream* Http3Connection::streamLocked(int64_t id) {
  auto it = streams_.find(id);
  if (it == streams_.end()) return nullptr;
  it->second->assertLockIs(mutex_);
  return it->second.get();
}

void Http3Connection::consumeLocked(Http3Stream& stream, uint64_t count) {
  stream.assertLockIs(mutex_);
  if (!conn_ || failure_ || stream.closedInSession_) return;
  ngtcp2_conn_extend_max_stream_offset(conn_, stream.id_, count);
}

void Http3Connection::resumeDataLocked(Http3Stream& stream) {
  stream.assertLockIs(mutex_);
  if (!stream.sendDeferred_ || !http3_ || failure_ || stream.closedInSession_) return;
  stream.sendDeferred_ = false;
  nghttp3_conn_resume_stream(http3_, stream.id_);
}

void Http3Connection::resetStreamLocked(Http3Stream& stream, uint64_t code) {
  stream.assertLockIs(mutex_);
  if (!conn_ || failure_ || stream.closedInSession_ || stream.resetSent_) return;
  stream.resetSent_ = true;
  // RFC 9114 §4.1.1: a client abandoning a request resets its half and asks the server to stop.
  ngtcp2_conn_shutdown_stream(conn_, stream.id_, code);
  if (http3_) {
    nghttp3_conn_shutdown_stream_write(http3_, stream.id_);
    nghttp3_conn_shutdown_stream_read(http3_, stream.id_);
  }
}

void Http3Connection::wakeReader() noexcept { wakeup_.signal(); }

void Http3Connection::readerLoop() {
  // Named, or it would carry its maker's name (a "tern Dispatcher" carrier's, say).
  ::pthread_setname_np(::pthread_self(), "tern H3 Reader");
  while (true) {
    std::vector<std::shared_ptr<Http3Stream>> wake;
    int timeoutMillis = -1;
    bool stop = false;
    {
      MutexLock lock(mutex_);
      if (stopReader_ || failure_ || !conn_) break;
      deferWakeups_ = true;
      std::exception_ptr e = receiveLocked();
      if (!e) e = handleExpiryLocked();
      if (!e) e = writeLocked();
      if (e) failConnectionLocked(e);
      deferWakeups_ = false;
      wake.swap(wakeups_);
      for (const auto& stream : wake) {
        stream->assertLockIs(mutex_);
        stream->wakeupPending_ = false;
      }
      stop = failure_ != nullptr;
      if (!stop) {
        const ngtcp2_tstamp expiry = ngtcp2_conn_get_expiry(conn_);
        const ngtcp2_tstamp now = timestamp();
        if (expiry != UINT64_MAX) {
          const uint64_t millis = expiry <= now ? 0 : (expiry - now + 999'999) / 1'000'000;
          timeoutMillis = static_cast<int>(std::min<uint64_t>(millis, INT_MAX));
        }
      }
    }
    for (const auto& stream : wake) stream->changed_.notify_all();
    deliverEvents();
    if (stop) break;
    pollfd fds[2] = {{fd_, POLLIN, 0}, {wakeup_.fd(), POLLIN, 0}};
    if (::poll(fds, 2, timeoutMillis) > 0 && (fds[1].revents & POLLIN)) wakeup_.drain();
  }
  deliverEvents();
}

std::exception_ptr Http3Connection::receiveLocked() {
  uint8_t datagram[65536];
  ngtcp2_path path{{reinterpret_cast<sockaddr*>(&localAddress_), localAddressLength_},
                   {reinterpret_cast<sockaddr*>(&remoteAddress_), remoteAddressLength_},
                   nullptr};
  for (int i = 0; i < kMaxDatagramsPerRead; ++i) {
    ssize_t length = ::recv(fd_, datagram, sizeof(datagram), MSG_DONTWAIT);
    if (length < 0) {
      const int error = errno;
      if (error == EAGAIN || error == EWOULDBLOCK) return nullptr;
      if (error == EINTR) continue;
      if (error == ECONNREFUSED) {
        // ICMP port unreachable: nothing (or nothing any more) listens on that UDP port.
        if (!handshakeCompleted_) {
          return std::make_exception_ptr(ConnectException(
              "Failed to connect to " + peerName_ + " over HTTP/3 (" + address_.toString() +
              "): " + errorMessage(error) + " (nothing answers QUIC on that UDP port)"));
        }
        return std::make_exception_ptr(IOException("HTTP/3 connection to " + peerName_ +
                                                   " failed: " + errorMessage(error) +
                                                   " (the peer is gone)"));
      }
      return std::make_exception_ptr(IOException("HTTP/3 connection to " + peerName_ +
                                                 ": receive failed: " + errorMessage(error)));
    }
    ngtcp2_pkt_info info{};
    int result = ngtcp2_conn_read_pkt(conn_, &path, &info, datagram, static_cast<size_t>(length),
                                      timestamp());
    if (result != 0) return readFailureLocked(result);
    degradedDeadline_.reset();  // The peer is there.
  }
  wakeReader();  // More may be waiting: come back after the timers and writes had their turn.
  return nullptr;
}

std::exception_ptr Http3Connection::readFailureLocked(int result) {
  ngtcp2_connection_close_error error;
  ngtcp2_connection_close_error_default(&error);
  if (verifyFailure_) {
    // tern refused the certificate: tell the peer (bad_certificate), report what the verifier
    // threw (a copy: the original is connect()'s to rethrow).
    ngtcp2_connection_close_error_set_transport_error_tls_alert(
        &error, static_cast<uint8_t>(GNUTLS_A_BAD_CERTIFICATE), nullptr, 0);
    sendConnectionCloseLocked(&error);
    return copyOf(verifyFailure_);
  }
  if (result == NGTCP2_ERR_DRAINING) {
    // The peer sent CONNECTION_CLOSE (ngtcp2 0.12 does not say with which code).
    if (!handshakeCompleted_) {
      return std::make_exception_ptr(
          SSLHandshakeException("HTTP/3 handshake with " + peerName_ +
                                " failed: the peer closed the connection (CONNECTION_CLOSE)"));
    }
    return std::make_exception_ptr(IOException("HTTP/3 connection to " + peerName_ +
                                               " closed by the peer (CONNECTION_CLOSE)"));
  }
  if (result == NGTCP2_ERR_DROP_CONN) {
    return std::make_exception_ptr(
        IOException("HTTP/3 connection to " + peerName_ + " dropped: " + ngtcp2_strerror(result)));
  }
  if (result == NGTCP2_ERR_CRYPTO) {
    const uint8_t alert = ngtcp2_conn_get_tls_alert(conn_);
    ngtcp2_connection_close_error_set_transport_error_tls_alert(&error, alert, nullptr, 0);
    sendConnectionCloseLocked(&error);
    const char* name = gnutls_alert_get_name(static_cast<gnutls_alert_description_t>(alert));
    std::string reason = !lastError_.empty() ? lastError_
                         : name              ? std::string("TLS alert ") + name
                                             : std::string(ngtcp2_strerror(result));
    return std::make_exception_ptr(
        SSLHandshakeException("HTTP/3 TLS handshake with " + peerName_ + " failed: " + reason));
  }
  if (result == NGTCP2_ERR_CALLBACK_FAILURE && !handshakeCompleted_ && !lastError_.empty()) {
    // handshakeCompletedLocked() or setupHttp3Locked() refused the peer.
    ngtcp2_connection_close_error_set_transport_error_liberr(&error, result, nullptr, 0);
    sendConnectionCloseLocked(&error);
    return std::make_exception_ptr(
        SSLHandshakeException("HTTP/3 handshake with " + peerName_ + " failed: " + lastError_));
  }
  if (result == NGTCP2_ERR_CALLBACK_FAILURE && http3ErrorCode_ != 0) {
    // nghttp3 found the peer broke HTTP/3 (RFC 9114 §8): close with its code.
    ngtcp2_connection_close_error_set_application_error(&error, http3ErrorCode_, nullptr, 0);
    sendConnectionCloseLocked(&error);
    return std::make_exception_ptr(
        ProtocolException("HTTP/3 protocol error from " + peerName_ + ": " + lastError_ +
                          " (CONNECTION_CLOSE " + http3ErrorCodeName(http3ErrorCode_) + " sent)"));
  }
  ngtcp2_connection_close_error_set_transport_error_liberr(&error, result, nullptr, 0);
  sendConnectionCloseLocked(&error);
  return std::make_exception_ptr(ProtocolException("QUIC error on HTTP/3 connection to " +
                                                   peerName_ + ": " + ngtcp2_strerror(result)));
}

std::exception_ptr Http3Connection::handleExpiryLocked() {
  const ngtcp2_tstamp now = timestamp();
  if (ngtcp2_conn_get_expiry(conn_) > now) return nullptr;
  int result = ngtcp2_conn_handle_expiry(conn_, now);
  if (result == 0) return nullptr;
  if (result == NGTCP2_ERR_IDLE_CLOSE || result == NGTCP2_ERR_HANDSHAKE_TIMEOUT) {
    // Silence: QUIC closes without a word (RFC 9000 §10.1).
    if (!handshakeCompleted_) {
      // connect()'s own wait says the same when it wakes first: one fault, one message.
      const std::string after = connectTimeout_.count() > 0
                                    ? " after " + std::to_string(connectTimeout_.count()) + " ms"
                                    : "";
      return std::make_exception_ptr(
          SocketTimeoutException("HTTP/3 connect to " + peerName_ + " (" + address_.toString() +
                                 ") timed out" + after + ": no QUIC handshake answer"));
    }
    return std::make_exception_ptr(
        IOException("HTTP/3 connection to " + peerName_ + " closed: idle for " +
                    std::to_string(kIdleTimeout.count()) + " s (QUIC idle timeout)"));
  }
  ngtcp2_connection_close_error error;
  ngtcp2_connection_close_error_default(&error);
  ngtcp2_connection_close_error_set_transport_error_liberr(&error, result, nullptr, 0);
  sendConnectionCloseLocked(&error);
  return std::make_exception_ptr(IOException("QUIC error on HTTP/3 connection to " + peerName_ +
                                             ": " + ngtcp2_strerror(result)));
}

std::exception_ptr Http3Connection::writeLocked() {
  uint8_t
      packet[NGTCP2_MAX_PMTUD_UDP_PAYLOAD_SIZE > 1500 ? NGTCP2_MAX_PMTUD_UDP_PAYLOAD_SIZE : 1500];
  const size_t maxPayload =
      std::min(ngtcp2_conn_get_max_tx_udp_payload_size(conn_), sizeof(packet));
  const size_t maxPackets = std::max<size_t>(1, ngtcp2_conn_get_send_quantum(conn_) / maxPayload);
  const ngtcp2_tstamp now = timestamp();
  ngtcp2_path_storage path;
  ngtcp2_path_storage_zero(&path);
  size_t packets = 0;
  while (true) {
    int64_t streamId = -1;
    int fin = 0;
    nghttp3_vec vec[16];
    nghttp3_ssize count = 0;
    if (http3_ && ngtcp2_conn_get_max_data_left(conn_)) {
      count = nghttp3_conn_writev_stream(http3_, &streamId, &fin, vec, std::size(vec));
      if (count < 0) {
        lastError_ = nghttp3_strerror(static_cast<int>(count));
        ngtcp2_connection_close_error error;
        ngtcp2_connection_close_error_default(&error);
        ngtcp2_connection_close_error_set_application_error(
            &error, nghttp3_err_infer_quic_app_error_code(static_cast<int>(count)), nullptr, 0);
        sendConnectionCloseLocked(&error);
        return std::make_exception_ptr(
            IOException("HTTP/3 connection to " + peerName_ + " failed: " + lastError_));
      }
    }
    uint32_t flags = NGTCP2_WRITE_STREAM_FLAG_MORE;
    if (fin) flags |= NGTCP2_WRITE_STREAM_FLAG_FIN;
    ngtcp2_ssize accepted = -1;
    ngtcp2_pkt_info info{};
    ngtcp2_ssize written = ngtcp2_conn_writev_stream(
        conn_, &path.path, &info, packet, maxPayload, &accepted, flags, streamId,
        reinterpret_cast<const ngtcp2_vec*>(vec), static_cast<size_t>(count), now);
    if (written < 0) {
      switch (written) {
        case NGTCP2_ERR_STREAM_DATA_BLOCKED:  // QUIC flow control: wait for MAX_STREAM_DATA.
          nghttp3_conn_block_stream(http3_, streamId);
          continue;
        case NGTCP2_ERR_STREAM_SHUT_WR:  // Reset meanwhile.
          nghttp3_conn_shutdown_stream_write(http3_, streamId);
          continue;
        case NGTCP2_ERR_WRITE_MORE:  // The packet has room for more.
          if (nghttp3_conn_add_write_offset(http3_, streamId, static_cast<uint64_t>(accepted)) !=
              0) {
            return std::make_exception_ptr(
                IOException("HTTP/3 connection to " + peerName_ + ": nghttp3 write failed"));
          }
          continue;
        default: {
          ngtcp2_connection_close_error error;
          ngtcp2_connection_close_error_default(&error);
          ngtcp2_connection_close_error_set_transport_error_liberr(
              &error, static_cast<int>(written), nullptr, 0);
          sendConnectionCloseLocked(&error);
          return std::make_exception_ptr(IOException("QUIC error on HTTP/3 connection to " +
                                                     peerName_ + ": " +
                                                     ngtcp2_strerror(static_cast<int>(written))));
        }
      }
    }
    if (accepted >= 0 &&
        nghttp3_conn_add_write_offset(http3_, streamId, static_cast<uint64_t>(accepted)) != 0) {
      return std::make_exception_ptr(
          IOException("HTTP/3 connection to " + peerName_ + ": nghttp3 write failed"));
    }
    if (written == 0) {  // Congestion control or pacing: ngtcp2's expiry says when to go on.
      ngtcp2_conn_update_pkt_tx_time(conn_, now);
      return nullptr;
    }
    if (::send(fd_, packet, static_cast<size_t>(written), 0) < 0) {
      const int error = errno;
      if (error == ECONNREFUSED) {
        return std::make_exception_ptr(
            handshakeCompleted_
                ? IOException("HTTP/3 connection to " + peerName_ +
                              " failed: " + errorMessage(error) + " (the peer is gone)")
                : ConnectException("Failed to connect to " + peerName_ + " over HTTP/3 (" +
                                   address_.toString() + "): " + errorMessage(error)));
      }
      // EAGAIN, ENOBUFS: the datagram is lost, and QUIC's loss recovery sends it again.
      if (error != EAGAIN && error != EWOULDBLOCK && error != ENOBUFS && error != EINTR) {
        return std::make_exception_ptr(IOException("HTTP/3 connection to " + peerName_ +
                                                   ": send failed: " + errorMessage(error)));
      }
      ngtcp2_conn_update_pkt_tx_time(conn_, now);
      return nullptr;
    }
    if (++packets >= maxPackets) {
      ngtcp2_conn_update_pkt_tx_time(conn_, now);
      return nullptr;
    }
  }
}

void Http3Connection::sendConnectionCloseLocked(const ngtcp2_connection_close_error* error) {
  if (!conn_ || ngtcp2_conn_is_in_closing_period(conn_) ||
      ngtcp2_conn_is_in_draining_period(conn_)) {
    return;
  }
  uint8_t packet[NGTCP2_MAX_UDP_PAYLOAD_SIZE];
  ngtcp2_path_storage path;
  ngtcp2_path_storage_zero(&path);
  ngtcp2_pkt_info info{};
  ngtcp2_ssize written = ngtcp2_conn_write_connection_close(conn_, &path.path, &info, packet,
                                                            sizeof(packet), error, timestamp());
  // Best effort: a lost CONNECTION_CLOSE ends in the peer's idle timeout.
  if (written > 0) (void)::send(fd_, packet, static_cast<size_t>(written), 0);
}

void Http3Connection::failConnectionLocked(std::exception_ptr e) {
  if (failure_) return;
  failure_ = copyOf(e);  // Not the object a thread may be throwing (see copyOf()).
  if (!shutdown_) shutdownToReport_ = true;
  shutdown_ = true;
  for (auto& [id, stream] : streams_) {
    stream->assertLockIs(mutex_);
    stream->failLocked(failure_);
  }
  streams_.clear();
  handshakeChanged_.notify_all();
}

void Http3Connection::deliverEvents() {
  bool settings;
  bool shutdown;
  int maxConcurrentStreams;
  {
    MutexLock lock(mutex_);
    if (closed_) return;  // The owner is closing us; it needs no news.
    settings = std::exchange(settingsChanged_, false);
    shutdown = std::exchange(shutdownToReport_, false);
    maxConcurrentStreams = maxConcurrentStreams_;
  }
  if (settings) listener_.onSettings(maxConcurrentStreams);
  if (shutdown) listener_.onShutdown();
}

void Http3Connection::cancel() {
  {
    MutexLock lock(mutex_);
    if (closed_) return;
    failConnectionLocked(std::make_exception_ptr(InterruptedIOException("Canceled")));
    stopReader_ = true;
  }
  wakeReader();
}

void Http3Connection::close() {
  {
    MutexLock lock(mutex_);
    if (closed_) return;
    closed_ = true;
    if (conn_ && !failure_ && handshakeCompleted_) {
      // RFC 9114 §5.2: an orderly close is CONNECTION_CLOSE with H3_NO_ERROR.
      ngtcp2_connection_close_error error;
      ngtcp2_connection_close_error_default(&error);
      ngtcp2_connection_close_error_set_application_error(
          &error, static_cast<uint64_t>(Http3ErrorCode::H3_NO_ERROR), nullptr, 0);
      sendConnectionCloseLocked(&error);
    }
    failConnectionLocked(
        std::make_exception_ptr(IOException("HTTP/3 connection to " + peerName_ + " closed")));
    stopReader_ = true;
  }
  wakeReader();
  if (reader_.joinable()) reader_.join();
}

}  // namespace tern::internal
