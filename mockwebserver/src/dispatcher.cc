// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#include "tern/mockwebserver/dispatcher.h"

namespace tern::mockwebserver {

MockResponse Dispatcher::peek() { return MockResponse(); }

}  // namespace tern::mockwebserver
