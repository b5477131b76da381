# Every dependency comes from Debian's packages (scripts/setup.sh installs them); none is
# downloaded at build time. Shared with the installed package config so consumers see the same.
include(CMakeFindDependencyMacro)
find_package(PkgConfig REQUIRED)
find_package(OpenSSL 3 REQUIRED)
find_package(ZLIB REQUIRED)
find_package(Threads REQUIRED)
if(NOT TARGET PkgConfig::IDN2)
  pkg_check_modules(IDN2 REQUIRED IMPORTED_TARGET GLOBAL libidn2)
endif()
if(NOT TARGET PkgConfig::PSL)
  pkg_check_modules(PSL REQUIRED IMPORTED_TARGET GLOBAL libpsl)
endif()
if(NOT TARGET PkgConfig::NGHTTP2)
  # HTTP/2 framing, HPACK and flow-control bookkeeping (src/http2, MockWebServer's h2).
  pkg_check_modules(NGHTTP2 REQUIRED IMPORTED_TARGET GLOBAL libnghttp2)
endif()
if(NOT TARGET PkgConfig::BROTLIDEC)
  # Content-Encoding: br (src/io/brotli_source.cc).
  pkg_check_modules(BROTLIDEC REQUIRED IMPORTED_TARGET GLOBAL libbrotlidec)
endif()
if(NOT TARGET PkgConfig::ZSTD)
  # Content-Encoding: zstd (src/io/zstd_source.cc).
  pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET GLOBAL libzstd)
endif()
if(NOT TARGET PkgConfig::NGTCP2)
  # HTTP/3 (src/http3): QUIC from ngtcp2, its handshake on GnuTLS through ngtcp2's crypto helper
  # (Debian 12's OpenSSL 3.0 has no QUIC API), HTTP/3 framing and QPACK from nghttp3. Trust,
  # hostname checks and pins stay tern's own (GnuTLS only carries the handshake).
  pkg_check_modules(NGTCP2 REQUIRED IMPORTED_TARGET GLOBAL libngtcp2)
endif()
if(NOT TARGET PkgConfig::NGTCP2_CRYPTO_GNUTLS)
  pkg_check_modules(NGTCP2_CRYPTO_GNUTLS REQUIRED IMPORTED_TARGET GLOBAL libngtcp2_crypto_gnutls)
endif()
if(NOT TARGET PkgConfig::NGHTTP3)
  pkg_check_modules(NGHTTP3 REQUIRED IMPORTED_TARGET GLOBAL libnghttp3)
endif()
if(NOT TARGET PkgConfig::GNUTLS)
  pkg_check_modules(GNUTLS REQUIRED IMPORTED_TARGET GLOBAL gnutls)
endif()
