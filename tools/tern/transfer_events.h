// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <vector>

#include "call_trace.h"
#include "debug_output.h"
#include "tern/address.h"
#include "tern/event_listener.h"

namespace tern::tool {

class TransferEventListener;

// The tool's EventListener factory: every call of the run gets a listener that records its
// events in a CallTrace (for -w's times, %{num_connects}, %{remote_ip} and --waterfall), and
// prints as they happen:
//  - with -v, --trace or --trace-ascii (through a DebugOutput), curl's information lines ("* Trying
//  127.0.0.1:8080...", "* Connected to
//    host (ip) port N (#0)", "* Re-using existing connection #0 with host h") and the request
//    and response heads, prefixed "> " and "< "; with --cache, tern's own line for the cache's
//    outcome of each hop ("* tern cache: hit", "* tern cache: miss", ...);
//  - with --trace-events, one line per event: "<ms since callStart> <call#> <eventName>
//    [details]", e.g. "0.412 0 connectEnd 127.0.0.1:8080 http/1.1".
// Connections are numbered in the order the run opened them, as curl numbers them.
//
// With -Z many calls run at once on the dispatcher's threads (and a call's canceled event may
// come from the call timeout's thread), so the shared state is locked; a call's own events never
// overlap. Both streams must outlive the factory.
class TransferEvents final : public EventListener::Factory {
 public:
  // `debug` is where -v and curl's traces write, `trace` where --trace-events writes; null for
  // off. With
  // `keepTraces` every call's trace is kept for traces(); without, only the latest (a run of
  // many URLs then holds no memory per call).
  TransferEvents(std::shared_ptr<DebugOutput> debug, std::ostream* trace, bool keepTraces = true);

  std::shared_ptr<EventListener> create(Call& call) override;

  // What -v says the client offers by ALPN ("h2,http/1.1", curl's spelling). Set before calls.
  void setAlpnOffers(std::string offers) { alpnOffers_ = std::move(offers); }
  // --connect-to's rules, for the port -v names with a host it looked up. Before any call.
  void setConnectTo(std::vector<ConnectTo> rules) { connectTo_ = std::move(rules); }

  // Every call's trace so far, in the order the calls were made (with keepTraces; else the
  // latest only).
  std::vector<std::shared_ptr<const CallTrace>> traces() const;
  // The trace of the call made last (create()'s latest), or null.
  std::shared_ptr<CallTrace> lastTrace() const;

  // `call` follows `redirect` to `next` (the tool follows redirects itself, so the client's
  // followUpDecision says "none"): a "followRedirect" event "CODE -> URL" in its trace, and
  // curl's -v lines "* Issue another request to this URL: 'URL'" (and "* Switch from POST to
  // GET").
  void followRedirect(const Call& call, const Response& redirect, const Request& next,
                      bool switchedToGet);

  // The tool is done with `call`'s response (its body written): -v's last line for its
  // connection ("* Connection #0 to host h left intact"), held back from its release until now.
  void finish(const Call& call);

 private:
  friend class TransferEventListener;

  // The number of `connection`, assigning the next one if `isNew`. Lock held.
  int connectionNumberLocked(const Connection& connection, bool isNew);

  const std::shared_ptr<DebugOutput> debug_;
  std::ostream* const trace_;
  const bool keepTraces_;
  std::string alpnOffers_ = "h2,http/1.1";
  std::vector<ConnectTo> connectTo_;
  mutable std::mutex mutex_;  // Guards everything below and the streams.
  std::vector<std::shared_ptr<CallTrace>> traces_;
  // The listener of each call that may still report (with keepTraces; else the latest only).
  std::map<const Call*, std::weak_ptr<TransferEventListener>> listeners_;
  size_t listenersAfterSweep_ = 32;  // listeners_'s size after its last sweep (see create()).
  size_t callCount_ = 0;
  // Connection numbers by object: a new connection always gets a new number at its
  // connectionAcquired, so an address that a freed connection had is simply renumbered.
  std::map<const Connection*, int> connectionNumbers_;
  int nextConnectionNumber_ = 0;
};

}  // namespace tern::tool
