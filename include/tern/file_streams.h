// Copyright 2026 The tern Authors. SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <memory>

#include "tern/export.h"
#include "tern/sink.h"
#include "tern/source.h"

namespace tern {

// A Source that reads the file at `path` from its start (Okio's File.source()). The file is
// opened now and closed by close() or destruction. Each read calls timeout().throwIfReached()
// first; a read in progress is not interrupted. Throws IOException naming `path` and the
// system's reason (strerror) if the file cannot be opened; later read failures likewise.
TERN_API std::unique_ptr<Source> fileSource(const std::filesystem::path& path);

// A Sink that writes the file at `path` (Okio's File.sink() / appendingSink()), creating it if
// needed (mode 0666 before the umask). Truncates an existing file unless `append` is true. The
// file is opened now; close() reports a failure to close it, while destruction closes it
// silently. Writes go straight to the file (flush() does nothing more). Throws IOException
// naming `path` and the system's reason if the file cannot be opened or written.
TERN_API std::unique_ptr<Sink> fileSink(const std::filesystem::path& path, bool append = false);

}  // namespace tern
