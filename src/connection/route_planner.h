// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <exception>
#include <functional>
#include <memory>

namespace tern::internal {

class RealConnection;

// Plans how a call gets a connection, as OkHttp 5's RoutePlanner: each plan() is one way, in
// order of preference — reuse the connection the call holds, reuse a pooled connection, use an
// HTTP/2 connection to another host that may be coalesced for this one, or connect a new one
// over the next route. A finder (FastFallbackFinder) carries the plans out, racing several
// connect plans when fast fallback is on. Abstract so that tests drive the finder with fake plans.
// Deletes a RoutePlanner::Plan, unless its planner keeps it (a reuse plan is the planner's own:
// finding a pooled connection allocates nothing).
struct PlanDeleter {
  PlanDeleter() noexcept {}
  explicit PlanDeleter(bool owned) noexcept : owned(owned) {}
  template <typename T>
  PlanDeleter(std::default_delete<T>) noexcept {}  // NOLINT: from std::make_unique's.
  bool owned = true;
  template <typename Plan>
  void operator()(Plan* plan) const {
    if (owned) delete plan;
  }
};

class RoutePlanner {
 public:
  class Plan;
  using PlanPtr = std::unique_ptr<Plan, PlanDeleter>;

  // What connecting a plan's TLS (and tunnel, and HTTP/2 preface) gave: success (both null), a
  // failure, and/or a plan to try next (the same route with the next connection spec after a TLS
  // failure another spec may fix, or a new connection for a proxy that closed after a 407).
  struct ConnectResult {
    std::exception_ptr failure;
    PlanPtr nextPlan;
  };

  // One way to a connection. A reuse plan is ready at once; a connect plan is carried out in
  // steps: launched() and connectTcp(), then for the first to connect connectTlsEtc() and
  // handleSuccess(), or failed(). Only connectTcp() and cancel() may run off the call's thread.
  class Plan {
   public:
    virtual ~Plan() = default;

    // True if the connection needs no connecting (a reuse plan): call handleSuccess().
    virtual bool isReady() const = 0;

    // True for HTTP/3 over QUIC: raced against TCP even when fast fallback is off.
    virtual bool isQuic() const { return false; }

    // On the call's thread, before connectTcp(): reports connectStart and lets a cancel of the
    // call reach this plan.
    virtual void launched() = 0;

    // Connects the TCP socket (through a SOCKS proxy if any). Returns the failure, or null. Any
    // thread; cancel() makes it fail soon.
    virtual std::exception_ptr connectTcp() = 0;

    // After connectTcp() succeeded: TLS, the proxy tunnel, the HTTP/2 preface. On the call's
    // thread.
    virtual ConnectResult connectTlsEtc() = 0;

    // The connection, now the call's (pooled or coalesced; connectEnd and connectionAcquired
    // reported). On the call's thread.
    virtual std::shared_ptr<RealConnection> handleSuccess() = 0;

    // The plan failed with `e` (or lost a race: an InterruptedIOException): closes what it
    // opened and reports connectFailed. On the call's thread.
    virtual void failed(std::exception_ptr e) = 0;

    // Breaks a connect in progress. Any thread.
    virtual void cancel() = 0;
  };

  virtual ~RoutePlanner() = default;

  virtual bool isCanceled() const = 0;

  // The preferred way to a connection now: a reuse plan or the first connect plan of a new
  // attempt. May block (DNS, a pool limit, another call connecting the same HTTP/2 address).
  // Throws IOException when there is no way left, InterruptedIOException if canceled.
  virtual PlanPtr plan() = 0;

  // Another connect plan for the attempt plan() started, over the next route already resolved
  // (for a fast-fallback race, or after every plan in flight failed); null if none is left.
  virtual PlanPtr nextRacePlan() = 0;

  // True if nextRacePlan() has a plan to give now.
  virtual bool hasNextRacePlan() = 0;

  // True if more race plans may come (a host's other address family not looked up yet).
  virtual bool awaitingRacePlans() const = 0;

  // Called, on any thread, when race plans may have come (null: nothing to call).
  virtual void setRacePlansListener(std::function<void()> listener) = 0;
};

}  // namespace tern::internal
