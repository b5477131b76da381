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

echo "== pkg-config tern"
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig:$work/prefix/lib/$(uname -m)-linux-gnu/pkgconfig"
for d in "$work"/prefix/lib*/pkgconfig "$work"/prefix/lib/*/pkgconfig; do
  [ -d "$d" ] && PKG_CONFIG_PATH="$d:$PKG_CONFIG_PATH"
done
# shellcheck disable=SC2046
"$cxx" -std=c++20 "$consumer/main.cc" -o "$work/pc-consumer" \
  $(pkg-config --cflags --libs tern)
"$work/pc-consumer"
