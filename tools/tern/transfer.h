// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <ostream>

#include "connect_to.h"
#include "cookie_engine.h"
#include "debug_output.h"
#include "exit_code.h"
#include "hsts_cache.h"
#include "network_observer.h"
#include "options.h"
#include "output.h"
#include "parallel_meter.h"
#include "progress_meter.h"
#include "proxy_setup.h"
#include "redirect_follower.h"
#include "resolve_table.h"
#include "terminal.h"
#include "tern/cache.h"
#include "tern/client.h"
#include "transfer_events.h"
#include "transfer_info.h"
#include "transfer_retry.h"
#include "url_glob.h"

namespace tern::tool {

// Runs the transfers a command line asks for, as curl's serial transfers: every URL (each glob
// expansion in order) through one Client, so keep-alive connections are reused from one URL to
// the next. Each body goes to stdout or its -o/-O file, headers first with -i or -I; -v writes
// the exchanges to stderr, and --trace-events every event of every call; -w writes its format
// after each transfer. A failed transfer prints "tern: (N) message" to stderr (unless -s without
// -S) and the next URL is still fetched. With --waterfall FILE the run's calls are drawn into
// FILE at the end (a file that cannot be written is exit code 23).
//
// With -Z the transfers run at once, at most --parallel-max of them, as asynchronous calls
// through the client's dispatcher (so over HTTP/2 they share one connection). As curl -Z does,
// each transfer's output (its stdout body, error message and -w text) is written whole when it
// completes, so outputs come in completion order and never interleave.
//
// A transfer shows curl's progress meter (or -#'s bar) on `err` when progressMeterStyle() says
// so for `terminal`: nothing in its first second, then a line a second, ended when it is over.
// A -Z run shows curl -Z's combined meter instead (ParallelMeter), when parallelMeterShown()
// says so; its lines and the transfers' messages share stderr as curl's do (a message follows
// the line on screen, and the next line starts with '\r').
//
// With --cache DIR every transfer goes through one tern::Cache in DIR (so -Z transfers of one
// URL collapse into one fetch, and the next run finds what this one stored); it is closed when
// run() returns. A directory the cache cannot open (another tern holds it) leaves the run
// without a cache, and -v says why.
//
// Redirects are followed only with -L, as curl follows them (RedirectFollower), at most
// --max-redirs (50) of them; --connect-timeout is its connect timeout and -m its call timeout (so
// it covers every redirect of a transfer and the reading of the body). Reads and writes have no
// timeout of their own, as in curl.
class TransferRunner {
 public:
  // `out` receives bodies and -w output, `err` messages, -v and the progress meter; both must
  // outlive the runner. `terminal` says which of them are terminals (none, by default).
  TransferRunner(const Options& options, std::ostream& out, std::ostream& err,
                 Terminal terminal = {});

  // Runs every transfer and returns the exit code of the last one, as curl does (0 if it
  // succeeded), or 3 if a URL's glob was bad. With -Z, the code of the failure that completed last
  // (0 if none failed), as curl 7.88 -Z.
  int run();

  // The traces of the run's calls, in order (with --waterfall or --demo; else the last only).
  std::vector<std::shared_ptr<const CallTrace>> traces() const { return events_->traces(); }

  // The client the transfers use, as the options configure it (TLS, proxies, --resolve,
  // --connect-to, timeouts, -v's observers), for the tool's other modes (--ws).
  const Client& client() const { return client_; }
  // Where -v, --trace and --trace-ascii write; null without them.
  const std::shared_ptr<DebugOutput>& debugOutput() const { return debug_; }
  // --resolve's entries (null without it): a mode that opens its own calls use()s them.
  const std::shared_ptr<ResolveTable>& resolveTable() const { return resolve_; }

 private:
  // One transfer in progress.
  struct Transfer {
    OutputSpec spec;
    GlobExpansion expansion;
    TransferInfo info;
    FailureContext context;
    std::string fileName;
    int64_t resumeFrom = 0;  // -C: the byte the body starts at, appended to the file.
    std::chrono::steady_clock::time_point start;
    ExchangeLog log;  // Taken from the observer once the response arrives or the call fails.
    std::shared_ptr<CallTrace> trace;        // The call's events, once it is made.
    ProgressMeter* meter = nullptr;          // The progress meter, if this transfer shows one.
    ParallelMeter* parallelMeter = nullptr;  // -Z's meter, if the run shows it...
    size_t meterSlot = 0;                    // ...and this transfer's place in it.
  };

  // run()'s transfers, before the cache is closed.
  int runTransfers();
  // The call for `t`'s request, its trace and log begun.
  std::shared_ptr<Call> newCall(Transfer& t, const Request& request);
  // Fetches one URL on this thread; fills `info`'s exit code and message if it fails. With
  // --retry, runs attempt() again as curl does (TransferRetry).
  void transfer(Transfer& t);
  // One attempt at `t`.
  void attempt(Transfer& t);
  // Runs every transfer at once (-Z).
  int runParallel(std::vector<Transfer>& transfers);
  // The request for `t`, or std::nullopt after recording why it cannot be made.
  std::optional<Request> prepare(Transfer& t);
  // Writes `response`'s body (and heads, with -i) to `out` or the transfer's file.
  void receive(Transfer& t, Response& response, std::ostream& out);
  void fail(Transfer& t, std::exception_ptr failure);
  // True if `response` is a redirect -L stops at because of --max-redirs.
  bool tooManyRedirectsPending(const Response& response) const;
  // Fills what the observer saw into `t`'s info, once the transfer is over.
  void end(Transfer& t);
  // The error message and the -w output, after the transfer's own output.
  void report(const TransferInfo& info, std::ostream& out);
  void reportError(const TransferInfo& info);

  const Options& options_;
  std::ostream& out_;
  std::ostream& err_;
  const Terminal terminal_;
  OutputFiles files_;
  std::optional<ProgressMeter> meter_;     // Made for the first transfer that shows one.
  std::shared_ptr<DebugOutput> debug_;     // -v, --trace, --trace-ascii; null without them.
  std::shared_ptr<ResolveTable> resolve_;  // --resolve's entries; null without it.
  ProxySetup proxies_;                     // -x, --noproxy, -U, or the environment's.
  ConnectToTable connectTo_;               // --connect-to's lines.
  std::shared_ptr<NetworkObserver> observer_;
  std::shared_ptr<TransferEvents> events_;
  std::shared_ptr<RedirectFollower> follower_;  // With -L only.
  std::shared_ptr<Cache> cache_;           // --cache's, shared by every transfer; null without it.
  std::shared_ptr<CookieEngine> cookies_;  // -b, -c; null without them.
  std::shared_ptr<HstsCache> hsts_;        // --hsts; null without it.
  Client client_;
};

}  // namespace tern::tool
