// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include "tern/export.h"
#include "tern/sink.h"
#include "tern/source.h"

namespace tern {

// The connection of a call whose server switched protocols (RFC 9110 §15.2.2, 101 Switching
// Protocols, in answer to a request with an Upgrade header): from here on the bytes in both
// directions belong to the new protocol, not to HTTP. Response::socket() returns it; WebSockets
// are built on it, and so can be any other upgrade (h2c excepted).
//
// Threads: one thread may read source() while another writes sink(); cancel() may come from any
// thread. The connection is never pooled again. It is closed, and the call that made it ends
// (callEnd), once both source() and sink() are closed, or when the last reference to this
// object goes. Reads have no timeout unless the caller sets one on source().timeout(); writes
// keep the client's write timeout (sink().timeout()).
class TERN_API UpgradedSocket {
 public:
  virtual ~UpgradedSocket() = default;

  // The bytes the server sends, starting with any that followed the 101 response's headers.
  virtual Source& source() = 0;
  // The bytes to send. Each write goes out at once (no buffering beyond the socket's own).
  virtual Sink& sink() = 0;
  // Breaks the connection now: a blocked read or write, on any thread, throws IOException.
  virtual void cancel() = 0;
};

}  // namespace tern
