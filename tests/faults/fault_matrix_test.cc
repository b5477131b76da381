// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// The fault matrix: every MockWebServer SocketPolicy × {http, https} × {sync, async} × {GET, POST
// with a body}, over HTTP/1.1. In every cell the call ends (well inside its call timeout) with the
// right response or an exception whose type and message match the fault; afterwards the pool
// holds no broken connection, the next call to the same server succeeds, and no file descriptor
// leaks. (HTTP/2's own faults, stream resets and GOAWAY, are in tests/http2.)
#include <gtest/gtest.h>

#include <cstdio>

#include <algorithm>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "support/fd_count.h"
#include "support/recording_event_listener.h"
#include "support/tls_certificates.h"
#include "tern/client.h"
#include "tern/mockwebserver/mock_web_server.h"

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

// Answers the first request (and the first connection's peek) with the fault, every later one
// with "ok": retries and the follow-up call get a healthy answer.
class FaultThenOk final : public mockwebserver::Dispatcher {
 public:
  explicit FaultThenOk(SocketPolicy policy)
      : fault_(MockResponse::Builder().body(kFaultBody).socketPolicy(policy).build()) {}

  MockResponse dispatch(const RecordedRequest&) override {
    std::lock_guard lock(mutex_);
    if (faulted_) return MockResponse::Builder().body("ok").build();
    faulted_ = true;
    return fault_;
  }
  MockResponse peek() override {
    std::lock_guard lock(mutex_);
    return faulted_ ? MockResponse() : fault_;
  }

 private:
  std::mutex mutex_;
  bool faulted_ = false;
  MockResponse fault_;
};

// How a call ended: the response's code and body, or the exception.
struct Outcome {
  int code = 0;
  std::string body;
  std::optional<std::string> failure;  // what() of the IOException
  bool timeout = false;                // It was a SocketTimeoutException.
  bool bodyFailed = false;             // The headers came, reading the body failed.
};

Outcome readResponse(Response response) {
  Outcome outcome;
  outcome.code = response.code();
  try {
    outcome.body = response.body()->string();
  } catch (const SocketTimeoutException& e) {
    outcome.failure = e.what();
    outcome.timeout = true;
    outcome.bodyFailed = true;
  } catch (const IOException& e) {
    outcome.failure = e.what();
    outcome.bodyFailed = true;
  }
  return outcome;
}

Outcome failed(const IOException& e) {
  Outcome outcome;
  outcome.failure = e.what();
  outcome.timeout = dynamic_cast<const SocketTimeoutException*>(&e) != nullptr;
  return outcome;
}

// How the cell talks to the server.
enum class Transport { kHttp1, kHttps1, kH2c };

std::string toString(Transport transport) {
  switch (transport) {
    case Transport::kHttp1:
      return "Http1";
    case Transport::kHttps1:
      return "Https1";
    case Transport::kH2c:
      return "H2c";
  }
  return "?";
}

// `fault` as it plays out over `transport`. Over HTTP/2 (MockWebServer's h2c):
// - DisconnectDuringRequestBody is an HTTP/1 policy: the HTTP/2 server answers normally.
// - A stalled stream times out: "Read timed out after 500 ms: HTTP/2 stream 1 to ...". NoResponse
//   stalls that stream only, so its connection stays healthy and pooled; StallSocketAtStart stalls
//   the whole connection, which the ping sent after the timeout retires once it has gone unanswered
//   for a second (OkHttp's degraded connection), so the next call waits for that.
Fault forTransport(Fault fault, Transport transport) {
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

using Cell = std::tuple<Fault, Transport, bool /* async */, bool /* post */>;

// Every fault over each transport (FailHandshake over https only), sync and async, GET and POST.
std::vector<Cell> cells() {
  std::vector<Cell> result;
  for (const Fault& fault : faults()) {
    for (Transport transport : {Transport::kHttp1, Transport::kHttps1, Transport::kH2c}) {
      if (fault.httpsOnly && transport != Transport::kHttps1) continue;
      for (bool async : {false, true}) {
        for (bool post : {false, true}) {
          result.emplace_back(forTransport(fault, transport), transport, async, post);
        }
      }
    }
  }
  return result;
}

class FaultMatrixTest : public ::testing::TestWithParam<Cell> {
 protected:
  void SetUp() override {
    if (transport() == Transport::kHttps1) {
      server_->useHttps(certificates_.server());
      // HTTP/1.1 over TLS: the client offers only that.
      client_ = client_->newBuilder()
                    .handshakeCertificates(certificates_.clientTrust())
                    .protocols({Protocol::HTTP_1_1})
                    .build();
    } else if (transport() == Transport::kH2c) {
      server_->setProtocols({Protocol::H2_PRIOR_KNOWLEDGE});
      client_ = client_->newBuilder().protocols({Protocol::H2_PRIOR_KNOWLEDGE}).build();
    }
  }

  const Fault& fault() const { return std::get<0>(GetParam()); }
  Transport transport() const { return std::get<1>(GetParam()); }
  bool https() const { return transport() == Transport::kHttps1; }
  bool async() const { return std::get<2>(GetParam()); }
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
    builder.url(server_->url(path));
    if (post()) builder.post(RequestBody::create(kRequestBody));
    return builder.build();
  }

  // Runs the call synchronously or through the dispatcher, and reads its body either way.
  Outcome run(const Request& request) {
    std::shared_ptr<Call> call = client_->newCall(request);
    if (!async()) {
      try {
        return readResponse(call->execute());
      } catch (const IOException& e) {
        return failed(e);
      }
    }
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

  int baselineFds_ = openFileDescriptorCount();
  TestCertificates certificates_;
  std::optional<MockWebServer> server_{std::in_place};
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
  server_->setDispatcher(std::make_shared<FaultThenOk>(fault().policy));
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
    // The server has dispatched the fault (for DisconnectDuringRequestBody that happens after it
    // hung up): the next request gets "ok".
    EXPECT_TRUE(server_->takeRequest(5s)) << "the server never saw the faulty request";
    Outcome next = run(request("/next"));
    EXPECT_FALSE(next.failure) << *next.failure;
    EXPECT_EQ(next.body, "ok");
  }

  events_->checkAllCallsEnded();

  // Everything the cell opened is closed once the client and server are gone.
  client_->connectionPool()->evictAll();
  client_.reset();
  server_.reset();
  EXPECT_TRUE(fileDescriptorsReturnTo(baselineFds_))
      << "file descriptors leaked: " << openFileDescriptorCount() << " open, " << baselineFds_
      << " before the cell";
}

std::string cellName(const ::testing::TestParamInfo<Cell>& info) {
  return std::get<0>(info.param).name + toString(std::get<1>(info.param)) +
         (std::get<2>(info.param) ? "Async" : "Sync") + (std::get<3>(info.param) ? "Post" : "Get");
}

INSTANTIATE_TEST_SUITE_P(Faults, FaultMatrixTest, ::testing::ValuesIn(cells()), cellName);

// The matrix's size, printed so docs/reliability.md quotes the real count
// (`tern_faults_tests --gtest_filter=FaultMatrixSize.*`), and checked against its shape: every
// fault × 3 transports × sync/async × GET/POST, except the TLS-only faults on one transport.
TEST(FaultMatrixSize, EveryFaultOnEveryTransportSyncAndAsyncGetAndPost) {
  size_t tlsOnly = 0;
  for (const Fault& fault : faults()) tlsOnly += fault.httpsOnly ? 1 : 0;
  const size_t expected = (faults().size() - tlsOnly) * 3 * 2 * 2 + tlsOnly * 2 * 2;
  EXPECT_EQ(cells().size(), expected);
  std::printf("fault matrix: %zu faults (%zu over TLS only), %zu cells\n", faults().size(), tlsOnly,
              cells().size());
}

}  // namespace
}  // namespace tern::testing
