// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
// What events cost: nothing is allocated to deliver them. Counts the calling thread's
// allocations (this file replaces the global operator new for the whole test binary; it only
// counts).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <new>

#include "call/event_listener_fixture.h"

namespace {
thread_local long allocations = 0;
}  // namespace

void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
// The nothrow forms too (OpenSSL callbacks allocate with them): every allocation and release of
// the binary then goes through malloc and free, which ASan checks for matching pairs.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  ++allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace tern::testing {
namespace {

// Hears every event and does nothing: delivering to it costs what delivery costs.
class Silent final : public EventListener {};

class EventListenerCostTest : public EventListenerFixture {
 protected:
  // The fewest allocations on this thread for one call on the pooled connection, body read,
  // over several calls (a call now and then also schedules the pool's cleanup).
  long allocationsForOneCall(const Client& c) {
    Request request = get();
    long fewest = -1;
    for (int i = 0; i < 20; ++i) {
      long before = allocations;
      c.newCall(request)->execute().body()->string();
      long made = allocations - before;
      if (fewest < 0 || made < fewest) fewest = made;
    }
    return fewest;
  }
};

TEST_F(EventListenerCostTest, DeliveringEventsAllocatesNothing) {
  server.setDispatcher([](const RecordedRequest&) {
    return MockResponse::Builder().body("same body every time").build();
  });
  Client none = client.newBuilder().eventListener(EventListener::none()).build();
  Client silent = client.newBuilder().eventListener(std::make_shared<Silent>()).build();
  allocationsForOneCall(none);  // Warm up the pool and buffers.
  long withNone = allocationsForOneCall(none);
  long withSilent = allocationsForOneCall(silent);
  long withNoneAgain = allocationsForOneCall(none);
  // A call delivers 11 events. Delivering them allocates nothing: a call with a listener
  // allocates what one without does, give or take the few allocations that vary between any
  // two calls (how the response's bytes happened to arrive), far fewer than one per event.
  EXPECT_LE(std::abs(withNoneAgain - withNone), 4) << "calls are not comparable";
  EXPECT_LE(withSilent, std::max(withNone, withNoneAgain) + 4);
}

TEST_F(EventListenerCostTest, NoneListenerCostsNoAllocationPerCall) {
  Client none = client.newBuilder().eventListener(EventListener::none()).build();
  Request request = get();
  long before = allocations;
  std::shared_ptr<Call> call = none.newCall(request);
  long newCall = allocations - before;
  before = allocations;
  EXPECT_EQ(none.eventListenerFactory()->create(*call), EventListener::none());
  EXPECT_EQ(allocations - before, 0);
  // Making the call allocates the call and nothing for its listener: as much as a Call is.
  EXPECT_LE(newCall, 2);
}

}  // namespace
}  // namespace tern::testing
