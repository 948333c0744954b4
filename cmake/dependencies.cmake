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
