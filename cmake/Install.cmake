# `cmake --install` (and `make install PREFIX=...`): the core library with its headers as the
# CMake package llcheck (find_package(llcheck), target llcheck::core), and the llcheck tool.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set_target_properties(llcheck_core PROPERTIES EXPORT_NAME core)
install(TARGETS llcheck_core EXPORT llcheckTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/llcheck
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET llcheck)
  install(TARGETS llcheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

set(llcheck_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/llcheck)
install(EXPORT llcheckTargets NAMESPACE llcheck:: DESTINATION ${llcheck_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/llcheckConfig.cmake.in
  ${PROJECT_BINARY_DIR}/llcheckConfig.cmake
  INSTALL_DESTINATION ${llcheck_cmake_dir}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/llcheckConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/llcheckConfig.cmake ${PROJECT_BINARY_DIR}/llcheckConfigVersion.cmake
  DESTINATION ${llcheck_cmake_dir})
