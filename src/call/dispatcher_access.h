// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include "concurrent/fiber.h"
#include "tern/dispatcher.h"

namespace tern::internal {

// The engine's thread accounting, for tests: what a Dispatcher's fibers hold now. Dispatcher
// keeps its FiberScheduler private and befriends this (as ClientAccess does for Client).
struct DispatcherAccess {
  // Carrier threads running fibers now (each one holds a pool thread; a carrier with nothing to
  // run gives its thread back within FiberScheduler::kCarrierLinger). 0 with a given executor.
  static int carriers(const Dispatcher& dispatcher) {
    return dispatcher.fibers_ ? dispatcher.fibers_->carriers() : 0;
  }

  // Calls started on fibers and not yet ended (running or parked).
  static int liveFibers(const Dispatcher& dispatcher) {
    return dispatcher.fibers_ ? dispatcher.fibers_->liveFibers() : 0;
  }
};

}  // namespace tern::internal
