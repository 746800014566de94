# `cmake --install` (and `make install PREFIX=...`): the core libraries with their headers as the
# CMake package llcheck (find_package(llcheck), target llcheck::core: the four libraries of core/,
# also llcheck::core_algebra, core_encodings, core_formats and core_analysis one by one), and the
# llcheck tool.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(llcheck_core_layers algebra encodings formats analysis)
set_target_properties(llcheck_core PROPERTIES EXPORT_NAME core)
set(llcheck_core_libraries) # the four, without the INTERFACE llcheck_core
foreach(layer IN LISTS llcheck_core_layers)
  set_target_properties(llcheck_core_${layer} PROPERTIES EXPORT_NAME core_${layer})
  list(APPEND llcheck_core_libraries llcheck_core_${layer})
  # One include path for all four (llcheck/core/...): the headers install into one tree.
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/${layer}/include/llcheck
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
install(TARGETS llcheck_core ${llcheck_core_libraries} EXPORT llcheckTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
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
