#!/usr/bin/env bash
# Installs tern from BUILD_DIR into a temporary prefix, then builds and runs a tiny consumer
# twice: with find_package(tern CONFIG) and with pkg-config. Usage: run.sh BUILD_DIR CONSUMER CXX
set -euo pipefail
build=$1 consumer=$2 cxx=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null

echo "== find_package(tern CONFIG)"
cmake -S "$consumer" -B "$work/consumer" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer"
"$work/consumer/mws_consumer"

echo "== pkg-config tern"
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig:$work/prefix/lib/$(uname -m)-linux-gnu/pkgconfig"
for d in "$work"/prefix/lib*/pkgconfig "$work"/prefix/lib/*/pkgconfig; do
  [ -d "$d" ] && PKG_CONFIG_PATH="$d:$PKG_CONFIG_PATH"
done
# shellcheck disable=SC2046
"$cxx" -std=c++20 "$consumer/main.cc" -o "$work/pc-consumer" \
  $(pkg-config --cflags --libs tern)
"$work/pc-consumer"

echo "== pkg-config: -pthread, and tern-mockwebserver for a real call"
pkg-config --libs tern | grep -q -- -pthread || { echo "tern.pc: no -pthread in Libs" >&2; exit 1; }
# shellcheck disable=SC2046
"$cxx" -std=c++20 "$consumer/mockwebserver_main.cc" -o "$work/mws-consumer" \
  $(pkg-config --cflags --libs tern-mockwebserver)
"$work/mws-consumer"

echo "== the licence, change log, man page and completions are installed"
for f in share/doc/tern/LICENSE share/doc/tern/CHANGELOG.md share/man/man1/tern.1 \
  share/bash-completion/completions/tern share/zsh/vendor-completions/_tern; do
  [ -s "$work/prefix/$f" ] || { echo "not installed: $f" >&2; exit 1; }
done
# The bash completion offers the installed tool's own options.
bash -c 'source "$1"; COMP_WORDS=("$2" --http2-p); COMP_CWORD=1; _tern; printf "%s\n" "${COMPREPLY[@]}"' \
  _ "$work/prefix/share/bash-completion/completions/tern" "$work/prefix/bin/tern" |
  grep -qx -- --http2-prior-knowledge || { echo "bash completion offers no --http2-prior-knowledge" >&2; exit 1; }
if command -v man >/dev/null; then
  man -l "$work/prefix/share/man/man1/tern.1" 2>/dev/null | grep -q "EXIT STATUS"
fi

echo "== as a subproject, tern leaves the parent's CMAKE_BUILD_TYPE alone"
source_dir=$(cd "$consumer/../../.." && pwd)
mkdir -p "$work/parent"
cat >"$work/parent/CMakeLists.txt" <<PARENT
cmake_minimum_required(VERSION 3.25)
project(parent LANGUAGES CXX)
add_subdirectory("$source_dir" tern)
PARENT
cmake -S "$work/parent" -B "$work/parent-build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$work/parent-build/CMakeCache.txt")
[ -z "$build_type" ] || { echo "subproject set CMAKE_BUILD_TYPE=$build_type" >&2; exit 1; }
grep -q "^TERN_BUILD_TESTS:BOOL=OFF" "$work/parent-build/CMakeCache.txt"
echo "install checks passed"
