// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "sse/real_event_source.h"
#include "tern/event_source.h"

namespace tern {

void EventSourceListener::onOpen(EventSource&, const Response&) {}
void EventSourceListener::onEvent(EventSource&, const std::optional<std::string>&,
                                  const std::optional<std::string>&, const std::string&) {}
void EventSourceListener::onRetryChange(EventSource&, std::chrono::milliseconds) {}
void EventSourceListener::onClosed(EventSource&) {}
void EventSourceListener::onFailure(EventSource&, const std::exception_ptr&, const Response*) {}

namespace {

class RealFactory final : public EventSource::Factory {
 public:
  RealFactory(Client client, EventSources::Options options)
      : client_(std::move(client)), options_(options) {}

  std::shared_ptr<EventSource> newEventSource(
      const Request& request, std::shared_ptr<EventSourceListener> listener) override {
    if (!listener) throw std::invalid_argument("listener == null");
    Request actual = request;
    if (!request.header("Accept")) {
      actual = request.newBuilder().addHeader("Accept", "text/event-stream").build();
    }
    auto source = std::make_shared<internal::RealEventSource>(client_, std::move(actual),
                                                              std::move(listener), options_);
    source->start();
    return source;
  }

 private:
  const Client client_;
  const EventSources::Options options_;
};

}  // namespace

std::shared_ptr<EventSource::Factory> EventSources::createFactory(const Client& client,
                                                                  Options options) {
  if (options.retryDelay < std::chrono::milliseconds(0)) {
    throw std::invalid_argument("retryDelay < 0: " + std::to_string(options.retryDelay.count()) +
                                " ms");
  }
  if (options.maxReconnects && *options.maxReconnects < 0) {
    throw std::invalid_argument("maxReconnects < 0: " + std::to_string(*options.maxReconnects));
  }
  if (options.maxEventSize < 1) {
    throw std::invalid_argument("maxEventSize < 1: " + std::to_string(options.maxEventSize));
  }
  return std::make_shared<RealFactory>(client, options);
}

std::shared_ptr<EventSource::Factory> EventSources::createFactory(const Client& client) {
  return createFactory(client, Options());
}

}  // namespace tern
