# SPDX-FileCopyrightText: 2026 The tessera authors
# SPDX-License-Identifier: Apache-2.0
# Every third-party dependency comes from a Debian package (scripts/install-deps.sh).
find_package(Threads REQUIRED)
find_package(Boost 1.81 CONFIG REQUIRED COMPONENTS json)
find_package(OpenSSL REQUIRED)
find_package(prometheus-cpp CONFIG REQUIRED)
find_package(yaml-cpp CONFIG REQUIRED)
# The embedded API server's protobuf request bodies (libprotobuf-dev, protoc).
find_package(Protobuf REQUIRED)
if(TESSERA_BUILD_TESTS)
  find_package(GTest CONFIG REQUIRED)
endif()
if(TESSERA_BUILD_BENCHMARKS)
  find_package(benchmark CONFIG REQUIRED)
endif()

# CAF 0.17.6 ships neither a CMake config nor a .pc file: define imported targets.
find_path(CAF_INCLUDE_DIR caf/all.hpp REQUIRED)
foreach(part core io)
  find_library(CAF_${part}_LIBRARY caf_${part} REQUIRED)
  add_library(CAF::${part} SHARED IMPORTED)
  set_target_properties(CAF::${part} PROPERTIES
    IMPORTED_LOCATION "${CAF_${part}_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CAF_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES Threads::Threads)
endforeach()

# The tessera binary's malloc. jemalloc keeps a million-pod scheduler's heap
# tighter than glibc's per-thread arenas and frees across threads cheaply
# (docs/operations.md, "Allocator"). The sanitizer and fuzz builds keep the
# system malloc, which AddressSanitizer replaces.
set(TESSERA_MALLOC "jemalloc" CACHE STRING
    "malloc of the tessera binary: jemalloc or system")
set_property(CACHE TESSERA_MALLOC PROPERTY STRINGS jemalloc system)
if(CMAKE_BUILD_TYPE MATCHES "^(asan|fuzz)$")
  set(TESSERA_MALLOC_EFFECTIVE system)
else()
  set(TESSERA_MALLOC_EFFECTIVE ${TESSERA_MALLOC})
endif()
if(TESSERA_MALLOC_EFFECTIVE STREQUAL "jemalloc")
  find_library(JEMALLOC_LIBRARY jemalloc)
  find_path(JEMALLOC_INCLUDE_DIR jemalloc/jemalloc.h)
  if(NOT JEMALLOC_LIBRARY OR NOT JEMALLOC_INCLUDE_DIR)
    message(FATAL_ERROR
      "TESSERA_MALLOC=jemalloc needs libjemalloc-dev: run "
      "scripts/install-deps.sh, or configure with -DTESSERA_MALLOC=system")
  endif()
  add_library(tessera_malloc INTERFACE)
  target_include_directories(tessera_malloc INTERFACE ${JEMALLOC_INCLUDE_DIR})
  target_link_libraries(tessera_malloc INTERFACE ${JEMALLOC_LIBRARY})
  target_compile_definitions(tessera_malloc INTERFACE TESSERA_JEMALLOC=1)
elseif(TESSERA_MALLOC_EFFECTIVE STREQUAL "system")
  add_library(tessera_malloc INTERFACE)
else()
  message(FATAL_ERROR
    "TESSERA_MALLOC must be jemalloc or system, not '${TESSERA_MALLOC}'")
endif()
