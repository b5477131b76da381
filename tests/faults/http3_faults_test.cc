// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The fault matrix's HTTP/3 axis (issue 20): calls over QUIC to Debian's gtlsserver (ngtcp2's
// example HTTP/3 server, as in tests/http3) when the network or the server misbehaves, each in
// sync (execute()) and async (enqueue()) mode:
//  - datagrams dropped at a rate (gtlsserver's -t, lost on the way out, and -r, on the way in):
//    GETs of a small and a large file and a POST with a large body complete with the exact bytes
//    (QUIC retransmits) within the call timeout;
//  - every datagram dropped (a black hole): HTTP/3 only fails with SocketTimeoutException at the
//    connect timeout; with TCP beside it (a hint to the silent port) the call falls back to TCP;
//  - a server that stops answering mid-response (SIGSTOP): the body read times out at the read
//    timeout, and the silent connection is not handed to the next call;
//  - a server killed mid-response (SIGKILL): the body read fails with an IOException within the
//    read timeout, and the connection leaves the pool.
// In every cell the events come in order, every call ends, and no file descriptor leaks; after
// each failure the pool holds no broken connection and a new client's call to a fresh server
// succeeds.
//
// Not here: a stream the server resets (RESET_STREAM) or refuses (GOAWAY). gtlsserver cannot be
// made to do either on demand; MockWebServer's HTTP/3 side, once it serves HTTP/3, covers them.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/types.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "connection/connection_pool_access.h"
#include "connection/real_connection.h"
#include "http3/gtls_server.h"
#include "support/child_process.h"
#include "support/fd_count.h"
#include "support/recording_event_listener.h"
#include "support/temp_dir.h"
#include "support/tls_certificates.h"
#include "tern/client.h"
#include "tern/mockwebserver/mock_web_server.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;

const std::vector<Protocol> kWithHttp3{Protocol::HTTP_3, Protocol::HTTP_2, Protocol::HTTP_1_1};

// `size` bytes no two runs of a test differ in, and no compression or framing bug could get right
// by accident.
std::string randomBytes(size_t size, uint32_t seed) {
  std::mt19937 random(seed);
  std::string result(size, '\0');
  for (char& c : result) c = static_cast<char>(random() & 0xff);
  return result;
}

const std::string kSmallFile = randomBytes(1024, 1);
const std::string kLargeFile = randomBytes(384 * 1024, 2);  // Many congestion windows' worth.
const std::string kRequestBody = randomBytes(256 * 1024, 3);
// gtlsserver makes up a body of N bytes for the path "/N" (up to --max-dyn-length): one far
// longer than any test reads, so a fault always lands mid-response.
constexpr char kEndlessPath[] = "/1000000000";
// Read before the fault: the response is under way.
constexpr int64_t kBytesBeforeFault = 1024 * 1024;

// gtlsserver as tests/http3's GtlsServer runs it (the same certificate and document root),
// with extra arguments (loss rates, limits), and with its process in reach of the test, to stop,
// continue and kill it. (GtlsServer keeps its process to itself.)
class FaultyGtlsServer {
 public:
  FaultyGtlsServer(const TestCertificates& certificates, std::filesystem::path directory,
                   std::vector<std::string> extraArgs)
      : directory_(std::move(directory)), extraArgs_(std::move(extraArgs)) {
    std::filesystem::create_directories(directory_ / "htdocs");
    write("key.pem", certificates.localhost.privateKeyPkcs8Pem());
    write("cert.pem", certificates.localhost.certificatePem() + certificates.root.certificatePem());
    write("htdocs/small", kSmallFile);
    write("htdocs/large", kLargeFile);
  }
  // A stopped process would not hear ChildProcess's SIGTERM: it is continued first.
  ~FaultyGtlsServer() { resume(); }
  FaultyGtlsServer(const FaultyGtlsServer&) = delete;
  FaultyGtlsServer& operator=(const FaultyGtlsServer&) = delete;

  // Starts it on a free UDP port of 127.0.0.1; false if it would not (see log()).
  bool start() {
    for (int attempt = 0; attempt < 5; ++attempt) {
      port_ = freeUdpPort("127.0.0.1");
      if (port_ <= 0) continue;
      std::vector<std::string> args = {kGtlsServerPath, "-q", "-d",
                                       (directory_ / "htdocs").string()};
      args.insert(args.end(), extraArgs_.begin(), extraArgs_.end());
      args.insert(args.end(),
                  {"127.0.0.1", std::to_string(port_), (directory_ / "key.pem").string(),
                   (directory_ / "cert.pem").string()});
      const int port = port_;
      if (process_.start(args, log(), true, [port] { return udpPortBound(port); })) return true;
    }
    return false;
  }

  // Sends `sig` without waiting (from any thread: a test's mid-body hook runs on the call's).
  void sendSignal(int sig) const {
    if (process_.running()) ::kill(process_.pid(), sig);
  }
  void resume() const { sendSignal(SIGCONT); }
  // Reaps it (after a SIGKILL, or to stop it).
  void stop() {
    resume();
    process_.stop(SIGTERM, 5s);
  }

  int port() const { return port_; }
  std::string url(const std::string& path) const {
    return "https://127.0.0.1:" + std::to_string(port_) + path;
  }
  std::filesystem::path log() const { return directory_ / "gtlsserver.log"; }

 private:
  void write(const std::string& name, const std::string& content) const {
    std::ofstream(directory_ / name, std::ios::binary) << content;
  }

  std::filesystem::path directory_;
  std::vector<std::string> extraArgs_;
  int port_ = -1;
  ChildProcess process_;
};

// How a call ended: the response's code, protocol and body, or the exception.
struct Outcome {
  int code = 0;
  std::optional<Protocol> protocol;
  std::string body;
  int64_t bodyBytes = 0;                   // Read, kept or not.
  std::optional<std::string> failure;      // what() of the IOException
  std::string failureType;                 // "SocketTimeoutException", "IOException", ...
  bool bodyFailed = false;                 // The headers came, reading the body failed.
  std::optional<Clock::time_point> fault;  // When the mid-body hook ran.
  Clock::time_point end;                   // When the call, or its body, ended.
};

std::string typeOf(const IOException& e) {
  if (dynamic_cast<const SocketTimeoutException*>(&e)) return "SocketTimeoutException";
  if (dynamic_cast<const InterruptedIOException*>(&e)) return "InterruptedIOException";
  if (dynamic_cast<const ConnectException*>(&e)) return "ConnectException";
  if (dynamic_cast<const StreamResetException*>(&e)) return "StreamResetException";
  if (dynamic_cast<const ProtocolException*>(&e)) return "ProtocolException";
  if (dynamic_cast<const SSLException*>(&e)) return "SSLException";
  return "IOException";
}

Outcome failed(const IOException& e) {
  Outcome outcome;
  outcome.failure = e.what();
  outcome.failureType = typeOf(e);
  outcome.end = Clock::now();
  return outcome;
}

// What the cell does while reading a body: keep it (to compare), or count it and, after
// kBytesBeforeFault, run `fault` once (and keep reading to the body's end or failure).
struct BodyReader {
  bool keep = true;
  std::function<void()> fault;
};

Outcome readResponse(Response response, const BodyReader& reader) {
  Outcome outcome;
  outcome.code = response.code();
  outcome.protocol = response.protocol();
  try {
    if (reader.keep) {
      std::vector<std::byte> bytes = response.body()->bytes();
      outcome.body.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
      outcome.bodyBytes = static_cast<int64_t>(bytes.size());
    } else {
      BufferedSource& source = response.body()->source();
      Buffer buffer;
      for (int64_t n; (n = source.read(buffer, 64 * 1024)) != -1;) {
        outcome.bodyBytes += n;
        buffer.clear();
        if (reader.fault && !outcome.fault && outcome.bodyBytes >= kBytesBeforeFault) {
          reader.fault();
          outcome.fault = Clock::now();
        }
      }
      response.body()->close();
    }
  } catch (const IOException& e) {
    Outcome failure = failed(e);
    failure.code = outcome.code;
    failure.protocol = outcome.protocol;
    failure.bodyBytes = outcome.bodyBytes;
    failure.fault = outcome.fault;
    failure.bodyFailed = true;
    return failure;
  }
  outcome.end = Clock::now();
  return outcome;
}

// How the cell makes its calls.
enum class Mode { kSync, kAsync };
constexpr Mode kModes[] = {Mode::kSync, Mode::kAsync};

std::string toString(Mode mode) { return mode == Mode::kSync ? "Sync" : "Async"; }

// Runs `request` on `client` in `mode`; the body is read on the call's thread (the callback's,
// for enqueue()). `bound` is how long the test waits for a callback before it calls the call
// hung.
Outcome run(const Client& client, const Request& request, Mode mode, const BodyReader& reader = {},
            std::chrono::milliseconds bound = 60s) {
  std::shared_ptr<Call> call = client.newCall(request);
  if (mode == Mode::kSync) {
    try {
      return readResponse(call->execute(), reader);
    } catch (const IOException& e) {
      return failed(e);
    }
  }
  auto promise = std::make_shared<std::promise<Outcome>>();
  std::future<Outcome> future = promise->get_future();
  call->enqueue(
      [promise, reader](Call&, Response response) {
        promise->set_value(readResponse(std::move(response), reader));
      },
      [promise](Call&, const IOException& e) { promise->set_value(failed(e)); });
  if (future.wait_for(bound) != std::future_status::ready) {
    ADD_FAILURE() << "the enqueued call never called back";
    call->cancel();
  }
  return future.get();
}

Request get(const std::string& url) { return Request::Builder().url(url).build(); }

Request post(const std::string& url) {
  return Request::Builder().url(url).post(RequestBody::create(kRequestBody)).build();
}

// What every cell shares: certificates, a directory for servers, the events of every call, and
// the descriptor count before anything was opened.
class Http3FaultFixture {
 protected:
  // A client trusting the test root, recording events, with these timeouts.
  Client::Builder clientBuilder(std::chrono::milliseconds connectTimeout,
                                std::chrono::milliseconds readTimeout,
                                std::chrono::milliseconds callTimeout) {
    return Client::Builder()
        .handshakeCertificates(certificates_.clientTrust())
        .connectTimeout(connectTimeout)
        .readTimeout(readTimeout)
        .writeTimeout(readTimeout)
        .callTimeout(callTimeout)
        .eventListenerFactory(events_);
  }

  std::unique_ptr<FaultyGtlsServer> startServer(std::vector<std::string> extraArgs) {
    auto server = std::make_unique<FaultyGtlsServer>(
        certificates_, directory_.path() / ("gtls" + std::to_string(servers_++)),
        std::move(extraArgs));
    EXPECT_TRUE(server->start()) << "gtlsserver did not start; see " << server->log();
    return server;
  }

  // The events of the call made last.
  std::shared_ptr<RecordingEventListener> lastCall() const { return events_->listeners().back(); }

  // Waits up to 2 s until `client`'s pool holds no connection (a connection that failed leaves it
  // once its reader has seen the failure).
  static bool poolEmpties(const Client& client) {
    const auto deadline = Clock::now() + 2s;
    while (client.connectionPool()->connectionCount() != 0 && Clock::now() < deadline) {
      std::this_thread::sleep_for(10ms);
    }
    return client.connectionPool()->connectionCount() == 0;
  }

  // How many connections in `client`'s pool a call could be given: those not known unhealthy (a
  // call that finds an unhealthy one takes it out of use and looks further).
  static int healthyConnectionCount(const Client& client) {
    std::vector<std::shared_ptr<internal::RealConnection>> connections =
        internal::ConnectionPoolAccess::delegate(*client.connectionPool()).connections();
    return static_cast<int>(std::count_if(connections.begin(), connections.end(),
                                          [](const auto& c) { return c->isHealthy(false); }));
  }

  // Waits up to `wait` until no connection in `client`'s pool would be given to a call.
  static bool poolHandsOutNothing(const Client& client, std::chrono::milliseconds wait) {
    const auto deadline = Clock::now() + wait;
    while (healthyConnectionCount(client) != 0) {
      if (Clock::now() >= deadline) return false;
      std::this_thread::sleep_for(20ms);
    }
    return true;
  }

  // A fresh server answers a new client: the fault left nothing behind that breaks the next
  // call.
  void nextCallSucceeds(Mode mode) {
    std::unique_ptr<FaultyGtlsServer> server = startServer({});
    Client client = clientBuilder(2s, 2s, 10s).protocols({Protocol::HTTP_3}).build();
    Outcome next = run(client, get(server->url("/small")), mode);
    EXPECT_FALSE(next.failure) << *next.failure;
    EXPECT_EQ(next.protocol, Protocol::HTTP_3);
    EXPECT_TRUE(next.body == kSmallFile) << next.body.size() << " bytes";
  }

  // Every call ended, and once the test's clients and servers are gone (the caller destroys
  // them first), every descriptor the cell opened is closed.
  void checkNothingLeaked() {
    events_->checkAllCallsEnded();
    EXPECT_TRUE(fileDescriptorsReturnTo(baselineFds_))
        << "file descriptors leaked: " << openFileDescriptorCount() << " open, " << baselineFds_
        << " before the cell";
  }

  int baselineFds_ = openFileDescriptorCount();
  TestCertificates certificates_;
  TempDir directory_;
  int servers_ = 0;
  std::shared_ptr<RecordingEventListener::Factory> events_ =
      std::make_shared<RecordingEventListener::Factory>();
};

// Dropped datagrams ------------------------------------------------------------------------------

// gtlsserver's loss options: each datagram it would send (-t) or receive (-r) is dropped with
// this probability.
struct Loss {
  std::string name;
  std::vector<std::string> args;
};

void PrintTo(const Loss& loss, std::ostream* out) { *out << loss.name; }

const Loss kLosses[] = {
    {"Tx10", {"-t", "0.1"}},
    {"Rx10", {"-r", "0.1"}},
    {"Tx30", {"-t", "0.3"}},
    {"Rx30", {"-r", "0.3"}},
    {"Both20", {"-t", "0.2", "-r", "0.2"}},
};

using LossCell = std::tuple<Loss, Mode>;

class Http3DatagramLossTest : public Http3FaultFixture, public ::testing::TestWithParam<LossCell> {
 protected:
  const Loss& loss() const { return std::get<0>(GetParam()); }
  Mode mode() const { return std::get<1>(GetParam()); }
};

// Loss costs retransmissions, not bytes: every call comes back whole, over one connection
// (including its handshake, whose lost flights QUIC's probe timeout resends). The connect timeout
// is loose on purpose: before the first round trip is measured, a lost flight waits a probe
// timeout of 1 s (RFC 9002's initial RTT of 333 ms), doubling with each loss in a row, so three
// lost Initials at 30% loss (one handshake in 37) take 7 s and four take 15 s. The transfers
// themselves take well under a second to a few seconds; the call timeout is the bound asserted.
TEST_P(Http3DatagramLossTest, CallsCompleteWithTheExactBytes) {
  constexpr auto kCallTimeout = 45s;
  std::unique_ptr<FaultyGtlsServer> server = startServer(loss().args);
  std::optional<Client> client =
      clientBuilder(30s, 10s, kCallTimeout).protocols({Protocol::HTTP_3}).build();

  struct Exchange {
    Request request;
    const std::string& expected;
  };
  const Exchange exchanges[] = {
      {get(server->url("/small")), kSmallFile},
      {get(server->url("/large")), kLargeFile},
      // gtlsserver answers any method with the file, once the request body has ended: the
      // response shows the whole body crossed.
      {post(server->url("/large")), kLargeFile},
  };
  for (const Exchange& exchange : exchanges) {
    const auto start = Clock::now();
    Outcome outcome = run(*client, exchange.request, mode());
    const std::string what =
        exchange.request.method() + " " + exchange.request.url().toString() + ": ";
    ASSERT_FALSE(outcome.failure) << what << outcome.failureType << ": " << *outcome.failure;
    EXPECT_LT(outcome.end - start, kCallTimeout) << what;
    EXPECT_EQ(outcome.code, 200) << what;
    EXPECT_EQ(outcome.protocol, Protocol::HTTP_3) << what;
    EXPECT_EQ(outcome.body.size(), exchange.expected.size()) << what;
    EXPECT_TRUE(outcome.body == exchange.expected) << what << "the bytes differ";
  }
  // One connection carried them all, and it is still fine.
  EXPECT_EQ(events_->listeners().front()->count("connectEnd"), 1);
  EXPECT_EQ(client->connectionPool()->connectionCount(), 1);
  EXPECT_EQ(healthyConnectionCount(*client), 1) << "the lossy connection was given up";

  client.reset();
  server.reset();
  checkNothingLeaked();
}

std::string lossCellName(const ::testing::TestParamInfo<LossCell>& info) {
  return std::get<0>(info.param).name + toString(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Http3Faults, Http3DatagramLossTest,
                         ::testing::Combine(::testing::ValuesIn(kLosses),
                                            ::testing::ValuesIn(kModes)),
                         lossCellName);

// Every datagram dropped -------------------------------------------------------------------------

using BlackHoleCell = std::tuple<Loss, Mode>;

const Loss kBlackHoles[] = {
    {"Tx100", {"-t", "1.0"}},  // The server hears the client and is never heard.
    {"Rx100", {"-r", "1.0"}},  // The server hears nothing.
};

class Http3BlackHoleTest : public Http3FaultFixture,
                           public ::testing::TestWithParam<BlackHoleCell> {
 protected:
  const Loss& loss() const { return std::get<0>(GetParam()); }
  Mode mode() const { return std::get<1>(GetParam()); }
};

// HTTP/3 only has nothing to fall back to: the handshake never finishes, and the call fails when
// the connect timeout runs out (docs/http3.md: "a network that drops UDP silently").
TEST_P(Http3BlackHoleTest, Http3OnlyFailsWithSocketTimeoutAtTheConnectTimeout) {
  constexpr auto kConnectTimeout = 800ms;
  std::unique_ptr<FaultyGtlsServer> server = startServer(loss().args);
  std::optional<Client> client =
      clientBuilder(kConnectTimeout, 2s, 10s).protocols({Protocol::HTTP_3}).build();

  const auto start = Clock::now();
  Outcome outcome = run(*client, get(server->url("/small")), mode());
  const auto elapsed = outcome.end - start;
  ASSERT_TRUE(outcome.failure) << "expected a failure, got " << outcome.code;
  EXPECT_EQ(outcome.failureType, "SocketTimeoutException") << *outcome.failure;
  EXPECT_EQ(*outcome.failure, "HTTP/3 connect to 127.0.0.1:" + std::to_string(server->port()) +
                                  " (127.0.0.1:" + std::to_string(server->port()) +
                                  ") timed out after 800 ms: no QUIC handshake answer");
  EXPECT_GE(elapsed, kConnectTimeout);
  EXPECT_LT(elapsed, kConnectTimeout + 1s);
  std::optional<CallEvent> connectFailed = lastCall()->find("connectFailed");
  ASSERT_TRUE(connectFailed);
  EXPECT_EQ(connectFailed->exceptionType, "SocketTimeoutException");
  EXPECT_TRUE(poolEmpties(*client));

  client.reset();
  server.reset();
  nextCallSucceeds(mode());
  checkNothingLeaked();
}

// With TCP beside it, QUIC to a silent alternative loses the race: TCP starts after the
// fast-fallback delay and serves the call, long before the connect timeout, and no QUIC
// connection is pooled.
TEST_P(Http3BlackHoleTest, WithTcpBesideItTheCallFallsBackToTcp) {
  std::unique_ptr<FaultyGtlsServer> quic = startServer(loss().args);
  std::optional<MockWebServer> tcp{std::in_place};
  tcp->useHttps(certificates_.server());
  tcp->enqueue(MockResponse::Builder().body(kSmallFile).build());
  // The origin (MockWebServer's port) serves HTTP/3 at gtlsserver's UDP port, the client is told.
  std::optional<Client> client = clientBuilder(5s, 2s, 10s)
                                     .protocols(kWithHttp3)
                                     .addQuicHint("*", tcp->port(), quic->port())
                                     .build();

  const auto start = Clock::now();
  Outcome outcome = run(*client, get(tcp->url("/small").toString()), mode());
  ASSERT_FALSE(outcome.failure) << outcome.failureType << ": " << *outcome.failure;
  EXPECT_LT(outcome.end - start, 2s);  // The race, not the connect timeout.
  EXPECT_EQ(outcome.protocol, Protocol::HTTP_2);
  EXPECT_TRUE(outcome.body == kSmallFile);
  int quicConnects = 0;
  for (const CallEvent& e : lastCall()->events()) {
    if (e.socketAddress != "127.0.0.1:" + std::to_string(quic->port())) continue;
    if (e.name == "connectStart") ++quicConnects;
    if (e.name == "connectFailed") {
      EXPECT_EQ(e.exceptionType, "InterruptedIOException");
    }
    EXPECT_NE(e.name, "connectEnd");
  }
  EXPECT_EQ(quicConnects, 1);
  internal::RealConnectionPool& pool =
      internal::ConnectionPoolAccess::delegate(*client->connectionPool());
  for (const auto& connection : pool.connections()) EXPECT_FALSE(connection->isQuic());
  EXPECT_EQ(client->connectionPool()->connectionCount(), 1);

  client.reset();
  tcp.reset();
  quic.reset();
  checkNothingLeaked();
}

std::string blackHoleCellName(const ::testing::TestParamInfo<BlackHoleCell>& info) {
  return std::get<0>(info.param).name + toString(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Http3Faults, Http3BlackHoleTest,
                         ::testing::Combine(::testing::ValuesIn(kBlackHoles),
                                            ::testing::ValuesIn(kModes)),
                         blackHoleCellName);

// A server that stops answering, or dies, mid-response --------------------------------------------

class Http3ServerFaultTest : public Http3FaultFixture, public ::testing::TestWithParam<Mode> {
 protected:
  Mode mode() const { return GetParam(); }

  static constexpr auto kConnectTimeout = 1s;
  static constexpr auto kReadTimeout = 500ms;

  // A server with an endless body to serve, and a client for HTTP/3 only.
  void SetUp() override {
    server_ = startServer({"--max-dyn-length=1G"});
    client_ =
        clientBuilder(kConnectTimeout, kReadTimeout, 20s).protocols({Protocol::HTTP_3}).build();
  }

  std::unique_ptr<FaultyGtlsServer> server_;
  std::optional<Client> client_;
};

// SIGSTOP: the process is there, its socket too, but nothing answers. The body read drains what
// came before and then times out at the read timeout, as a stalled HTTP/1.1 or HTTP/2 read does.
// The connection is not failed (QUIC's idle timeout is 30 s), but the server did not acknowledge
// the stream's reset either: the next call must not be given it.
TEST_P(Http3ServerFaultTest, AStoppedServerTimesOutTheBodyRead) {
  const std::string url = server_->url(kEndlessPath);
  Outcome outcome =
      run(*client_, get(url), mode(), BodyReader{false, [this] { server_->sendSignal(SIGSTOP); }});
  ASSERT_TRUE(outcome.fault) << "the body ended before the fault: " << outcome.bodyBytes;
  ASSERT_TRUE(outcome.failure) << "the body ended after the fault: " << outcome.bodyBytes;
  EXPECT_TRUE(outcome.bodyFailed);
  EXPECT_EQ(outcome.code, 200);
  EXPECT_EQ(outcome.failureType, "SocketTimeoutException") << *outcome.failure;
  EXPECT_EQ(*outcome.failure, "Read timed out after 500 ms: HTTP/3 stream 0 to 127.0.0.1:" +
                                  std::to_string(server_->port()));
  const auto elapsed = outcome.end - *outcome.fault;
  EXPECT_GE(elapsed, kReadTimeout);
  EXPECT_LT(elapsed, kReadTimeout + 1500ms);

  // Nothing has come back since: the silent connection is no longer handed out...
  EXPECT_TRUE(poolHandsOutNothing(*client_, 2s)) << "a silent connection stays in use";
  // ...so the next call to the stopped server connects afresh, and times out connecting, instead
  // of timing out again on the dead connection's stream.
  const auto start = Clock::now();
  Outcome next = run(*client_, get(server_->url("/small")), mode());
  ASSERT_TRUE(next.failure);
  EXPECT_EQ(next.failureType, "SocketTimeoutException") << *next.failure;
  EXPECT_NE(next.failure->find("no QUIC handshake answer"), std::string::npos) << *next.failure;
  EXPECT_EQ(lastCall()->count("connectStart"), 1);
  EXPECT_LT(next.end - start, kConnectTimeout + 1s);

  // Woken up, the server finds its client gone; a new client's call to a fresh server succeeds.
  server_->resume();
  client_.reset();
  server_.reset();
  nextCallSucceeds(mode());
  checkNothingLeaked();
}

// SIGKILL: the process and its socket are gone. The kernel answers the client's next datagram
// (an ACK, or the flow-control credit its reads free) with ICMP port unreachable, and the
// connection fails, and with it the body read: "the peer is gone". Whether the client has a
// datagram left to send once the socket is gone is a race with the kernel's teardown of the
// process; when it has none, the read times out at the read timeout, and the reset that follows
// meets the ICMP answer. Either way the read fails within the read timeout, and the connection.
TEST_P(Http3ServerFaultTest, AKilledServerFailsTheBodyRead) {
  const std::string url = server_->url(kEndlessPath);
  Outcome outcome =
      run(*client_, get(url), mode(), BodyReader{false, [this] { server_->sendSignal(SIGKILL); }});
  ASSERT_TRUE(outcome.fault) << "the body ended before the fault: " << outcome.bodyBytes;
  ASSERT_TRUE(outcome.failure) << "the body ended after the fault: " << outcome.bodyBytes;
  EXPECT_TRUE(outcome.bodyFailed);
  EXPECT_EQ(outcome.code, 200);
  const std::string peer = "127.0.0.1:" + std::to_string(server_->port());
  if (outcome.failureType == "SocketTimeoutException") {
    EXPECT_EQ(*outcome.failure, "Read timed out after 500 ms: HTTP/3 stream 0 to " + peer);
  } else {
    EXPECT_EQ(outcome.failureType, "IOException") << *outcome.failure;
    EXPECT_EQ(*outcome.failure,
              "HTTP/3 connection to " + peer + " failed: Connection refused (the peer is gone)");
  }
  EXPECT_LT(outcome.end - *outcome.fault, kReadTimeout + 1s);

  // The failed connection left the pool.
  EXPECT_TRUE(poolEmpties(*client_));

  client_.reset();
  server_->stop();  // Reaps it.
  server_.reset();
  nextCallSucceeds(mode());
  checkNothingLeaked();
}

INSTANTIATE_TEST_SUITE_P(Http3Faults, Http3ServerFaultTest, ::testing::ValuesIn(kModes),
                         [](const ::testing::TestParamInfo<Mode>& info) {
                           return toString(info.param);
                         });

}  // namespace
}  // namespace tern::testing
