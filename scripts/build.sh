#!/usr/bin/env bash
# Configures (first time only) and builds one preset incrementally: scripts/build.sh PRESET [TARGET...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
preset=${1:-release}
shift || true
cd "$top"
if [ ! -f "build/$preset/build.ninja" ]; then
  cmake --preset "$preset" >&2
fi
if [ $# -gt 0 ]; then
  cmake --build "build/$preset" --target "$@" >&2
else
  cmake --build "build/$preset" >&2
fi
