// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/mockwebserver/mock_web_server.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <list>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "http/protocol_list.h"
#include "http1_connection.h"
#include "http2_server_connection.h"
#include "http3_server.h"
#include "server_socket.h"
#include "server_state.h"
#include "server_tls.h"
#include "tern/exceptions.h"

namespace tern::mockwebserver {

using internal::FileDescriptor;

namespace {

// A Dispatcher that calls a function, for MockWebServer::setDispatcher(std::function).
class FunctionDispatcher final : public Dispatcher {
 public:
  explicit FunctionDispatcher(std::function<MockResponse(const RecordedRequest&)> dispatch)
      : dispatch_(std::move(dispatch)) {}
  MockResponse dispatch(const RecordedRequest& request) override { return dispatch_(request); }

 private:
  std::function<MockResponse(const RecordedRequest&)> dispatch_;
};

// The numeric address of `address` as it goes in a URL authority: "127.0.0.1" or "[::1]".
std::string authorityHost(const sockaddr_storage& address) {
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(address).sin6_addr, text,
              sizeof(text));
    return "[" + std::string(text) + "]";
  }
  inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(address).sin_addr, text, sizeof(text));
  return text;
}

void setPort(sockaddr_storage& address, int port) {
  if (address.ss_family == AF_INET6) {
    reinterpret_cast<sockaddr_in6&>(address).sin6_port = htons(static_cast<uint16_t>(port));
  } else {
    reinterpret_cast<sockaddr_in&>(address).sin_port = htons(static_cast<uint16_t>(port));
  }
}

bool servesHttp3(const std::vector<Protocol>& protocols) {
  return std::find(protocols.begin(), protocols.end(), Protocol::HTTP_3) != protocols.end();
}

}  // namespace

struct MockWebServer::Impl {
  // One connection's thread. `done` is set as the thread's last act, so the accept thread can
  // join finished threads as it goes instead of keeping one per connection until close().
  struct ConnectionThread {
    std::thread thread;
    std::atomic<bool> done{false};
  };

  internal::ServerState state;

  mutable std::mutex mutex;  // Guards started, closed, acceptThread and the TLS settings.
  bool started = false;
  bool closed = false;
  std::thread acceptThread;
  std::unique_ptr<internal::Http3Server> http3Server;  // With HTTP_3 in the protocols.
  std::string unixSocketPath;  // The socket file startUnixSocket() made, removed by close().
  std::optional<tls::HandshakeCertificates> httpsCertificates;
  internal::ClientAuth clientAuth = internal::ClientAuth::kNone;

  // Throws std::logic_error naming `method` if the server has started. `mutex` held.
  void checkNotStartedLocked(const char* method) const {
    if (started || closed) {
      throw std::logic_error(std::string("MockWebServer::") + method +
                             ": call it before the server starts");
    }
  }

  std::mutex connectionsMutex;
  std::list<std::unique_ptr<ConnectionThread>> connections;  // Guarded by connectionsMutex.

  // Runs on the accept thread until the server closes; owns the listening socket.
  void acceptConnections(FileDescriptor listener);
  void serveConnection(FileDescriptor socket, int connectionIndex);
  void joinFinishedConnections();
};

void MockWebServer::Impl::acceptConnections(FileDescriptor listener) {
  int nextConnectionIndex = 0;
  while (true) {
    try {
      internal::awaitReady(listener.get(), POLLIN, state.closing());
    } catch (const IOException&) {
      break;  // Closing (ServerClosedException), or poll failed: either way stop accepting.
    }
    FileDescriptor socket(
        ::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (!socket.valid()) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        try {
          state.closing().sleep(std::chrono::milliseconds(10));  // Out of resources: back off.
        } catch (const IOException&) {
          break;
        }
      }
      continue;  // EAGAIN, EINTR, ECONNABORTED: the next poll tells.
    }
    const int noDelay = 1;  // Throttled pieces and small responses go out at once.
    ::setsockopt(socket.get(), IPPROTO_TCP, TCP_NODELAY, &noDelay, sizeof(noDelay));

    joinFinishedConnections();
    const int connectionIndex = nextConnectionIndex++;
    try {
      if (state.dispatcher()->peek().socketPolicy().is<SocketPolicy::DisconnectAtStart>()) {
        state.dispatchBookkeepingRequest(0, connectionIndex);
        continue;  // Closes the socket without reading anything.
      }
      serveConnection(std::move(socket), connectionIndex);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "MockWebServer[%d] connection %d not served: %s\n", state.port(),
                   connectionIndex, e.what());
    }
  }
}

void MockWebServer::Impl::serveConnection(FileDescriptor socket, int connectionIndex) {
  auto connection = std::make_unique<ConnectionThread>();
  ConnectionThread* raw = connection.get();
  {
    std::lock_guard lock(connectionsMutex);
    connections.push_back(std::move(connection));
  }
  try {
    raw->thread = std::thread([this, raw, socket = std::move(socket), connectionIndex]() mutable {
      try {
        std::vector<Protocol> protocols = state.protocols();
        if (protocols.size() == 1 && protocols[0] == Protocol::H2_PRIOR_KNOWLEDGE) {
          internal::ConnectionSocket connectionSocket(std::move(socket), state.closing());
          internal::Http2ServerConnection(state, connectionSocket, connectionIndex).serve();
        } else {
          internal::Http1Connection(state, std::move(socket), connectionIndex).serve();
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "MockWebServer[%d] connection %d failed: %s\n", state.port(),
                     connectionIndex, e.what());
      }
      raw->done.store(true, std::memory_order_release);
    });
  } catch (const std::system_error&) {
    raw->done.store(true, std::memory_order_release);  // No thread; the socket is closed.
    throw;
  }
}

void MockWebServer::Impl::joinFinishedConnections() {
  std::list<std::unique_ptr<ConnectionThread>> finished;
  {
    std::lock_guard lock(connectionsMutex);
    for (auto it = connections.begin(); it != connections.end();) {
      auto next = std::next(it);
      if ((*it)->done.load(std::memory_order_acquire)) {
        finished.splice(finished.end(), connections, it);
      }
      it = next;
    }
  }
  for (auto& connection : finished) {
    if (connection->thread.joinable()) connection->thread.join();
  }
}

MockWebServer::MockWebServer() : impl_(std::make_unique<Impl>()) {}

MockWebServer::~MockWebServer() { close(); }

void MockWebServer::start(int port) { start("127.0.0.1", port); }

void MockWebServer::start(std::string_view host, int port) {
  if (port < 0 || port > 65535) {
    throw std::invalid_argument("MockWebServer::start: port out of range: " + std::to_string(port));
  }
  std::lock_guard lock(impl_->mutex);
  if (impl_->closed) throw std::logic_error("MockWebServer::start: the server was closed");
  if (impl_->started) return;

  if (impl_->httpsCertificates) {
    impl_->state.setTls(std::make_unique<internal::ServerTls>(
        *impl_->httpsCertificates, impl_->clientAuth, impl_->state.protocols()));
  }

  const std::string hostName(host);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int error = ::getaddrinfo(hostName.c_str(), nullptr, &hints, &found); error != 0) {
    throw UnknownHostException("MockWebServer::start: cannot resolve " + hostName + ": " +
                               gai_strerror(error));
  }
  sockaddr_storage address{};
  socklen_t addressLength = found->ai_addrlen;
  std::memcpy(&address, found->ai_addr, found->ai_addrlen);
  ::freeaddrinfo(found);

  const bool http3 = servesHttp3(impl_->state.protocols());
  if (http3 && !impl_->httpsCertificates) {
    throw std::invalid_argument("MockWebServer::start: HTTP/3 needs useHttps()");
  }
  const std::string where = hostName + ":" + std::to_string(port);
  FileDescriptor listener;
  FileDescriptor udp;
  int boundPort = port;
  // With HTTP/3, QUIC is served on the same port over UDP: a free TCP port may be taken on UDP,
  // so a port the system picked is picked again.
  for (int attempt = 0;; ++attempt) {
    listener =
        FileDescriptor(::socket(address.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (!listener.valid()) {
      throw IOException("MockWebServer::start: socket() failed for " + where + ": " +
                        internal::errnoMessage(errno));
    }
    const int reuse = 1;  // A fixed port can be rebound while old connections sit in TIME_WAIT.
    ::setsockopt(listener.get(), SOL_SOCKET, SO_REUSEADDR, &reuse, sizeof(reuse));
    setPort(address, port);
    if (::bind(listener.get(), reinterpret_cast<const sockaddr*>(&address), addressLength) != 0 ||
        ::listen(listener.get(), 50) != 0) {
      throw IOException("MockWebServer::start: cannot listen on " + where + ": " +
                        internal::errnoMessage(errno));
    }
    socklen_t length = sizeof(address);
    ::getsockname(listener.get(), reinterpret_cast<sockaddr*>(&address), &length);
    boundPort = ntohs(address.ss_family == AF_INET6
                          ? reinterpret_cast<const sockaddr_in6&>(address).sin6_port
                          : reinterpret_cast<const sockaddr_in&>(address).sin_port);
    if (!http3) break;
    udp = FileDescriptor(::socket(address.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (udp.valid() &&
        ::bind(udp.get(), reinterpret_cast<const sockaddr*>(&address), addressLength) == 0) {
      break;
    }
    const int error = errno;
    if (port != 0 || attempt == 20) {
      throw IOException("MockWebServer::start: cannot bind UDP (HTTP/3) on " + hostName + ":" +
                        std::to_string(boundPort) + ": " + internal::errnoMessage(error));
    }
  }

  impl_->state.setAddress(hostName, authorityHost(address), boundPort);
  if (http3) {
    impl_->state.setServesHttp3(true);
    impl_->http3Server = std::make_unique<internal::Http3Server>(
        impl_->state, *impl_->httpsCertificates, std::move(udp));
  }
  impl_->acceptThread = std::thread(&Impl::acceptConnections, impl_.get(), std::move(listener));
  impl_->started = true;
}

void MockWebServer::startUnixSocket(std::string_view path, bool abstract) {
  std::lock_guard lock(impl_->mutex);
  if (impl_->closed) throw std::logic_error("MockWebServer::start: the server was closed");
  if (impl_->started) return;
  sockaddr_un address{};
  // An abstract name starts with a NUL and has no NUL at the end (Linux unix(7)).
  const size_t offset = abstract ? 1 : 0;
  if (path.empty() || path.size() + offset >= sizeof(address.sun_path)) {
    throw std::invalid_argument("MockWebServer::startUnixSocket: bad path: " + std::string(path));
  }
  if (servesHttp3(impl_->state.protocols())) {
    throw std::invalid_argument(
        "MockWebServer::startUnixSocket: HTTP/3 needs UDP, not a Unix socket");
  }
  if (impl_->httpsCertificates) {
    impl_->state.setTls(std::make_unique<internal::ServerTls>(
        *impl_->httpsCertificates, impl_->clientAuth, impl_->state.protocols()));
  }
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path + offset, path.data(), path.size());
  const auto addressLength =
      static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + offset + path.size());
  const std::string where = (abstract ? "@" : "") + std::string(path);
  if (!abstract) ::unlink(std::string(path).c_str());  // A socket left by an earlier run.
  FileDescriptor listener(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!listener.valid()) {
    throw IOException("MockWebServer::start: socket() failed for " + where + ": " +
                      internal::errnoMessage(errno));
  }
  if (::bind(listener.get(), reinterpret_cast<const sockaddr*>(&address), addressLength) != 0 ||
      ::listen(listener.get(), 50) != 0) {
    throw IOException("MockWebServer::start: cannot listen on " + where + ": " +
                      internal::errnoMessage(errno));
  }
  if (!abstract) impl_->unixSocketPath = std::string(path);
  const int port = impl_->httpsCertificates ? 443 : 80;
  impl_->state.setAddress("localhost", "localhost", port);
  impl_->acceptThread = std::thread(&Impl::acceptConnections, impl_.get(), std::move(listener));
  impl_->started = true;
}

void MockWebServer::close() {
  {
    std::lock_guard lock(impl_->mutex);
    if (impl_->closed) return;
    impl_->closed = true;
  }
  impl_->state.beginShutdown();
  // No lock needed: closed is set, so start() can no longer touch acceptThread.
  if (impl_->acceptThread.joinable()) impl_->acceptThread.join();
  if (impl_->http3Server) impl_->http3Server->close();
  if (!impl_->unixSocketPath.empty()) ::unlink(impl_->unixSocketPath.c_str());
  // The accept thread has stopped, so no connection is added from here on.
  std::list<std::unique_ptr<Impl::ConnectionThread>> connections;
  {
    std::lock_guard lock(impl_->connectionsMutex);
    connections.swap(impl_->connections);
  }
  for (auto& connection : connections) {
    if (connection->thread.joinable()) connection->thread.join();
  }
}

bool MockWebServer::started() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->started;
}

std::string MockWebServer::hostName() {
  if (!started()) start();
  return impl_->state.hostName();
}

int MockWebServer::port() {
  if (!started()) start();
  return impl_->state.port();
}

HttpUrl MockWebServer::url(std::string_view path) {
  if (!started()) start();
  std::optional<HttpUrl> result = impl_->state.rootUrl().resolve(path);
  if (!result) {
    throw std::invalid_argument("MockWebServer::url: invalid path \"" + std::string(path) + "\"");
  }
  return *result;
}

void MockWebServer::useHttps(const tls::HandshakeCertificates& certificates) {
  std::lock_guard lock(impl_->mutex);
  impl_->checkNotStartedLocked("useHttps");
  impl_->httpsCertificates = certificates;
}

void MockWebServer::requestClientAuth() {
  std::lock_guard lock(impl_->mutex);
  impl_->checkNotStartedLocked("requestClientAuth");
  impl_->clientAuth = internal::ClientAuth::kRequested;
}

void MockWebServer::requireClientAuth() {
  std::lock_guard lock(impl_->mutex);
  impl_->checkNotStartedLocked("requireClientAuth");
  impl_->clientAuth = internal::ClientAuth::kRequired;
}

void MockWebServer::noClientAuth() {
  std::lock_guard lock(impl_->mutex);
  impl_->checkNotStartedLocked("noClientAuth");
  impl_->clientAuth = internal::ClientAuth::kNone;
}

void MockWebServer::protocols(std::vector<Protocol> protocols) {
  if (std::find(protocols.begin(), protocols.end(), Protocol::HTTP_1_1) == protocols.end()) {
    throw std::invalid_argument("MockWebServer::protocols: must contain http/1.1");
  }
  std::lock_guard lock(impl_->mutex);
  impl_->checkNotStartedLocked("protocols");
  impl_->state.setProtocols(std::move(protocols));
}

void MockWebServer::enqueue(MockResponse response) {
  auto queue = std::dynamic_pointer_cast<QueueDispatcher>(impl_->state.dispatcher());
  if (!queue) {
    throw std::logic_error(
        "MockWebServer::enqueue: setDispatcher() replaced the QueueDispatcher; script responses "
        "in your dispatcher instead");
  }
  queue->enqueueResponse(std::move(response));
}

void MockWebServer::setDispatcher(std::shared_ptr<Dispatcher> dispatcher) {
  if (!dispatcher) throw std::invalid_argument("MockWebServer::setDispatcher: null dispatcher");
  impl_->state.setDispatcher(std::move(dispatcher));
}

void MockWebServer::setDispatcher(std::function<MockResponse(const RecordedRequest&)> dispatch) {
  if (!dispatch) throw std::invalid_argument("MockWebServer::setDispatcher: empty function");
  setDispatcher(std::make_shared<FunctionDispatcher>(std::move(dispatch)));
}

std::shared_ptr<Dispatcher> MockWebServer::dispatcher() const { return impl_->state.dispatcher(); }

RecordedRequest MockWebServer::takeRequest() {
  std::optional<RecordedRequest> request = takeRequest(kDefaultTakeRequestTimeout);
  if (!request) {
    throw InterruptedIOException("MockWebServer.takeRequest() timed out after " +
                                 std::to_string(kDefaultTakeRequestTimeout.count()) +
                                 "s: no request arrived");
  }
  return std::move(*request);
}

std::optional<RecordedRequest> MockWebServer::takeRequest(std::chrono::nanoseconds timeout) {
  return impl_->state.take(timeout);
}

int MockWebServer::requestCount() const { return impl_->state.requestCount(); }

void MockWebServer::setBodyLimit(int64_t bodyLimit) {
  if (bodyLimit < 0) {
    throw std::invalid_argument("MockWebServer::setBodyLimit: negative limit " +
                                std::to_string(bodyLimit));
  }
  impl_->state.setBodyLimit(bodyLimit);
}

int64_t MockWebServer::bodyLimit() const { return impl_->state.bodyLimit(); }

void MockWebServer::setProtocols(std::vector<Protocol> protocols) {
  // The client's rules (OkHttp's MockWebServer.protocols checks the same).
  protocols = tern::internal::checkedProtocolList(protocols);
  if (servesHttp3(protocols) &&
      std::find(protocols.begin(), protocols.end(), Protocol::HTTP_1_1) == protocols.end()) {
    throw std::invalid_argument(
        "MockWebServer::setProtocols: HTTP/3 is served beside http/1.1 over TCP: add HTTP_1_1");
  }
  impl_->state.setProtocols(std::move(protocols));
}

std::vector<Protocol> MockWebServer::protocols() const { return impl_->state.protocols(); }

void MockWebServer::setGoAwayAfterStreams(int streamCount) {
  if (streamCount < 0) {
    throw std::invalid_argument("MockWebServer::setGoAwayAfterStreams: negative count " +
                                std::to_string(streamCount));
  }
  impl_->state.setGoAwayAfterStreams(streamCount);
}

void MockWebServer::setExtendedConnect(bool enabled) {
  std::lock_guard lock(impl_->mutex);
  impl_->checkNotStartedLocked("setExtendedConnect");
  impl_->state.setExtendedConnect(enabled);
}

bool MockWebServer::extendedConnect() const { return impl_->state.extendedConnect(); }

std::string MockWebServer::toString() const {
  return "MockWebServer[" + std::to_string(started() ? impl_->state.port() : -1) + "]";
}

}  // namespace tern::mockwebserver
