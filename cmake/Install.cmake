# install(): libglpool.so, the public headers, the shader sources (the
# library carries them embedded; the files are for reference), the exported
# glpool::glpool target with glpoolConfig.cmake and its version file, and
# glpool.pc for pkg-config.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS glpool_shared EXPORT glpoolTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/glpool DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
file(GLOB GLPOOL_INSTALLED_SHADERS ${PROJECT_SOURCE_DIR}/shaders/*.comp)
install(FILES ${GLPOOL_INSTALLED_SHADERS} DESTINATION ${CMAKE_INSTALL_DATADIR}/glpool/shaders)

set(GLPOOL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/glpool)
install(EXPORT glpoolTargets NAMESPACE glpool:: FILE glpoolTargets.cmake DESTINATION ${GLPOOL_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/glpoolConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/glpoolConfig.cmake INSTALL_DESTINATION ${GLPOOL_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/glpoolConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/glpoolConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/glpoolConfigVersion.cmake
  DESTINATION ${GLPOOL_CMAKE_DIR})

configure_file(${PROJECT_SOURCE_DIR}/cmake/glpool.pc.in ${CMAKE_CURRENT_BINARY_DIR}/glpool.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/glpool.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
