# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
# Helpers shared by every component's CMakeLists.txt.

# Warnings and common definitions for our own code only (third-party headers are
# system headers and stay quiet).
add_library(tessera_options INTERFACE)
target_compile_options(tessera_options INTERFACE -Wall -Wextra -Werror)
target_include_directories(tessera_options INTERFACE ${PROJECT_SOURCE_DIR})
# Beast and Asio are compiled once in io/beast_src.cpp instead of in every TU.
target_compile_definitions(tessera_options INTERFACE
  BOOST_BEAST_SEPARATE_COMPILATION BOOST_ASIO_SEPARATE_COMPILATION
  BOOST_ASIO_NO_DEPRECATED)

# tessera_add_library(NAME SOURCES ... DEPS ...) defines tessera_NAME and tessera::NAME.
# PRIVATE_DEPS are linked but not exposed to dependents' headers.
function(tessera_add_library name)
  cmake_parse_arguments(arg "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(tessera_${name} STATIC ${arg_SOURCES})
  add_library(tessera::${name} ALIAS tessera_${name})
  target_link_libraries(tessera_${name} PUBLIC tessera_options ${arg_DEPS})
  if(arg_PRIVATE_DEPS)
    target_link_libraries(tessera_${name} PRIVATE ${arg_PRIVATE_DEPS})
  endif()
endfunction()

# tessera_add_test(NAME [RUNS_BINARY] SOURCES ... DEPS ...) builds a
# GoogleTest binary and registers every test in it with CTest. RUNS_BINARY:
# the test runs the tessera executable (TESSERA_BINARY names it).
function(tessera_add_test name)
  if(NOT TESSERA_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(arg "RUNS_BINARY" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE tessera_options ${arg_DEPS}
    GTest::gmock GTest::gtest_main)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60
    PROPERTIES ENVIRONMENT "TESSERA_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
  if(arg_RUNS_BINARY)
    # The test runs the tessera executable: build it first, and tell the
    # test where it and the sources are.
    add_dependencies(${name} tessera)
    target_compile_definitions(${name} PRIVATE
      TESSERA_BINARY="$<TARGET_FILE:tessera>"
      TESSERA_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  endif()
endfunction()

# tessera_add_benchmark(NAME SOURCES ... DEPS ...) builds a Google Benchmark
# program; benchmarks are never part of ctest's pass/fail.
function(tessera_add_benchmark name)
  if(NOT TESSERA_BUILD_BENCHMARKS)
    return()
  endif()
  cmake_parse_arguments(arg "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE tessera_options ${arg_DEPS}
    benchmark::benchmark_main)
endfunction()
