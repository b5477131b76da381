// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "http3_server.h"

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <nghttp3/nghttp3.h>
#include <ngtcp2/ngtcp2.h>
#include <ngtcp2/ngtcp2_crypto.h>
#include <ngtcp2/ngtcp2_crypto_gnutls.h>
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <stdexcept>

#include "http2_header_block.h"
#include "tern/exceptions.h"

namespace tern::mockwebserver::internal {
namespace {

// As the client's (src/http3): TLS 1.3 only, QUIC's AEADs, no middlebox compatibility mode.
constexpr char kPriority[] =
    "NORMAL:-VERS-ALL:+VERS-TLS1.3:-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305:"
    "+AES-128-CCM:-GROUP-ALL:+GROUP-X25519:+GROUP-SECP256R1:+GROUP-SECP384R1:+GROUP-SECP521R1:"
    "%DISABLE_TLS13_COMPAT_MODE";
constexpr char kAlpn[] = "h3";

constexpr uint64_t kWindowSize = 16 * 1024 * 1024;
// Request streams a client may have open at once (initial_max_streams_bidi).
constexpr uint64_t kMaxConcurrentStreams = 100;
// Response body bytes queued on a stream and not yet acknowledged by the client.
constexpr int64_t kMaxBufferedResponseBytes = 1024 * 1024;
constexpr std::chrono::seconds kIdleTimeout{30};
// The length of the server's connection IDs: a short header carries no length, so every ID the
// server issues has this one (ngtcp2 asks for new ones of the same length).
constexpr size_t kConnectionIdLength = 18;

ngtcp2_tstamp timestamp() {
  return static_cast<ngtcp2_tstamp>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

std::string cidKey(const uint8_t* data, size_t length) {
  return std::string(reinterpret_cast<const char*>(data), length);
}

// A socket policy's HTTP/2 error code as the HTTP/3 code of the same meaning (RFC 9114 §A.4.1).
uint64_t http3CodeFor(uint32_t http2ErrorCode) {
  switch (http2ErrorCode) {
    case 0x0:
      return NGHTTP3_H3_NO_ERROR;
    case 0x1:
      return NGHTTP3_H3_GENERAL_PROTOCOL_ERROR;
    case 0x7:
      return NGHTTP3_H3_REQUEST_REJECTED;
    case 0x8:
      return NGHTTP3_H3_REQUEST_CANCELLED;
    case 0xb:
      return NGHTTP3_H3_EXCESSIVE_LOAD;
    default:
      return NGHTTP3_H3_INTERNAL_ERROR;
  }
}

// nghttp3's view of a header block (it copies what it is given).
std::vector<nghttp3_nv> nameValues(NameValues& block) {
  std::vector<nghttp3_nv> result;
  result.reserve(block.storage.size());
  for (auto& [name, value] : block.storage) {
    result.push_back({reinterpret_cast<uint8_t*>(name.data()),
                      reinterpret_cast<uint8_t*>(value.data()), name.size(), value.size(),
                      NGHTTP3_NV_FLAG_NONE});
  }
  return result;
}

}  // namespace

struct Http3Server::Stream {
  int64_t id = 0;
  int sequenceNumber = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // Pseudo-headers included.
  std::unique_ptr<TruncatingSink> body;
  bool dispatched = false;  // A responder thread owns it.
  bool closed = false;      // QUIC closed it (both directions done, or reset).
  // Response body bytes, in chunks nghttp3 points into until the client acknowledges them.
  std::deque<std::string> out;
  size_t handedChunks = 0;    // The first `handedChunks` of `out` were given to nghttp3.
  uint64_t ackedInFront = 0;  // Bytes of out.front() acknowledged already.
  int64_t unacked = 0;        // Bytes in `out` not yet acknowledged.
  bool outEnd = false;        // No more body.
  bool deferred = false;      // nghttp3 waits for nghttp3_conn_resume_stream().
  Headers trailers;           // Sent after the body, if any.
  std::condition_variable changed;
};

struct Http3Server::Connection {
  Http3Server* server = nullptr;
  int index = 0;
  ngtcp2_conn* conn = nullptr;
  nghttp3_conn* http3 = nullptr;
  gnutls_session_t session = nullptr;
  ngtcp2_crypto_conn_ref connRef{};
  sockaddr_storage remote{};
  socklen_t remoteLength = 0;
  std::map<int64_t, std::shared_ptr<Stream>> streams;
  bool ended = false;  // Closed or failed: the server thread forgets it.
  bool handshakeCompleted = false;
  std::optional<Handshake> handshake;
  std::vector<std::string> serverNames;
  int nextSequenceNumber = 0;

  ~Connection() {
    if (http3) nghttp3_conn_del(http3);
    if (conn) ngtcp2_conn_del(conn);
    if (session) gnutls_deinit(session);
  }

  ngtcp2_path path(Http3Server& s) {
    return ngtcp2_path{{reinterpret_cast<sockaddr*>(&s.localAddress_), s.localAddressLength_},
                       {reinterpret_cast<sockaddr*>(&remote), remoteLength},
                       nullptr};
  }

  Stream* stream(int64_t id) {
    auto it = streams.find(id);
    return it == streams.end() ? nullptr : it->second.get();
  }
};

// ngtcp2's and nghttp3's callbacks. They run only inside ngtcp2's and nghttp3's functions, which
// run only under the server's lock.
struct Http3Server::Callbacks {
  static Connection& self(void* userData) { return *static_cast<Connection*>(userData); }

  // ngtcp2 ---------------------------------------------------------------------------------------

  static ngtcp2_conn* connFromRef(ngtcp2_crypto_conn_ref* ref) { return self(ref->user_data).conn; }

  static void random(uint8_t* dest, size_t length, const ngtcp2_rand_ctx*) {
    (void)gnutls_rnd(GNUTLS_RND_RANDOM, dest, length);
  }

  static int newConnectionId(ngtcp2_conn*, ngtcp2_cid* cid, uint8_t* token, size_t length,
                             void* userData) {
    if (gnutls_rnd(GNUTLS_RND_RANDOM, cid->data, length) != 0 ||
        gnutls_rnd(GNUTLS_RND_RANDOM, token, NGTCP2_STATELESS_RESET_TOKENLEN) != 0) {
      return NGTCP2_ERR_CALLBACK_FAILURE;
    }
    cid->datalen = length;
    Connection& c = self(userData);
    Http3Server& server = *c.server;
    for (const auto& connection : server.connections_) {
      if (connection.get() == &c) {
        server.connectionsById_[cidKey(cid->data, cid->datalen)] = connection;
        break;
      }
    }
    return 0;
  }

  static int removeConnectionId(ngtcp2_conn*, const ngtcp2_cid* cid, void* userData) {
    self(userData).server->connectionsById_.erase(cidKey(cid->data, cid->datalen));
    return 0;
  }

  static int receiveKey(ngtcp2_conn*, ngtcp2_crypto_level level, void* userData) {
    if (level != NGTCP2_CRYPTO_LEVEL_APPLICATION) return 0;
    Connection& c = self(userData);
    return c.server->setupHttp3Locked(c) ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
  }

  static int handshakeCompleted(ngtcp2_conn*, void* userData) {
    Connection& c = self(userData);
    c.handshakeCompleted = true;
    const char* suite = gnutls_ciphersuite_get(c.session);
    std::vector<Certificate> peer;  // Client certificates are not requested over QUIC.
    c.handshake.emplace(TlsVersion::TLS_1_3, CipherSuite::forJavaName(suite ? suite : ""),
                        std::move(peer), c.server->localCertificates_);
    char name[256];
    size_t nameLength = sizeof(name);
    unsigned int type = 0;
    if (gnutls_server_name_get(c.session, name, &nameLength, &type, 0) == 0 &&
        type == GNUTLS_NAME_DNS) {
      c.serverNames.emplace_back(name, nameLength);
    }
    return 0;
  }

  static int receiveStreamData(ngtcp2_conn* conn, uint32_t flags, int64_t streamId, uint64_t,
                               const uint8_t* data, size_t length, void* userData, void*) {
    Connection& c = self(userData);
    if (!c.http3) return 0;
    nghttp3_ssize consumed = nghttp3_conn_read_stream(c.http3, streamId, data, length,
                                                      (flags & NGTCP2_STREAM_DATA_FLAG_FIN) != 0);
    if (consumed < 0) return NGTCP2_ERR_CALLBACK_FAILURE;
    ngtcp2_conn_extend_max_stream_offset(conn, streamId, static_cast<uint64_t>(consumed));
    ngtcp2_conn_extend_max_offset(conn, static_cast<uint64_t>(consumed));
    return 0;
  }

  static int ackedStreamData(ngtcp2_conn*, int64_t streamId, uint64_t, uint64_t length,
                             void* userData, void*) {
    Connection& c = self(userData);
    if (!c.http3) return 0;
    return nghttp3_conn_add_ack_offset(c.http3, streamId, length) == 0
               ? 0
               : NGTCP2_ERR_CALLBACK_FAILURE;
  }

  static int streamClose(ngtcp2_conn* conn, uint32_t flags, int64_t streamId, uint64_t code,
                         void* userData, void*) {
    Connection& c = self(userData);
    if (!(flags & NGTCP2_STREAM_CLOSE_FLAG_APP_ERROR_CODE_SET)) code = NGHTTP3_H3_NO_ERROR;
    if (c.http3) {
      int result = nghttp3_conn_close_stream(c.http3, streamId, code);
      if (result == NGHTTP3_ERR_STREAM_NOT_FOUND) {
        if (!ngtcp2_is_bidi_stream(streamId)) ngtcp2_conn_extend_max_streams_uni(conn, 1);
      } else if (result != 0) {
        return NGTCP2_ERR_CALLBACK_FAILURE;
      }
    }
    if (ngtcp2_is_bidi_stream(streamId)) ngtcp2_conn_extend_max_streams_bidi(conn, 1);
    auto it = c.streams.find(streamId);
    if (it != c.streams.end()) {
      it->second->closed = true;
      it->second->changed.notify_all();
      c.streams.erase(it);
    }
    return 0;
  }

  static int streamReset(ngtcp2_conn*, int64_t streamId, uint64_t, uint64_t, void* userData,
                         void*) {
    Connection& c = self(userData);
    if (c.http3 && nghttp3_conn_shutdown_stream_read(c.http3, streamId) != 0) {
      return NGTCP2_ERR_CALLBACK_FAILURE;
    }
    return 0;
  }

  static int streamStopSending(ngtcp2_conn*, int64_t streamId, uint64_t, void* userData, void*) {
    Connection& c = self(userData);
    if (c.http3 && nghttp3_conn_shutdown_stream_read(c.http3, streamId) != 0) {
      return NGTCP2_ERR_CALLBACK_FAILURE;
    }
    return 0;
  }

  static int extendMaxRemoteStreamsBidi(ngtcp2_conn*, uint64_t maxStreams, void* userData) {
    Connection& c = self(userData);
    if (c.http3) nghttp3_conn_set_max_client_streams_bidi(c.http3, maxStreams);
    return 0;
  }

  static int extendMaxStreamData(ngtcp2_conn*, int64_t streamId, uint64_t, void* userData, void*) {
    Connection& c = self(userData);
    if (!c.http3) return 0;
    return nghttp3_conn_unblock_stream(c.http3, streamId) == 0 ? 0 : NGTCP2_ERR_CALLBACK_FAILURE;
  }

  // nghttp3 --------------------------------------------------------------------------------------

  static int ackedBody(nghttp3_conn*, int64_t streamId, uint64_t length, void* userData, void*) {
    Stream* s = self(userData).stream(streamId);
    if (!s) return 0;
    while (length > 0 && !s->out.empty()) {
      const uint64_t left = s->out.front().size() - s->ackedInFront;
      const uint64_t take = std::min(left, length);
      s->ackedInFront += take;
      s->unacked -= static_cast<int64_t>(take);
      length -= take;
      if (s->ackedInFront == s->out.front().size()) {
        s->out.pop_front();
        s->ackedInFront = 0;
        if (s->handedChunks > 0) --s->handedChunks;
      }
    }
    s->changed.notify_all();
    return 0;
  }

  static int http3StreamClose(nghttp3_conn*, int64_t streamId, uint64_t, void* userData, void*) {
    if (!ngtcp2_is_bidi_stream(streamId)) {
      ngtcp2_conn_extend_max_streams_uni(self(userData).conn, 1);
    }
    return 0;
  }

  static int onData(nghttp3_conn*, int64_t streamId, const uint8_t* data, size_t length,
                    void* userData, void*) {
    Connection& c = self(userData);
    ngtcp2_conn_extend_max_offset(c.conn, length);
    ngtcp2_conn_extend_max_stream_offset(c.conn, streamId, length);
    if (Stream* s = c.stream(streamId)) {
      Buffer bytes;
      bytes.write(data, length);
      s->body->write(bytes, static_cast<int64_t>(length));
    }
    return 0;
  }

  static int deferredConsume(nghttp3_conn*, int64_t streamId, size_t consumed, void* userData,
                             void*) {
    Connection& c = self(userData);
    ngtcp2_conn_extend_max_stream_offset(c.conn, streamId, consumed);
    ngtcp2_conn_extend_max_offset(c.conn, consumed);
    return 0;
  }

  static int beginHeaders(nghttp3_conn*, int64_t streamId, void* userData, void*) {
    Connection& c = self(userData);
    if (c.streams.count(streamId)) return 0;
    auto s = std::make_shared<Stream>();
    s->id = streamId;
    s->sequenceNumber = c.nextSequenceNumber++;
    s->body = std::make_unique<TruncatingSink>(c.server->server_.bodyLimit());
    c.streams[streamId] = std::move(s);
    return 0;
  }

  static int onHeader(nghttp3_conn*, int64_t streamId, int32_t, nghttp3_rcbuf* name,
                      nghttp3_rcbuf* value, uint8_t, void* userData, void*) {
    Stream* s = self(userData).stream(streamId);
    if (!s || s->dispatched) return 0;  // Request trailers are not recorded.
    nghttp3_vec n = nghttp3_rcbuf_get_buf(name);
    nghttp3_vec v = nghttp3_rcbuf_get_buf(value);
    s->headers.emplace_back(std::string(reinterpret_cast<const char*>(n.base), n.len),
                            std::string(reinterpret_cast<const char*>(v.base), v.len));
    return 0;
  }

  static int endHeaders(nghttp3_conn*, int64_t streamId, int fin, void* userData, void*) {
    Connection& c = self(userData);
    auto it = c.streams.find(streamId);
    if (it == c.streams.end() || it->second->dispatched) return 0;
    if (fin) return 0;  // endStream() dispatches it.
    // Policies that answer before the request body: decide on the response to come.
    const SocketPolicy policy = c.server->server_.dispatcher()->peek().socketPolicy();
    if (policy.is<SocketPolicy::ResetStreamAtStart>() ||
        policy.is<SocketPolicy::DoNotReadRequestBody>()) {
      c.server->startResponderLocked(sharedConnection(c), it->second, true);
    }
    return 0;
  }

  static int endStream(nghttp3_conn*, int64_t streamId, void* userData, void*) {
    Connection& c = self(userData);
    auto it = c.streams.find(streamId);
    if (it == c.streams.end() || it->second->dispatched) return 0;
    c.server->startResponderLocked(sharedConnection(c), it->second, false);
    return 0;
  }

  static int stopSending(nghttp3_conn*, int64_t streamId, uint64_t code, void* userData, void*) {
    int result = ngtcp2_conn_shutdown_stream_read(self(userData).conn, streamId, code);
    return result == 0 || result == NGTCP2_ERR_STREAM_NOT_FOUND ? 0 : NGHTTP3_ERR_CALLBACK_FAILURE;
  }

  static int resetStream(nghttp3_conn*, int64_t streamId, uint64_t code, void* userData, void*) {
    int result = ngtcp2_conn_shutdown_stream_write(self(userData).conn, streamId, code);
    return result == 0 || result == NGTCP2_ERR_STREAM_NOT_FOUND ? 0 : NGHTTP3_ERR_CALLBACK_FAILURE;
  }

  static nghttp3_ssize readResponseBody(nghttp3_conn* conn, int64_t streamId, nghttp3_vec* vec,
                                        size_t count, uint32_t* flags, void* userData, void*) {
    Stream* s = self(userData).stream(streamId);
    if (!s) return NGHTTP3_ERR_CALLBACK_FAILURE;
    size_t filled = 0;
    while (filled < count && s->handedChunks < s->out.size()) {
      std::string& chunk = s->out[s->handedChunks++];
      vec[filled].base = reinterpret_cast<uint8_t*>(chunk.data());
      vec[filled].len = chunk.size();
      ++filled;
    }
    if (s->handedChunks == s->out.size() && s->outEnd) {
      *flags |= NGHTTP3_DATA_FLAG_EOF;
      if (s->trailers.size() > 0) {
        // A trailing HEADERS frame ends the stream instead (RFC 9114 §4.1).
        *flags |= NGHTTP3_DATA_FLAG_NO_END_STREAM;
        NameValues block;
        for (const auto& [name, value] : s->trailers) block.add(toLower(name), value);
        std::vector<nghttp3_nv> nva = nameValues(block);
        nghttp3_conn_submit_trailers(conn, streamId, nva.data(), nva.size());
      }
    } else if (filled == 0) {
      s->deferred = true;
      return NGHTTP3_ERR_WOULDBLOCK;
    }
    return static_cast<nghttp3_ssize>(filled);
  }

  static std::shared_ptr<Connection> sharedConnection(Connection& c) {
    for (const auto& connection : c.server->connections_) {
      if (connection.get() == &c) return connection;
    }
    return nullptr;
  }
};

Http3Server::Http3Server(ServerState& server, const tls::HandshakeCertificates& certificates,
                         FileDescriptor socket)
    : server_(server), socket_(std::move(socket)) {
  const std::optional<tls::HeldCertificate>& held = certificates.heldCertificate();
  if (!held) throw std::invalid_argument("MockWebServer: useHttps() needs a held certificate");
  std::string chainPem = held->certificatePem();
  localCertificates_.push_back(held->certificate());
  for (const Certificate& intermediate : certificates.intermediates()) {
    chainPem += intermediate.pem();
    localCertificates_.push_back(intermediate);
  }
  const std::string keyPem = held->privateKeyPkcs8Pem();
  gnutls_datum_t cert{reinterpret_cast<unsigned char*>(chainPem.data()),
                      static_cast<unsigned int>(chainPem.size())};
  gnutls_datum_t key{reinterpret_cast<unsigned char*>(const_cast<char*>(keyPem.data())),
                     static_cast<unsigned int>(keyPem.size())};
  if (gnutls_certificate_allocate_credentials(&credentials_) != 0) throw std::bad_alloc();
  if (int result =
          gnutls_certificate_set_x509_key_mem(credentials_, &cert, &key, GNUTLS_X509_FMT_PEM);
      result < 0) {
    gnutls_certificate_free_credentials(credentials_);
    throw std::runtime_error(std::string("MockWebServer: GnuTLS cannot load the certificate: ") +
                             gnutls_strerror(result));
  }
  wakeup_ = FileDescriptor(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC));
  localAddressLength_ = sizeof(localAddress_);
  ::getsockname(socket_.get(), reinterpret_cast<sockaddr*>(&localAddress_), &localAddressLength_);
  if (!wakeup_.valid()) {
    gnutls_certificate_free_credentials(credentials_);
    throw IOException("MockWebServer: eventfd failed: " + errnoMessage(errno));
  }
  thread_ = std::thread(&Http3Server::run, this);
}

Http3Server::~Http3Server() {
  close();
  gnutls_certificate_free_credentials(credentials_);
}

void Http3Server::close() {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    closed_ = true;
  }
  wake();
  if (thread_.joinable()) thread_.join();
  joinFinishedResponders(true);
  std::lock_guard lock(mutex_);
  connectionsById_.clear();
  connections_.clear();
}

void Http3Server::wake() noexcept {
  const uint64_t one = 1;
  (void)!::write(wakeup_.get(), &one, sizeof(one));
}

void Http3Server::run() {
  ::pthread_setname_np(::pthread_self(), "MockWebServer H3");
  while (true) {
    int timeoutMillis = -1;
    {
      std::lock_guard lock(mutex_);
      if (closed_ || server_.closing().fired()) break;
      receiveLocked();
      const ngtcp2_tstamp now = timestamp();
      for (auto it = connections_.begin(); it != connections_.end();) {
        Connection& c = **it;
        if (!c.ended && handleExpiryLocked(c)) writeLocked(c);
        if (c.ended) {
          endConnectionLocked(c);
          it = connections_.erase(it);
          continue;
        }
        const ngtcp2_tstamp expiry = ngtcp2_conn_get_expiry(c.conn);
        if (expiry != UINT64_MAX) {
          const uint64_t millis = expiry <= now ? 0 : (expiry - now + 999'999) / 1'000'000;
          const int wait = static_cast<int>(std::min<uint64_t>(millis, INT_MAX));
          timeoutMillis = timeoutMillis < 0 ? wait : std::min(timeoutMillis, wait);
        }
        ++it;
      }
    }
    joinFinishedResponders(false);
    pollfd fds[3] = {{socket_.get(), POLLIN, 0},
                     {wakeup_.get(), POLLIN, 0},
                     {server_.closing().fd(), POLLIN, 0}};
    if (::poll(fds, 3, timeoutMillis) > 0 && (fds[1].revents & POLLIN)) {
      uint64_t count;
      (void)!::read(wakeup_.get(), &count, sizeof(count));
    }
  }
  // The server is closing: tell every client, fail every stream.
  std::lock_guard lock(mutex_);
  for (const auto& connection : connections_) {
    if (!connection->ended) closeConnectionLocked(*connection, NGHTTP3_H3_NO_ERROR);
    endConnectionLocked(*connection);
  }
}

void Http3Server::receiveLocked() {
  uint8_t datagram[65536];
  for (int i = 0; i < 64; ++i) {
    sockaddr_storage remote{};
    socklen_t remoteLength = sizeof(remote);
    ssize_t length = ::recvfrom(socket_.get(), datagram, sizeof(datagram), MSG_DONTWAIT,
                                reinterpret_cast<sockaddr*>(&remote), &remoteLength);
    if (length < 0) {
      if (errno == EINTR) continue;
      return;  // EAGAIN; or an ICMP error from a client gone (its connection times out).
    }
    ngtcp2_version_cid versionCid;
    if (ngtcp2_pkt_decode_version_cid(&versionCid, datagram, static_cast<size_t>(length),
                                      kConnectionIdLength) != 0) {
      continue;  // Not QUIC, or a version we cannot answer: dropped.
    }
    auto it = connectionsById_.find(cidKey(versionCid.dcid, versionCid.dcidlen));
    if (it == connectionsById_.end()) {
      acceptLocked(datagram, static_cast<size_t>(length), remote, remoteLength);
      continue;
    }
    std::shared_ptr<Connection> connection = it->second;
    if (connection->ended) continue;
    connection->remote = remote;  // The client may move (RFC 9000 §9); ngtcp2 validates it.
    connection->remoteLength = remoteLength;
    readLocked(*connection, datagram, static_cast<size_t>(length));
  }
  wake();  // More may be waiting: come back after the timers and writes had their turn.
}

void Http3Server::acceptLocked(const uint8_t* datagram, size_t length,
                               const sockaddr_storage& remote, socklen_t remoteLength) {
  ngtcp2_pkt_hd header;
  if (ngtcp2_accept(&header, datagram, length) != 0) return;  // Not a client's first packet.
  auto c = std::make_shared<Connection>();
  c->server = this;
  c->index = nextConnectionIndex_++;
  c->remote = remote;
  c->remoteLength = remoteLength;
  c->connRef.get_conn = &Callbacks::connFromRef;
  c->connRef.user_data = c.get();

  if (gnutls_init(&c->session, GNUTLS_SERVER) != 0 ||
      gnutls_priority_set_direct(c->session, kPriority, nullptr) != 0 ||
      ngtcp2_crypto_gnutls_configure_server_session(c->session) != 0 ||
      gnutls_credentials_set(c->session, GNUTLS_CRD_CERTIFICATE, credentials_) != 0) {
    return;
  }
  gnutls_session_set_ptr(c->session, &c->connRef);
  gnutls_datum_t alpn{reinterpret_cast<unsigned char*>(const_cast<char*>(kAlpn)),
                      sizeof(kAlpn) - 1};
  gnutls_alpn_set_protocols(c->session, &alpn, 1, GNUTLS_ALPN_MANDATORY);

  ngtcp2_callbacks callbacks{};
  callbacks.recv_client_initial = ngtcp2_crypto_recv_client_initial_cb;
  callbacks.recv_crypto_data = ngtcp2_crypto_recv_crypto_data_cb;
  callbacks.handshake_completed = &Callbacks::handshakeCompleted;
  callbacks.encrypt = ngtcp2_crypto_encrypt_cb;
  callbacks.decrypt = ngtcp2_crypto_decrypt_cb;
  callbacks.hp_mask = ngtcp2_crypto_hp_mask_cb;
  callbacks.recv_stream_data = &Callbacks::receiveStreamData;
  callbacks.acked_stream_data_offset = &Callbacks::ackedStreamData;
  callbacks.stream_close = &Callbacks::streamClose;
  callbacks.rand = &Callbacks::random;
  callbacks.get_new_connection_id = &Callbacks::newConnectionId;
  callbacks.remove_connection_id = &Callbacks::removeConnectionId;
  callbacks.update_key = ngtcp2_crypto_update_key_cb;
  callbacks.stream_reset = &Callbacks::streamReset;
  callbacks.extend_max_remote_streams_bidi = &Callbacks::extendMaxRemoteStreamsBidi;
  callbacks.extend_max_stream_data = &Callbacks::extendMaxStreamData;
  callbacks.delete_crypto_aead_ctx = ngtcp2_crypto_delete_crypto_aead_ctx_cb;
  callbacks.delete_crypto_cipher_ctx = ngtcp2_crypto_delete_crypto_cipher_ctx_cb;
  callbacks.get_path_challenge_data = ngtcp2_crypto_get_path_challenge_data_cb;
  callbacks.stream_stop_sending = &Callbacks::streamStopSending;
  callbacks.version_negotiation = ngtcp2_crypto_version_negotiation_cb;
  callbacks.recv_rx_key = &Callbacks::receiveKey;

  ngtcp2_settings settings;
  ngtcp2_settings_default(&settings);
  settings.initial_ts = timestamp();
  ngtcp2_transport_params params;
  ngtcp2_transport_params_default(&params);
  params.initial_max_data = kWindowSize;
  params.initial_max_stream_data_bidi_remote = kWindowSize;  // The client's request streams.
  params.initial_max_stream_data_uni = 256 * 1024;
  params.initial_max_streams_bidi = kMaxConcurrentStreams;
  params.initial_max_streams_uni = 3;  // Control, QPACK encoder and decoder.
  params.max_idle_timeout = static_cast<ngtcp2_duration>(kIdleTimeout.count()) * NGTCP2_SECONDS;
  params.original_dcid = header.dcid;
  params.stateless_reset_token_present = 1;
  ngtcp2_cid scid;
  scid.datalen = kConnectionIdLength;
  if (gnutls_rnd(GNUTLS_RND_RANDOM, scid.data, scid.datalen) != 0 ||
      gnutls_rnd(GNUTLS_RND_RANDOM, params.stateless_reset_token,
                 sizeof(params.stateless_reset_token)) != 0) {
    return;
  }
  ngtcp2_path path = c->path(*this);
  if (ngtcp2_conn_server_new(&c->conn, &header.scid, &scid, &path, header.version, &callbacks,
                             &settings, &params, nullptr, c.get()) != 0) {
    return;
  }
  ngtcp2_conn_set_tls_native_handle(c->conn, c->session);
  connections_.push_back(c);
  connectionsById_[cidKey(header.dcid.data, header.dcid.datalen)] = c;
  connectionsById_[cidKey(scid.data, scid.datalen)] = c;
  if (readLocked(*c, datagram, length)) writeLocked(*c);
}

bool Http3Server::setupHttp3Locked(Connection& c) {
  if (c.http3) return true;
  if (ngtcp2_conn_get_max_local_streams_uni(c.conn) < 3) return false;
  nghttp3_callbacks callbacks{};
  callbacks.acked_stream_data = &Callbacks::ackedBody;
  callbacks.stream_close = &Callbacks::http3StreamClose;
  callbacks.recv_data = &Callbacks::onData;
  callbacks.deferred_consume = &Callbacks::deferredConsume;
  callbacks.begin_headers = &Callbacks::beginHeaders;
  callbacks.recv_header = &Callbacks::onHeader;
  callbacks.end_headers = &Callbacks::endHeaders;
  callbacks.recv_trailer = &Callbacks::onHeader;
  callbacks.end_stream = &Callbacks::endStream;
  callbacks.stop_sending = &Callbacks::stopSending;
  callbacks.reset_stream = &Callbacks::resetStream;
  nghttp3_settings settings;
  nghttp3_settings_default(&settings);
  settings.qpack_max_dtable_capacity = 4096;
  settings.qpack_blocked_streams = 100;
  if (nghttp3_conn_server_new(&c.http3, &callbacks, &settings, nghttp3_mem_default(), &c) != 0) {
    return false;
  }
  nghttp3_conn_set_max_client_streams_bidi(c.http3, kMaxConcurrentStreams);
  int64_t control = -1;
  int64_t encoder = -1;
  int64_t decoder = -1;
  return ngtcp2_conn_open_uni_stream(c.conn, &control, nullptr) == 0 &&
         nghttp3_conn_bind_control_stream(c.http3, control) == 0 &&
         ngtcp2_conn_open_uni_stream(c.conn, &encoder, nullptr) == 0 &&
         ngtcp2_conn_open_uni_stream(c.conn, &decoder, nullptr) == 0 &&
         nghttp3_conn_bind_qpack_streams(c.http3, encoder, decoder) == 0;
}

bool Http3Server::readLocked(Connection& c, const uint8_t* datagram, size_t length) {
  ngtcp2_path path = c.path(*this);
  ngtcp2_pkt_info info{};
  const int result = ngtcp2_conn_read_pkt(c.conn, &path, &info, datagram, length, timestamp());
  if (result == 0) return true;
  if (result == NGTCP2_ERR_DRAINING || result == NGTCP2_ERR_DROP_CONN) {
    c.ended = true;  // The client closed it, or it cannot go on: nothing to say.
    return false;
  }
  ngtcp2_connection_close_error error;
  ngtcp2_connection_close_error_default(&error);
  if (result == NGTCP2_ERR_CRYPTO) {
    ngtcp2_connection_close_error_set_transport_error_tls_alert(
        &error, ngtcp2_conn_get_tls_alert(c.conn), nullptr, 0);
  } else {
    ngtcp2_connection_close_error_set_transport_error_liberr(&error, result, nullptr, 0);
  }
  uint8_t packet[NGTCP2_MAX_UDP_PAYLOAD_SIZE];
  ngtcp2_path_storage ps;
  ngtcp2_path_storage_zero(&ps);
  ngtcp2_pkt_info out{};
  ngtcp2_ssize written = ngtcp2_conn_write_connection_close(c.conn, &ps.path, &out, packet,
                                                            sizeof(packet), &error, timestamp());
  if (written > 0) sendLocked(c, ps.path, packet, static_cast<size_t>(written));
  c.ended = true;
  return false;
}

bool Http3Server::handleExpiryLocked(Connection& c) {
  const ngtcp2_tstamp now = timestamp();
  if (ngtcp2_conn_get_expiry(c.conn) > now) return true;
  if (ngtcp2_conn_handle_expiry(c.conn, now) != 0) {
    c.ended = true;  // Idle, or the handshake timed out: QUIC closes without a word.
    return false;
  }
  return true;
}

bool Http3Server::writeLocked(Connection& c) {
  if (ngtcp2_conn_is_in_closing_period(c.conn) || ngtcp2_conn_is_in_draining_period(c.conn)) {
    return true;
  }
  uint8_t packet[1500];
  const size_t maxPayload =
      std::min(ngtcp2_conn_get_max_tx_udp_payload_size(c.conn), sizeof(packet));
  const size_t maxPackets = std::max<size_t>(1, ngtcp2_conn_get_send_quantum(c.conn) / maxPayload);
  const ngtcp2_tstamp now = timestamp();
  ngtcp2_path_storage ps;
  ngtcp2_path_storage_zero(&ps);
  size_t packets = 0;
  while (true) {
    int64_t streamId = -1;
    int fin = 0;
    nghttp3_vec vec[16];
    nghttp3_ssize count = 0;
    if (c.http3 && ngtcp2_conn_get_max_data_left(c.conn)) {
      count = nghttp3_conn_writev_stream(c.http3, &streamId, &fin, vec, std::size(vec));
      if (count < 0) {
        closeConnectionLocked(c, nghttp3_err_infer_quic_app_error_code(static_cast<int>(count)));
        return false;
      }
    }
    uint32_t flags = NGTCP2_WRITE_STREAM_FLAG_MORE;
    if (fin) flags |= NGTCP2_WRITE_STREAM_FLAG_FIN;
    ngtcp2_ssize accepted = -1;
    ngtcp2_pkt_info info{};
    ngtcp2_ssize written = ngtcp2_conn_writev_stream(
        c.conn, &ps.path, &info, packet, maxPayload, &accepted, flags, streamId,
        reinterpret_cast<const ngtcp2_vec*>(vec), static_cast<size_t>(count), now);
    if (written < 0) {
      if (written == NGTCP2_ERR_STREAM_DATA_BLOCKED) {
        nghttp3_conn_block_stream(c.http3, streamId);
        continue;
      }
      if (written == NGTCP2_ERR_STREAM_SHUT_WR) {
        nghttp3_conn_shutdown_stream_write(c.http3, streamId);
        continue;
      }
      if (written == NGTCP2_ERR_WRITE_MORE) {
        if (nghttp3_conn_add_write_offset(c.http3, streamId, static_cast<uint64_t>(accepted)) !=
            0) {
          closeConnectionLocked(c, NGHTTP3_H3_INTERNAL_ERROR);
          return false;
        }
        continue;
      }
      closeConnectionLocked(c, NGHTTP3_H3_INTERNAL_ERROR);
      return false;
    }
    if (accepted >= 0 &&
        nghttp3_conn_add_write_offset(c.http3, streamId, static_cast<uint64_t>(accepted)) != 0) {
      closeConnectionLocked(c, NGHTTP3_H3_INTERNAL_ERROR);
      return false;
    }
    if (written == 0) break;
    sendLocked(c, ps.path, packet, static_cast<size_t>(written));
    if (++packets >= maxPackets) break;
  }
  ngtcp2_conn_update_pkt_tx_time(c.conn, now);
  return true;
}

void Http3Server::sendLocked(const Connection& c, const ngtcp2_path& path, const uint8_t* packet,
                             size_t length) {
  // To the address ngtcp2 chose (a client that moved is challenged on its new path and its old
  // one, RFC 9000 §9), or the client's latest.
  const sockaddr* remote =
      path.remote.addrlen > 0 ? path.remote.addr : reinterpret_cast<const sockaddr*>(&c.remote);
  const socklen_t remoteLength = path.remote.addrlen > 0 ? path.remote.addrlen : c.remoteLength;
  // Best effort: a datagram the kernel cannot take now is lost, and QUIC sends it again.
  (void)::sendto(socket_.get(), packet, length, MSG_DONTWAIT, remote, remoteLength);
}

void Http3Server::closeConnectionLocked(Connection& c, uint64_t applicationError) {
  if (c.ended) return;
  if (!ngtcp2_conn_is_in_closing_period(c.conn) && !ngtcp2_conn_is_in_draining_period(c.conn)) {
    ngtcp2_connection_close_error error;
    ngtcp2_connection_close_error_default(&error);
    ngtcp2_connection_close_error_set_application_error(&error, applicationError, nullptr, 0);
    uint8_t packet[NGTCP2_MAX_UDP_PAYLOAD_SIZE];
    ngtcp2_path_storage ps;
    ngtcp2_path_storage_zero(&ps);
    ngtcp2_pkt_info info{};
    ngtcp2_ssize written = ngtcp2_conn_write_connection_close(c.conn, &ps.path, &info, packet,
                                                              sizeof(packet), &error, timestamp());
    if (written > 0) sendLocked(c, ps.path, packet, static_cast<size_t>(written));
  }
  c.ended = true;
}

void Http3Server::endConnectionLocked(Connection& c) {
  c.ended = true;
  for (auto& [id, stream] : c.streams) {
    stream->closed = true;
    stream->changed.notify_all();
  }
  c.streams.clear();
  for (auto it = connectionsById_.begin(); it != connectionsById_.end();) {
    it = it->second.get() == &c ? connectionsById_.erase(it) : std::next(it);
  }
}

void Http3Server::startResponderLocked(const std::shared_ptr<Connection>& connection,
                                       const std::shared_ptr<Stream>& stream, bool bodyUnread) {
  if (!connection) return;
  stream->dispatched = true;
  auto responder = std::make_unique<ResponderThread>();
  ResponderThread* raw = responder.get();
  responders_.push_back(std::move(responder));
  raw->thread = std::thread([this, raw, connection, stream, bodyUnread] {
    respond(connection, stream, bodyUnread);
    raw->done.store(true, std::memory_order_release);
  });
}

void Http3Server::joinFinishedResponders(bool all) {
  std::list<std::unique_ptr<ResponderThread>> finished;
  {
    std::lock_guard lock(mutex_);
    for (auto it = responders_.begin(); it != responders_.end();) {
      auto next = std::next(it);
      if (all || (*it)->done.load(std::memory_order_acquire)) {
        finished.splice(finished.end(), responders_, it);
      }
      it = next;
    }
  }
  for (auto& responder : finished) responder->thread.join();
}

RecordedRequest Http3Server::recordedRequest(Connection& c, Stream& stream) {
  std::lock_guard lock(mutex_);
  RequestHead head = requestHead(stream.headers, "https",
                                 server_.hostAddress() + ":" + std::to_string(server_.port()));
  return RecordedRequest(head.method + " " + head.target + " HTTP/3", std::move(head.headers), {},
                         stream.body->receivedByteCount(), stream.body->kept().copy().readUtf8(),
                         stream.sequenceNumber, c.index, head.url ? *head.url : server_.rootUrl(),
                         nullptr, c.handshake, c.serverNames, static_cast<int>(stream.id));
}

void Http3Server::respond(const std::shared_ptr<Connection>& connection,
                          const std::shared_ptr<Stream>& stream, bool bodyUnread) {
  Connection& c = *connection;
  Stream& s = *stream;
  try {
    RecordedRequest request = recordedRequest(c, s);
    server_.record(request);
    MockResponse response = server_.dispatch(request);
    if (server_.closing().fired()) return;
    const SocketPolicy& policy = response.socketPolicy();
    if (const auto* reset = policy.getIf<SocketPolicy::ResetStreamAtStart>()) {
      {
        std::lock_guard lock(mutex_);
        if (c.ended || s.closed) return;
        ngtcp2_conn_shutdown_stream(c.conn, s.id, http3CodeFor(reset->http2ErrorCode));
        nghttp3_conn_shutdown_stream_write(c.http3, s.id);
      }
      wake();
      return;
    }
    if (policy.is<SocketPolicy::NoResponse>()) return;  // This stream only; the rest go on.
    if (policy.is<SocketPolicy::DisconnectAfterRequest>() ||
        policy.is<SocketPolicy::HalfCloseAfterRequest>()) {
      disconnect(c);
      return;
    }
    for (const MockResponse& informational : response.informationalResponses()) {
      server_.closing().sleep(informational.headersDelay());
      NameValues block = responseHeaders(informational, true);
      std::vector<nghttp3_nv> nva = nameValues(block);
      {
        std::lock_guard lock(mutex_);
        if (c.ended || s.closed) return;
        nghttp3_conn_submit_info(c.http3, s.id, nva.data(), nva.size());
      }
      wake();
    }
    server_.closing().sleep(response.headersDelay());
    const bool hasBody = response.hasBody() || response.trailers().size() > 0;
    {
      NameValues block = responseHeaders(response, false);
      std::vector<nghttp3_nv> nva = nameValues(block);
      std::lock_guard lock(mutex_);
      if (c.ended || s.closed) return;
      s.trailers = response.trailers();
      nghttp3_data_reader reader{&Callbacks::readResponseBody};
      nghttp3_conn_submit_response(c.http3, s.id, nva.data(), nva.size(),
                                   hasBody ? &reader : nullptr);
    }
    wake();
    if (hasBody) {
      server_.closing().sleep(response.bodyDelay());
      if (!writeBody(c, s, response)) return;
    }
    if (bodyUnread || policy.is<SocketPolicy::DoNotReadRequestBody>()) {
      // The response is complete: the client may stop sending (RFC 9114 §4.1).
      const auto* doNotRead = policy.getIf<SocketPolicy::DoNotReadRequestBody>();
      {
        std::lock_guard lock(mutex_);
        if (!c.ended && !s.closed) {
          ngtcp2_conn_shutdown_stream_read(
              c.conn, s.id,
              doNotRead ? http3CodeFor(doNotRead->http2ErrorCode) : NGHTTP3_H3_NO_ERROR);
          nghttp3_conn_shutdown_stream_read(c.http3, s.id);
        }
      }
      wake();
    }
    if (policy.is<SocketPolicy::DisconnectAtEnd>() ||
        policy.is<SocketPolicy::ShutdownServerAfterResponse>() ||
        policy.is<SocketPolicy::ShutdownOutputAtEnd>() ||
        policy.is<SocketPolicy::ShutdownInputAtEnd>()) {
      awaitDelivered(c, s);
      if (policy.is<SocketPolicy::ShutdownServerAfterResponse>()) {
        server_.beginShutdown();
      } else {
        disconnect(c);
      }
    }
  } catch (const IOException&) {
    // The server is closing: the stream ends with the connection.
  } catch (const std::exception& e) {
    std::fprintf(stderr, "MockWebServer[%d] HTTP/3 stream %lld failed: %s\n", server_.port(),
                 static_cast<long long>(s.id), e.what());
  }
}

bool Http3Server::writeBody(Connection& c, Stream& s, const MockResponse& response) {
  Buffer body = unchunkedBody(response);
  const int64_t total = body.size();
  const int64_t bytesPerPeriod = response.throttleBytesPerPeriod();
  const bool disconnectHalfway =
      response.socketPolicy().is<SocketPolicy::DisconnectDuringResponseBody>();
  int64_t sent = 0;
  int64_t sincePause = 0;
  while (body.size() > 0) {
    if (disconnectHalfway && sent >= total / 2) {
      awaitAcked(c, s);
      disconnect(c);
      return false;
    }
    if (sincePause >= bytesPerPeriod) {
      if (!awaitAcked(c, s)) return false;
      server_.closing().sleep(response.throttlePeriod());
      sincePause = 0;
    }
    int64_t count = std::min({body.size(), bytesPerPeriod - sincePause, int64_t{64 * 1024}});
    if (disconnectHalfway) count = std::min(count, std::max<int64_t>(total / 2 - sent, 1));
    if (!writeOut(c, s, body, count)) return false;
    sent += count;
    sincePause += count;
  }
  return endOut(c, s);
}

bool Http3Server::writeOut(Connection& c, Stream& s, Buffer& source, int64_t byteCount) {
  {
    std::unique_lock lock(mutex_);
    while (s.unacked >= kMaxBufferedResponseBytes && !s.closed && !c.ended) {
      s.changed.wait_for(lock, std::chrono::milliseconds(50));
      if (server_.closing().fired()) throw ServerClosedException();
    }
    if (s.closed || c.ended) return false;
    s.out.push_back(source.readUtf8(byteCount));
    s.unacked += byteCount;
    if (s.deferred) {
      s.deferred = false;
      nghttp3_conn_resume_stream(c.http3, s.id);
    }
  }
  wake();
  return true;
}

bool Http3Server::endOut(Connection& c, Stream& s) {
  {
    std::lock_guard lock(mutex_);
    if (s.closed || c.ended) return false;
    s.outEnd = true;
    if (s.deferred) {
      s.deferred = false;
      nghttp3_conn_resume_stream(c.http3, s.id);
    }
  }
  wake();
  return true;
}

bool Http3Server::awaitAcked(Connection& c, Stream& s) {
  std::unique_lock lock(mutex_);
  while (s.unacked > 0 && !s.closed && !c.ended) {
    s.changed.wait_for(lock, std::chrono::milliseconds(50));
    if (server_.closing().fired()) throw ServerClosedException();
  }
  return !c.ended;
}

void Http3Server::awaitDelivered(Connection& c, Stream& s) {
  // At most a few seconds: a client that stopped reading must not hold the policy back forever.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  std::unique_lock lock(mutex_);
  while (!c.ended && std::chrono::steady_clock::now() < deadline) {
    if (s.closed) {
      ngtcp2_conn_stat stat;
      ngtcp2_conn_get_conn_stat(c.conn, &stat);
      if (stat.bytes_in_flight == 0) return;
    }
    s.changed.wait_for(lock, std::chrono::milliseconds(10));
    if (server_.closing().fired()) throw ServerClosedException();
  }
}

void Http3Server::disconnect(Connection& c) {
  {
    std::lock_guard lock(mutex_);
    closeConnectionLocked(c, NGHTTP3_H3_NO_ERROR);
  }
  wake();
}

}  // namespace tern::mockwebserver::internal
