// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>

namespace tern::testing {

// How many file descriptors this process has open (the entries of /proc/self/fd), or -1 where
// that cannot be read.
int openFileDescriptorCount();

// Waits up to `wait` for the count to fall to `baseline` or below (threads that own sockets may
// still be closing them); true once it has. True at once where the count cannot be read.
bool fileDescriptorsReturnTo(int baseline,
                             std::chrono::milliseconds wait = std::chrono::seconds(5));

}  // namespace tern::testing
