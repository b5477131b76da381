// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/event_listener.h"

#include <stdexcept>
#include <utility>

#include "call/composite_event_listener.h"

namespace tern {
namespace {

// Gives every call the same listener.
class SingleListenerFactory final : public EventListener::Factory {
 public:
  explicit SingleListenerFactory(std::shared_ptr<EventListener> listener)
      : listener_(std::move(listener)) {}
  std::shared_ptr<EventListener> create(Call&) override { return listener_; }

 private:
  const std::shared_ptr<EventListener> listener_;
};

class FunctionFactory final : public EventListener::Factory {
 public:
  explicit FunctionFactory(std::function<std::shared_ptr<EventListener>(Call&)> create)
      : create_(std::move(create)) {}
  std::shared_ptr<EventListener> create(Call& call) override { return create_(call); }

 private:
  const std::function<std::shared_ptr<EventListener>(Call&)> create_;
};

class CompositeFactory final : public EventListener::Factory {
 public:
  explicit CompositeFactory(std::vector<std::shared_ptr<EventListener::Factory>> factories)
      : factories_(std::move(factories)) {}
  std::shared_ptr<EventListener> create(Call& call) override {
    std::vector<std::shared_ptr<EventListener>> listeners;
    listeners.reserve(factories_.size());
    for (const auto& factory : factories_) listeners.push_back(factory->create(call));
    return EventListener::compose(std::move(listeners));
  }

 private:
  const std::vector<std::shared_ptr<EventListener::Factory>> factories_;
};

}  // namespace

std::shared_ptr<EventListener> EventListener::none() {
  static const std::shared_ptr<EventListener> kNone = std::make_shared<EventListener>();
  return kNone;
}

std::shared_ptr<EventListener> EventListener::compose(
    std::vector<std::shared_ptr<EventListener>> listeners) {
  std::erase_if(listeners, [](const std::shared_ptr<EventListener>& listener) {
    return !listener || listener == none();
  });
  if (listeners.empty()) return none();
  if (listeners.size() == 1) return std::move(listeners.front());
  return std::make_shared<internal::CompositeEventListener>(std::move(listeners));
}

std::shared_ptr<EventListener::Factory> EventListener::Factory::of(
    std::shared_ptr<EventListener> listener) {
  if (!listener) throw std::invalid_argument("EventListener::Factory::of: listener == null");
  return std::make_shared<SingleListenerFactory>(std::move(listener));
}

std::shared_ptr<EventListener::Factory> EventListener::Factory::of(
    std::function<std::shared_ptr<EventListener>(Call&)> create) {
  if (!create) throw std::invalid_argument("EventListener::Factory::of: create is empty");
  return std::make_shared<FunctionFactory>(std::move(create));
}

std::shared_ptr<EventListener::Factory> EventListener::Factory::compose(
    std::vector<std::shared_ptr<Factory>> factories) {
  std::erase_if(factories, [](const std::shared_ptr<Factory>& factory) { return !factory; });
  return std::make_shared<CompositeFactory>(std::move(factories));
}

}  // namespace tern
