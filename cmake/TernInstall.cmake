include(CMakePackageConfigHelpers)

install(TARGETS tern tern_mockwebserver
  EXPORT ternTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/tern DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
install(DIRECTORY mockwebserver/include/tern DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")

set(TERN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tern)
install(EXPORT ternTargets NAMESPACE tern:: DESTINATION ${TERN_CMAKE_DIR})
configure_package_config_file(cmake/ternConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ternConfig.cmake
  INSTALL_DESTINATION ${TERN_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ternConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/ternConfig.cmake
  ${PROJECT_BINARY_DIR}/ternConfigVersion.cmake
  cmake/TernDependencies.cmake
  DESTINATION ${TERN_CMAKE_DIR})

# pkg-config: the prefix is found relative to the .pc file, so an install with --prefix (or a
# moved tree) still works; absolute lib/include dirs are used as they are.
file(RELATIVE_PATH TERN_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(TERN_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  set(TERN_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(TERN_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(TERN_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
# A static libtern needs its dependencies on every link line; a shared one hides them.
# A shared one's users see TERN_SHARED, as CMake's do (include/tern/export.h).
if(BUILD_SHARED_LIBS)
  set(TERN_PC_REQUIRES "Requires.private")
  set(TERN_PC_CFLAGS " -DTERN_SHARED")
else()
  set(TERN_PC_REQUIRES "Requires")
  set(TERN_PC_CFLAGS "")
endif()
configure_file(cmake/tern.pc.in ${PROJECT_BINARY_DIR}/tern.pc @ONLY)
configure_file(cmake/tern-mockwebserver.pc.in ${PROJECT_BINARY_DIR}/tern-mockwebserver.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/tern.pc ${PROJECT_BINARY_DIR}/tern-mockwebserver.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The licence, the change log, and (with the tool) its man page and shell completions.
install(FILES LICENSE CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
if(TERN_BUILD_TOOLS)
  install(FILES tools/tern/share/tern.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES tools/tern/share/tern.bash
    DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME tern)
  install(FILES tools/tern/share/_tern DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
endif()
