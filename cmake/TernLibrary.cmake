# How tern's libraries are put together: each compiles its sources once, into an object library,
# and links them twice when BUILD_SHARED_LIBS=ON (see the top-level CMakeLists.txt).

# Usage requirements every tern library and its object library share: include directories, the
# C++ standard, dependencies, and for a shared build TERN_SHARED (include/tern/export.h).
function(tern_library_settings target)
  target_include_directories(${target}
    PUBLIC
      $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE
      ${PROJECT_SOURCE_DIR}/src)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_link_libraries(${target}
    PUBLIC OpenSSL::SSL OpenSSL::Crypto ZLIB::ZLIB PkgConfig::IDN2 PkgConfig::PSL
      PkgConfig::NGHTTP2 PkgConfig::NGTCP2 PkgConfig::NGTCP2_CRYPTO_GNUTLS PkgConfig::NGHTTP3
      PkgConfig::GNUTLS PkgConfig::BROTLIDEC PkgConfig::ZSTD Threads::Threads)
  if(BUILD_SHARED_LIBS)
    target_compile_definitions(${target} PUBLIC TERN_SHARED)
  endif()
endfunction()

# For the object library of a shared one: everything not marked TERN_API / TERN_INTERNAL_API
# stays inside the library.
function(tern_hidden_visibility objects)
  if(BUILD_SHARED_LIBS)
    set_target_properties(${objects} PROPERTIES
      CXX_VISIBILITY_PRESET hidden
      VISIBILITY_INLINES_HIDDEN ON)
  endif()
endfunction()

# Makes TWIN, the library tests, the tool and fuzzers link to reach LIBRARY's internals: with
# BUILD_SHARED_LIBS=ON a static library of the same OBJECTS (nothing compiles twice; the caller
# gives it LIBRARY's usage requirements, with twins in place of tern libraries), else LIBRARY.
function(tern_internal_twin library objects twin)
  if(BUILD_SHARED_LIBS)
    add_library(${twin} STATIC $<TARGET_OBJECTS:${objects}>)
  else()
    add_library(${twin} INTERFACE)
    target_link_libraries(${twin} INTERFACE ${library})
  endif()
endfunction()
