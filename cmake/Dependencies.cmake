# The third-party libraries, from one of two places (LLCHECK_BUNDLED_DEPS):
#   OFF  the system's (Debian's packages, scripts/setup.sh): nlohmann-json, CLI11 and RapidCheck
#        by find_package, Z3 by pkg-config (libz3-dev ships no CMake package);
#   ON   no system package is looked for: nlohmann-json, CLI11 and RapidCheck from third_party/
#        (vendored; third_party/README.md), Z3 from LLCHECK_Z3_DIR, by default the z3 package of
#        the Python that runs the build (PyPI's z3-solver wheel ships libz3 and its C and C++
#        headers in z3/lib and z3/include). `pip install .` builds this way (pyproject.toml
#        lists z3-solver among its build requirements).
# Either way the targets are nlohmann_json::nlohmann_json, CLI11::CLI11, rapidcheck and
# z3::libz3 (LLCHECK_Z3_FROM_PYTHON: Python's z3 package's). LLCHECK_NEED_CLI says whether the command line's (CLI11, RapidCheck) are needed.
if(LLCHECK_BUNDLED_DEPS)
  add_subdirectory(${PROJECT_SOURCE_DIR}/third_party ${PROJECT_BINARY_DIR}/third_party)

  if(NOT LLCHECK_Z3_DIR)
    if(NOT Python_EXECUTABLE)
      find_package(Python 3.9 REQUIRED COMPONENTS Interpreter)
    endif()
    # The package's folder, found without importing it (import would load libz3).
    execute_process(
      COMMAND ${Python_EXECUTABLE} -c
              "import importlib.util as u; s = u.find_spec('z3'); print(s.submodule_search_locations[0] if s else '')"
      OUTPUT_VARIABLE llcheck_z3_package OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE llcheck_z3_status)
    if(NOT llcheck_z3_status EQUAL 0 OR NOT llcheck_z3_package)
      message(FATAL_ERROR "LLCHECK_BUNDLED_DEPS: ${Python_EXECUTABLE} has no z3 package: "
                          "pip install z3-solver, or set LLCHECK_Z3_DIR to a folder with Z3's "
                          "include/ and lib/")
    endif()
    set(LLCHECK_Z3_DIR ${llcheck_z3_package})
    set(LLCHECK_Z3_FROM_PYTHON ON)
  endif()
  # Plain variables, not find_library's cache entries: a build folder that pip reuses sees a new
  # (temporary) build environment, and so a new z3 package folder, every time.
  set(llcheck_z3_library)
  foreach(name libz3.so libz3.dylib)
    if(NOT llcheck_z3_library AND EXISTS ${LLCHECK_Z3_DIR}/lib/${name})
      set(llcheck_z3_library ${LLCHECK_Z3_DIR}/lib/${name})
    endif()
  endforeach()
  if(NOT llcheck_z3_library OR NOT EXISTS ${LLCHECK_Z3_DIR}/include/z3++.h)
    message(FATAL_ERROR "LLCHECK_Z3_DIR=${LLCHECK_Z3_DIR}: no include/z3++.h and lib/libz3 there")
  endif()
  message(STATUS "Z3: ${llcheck_z3_library}, headers ${LLCHECK_Z3_DIR}/include")
  add_library(z3::libz3 SHARED IMPORTED GLOBAL)
  set_target_properties(z3::libz3 PROPERTIES
    IMPORTED_LOCATION ${llcheck_z3_library}
    INTERFACE_INCLUDE_DIRECTORIES ${LLCHECK_Z3_DIR}/include)
else()
  find_package(nlohmann_json 3.10 REQUIRED)
  if(LLCHECK_NEED_CLI)
    find_package(CLI11 REQUIRED)
    find_package(rapidcheck REQUIRED)
  endif()
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(Z3 REQUIRED IMPORTED_TARGET GLOBAL z3)
  add_library(z3::libz3 ALIAS PkgConfig::Z3)
endif()
