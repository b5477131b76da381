// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The fault matrix: every MockWebServer SocketPolicy × every transport (HTTP/1.1, HTTP/1.1 over
// TLS, h2c, HTTP/3 over QUIC, and through proxies: an HTTP proxy, a CONNECT tunnel, SOCKS5) ×
// {sync, async, coroutine} × {GET, POST with a body}, and the proxies' own faults on their
// transport. In every cell the call ends (well inside its call timeout) with the right response or
// an exception whose type and message match the fault; afterwards the pool holds no broken
// connection, the next call to the same server succeeds, and no file descriptor leaks. (HTTP/2's
// own faults, stream resets and GOAWAY, are in tests/http2.)
#include <gtest/gtest.h>

#include <cstdio>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <set>
#include <stop_token>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "support/fd_count.h"
#include "support/recording_event_listener.h"
#include "support/socks5_relay.h"
#include "support/tls_certificates.h"
#include "tern/client.h"
#include "tern/coro.h"
#include "tern/dns.h"
#include "tern/mockwebserver/mock_web_server.h"
#include "tern/proxy.h"

namespace tern::testing {
namespace {

using namespace std::chrono_literals;
using mockwebserver::MockResponse;
using mockwebserver::MockWebServer;
using mockwebserver::RecordedRequest;
using mockwebserver::SocketPolicy;

constexpr auto kReadTimeout = 300ms;
constexpr auto kCallTimeout = 10s;
const std::string kFaultBody = "the faulty response's body";
const std::string kRequestBody(256 * 1024, 'p');  // Bigger than socket buffers: it streams.
// What a proxy that hangs up before answering the CONNECT fails the call with (the proxy's
// RealConnection::createTunnel names; it once said only "unexpected end of stream").
const std::string kTunnelEndOfStream = "unexpected end of stream on CONNECT (HTTP @ 127.0.0.1:";

// What a cell must end with.
enum class Expect {
  kResponse,      // 200 with kFaultBody.
  kFailure,       // An exception of the cell's type and message.
  kBodyFailure,   // 200, and reading the body fails as the cell says.
  kSomeResponse,  // A response from the server (the fault's or a retry's): the race the
                  // SocketPolicy docs describe, between the server closing and the client.
};

struct Fault {
  std::string name;
  SocketPolicy policy;
  Expect get;
  Expect post;
  // For failures: what the exception says (one of these; which is a race between the server
  // closing and the client writing), and whether it must be a SocketTimeoutException. Over
  // https, `tlsMessages` are accepted too.
  std::vector<std::string> messages;
  bool timeout = false;
  // Whether the server still answers afterwards (not after ShutdownServerAfterResponse).
  bool serverSurvives = true;
  std::vector<std::string> tlsMessages = {};
  bool httpsOnly = false;  // FailHandshake: only a TLS server has a handshake to fail.
  // HTTP/2 only: the failure leaves the connection healthy and pooled (one stream failed).
  bool keepsConnection = false;
  // HTTP/2 only: how long the connection takes to be retired after the failure.
  std::chrono::milliseconds settleBeforeNext{0};
  // A fault of the proxy's own step, before the origin is reached (`policy` is then KeepOpen):
  // how MockWebServer, as the tunnel's proxy, answers the CONNECT (CONNECT tunnel only), or what
  // the SOCKS5 relay does (SOCKS5 only).
  std::optional<MockResponse> connectAnswer = {};
  Socks5Relay::Fault socksFault = Socks5Relay::Fault::kNone;
  // For failures: the ProxyException's responseCode() the user sees, or nullopt when the failure
  // must not be a ProxyException.
  std::optional<int> proxyCode = {};
};

// gtest names the cell by the fault, not by its bytes.
void PrintTo(const Fault& fault, std::ostream* out) { *out << fault.name; }

std::vector<Fault> faults() {
  // "on http://...", "on https://...", "on HTTP/2 connection to ...".
  const std::string eof = "unexpected end of stream on ";
  const std::string reset = "Connection reset by peer: 127.0.0.1:";
  const std::string pipe = "Broken pipe: 127.0.0.1:";
  // A POST checks a connection harder before use: a server that hung up is seen then.
  const std::string closedFirst = "the server closed the connection before it could be used";
  const std::string readTimeout = "Read timed out after 300 ms: 127.0.0.1:";
  using E = Expect;
  return {
      {"KeepOpen", SocketPolicy::KeepOpen{}, E::kResponse, E::kResponse, {}},
      {"DisconnectAtStart",
       SocketPolicy::DisconnectAtStart{},
       E::kFailure,
       E::kFailure,
       {eof, reset, pipe, closedFirst},
       false,
       true,
       // Over https the server hangs up during the handshake.
       {"failed: the server closed the connection during the handshake",
        "failed: Connection reset by peer"}},
      {"DisconnectAtEnd", SocketPolicy::DisconnectAtEnd{}, E::kResponse, E::kResponse, {}},
      {"DisconnectAfterRequest",
       SocketPolicy::DisconnectAfterRequest{},
       E::kFailure,
       E::kFailure,
       {eof}},
      {"HalfCloseAfterRequest",
       SocketPolicy::HalfCloseAfterRequest{},
       E::kFailure,
       E::kFailure,
       {eof}},
      // Without a request body there is nothing to disconnect during: the response comes.
      {"DisconnectDuringRequestBody",
       SocketPolicy::DisconnectDuringRequestBody{},
       E::kResponse,
       E::kFailure,
       {eof, reset, pipe}},
      {"DisconnectDuringResponseBody",
       SocketPolicy::DisconnectDuringResponseBody{},
       E::kBodyFailure,
       E::kBodyFailure,
       {"unexpected end of stream"}},
      {"DoNotReadRequestBody",
       SocketPolicy::DoNotReadRequestBody{},
       E::kResponse,
       E::kResponse,
       {}},
      {"ShutdownInputAtEnd", SocketPolicy::ShutdownInputAtEnd{}, E::kResponse, E::kResponse, {}},
      {"ShutdownOutputAtEnd", SocketPolicy::ShutdownOutputAtEnd{}, E::kResponse, E::kResponse, {}},
      {"ShutdownServerAfterResponse",
       SocketPolicy::ShutdownServerAfterResponse{},
       E::kResponse,
       E::kResponse,
       {},
       false,
       false},
      {"StallSocketAtStart",
       SocketPolicy::StallSocketAtStart{},
       E::kFailure,
       E::kFailure,
       {readTimeout},
       true},
      {"NoResponse", SocketPolicy::NoResponse{}, E::kFailure, E::kFailure, {readTimeout}, true},
      {"FailHandshake",
       SocketPolicy::FailHandshake{},
       E::kFailure,
       E::kFailure,
       {"failed: the server refused the handshake (handshake failure alert)"},
       false,
       true,
       {},
       true},
  };
}

// Faults of the proxy's own step. Each fails the call whatever its method: the request never
// reached the origin.
std::vector<Fault> proxyFaults() {
  auto proxyFault = [](std::string name, std::vector<std::string> messages) {
    Fault fault{std::move(name), SocketPolicy::KeepOpen{}, Expect::kFailure, Expect::kFailure,
                std::move(messages)};
    return fault;
  };
  auto connectAnswer = [](int code, SocketPolicy policy) {
    MockResponse::Builder builder;
    builder.code(code).inTunnel().socketPolicy(policy);
    if (code == 407) builder.addHeader("Proxy-Authenticate", "Basic realm=\"proxy\"");
    return builder.build();
  };
  std::vector<Fault> result;
  // The proxy reads the CONNECT and hangs up.
  Fault& disconnect = result.emplace_back(proxyFault("ConnectDisconnect", {kTunnelEndOfStream}));
  disconnect.connectAnswer = connectAnswer(200, SocketPolicy::DisconnectAfterRequest{});
  // The proxy asks for credentials the client has no authenticator for.
  Fault& unauthorized =
      result.emplace_back(proxyFault("Connect407", {"Failed to authenticate with proxy (HTTP @ "}));
  unauthorized.connectAnswer = connectAnswer(407, SocketPolicy::KeepOpen{});
  unauthorized.proxyCode = 407;
  // The proxy refuses the tunnel.
  Fault& forbidden = result.emplace_back(
      proxyFault("Connect403", {"Unexpected response code for CONNECT: 403 (HTTP @ "}));
  forbidden.connectAnswer = connectAnswer(403, SocketPolicy::KeepOpen{});
  forbidden.proxyCode = 403;
  // A SOCKS5 proxy that hangs up after the greeting, answers as another version, or cannot
  // connect to the origin.
  Fault& closed = result.emplace_back(
      proxyFault("SocksCloseAfterGreeting", {"SOCKS5 proxy closed the connection (SOCKS @ "}));
  closed.socksFault = Socks5Relay::Fault::kCloseAfterGreeting;
  Fault& version = result.emplace_back(
      proxyFault("SocksBadVersion", {"not a SOCKS5 proxy: version 4 (SOCKS @ "}));
  version.socksFault = Socks5Relay::Fault::kBadVersion;
  Fault& refused = result.emplace_back(proxyFault(
      "SocksRefused", {"SOCKS5 proxy could not connect: connection refused (5) (SOCKS @ "}));
  refused.socksFault = Socks5Relay::Fault::kRefuseConnect;
  refused.proxyCode = 0;
  return result;
}

// Answers the first request (and the first connection's peek) with the fault, every later one
// with "ok": retries and the follow-up call get a healthy answer.
//
// As a CONNECT proxy (`tunnel`), it first answers each connection's CONNECT: with
// `connectAnswer` the first time if there is one (that is then the fault), else with a 200 that
// opens the tunnel, after which the origin's requests meet the fault as on a direct connection.
// DisconnectAtStart stays the proxy's: MockWebServer decides it on accepting the connection.
class FaultThenOk final : public mockwebserver::Dispatcher {
 public:
  explicit FaultThenOk(SocketPolicy policy, bool tunnel = false,
                       std::optional<MockResponse> connectAnswer = {})
      : fault_(MockResponse::Builder().body(kFaultBody).socketPolicy(policy).build()),
        tunnel_(tunnel),
        connectAnswer_(std::move(connectAnswer)) {}

  MockResponse dispatch(const RecordedRequest& request) override {
    std::lock_guard lock(mutex_);
    if (tunnel_ && request.method() == "CONNECT") {
      if (connectAnswer_ && !faulted_) return faultLocked(*connectAnswer_);
      tunnelOpen() = true;
      return MockResponse::Builder().code(200).inTunnel().build();
    }
    if (faulted_) return MockResponse::Builder().body("ok").build();
    return faultLocked(fault_);
  }
  MockResponse peek() override {
    std::lock_guard lock(mutex_);
    if (tunnel_ && !tunnelOpen()) {
      if (!faulted_ && connectAnswer_) return *connectAnswer_;
      if (!faulted_ && fault_.socketPolicy().is<SocketPolicy::DisconnectAtStart>()) return fault_;
      return MockResponse::Builder().code(200).inTunnel().build();
    }
    return faulted_ ? MockResponse() : fault_;
  }

  // The fault happened before the server (in the SOCKS5 relay): every answer is "ok".
  void faultedElsewhere() {
    std::lock_guard lock(mutex_);
    faulted_ = true;
  }

  // Waits until the fault has been dispatched (for DisconnectDuringRequestBody that happens after
  // the server hung up), so the next request gets "ok".
  bool awaitFault(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return faultedChanged_.wait_for(lock, timeout, [this] { return faulted_; });
  }

 private:
  MockResponse faultLocked(const MockResponse& fault) {
    faulted_ = true;
    faultedChanged_.notify_all();
    return fault;
  }
  // Whether the connection being served has its tunnel open. peek() is not told which connection
  // asks, but MockWebServer serves each connection on a thread of its own (and decides
  // DisconnectAtStart on its accept thread, which never opens a tunnel).
  static bool& tunnelOpen() {
    thread_local bool open = false;
    return open;
  }

  std::mutex mutex_;
  std::condition_variable faultedChanged_;
  bool faulted_ = false;
  MockResponse fault_;
  const bool tunnel_;
  const std::optional<MockResponse> connectAnswer_;
};

// How a call ended: the response's code and body, or the exception.
struct Outcome {
  int code = 0;
  std::string body;
  std::optional<std::string> failure;  // what() of the IOException
  bool timeout = false;                // It was a SocketTimeoutException.
  bool bodyFailed = false;             // The headers came, reading the body failed.
  std::optional<int> proxyCode;        // It was a ProxyException with this responseCode().
};

Outcome failed(const IOException& e) {
  Outcome outcome;
  outcome.failure = e.what();
  outcome.timeout = dynamic_cast<const SocketTimeoutException*>(&e) != nullptr;
  if (const auto* proxy = dynamic_cast<const ProxyException*>(&e)) {
    outcome.proxyCode = proxy->responseCode();
  }
  return outcome;
}

// The headers came with `code`; reading the body failed with `e`.
Outcome bodyFailed(int code, const IOException& e) {
  Outcome outcome = failed(e);
  outcome.code = code;
  outcome.bodyFailed = true;
  return outcome;
}

Outcome readResponse(Response response) {
  Outcome outcome;
  outcome.code = response.code();
  try {
    outcome.body = response.body()->string();
  } catch (const IOException& e) {
    return bodyFailed(response.code(), e);
  }
  return outcome;
}

// readResponse() and failed() through the coroutine API: the call's IOException comes out of
// executeAsync() with its dynamic type, the body's out of stringAsync(). (No co_await may sit in a
// handler, so each failure is caught into a value first.)
Task<Outcome> awaitOutcome(std::shared_ptr<Call> call, std::stop_token stopToken) {
  std::optional<Response> response;
  try {
    response.emplace(co_await call->executeAsync(std::move(stopToken)));
  } catch (const IOException& e) {
    co_return failed(e);
  }
  Outcome outcome;
  outcome.code = response->code();
  try {
    outcome.body = co_await stringAsync(*response->body());
  } catch (const IOException& e) {
    co_return bodyFailed(response->code(), e);
  }
  co_return outcome;
}

// How the cell talks to the server. Through proxies, HTTP/1.1 each: MockWebServer as an HTTP
// proxy (absolute-form requests), as a CONNECT proxy and then the TLS origin inside the tunnel
// (inTunnel()), and a SOCKS5 relay (tests/support/socks5_relay.h) in front of the cleartext
// server.
// Over HTTP/3 (kH3) the client is HTTP/3 only and MockWebServer answers over QUIC.
enum class Transport { kHttp1, kHttps1, kH2c, kH3, kHttpProxy, kHttpsTunnel, kSocks5 };
constexpr Transport kTransports[] = {
    Transport::kHttp1,     Transport::kHttps1,      Transport::kH2c,   Transport::kH3,
    Transport::kHttpProxy, Transport::kHttpsTunnel, Transport::kSocks5};

std::string toString(Transport transport) {
  switch (transport) {
    case Transport::kHttp1:
      return "Http1";
    case Transport::kHttps1:
      return "Https1";
    case Transport::kH2c:
      return "H2c";
    case Transport::kH3:
      return "H3";
    case Transport::kHttpProxy:
      return "HttpProxy";
    case Transport::kHttpsTunnel:
      return "HttpsTunnel";
    case Transport::kSocks5:
      return "Socks5";
  }
  return "?";
}

// `fault` as it plays out over `transport`. Over HTTP/2 (MockWebServer's h2c):
// - DisconnectDuringRequestBody is an HTTP/1 policy: the HTTP/2 server answers normally.
// - A stalled stream times out: "Read timed out after 500 ms: HTTP/2 stream 1 to ...". NoResponse
//   stalls that stream only, so its connection stays healthy and pooled; StallSocketAtStart stalls
//   the whole connection, which the ping sent after the timeout retires once it has gone unanswered
//   for a second (OkHttp's degraded connection), so the next call waits for that.
//
// Over HTTP/3 (MockWebServer's QUIC side, docs/mockwebserver.md "HTTP/3"):
// - DisconnectDuringRequestBody is an HTTP/1 policy: the server answers normally.
// - The policies that disconnect close the QUIC connection with CONNECTION_CLOSE: the call, or
//   the body's read, fails with "HTTP/3 connection to ... closed by the peer (CONNECTION_CLOSE)".
// - NoResponse stalls that stream only: "Read timed out after 300 ms: HTTP/3 stream 0 to ...",
//   the connection stays pooled.
//
// Through a CONNECT tunnel DisconnectAtStart is the proxy's: it hangs up before answering the
// CONNECT (kTunnelEndOfStream).
Fault forTransport(Fault fault, Transport transport) {
  if (transport == Transport::kHttpsTunnel && fault.name == "DisconnectAtStart") {
    fault.messages.push_back(kTunnelEndOfStream);
  }
  if (transport == Transport::kH3) {
    const std::string closed = "closed by the peer (CONNECTION_CLOSE)";
    if (fault.name == "DisconnectDuringRequestBody") {
      fault.get = fault.post = Expect::kResponse;
    } else if (fault.name == "DisconnectAfterRequest" || fault.name == "HalfCloseAfterRequest" ||
               fault.name == "DisconnectDuringResponseBody") {
      fault.messages = {closed};
    } else if (fault.name == "NoResponse") {
      fault.messages = {"Read timed out after 300 ms: HTTP/3 stream"};
      fault.keepsConnection = true;
    }
    return fault;
  }
  if (transport != Transport::kH2c) return fault;
  if (fault.name == "DisconnectDuringRequestBody") {
    fault.get = fault.post = Expect::kResponse;
  } else if (fault.name == "NoResponse") {
    fault.messages = {"Read timed out after"};
    fault.keepsConnection = true;
  } else if (fault.name == "StallSocketAtStart") {
    // A POST waits for flow-control window to send its body: its write times out.
    fault.messages = {"Read timed out after", "Write timed out after"};
    fault.keepsConnection = true;  // Until the unanswered ping retires it.
    fault.settleBeforeNext = std::chrono::milliseconds(1200);
  }
  return fault;
}

bool overTls(Transport transport) {
  return transport == Transport::kHttps1 || transport == Transport::kHttpsTunnel;
}

// The policies a TCP accept meets, before any HTTP: QUIC has no accept (MockWebServer's HTTP/3
// side ignores them).
bool atAccept(const Fault& fault) {
  return fault.name == "DisconnectAtStart" || fault.name == "StallSocketAtStart" ||
         fault.name == "FailHandshake";
}

// Whether `fault` can happen on `transport`: a TLS fault needs TLS over TCP, a proxy's fault its
// proxy, an accept's fault TCP.
bool appliesTo(const Fault& fault, Transport transport) {
  if (fault.connectAnswer) return transport == Transport::kHttpsTunnel;
  if (fault.socksFault != Socks5Relay::Fault::kNone) return transport == Transport::kSocks5;
  if (transport == Transport::kH3) return !atAccept(fault);
  return !fault.httpsOnly || overTls(transport);
}

// How the cell makes its call: execute(), enqueue(), or `co_await call->executeAsync()` in a
// tern::Task (the body read with `co_await stringAsync()`).
enum class Mode { kSync, kAsync, kCoro };
constexpr Mode kModes[] = {Mode::kSync, Mode::kAsync, Mode::kCoro};

std::string toString(Mode mode) {
  switch (mode) {
    case Mode::kSync:
      return "Sync";
    case Mode::kAsync:
      return "Async";
    case Mode::kCoro:
      return "Coro";
  }
  return "?";
}

using Cell = std::tuple<Fault, Transport, Mode, bool /* post */>;

// Every fault over each transport it applies to, in each mode, GET and POST.
std::vector<Cell> cells() {
  std::vector<Fault> all = faults();
  for (Fault& fault : proxyFaults()) all.push_back(std::move(fault));
  std::vector<Cell> result;
  for (const Fault& fault : all) {
    for (Transport transport : kTransports) {
      if (!appliesTo(fault, transport)) continue;
      for (Mode mode : kModes) {
        for (bool post : {false, true}) {
          result.emplace_back(forTransport(fault, transport), transport, mode, post);
        }
      }
    }
  }
  return result;
}

class FaultMatrixTest : public ::testing::TestWithParam<Cell> {
 protected:
  void SetUp() override {
    if (https()) {
      server_->useHttps(certificates_.server());
      // HTTP/1.1 over TLS: the client offers only that.
      client_ = client_->newBuilder()
                    .handshakeCertificates(certificates_.clientTrust())
                    .protocols({Protocol::HTTP_1_1})
                    .build();
    } else if (transport() == Transport::kH2c) {
      server_->setProtocols({Protocol::H2_PRIOR_KNOWLEDGE});
      client_ = client_->newBuilder().protocols({Protocol::H2_PRIOR_KNOWLEDGE}).build();
    } else if (transport() == Transport::kH3) {
      server_->useHttps(certificates_.server());
      server_->protocols({Protocol::HTTP_3, Protocol::HTTP_2, Protocol::HTTP_1_1});
      client_ = client_->newBuilder()
                    .handshakeCertificates(certificates_.clientTrust())
                    .protocols({Protocol::HTTP_3})
                    .build();
    }
    // Through a proxy the client never looks the origin up: the proxy is an IP literal, and so
    // is the origin SOCKS5 is asked for (the HTTP proxies get a name only they could resolve).
    const auto noDns = Dns::of([](const std::string& host) -> std::vector<InetAddress> {
      throw UnknownHostException("no DNS through a proxy: " + host);
    });
    if (transport() == Transport::kHttpProxy || transport() == Transport::kHttpsTunnel) {
      client_ =
          client_->newBuilder().proxy(Proxy::http("127.0.0.1", server_->port())).dns(noDns).build();
    } else if (transport() == Transport::kSocks5) {
      socks5_.emplace();
      socks5_->failNext(fault().socksFault);
      client_ = client_->newBuilder()
                    .proxy(Proxy::socks5("127.0.0.1", socks5_->port()))
                    .dns(noDns)
                    .build();
    }
  }

  const Fault& fault() const { return std::get<0>(GetParam()); }
  Transport transport() const { return std::get<1>(GetParam()); }
  bool https() const { return overTls(transport()); }
  Mode mode() const { return std::get<2>(GetParam()); }
  bool post() const { return std::get<3>(GetParam()); }

  // What a failure may say in this cell.
  std::vector<std::string> messages() const {
    std::vector<std::string> result = fault().messages;
    if (https())
      result.insert(result.end(), fault().tlsMessages.begin(), fault().tlsMessages.end());
    return result;
  }

  Request request(const std::string& path) {
    Request::Builder builder;
    HttpUrl url = server_->url(path);
    // An HTTP proxy is sent the whole URL, whatever its host: "origin.test" shows it is not
    // the proxy's address that goes there.
    if (transport() == Transport::kHttpProxy) url = url.newBuilder().host("origin.test").build();
    builder.url(url);
    if (post()) builder.post(RequestBody::create(kRequestBody));
    return builder.build();
  }

  // Runs the call in the cell's mode, and reads its body in that mode too.
  Outcome run(const Request& request) {
    std::shared_ptr<Call> call = client_->newCall(request);
    switch (mode()) {
      case Mode::kSync:
        try {
          return readResponse(call->execute());
        } catch (const IOException& e) {
          return failed(e);
        }
      case Mode::kAsync:
        return runEnqueued(call);
      case Mode::kCoro:
        return runCoroutine(call);
    }
    return {};
  }

  static Outcome runEnqueued(const std::shared_ptr<Call>& call) {
    auto promise = std::make_shared<std::promise<Outcome>>();
    std::future<Outcome> future = promise->get_future();
    call->enqueue(
        [promise](Call&, Response response) {
          promise->set_value(readResponse(std::move(response)));
        },
        [promise](Call&, const IOException& e) { promise->set_value(failed(e)); });
    if (future.wait_for(kCallTimeout + 5s) != std::future_status::ready) {
      ADD_FAILURE() << "the enqueued call never called back";
      call->cancel();
      future.wait();
    }
    return future.get();
  }

  // syncWait() from the test thread. A coroutine that hangs is stopped by a watchdog: the stop
  // token cancels the call while executeAsync() is awaited, and cancel() a body read, which the
  // token does not reach (it cancels only the call's await).
  static Outcome runCoroutine(const std::shared_ptr<Call>& call) {
    std::stop_source stop;
    std::promise<void> ended;
    std::thread watchdog([&stop, call, ended = ended.get_future()] {
      if (ended.wait_for(kCallTimeout + 5s) == std::future_status::ready) return;
      ADD_FAILURE() << "the coroutine never ended";
      stop.request_stop();
      call->cancel();
    });
    Outcome outcome = syncWait(awaitOutcome(call, stop.get_token()));
    ended.set_value();
    watchdog.join();
    return outcome;
  }

  // What reached the server took the transport's way: through an HTTP proxy every request in
  // absolute form; through a tunnel every connection opened by a CONNECT, its requests in TLS.
  void checkRecordedRequests() {
    std::set<int> tunnels;  // The connections that carried a CONNECT.
    while (std::optional<RecordedRequest> recorded = server_->takeRequest(0ms)) {
      const std::string& line = recorded->requestLine();
      if (line.empty()) continue;  // A connection the server broke before reading it.
      if (transport() == Transport::kHttpProxy) {
        EXPECT_NE(line.find(" http://origin.test:"), std::string::npos) << line;
      } else if (transport() == Transport::kHttpsTunnel && recorded->method() == "CONNECT") {
        EXPECT_TRUE(line.ends_with(":" + std::to_string(server_->port()) + " HTTP/1.1")) << line;
        tunnels.insert(recorded->connectionIndex());
      } else if (transport() == Transport::kHttpsTunnel) {
        EXPECT_TRUE(tunnels.contains(recorded->connectionIndex())) << line;
        EXPECT_TRUE(recorded->handshake()) << line;
      } else {
        EXPECT_NE(line.find(" /"), std::string::npos) << line;
      }
    }
  }

  int baselineFds_ = openFileDescriptorCount();
  TestCertificates certificates_;
  std::optional<MockWebServer> server_{std::in_place};
  std::optional<Socks5Relay> socks5_;  // Between the client and server_ over kSocks5.
  // Every call's events are checked too, whatever the fault did to it.
  std::shared_ptr<RecordingEventListener::Factory> events_ =
      std::make_shared<RecordingEventListener::Factory>();
  std::optional<Client> client_{Client::Builder()
                                    .connectTimeout(2s)
                                    .readTimeout(kReadTimeout)
                                    .writeTimeout(2s)
                                    .callTimeout(kCallTimeout)
                                    .eventListenerFactory(events_)
                                    .build()};
};

TEST_P(FaultMatrixTest, CallEndsAsTheFaultDictatesAndTheNextCallSucceeds) {
  auto dispatcher = std::make_shared<FaultThenOk>(
      fault().policy, transport() == Transport::kHttpsTunnel, fault().connectAnswer);
  if (fault().socksFault != Socks5Relay::Fault::kNone) dispatcher->faultedElsewhere();
  server_->setDispatcher(dispatcher);
  const Expect expect = post() ? fault().post : fault().get;

  const auto start = std::chrono::steady_clock::now();
  Outcome outcome = run(request("/fault"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, kCallTimeout) << "the call hung";

  switch (expect) {
    case Expect::kResponse:
      EXPECT_FALSE(outcome.failure) << *outcome.failure;
      EXPECT_EQ(outcome.code, 200);
      EXPECT_EQ(outcome.body, kFaultBody);
      break;
    case Expect::kSomeResponse:
      EXPECT_FALSE(outcome.failure) << *outcome.failure;
      EXPECT_EQ(outcome.code, 200);
      EXPECT_TRUE(outcome.body == kFaultBody || outcome.body == "ok") << outcome.body;
      break;
    case Expect::kFailure:
    case Expect::kBodyFailure:
      ASSERT_TRUE(outcome.failure)
          << "expected a failure, got " << outcome.code << " " << outcome.body;
      EXPECT_EQ(outcome.bodyFailed, expect == Expect::kBodyFailure) << *outcome.failure;
      EXPECT_EQ(outcome.timeout, fault().timeout) << *outcome.failure;
      EXPECT_EQ(outcome.proxyCode, fault().proxyCode) << *outcome.failure;
      const std::vector<std::string> expected = messages();
      EXPECT_TRUE(std::any_of(expected.begin(), expected.end(), [&](const std::string& message) {
        return outcome.failure->find(message) != std::string::npos;
      })) << *outcome.failure;
      // A connection that broke is never pooled. (An HTTP/2 connection leaves the pool when
      // its reader thread has seen the break, which may come just after the stream's failure,
      // and the pool's cleanup has run.)
      if (!fault().keepsConnection) {
        const auto deadline = std::chrono::steady_clock::now() + 2s;
        while (client_->connectionPool()->idleConnectionCount() != 0 &&
               std::chrono::steady_clock::now() < deadline) {
          std::this_thread::sleep_for(10ms);
        }
        EXPECT_EQ(client_->connectionPool()->idleConnectionCount(), 0);
      }
      break;
  }

  if (fault().serverSurvives) {
    std::this_thread::sleep_for(fault().settleBeforeNext);
    EXPECT_TRUE(dispatcher->awaitFault(5s)) << "the server never dispatched the fault";
    Outcome next = run(request("/next"));
    EXPECT_FALSE(next.failure) << *next.failure;
    EXPECT_EQ(next.body, "ok");
  }
  checkRecordedRequests();

  events_->checkAllCallsEnded();

  // Everything the cell opened is closed once the client and server are gone.
  client_->connectionPool()->evictAll();
  client_.reset();
  server_.reset();
  socks5_.reset();
  EXPECT_TRUE(fileDescriptorsReturnTo(baselineFds_))
      << "file descriptors leaked: " << openFileDescriptorCount() << " open, " << baselineFds_
      << " before the cell";
}

std::string cellName(const ::testing::TestParamInfo<Cell>& info) {
  return std::get<0>(info.param).name + toString(std::get<1>(info.param)) +
         toString(std::get<2>(info.param)) + (std::get<3>(info.param) ? "Post" : "Get");
}

INSTANTIATE_TEST_SUITE_P(Faults, FaultMatrixTest, ::testing::ValuesIn(cells()), cellName);

// The matrix's size, printed so docs/reliability.md quotes the real count
// (`tern_faults_tests --gtest_filter=FaultMatrixSize.*`), and checked against its shape: every
// fault × 7 transports × sync/async/coroutine × GET/POST, except the TLS-only faults on the 2 TLS
// transports over TCP, the accept's faults not over QUIC, and each proxy's own faults on its
// transport alone.
TEST(FaultMatrixSize, EveryFaultOnEveryTransportInEveryModeGetAndPost) {
  size_t tlsOnly = 0;
  size_t acceptOnly = 0;  // Of the faults not TLS-only: those no QUIC connection meets.
  for (const Fault& fault : faults()) {
    tlsOnly += fault.httpsOnly ? 1 : 0;
    acceptOnly += !fault.httpsOnly && atAccept(fault) ? 1 : 0;
  }
  const size_t proxyOnly = proxyFaults().size();
  const size_t expected = ((faults().size() - tlsOnly) * std::size(kTransports) - acceptOnly +
                           tlsOnly * 2 + proxyOnly) *
                          3 * 2;
  EXPECT_EQ(cells().size(), expected);
  std::printf(
      "fault matrix: %zu faults (%zu over TLS only) on %zu transports, %zu proxy faults, "
      "%zu modes, %zu cells\n",
      faults().size(), tlsOnly, std::size(kTransports), proxyOnly, std::size(kModes),
      cells().size());
}

}  // namespace
}  // namespace tern::testing
