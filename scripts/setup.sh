#!/usr/bin/env bash
# Installs the Debian packages tern needs to build and test, if any are missing. Only apt-get,
# only Debian's own packages (see docs and DESIGN.md); nothing else is downloaded. Prints to
# stderr so the tool's stdout stays clean. Safe to run again: it does nothing when all are there.
set -euo pipefail

packages=(
  # build
  cmake ninja-build g++ pkg-config ccache
  # the library's dependencies
  libssl-dev libnghttp2-dev zlib1g-dev libbrotli-dev libzstd-dev libidn2-dev libpsl-dev
  publicsuffix libcli11-dev
  # HTTP/3: QUIC (ngtcp2, its GnuTLS crypto backend and GnuTLS: Debian 12's OpenSSL has no QUIC
  # API) and HTTP/3 framing (nghttp3)
  libngtcp2-dev libngtcp2-crypto-gnutls-dev libnghttp3-dev libgnutls28-dev
  # tests (nginx and nghttpd: interop tests run private instances on loopback)
  libgtest-dev libgmock-dev nlohmann-json3-dev nginx nghttp2-server
  # proxy tests (tests/connection/proxy_test.cc, tests/tool/proxy_tool_test.cc) run real proxies
  # on loopback, beside curl: tinyproxy (HTTP), microsocks (SOCKS5), stunnel4 (HTTPS, in front of
  # tinyproxy)
  curl tinyproxy microsocks stunnel4
  # HTTP/3 tests (tests/http3) run ngtcp2's example server, gtlsserver, on loopback; the
  # MockWebServer interop test (tests/interop) its example client, gtlsclient
  ngtcp2-server ngtcp2-client
  # WebSocket interop (tests/interop/web_socket_interop_test.cc): Python's websockets and Node's
  # ws on loopback
  python3-websockets node-ws
  # content-coding interop (tests/interop/content_coding_interop_test.cc): Python's brotli and
  # zstandard encoders on loopback (libbrotli-dev above also brings the encoder tests link)
  python3-brotli python3-zstandard
  # fuzzing and sanitizers (the fuzz preset builds with clang)
  clang libclang-rt-14-dev
)
packages+=("$@")

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "tern: installing missing Debian packages: ${missing[*]}" >&2
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "tern: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq >&2
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
