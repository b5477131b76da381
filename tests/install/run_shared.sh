#!/usr/bin/env bash
# A shared Release build (the install-shared preset: BUILD_SHARED_LIBS=ON), installed into a
# temporary prefix, checked as a user and a packager see it:
#  1. libtern.so exports the public API and, of tern::internal, only what TERN_INTERNAL_API marks
#     (include/tern/export.h): the few symbols libtern_mockwebserver.so uses;
#  2. the installed libraries and tool are stripped (a Release install is);
#  3. programs build against the install with find_package(tern) and with pkg-config and run:
#     a real call to MockWebServer, and a ConnectException thrown inside libtern.so caught by its
#     type in the program.
# Usage: tests/install/run_shared.sh [BUILD_DIR]   (default: build/install-shared, incremental)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build/install-shared}
consumer=$top/tests/install/consumer
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "run_shared.sh: $*" >&2; exit 1; }

cd "$top"
if [ ! -f "$build/build.ninja" ]; then
  cmake --preset install-shared -B "$build" >/dev/null
fi
cmake --build "$build" >/dev/null
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
cmake --install "$build" --prefix "$work/prefix" >/dev/null
libdir=$(dirname "$(find "$work/prefix" -name 'libtern.so' | head -n 1)")
[ -e "$libdir/libtern.so" ] || fail "no libtern.so installed"
lib=$(readlink -f "$libdir/libtern.so")
mws=$(readlink -f "$libdir/libtern_mockwebserver.so")

echo "== 1. libtern.so exports the public API, and of the internals only TERN_INTERNAL_API's"
nm -D --defined-only -C "$lib" >"$work/exports"
for symbol in 'tern::Client::newCall(' 'tern::version()' 'typeinfo for tern::ConnectException' \
  'typeinfo for tern::SocketWriteException' 'vtable for tern::EventListener' \
  'tern::Request::Builder::url(' 'tern::tls::HeldCertificate::Builder::build()'; do
  grep -qF -- "$symbol" "$work/exports" || fail "libtern.so does not export $symbol"
done
# The names TERN_INTERNAL_API marks in src/ (functions, members; or a class, whole): every
# exported internal symbol's name (the last part before its parameters) must be one of them.
{
  { grep -rhoE '(class|struct) TERN_INTERNAL_API [A-Za-z_][A-Za-z0-9_]*' src || true; } |
    awk '{print $NF}'
  grep -rhE '^[^/]*TERN_INTERNAL_API [^(]*\(' src | sed -E 's/\(.*//' | awk '{print $NF}'
} | sort -u >"$work/allowed"
# A class or struct marked whole exports its members too.
{ grep -rhoE '(class|struct) TERN_INTERNAL_API [A-Za-z_][A-Za-z0-9_]*' src || true; } |
  awk '{print $NF}' | sort -u >"$work/allowed-classes"
# (An internal type in a parameter list, of a public class's private member, is no export; nor
# is a standard template made for a marked class, such as make_shared's control block's
# typeinfo: only names in tern::internal itself count.)
awk '{ name = $0; sub(/\(.*/, "", name); sub(/^[0-9a-f]+ [A-Za-z] /, "", name)
       sub(/^(typeinfo name for|typeinfo for|vtable for|VTT for|guard variable for) /, "", name) }
     name ~ /^tern::internal::/' "$work/exports" >"$work/internal"
internal_count=$(wc -l <"$work/internal")
while IFS= read -r line; do
  name=${line%%(*}
  name=${name%%\[abi:*}
  owner=${name%::*}
  owner=${owner##*::}
  name=${name##*::}
  grep -qxF -- "$name" "$work/allowed" || grep -qxF -- "$owner" "$work/allowed-classes" ||
    fail "libtern.so exports an internal symbol not marked TERN_INTERNAL_API: $line"
done <"$work/internal"
echo "libtern.so: $(wc -l <"$work/exports") symbols exported, $internal_count of them tern::internal" \
  "(TERN_INTERNAL_API: $(tr '\n' ' ' <"$work/allowed"))"
# libtern_mockwebserver.so exports its API and none of its internals, and needs nothing from
# libtern.so that libtern.so hides.
nm -D --defined-only -C "$mws" >"$work/mws-exports"
grep -qF 'tern::mockwebserver::MockWebServer::enqueue(' "$work/mws-exports" ||
  fail "libtern_mockwebserver.so does not export MockWebServer::enqueue"
awk '{ name = $0; sub(/\(.*/, "", name); sub(/^[0-9a-f]+ [A-Za-z] /, "", name)
       sub(/^(typeinfo name for|typeinfo for|vtable for|VTT for|guard variable for) /, "", name) }
     name ~ /^tern::(mockwebserver::)?internal::/' "$work/mws-exports" >"$work/mws-internal"
[ ! -s "$work/mws-internal" ] ||
  fail "libtern_mockwebserver.so exports internals: $(head -n 3 "$work/mws-internal")"
missing=$(nm -D --undefined-only -C "$mws" | sed -n 's/^ *U //p' | grep 'tern::' |
  while IFS= read -r symbol; do grep -qF -- " $symbol" "$work/exports" || echo "$symbol"; done)
[ -z "$missing" ] || fail "libtern_mockwebserver.so needs what libtern.so hides: $missing"
readelf -d "$mws" | grep -E 'RUNPATH|RPATH' | grep -qF "\$ORIGIN" ||
  fail "libtern_mockwebserver.so does not look for libtern.so beside itself (\$ORIGIN)"
echo "libtern_mockwebserver.so: $(wc -l <"$work/mws-exports") symbols exported, no internals"

echo "== 2. the install is stripped"
for f in "$lib" "$mws" "$work/prefix/bin/tern"; do
  file -L "$f" | grep -q ', stripped' || fail "not stripped: $f ($(file -L "$f"))"
  ! readelf -S --wide "$f" | grep -qE '\.(debug_|symtab)' || fail "debug sections or .symtab left in $f"
  echo "$(basename "$f"): stripped, $(du -k "$f" | cut -f1) KiB"
done
"$work/prefix/bin/tern" --version | head -n 1

echo "== 3a. find_package(tern CONFIG): a call to MockWebServer, an exception caught by its type"
cmake -S "$consumer" -B "$work/consumer" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
readelf -d "$work/consumer/mws_consumer" | grep -q 'NEEDED.*libtern\.so' ||
  fail "the consumer does not link libtern.so"
"$work/consumer/consumer"
"$work/consumer/mws_consumer"

echo "== 3b. pkg-config tern-mockwebserver: the same program"
export PKG_CONFIG_PATH=$libdir/pkgconfig
pkg-config --cflags tern | grep -q -- -DTERN_SHARED || fail "tern.pc: no -DTERN_SHARED in Cflags"
# shellcheck disable=SC2046
"$cxx" -std=c++20 "$consumer/mockwebserver_main.cc" -o "$work/pc-consumer" \
  $(pkg-config --cflags --libs tern-mockwebserver) -Wl,-rpath,"$libdir"
"$work/pc-consumer"
echo "shared install checks passed"
